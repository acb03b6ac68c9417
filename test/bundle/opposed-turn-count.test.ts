// Opposed Rolls: "a hard limit to how far below the current initiative count a character can be".
// The current count is the one the turn began at (rules.md, "Initiative, and being overwhelmed"):
// the token whose turn it is pays for its own defenses without lowering the count it is measured
// against, so three full defenses from 20 go 20 -> 10 -> 0 and the third is overwhelmed (limit 20).
// DEFENSE_ROUND_BUNDLE=/tmp/old-bundle.js runs the same on another build (the one before the ruling fails).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';

const BUNDLE = process.env.DEFENSE_ROUND_BUNDLE;

/** The demo table in `opposed`, Bob's turn just begun at initiative 20 (the turn passed to him). */
async function bobsTurnAt20(): Promise<Table> {
  const table = await openTable('bundle', BUNDLE ? { bundleSource: readFileSync(BUNDLE, 'utf8') } : {});
  await table.say('GM', '!defense-round config edition opposed');
  table.mock.setTurnOrder([
    { id: table.id('Goblin 2'), pr: 8 },
    { id: table.id('Bob'), pr: 20 },
    { id: table.id('Goblin 1'), pr: 12 },
  ]);
  await table.passTurn();
  return table;
}

const initiatives = (table: Table) => table.mock.turnOrder().map((entry) => entry.pr);
const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');

describe('opposed: the current initiative count is the one the turn began at (bundle)', () => {
  let table: Table | undefined;
  afterEach(() => {
    table?.close();
    table = undefined;
  });

  it('!damage: Bob defends fully three times on his own turn: 20 -> 10 -> 0, the third is overwhelmed (0 - 10 is past 20 - 20)', async () => {
    table = await bobsTurnAt20();
    const hit = `!damage 1 --attack 1 --defense-roll 8 --defense-mode full --ids ${table.id('Bob')}`;
    await table.say('GM', hit);
    expect(initiatives(table)).toEqual([10, 12, 8]);
    const second = await table.say('GM', hit);
    expect(all(second)).not.toMatch(/Overwhelmed/);
    expect(initiatives(table)).toEqual([0, 12, 8]);
    const third = await table.say('GM', hit);
    // Active would leave -5, past the floor of 0 too: passive, nothing paid.
    expect(all(third)).toMatch(/Overwhelmed: full defense costs 10 initiative, and 0 - 10 is more than 20 below the current turn \(20\): passive defense instead/);
    expect(initiatives(table)).toEqual([0, 12, 8]);
  });

  it('!attack: the third prompt offers Bob no full or active defense, and a full answer is refused; the attack stays open', async () => {
    table = await bobsTurnAt20();
    for (const key of ['A1', 'A2']) {
      await table.say('GM', `!attack 1 --attack 1 --ids ${table.id('Bob')}`, ['Goblin 1']);
      await table.say('Alice', `!defend --answer ${key} --ids ${table.id('Bob')} --mode full --roll 8`);
      if (table.stored().exchange.attacks[key]) await table.say('GM', `!attack --resolve ${key}`);
      // A few seconds on (the same attack again at once is a double click, refused).
      table.mock.advance(5000);
    }
    expect(initiatives(table)).toEqual([0, 12, 8]);
    const prompt = await table.say('GM', `!attack 1 --attack 1 --ids ${table.id('Bob')}`, ['Goblin 1']);
    const commands = prompt.map((record) => record.content).join('\n');
    expect(commands).toContain('--mode passive');
    expect(commands).not.toContain('--mode active');
    expect(commands).not.toContain('--mode full');
    expect(whispered(prompt, 'Alice').join('\n')).toMatch(/Full: full defense costs 10 initiative, more than the overwhelm limit allows now/);
    const answer = await table.say('Alice', `!defend --answer A3 --ids ${table.id('Bob')} --mode full --roll 8`);
    expect(whispered(answer, 'Alice').join('\n')).toMatch(/full defense costs 10 initiative, more than the overwhelm limit allows now/);
    expect(Object.keys(table.stored().exchange.attacks)).toEqual(['A3']);
    expect(initiatives(table)).toEqual([0, 12, 8]);
  });

  it('a restart keeps the count the turn began at', async () => {
    table = await bobsTurnAt20();
    const hit = `!damage 1 --attack 1 --defense-roll 8 --defense-mode full --ids ${table.id('Bob')}`;
    await table.say('GM', hit);
    await table.say('GM', hit);
    await table.restart();
    expect(all(await table.say('GM', hit))).toMatch(/Overwhelmed: .*below the current turn \(20\): passive defense instead/);
    expect(initiatives(table)).toEqual([0, 12, 8]);
  });
});
