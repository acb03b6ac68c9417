// What one exchange costs (issue 31, "The exchange is the pipeline's"): a prompt reads each
// defender once and resolves its check once per answer over that one reading; the hit reads it
// once more; the hit's line is parsed once for all defenders. Counted through the mock: a token's
// snapshot reads its status markers once; the edition's answer plans and hit are wrapped to count.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, type Table } from '../support/table';
import { editionOf } from '../../src/rules/editions';
import type { AttackSpec, Plan } from '../../src/rules/edition';

const DEFENDERS = ['Goblin 1', 'Goblin 2'] as const;

/** Counts each defender's snapshots (one `get('statusmarkers')` each) and each answer plan's resolves, by word. */
function count(table: Table) {
  const reads: Record<string, number> = {};
  for (const name of DEFENDERS) {
    const token = table.mock.token(name);
    const get = token.get.bind(token);
    reads[name] = 0;
    token.get = (property: string, callback?: (value: unknown) => void) => {
      if (property === 'statusmarkers') reads[name]! += 1;
      return get(property, callback);
    };
  }
  const spec = editionOf('soak').check.answers as AttackSpec<unknown, unknown>;
  const planAnswer = spec.planAnswer;
  const resolves: Record<string, number> = {};
  spec.planAnswer = (word, ...rest) => {
    const plan: Plan<unknown> = planAnswer(word, ...rest);
    return {
      ...plan,
      resolve(facts, rolls) {
        resolves[word] = (resolves[word] ?? 0) + 1;
        return plan.resolve(facts, rolls);
      },
    };
  };
  // The hit's line, parsed into its plan.
  const hit = editionOf('soak').hit;
  const plan = hit.plan;
  const parsed = { hits: 0 };
  hit.plan = (...args) => {
    parsed.hits += 1;
    return plan(...args);
  };
  const restore = () => {
    spec.planAnswer = planAnswer;
    hit.plan = plan;
  };
  const reset = () => {
    for (const name of DEFENDERS) reads[name] = 0;
    for (const word of Object.keys(resolves)) delete resolves[word];
    parsed.hits = 0;
  };
  return { reads, resolves, parsed, restore, reset };
}

describe('one exchange reads each defender once per stage (soak, src)', () => {
  let table: Table;
  let counted: ReturnType<typeof count> | undefined;
  afterEach(() => {
    counted?.restore();
    table?.close();
  });

  it('two defenders, resolved by the GM: each read twice in all (prompt, hit), each check resolved once per answer at the prompt', async () => {
    table = await openTable('src');
    counted = count(table);
    const prompt = await table.say('GM', `!attack 40 --ids ${DEFENDERS.map((name) => table.id(name)).join(' ')}`, ['Bob']);
    expect(prompt.some((record) => record.content.includes('!defend --answer A1'))).toBe(true);
    // The prompt: one reading of each defender serves every button.
    expect(counted.reads).toEqual({ 'Goblin 1': 1, 'Goblin 2': 1 });
    // Each answer with a check resolved once per defender ("none" has none to resolve).
    expect(counted.resolves).toEqual({ defend: 2, evade: 2 });
    await table.say('GM', '!attack --resolve A1');
    expect(table.bar('Goblin 1')).not.toBe(30);
    expect(counted.reads).toEqual({ 'Goblin 1': 2, 'Goblin 2': 2 });
    // The hit resolves no check: no answer was given.
    expect(counted.resolves).toEqual({ defend: 2, evade: 2 });
    // The hit's line parsed once when declared (checked as !damage checks it) and once for both defenders' hits.
    expect(counted.parsed.hits).toBe(2);
  });

  it('two defenders who answer: the answer reads its defender once and resolves its check once; the hit reads the answer, not the check', async () => {
    table = await openTable('src');
    counted = count(table);
    await table.say('GM', `!attack 40 --ids ${DEFENDERS.map((name) => table.id(name)).join(' ')}`, ['Bob']);
    counted.reset();
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 1')} --action defend --roll 5`);
    expect(counted.reads).toEqual({ 'Goblin 1': 1, 'Goblin 2': 0 });
    expect(counted.resolves).toEqual({ defend: 1 });
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action evade --roll 95`);
    // The last answer resolves the attack: each defender read once more, for its hit, and no check resolved again.
    expect(table.stored().exchange.attacks).toEqual({});
    expect(counted.reads).toEqual({ 'Goblin 1': 2, 'Goblin 2': 2 });
    expect(counted.resolves).toEqual({ defend: 1, evade: 1 });
    expect(counted.parsed.hits).toBe(1);
  });
});
