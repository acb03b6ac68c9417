// Proof under abuse, fourth round (issue 29): the undo history and the details kept for the GM,
// against a player who fills them, and the undo line's names. Each replays the attack on the
// bundle (node:vm) and fails on the bundle before its fix.
import { afterEach, describe, expect, it } from 'vitest';
import { bobTwin, openTable, texts, whispered, type Table } from '../support/table';

const MODE = (process.env.DEFENSE_ROUND_MODE as 'bundle' | 'src' | undefined) ?? 'bundle';
const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');

describe(`the fourth round of attacks: history, details, names (${MODE})`, () => {
  let table: Table;
  afterEach(() => table?.close());

  it('11. the rows of the GM\'s attack stay the GM\'s when a player\'s answer settles it', async () => {
    table = await openTable(MODE, { setup: bobTwin() });
    await table.passTurn(); // Goblin 1's turn: Bob and Goblin 2 defend
    await table.say('GM', `!attack 30 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action defend --roll 50`);
    const out = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action defend --roll 50`);
    expect(table.stored().exchange.attacks).toEqual({});
    // Bob's row on the public card, Goblin 2's on the GM's.
    const keys = [...new Set(out.flatMap((record) => [...record.content.matchAll(/!defense-round details (\w+)/g)].map((match) => match[1]!)))];
    expect(keys).toHaveLength(2);
    // Alice's own commands that keep rows: 51 heals of nothing on her two tokens (102 rows, over her 100).
    for (let i = 0; i < 51; i += 1) await table.say('Alice', '!heal 0', ['Bob', 'Bob (mirror image)']);
    for (const key of keys) {
      const detail = await table.say('GM', `!defense-round details ${key}`);
      expect(all(detail)).not.toMatch(/no longer kept/);
      expect(whispered(detail, 'gm').join('\n')).toMatch(/Bob|Goblin 2/);
    }
  });
});
