// An answer whose plan the edition's own check refuses (here: its `!defend` table requires a flag the
// default answer does not give) is not offered on the prompt, with the reason; the attack stands and
// nothing escapes (review of issue 31: the attack is kept before its prompts plan the answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerEdition, unregisterEdition } from '../../src/rules/editions';
import { flat } from '../editions/flat';
import { openTable, texts } from '../support/table';

const strict = { ...flat, id: 'strict', check: { ...flat.check, flags: { ...flat.check.flags, focus: { kind: 'word', required: true } } } } as typeof flat;

describe('a prompt whose answer cannot be planned', () => {
  beforeAll(() => registerEdition(strict));
  afterAll(() => unregisterEdition('strict'));

  it('says why beside the answers it offers, and keeps the attack open', async () => {
    const table = await openTable('src');
    try {
      await table.say('GM', '!defense-round config edition strict');
      const out = await table.say('GM', `!attack 10 --ids ${table.id('Goblin 1')}`, ['Bob']);
      table.mock.assertNoCrash();
      const said = texts(out).join('\n');
      expect(said).toMatch(/defend: no focus given: add --focus WORD/);
      expect(said).toMatch(/No defense/);
      expect(Object.keys(table.stored().exchange.attacks)).toEqual(['A1']);
    } finally {
      table.close();
    }
  });
});
