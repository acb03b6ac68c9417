// The count the current turn began at, as the looks at the Turn Tracker keep it (commands/rounds.ts,
// state/turnStart.ts): the script's own writes never change it (they fire no event in Roll20), a
// turn passed by anyone takes the new top row's initiative, a hand edit of the top row's initiative
// is taken, a cleared tracker keeps none. rules.md, "Initiative, and being overwhelmed".
import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, type Mode, type Table } from '../support/table';

async function opposedTable(mode: Mode): Promise<Table> {
  const table = await openTable(mode);
  await table.say('GM', '!defense-round config edition opposed');
  return table;
}

const start = (table: Table): number | undefined => table.stored().round.start?.initiative;
const initiatives = (table: Table) => table.mock.turnOrder().map((entry) => entry.pr);

/** Another script writes the tracker: an API write, no Roll20 event; the script sees it at its next command. */
async function scriptWrites(table: Table, order: Roll20TurnEntry[]): Promise<void> {
  table.mock.globals.Campaign().set('turnorder', JSON.stringify(order));
  await table.say('GM', '!defense-round');
}

describe.each(MODES)('the count the current turn began at (%s)', (mode) => {
  let table: Table | undefined;
  afterEach(() => {
    table?.close();
    table = undefined;
  });

  it('is the top row\'s initiative at start-up (Bob, 15)', async () => {
    table = await opposedTable(mode);
    expect(start(table)).toBe(15);
  });

  it('is not lowered by what the script writes for the token on top (Bob pays 15 -> 5 -> -5)', async () => {
    table = await opposedTable(mode);
    await table.say('GM', `!damage 1 --attack 1 --defense-roll 8 --defense-mode full --ids ${table.id('Bob')}`);
    await table.say('GM', `!damage 1 --attack 1 --defense-roll 8 --defense-mode full --ids ${table.id('Bob')}`);
    await table.say('GM', '!defense-round');
    expect(initiatives(table)).toEqual([-5, 12, 8]);
    expect(start(table)).toBe(15);
  });

  it('a hand edit of another row after the script\'s write keeps it', async () => {
    table = await opposedTable(mode);
    await table.say('GM', `!damage 1 --attack 1 --defense-roll 8 --defense-mode full --ids ${table.id('Bob')}`);
    table.mock.setTurnOrder(table.mock.turnOrder().map((entry) => (entry.id === table!.id('Goblin 2') ? { ...entry, pr: 9 } : entry)));
    await table.mock.settle();
    expect(start(table)).toBe(15);
  });

  it('a hand edit typing a new initiative into the top row is taken (the GM sets the count)', async () => {
    table = await opposedTable(mode);
    table.mock.setTurnOrder(table.mock.turnOrder().map((entry) => (entry.id === table!.id('Bob') ? { ...entry, pr: 25 } : entry)));
    await table.mock.settle();
    expect(start(table)).toBe(25);
  });

  it('a turn passed by hand, or by another script (no event), takes the new top row\'s initiative', async () => {
    table = await opposedTable(mode);
    await table.passTurn();
    expect(start(table)).toBe(12);
    const order = table.mock.turnOrder();
    order.push(order.shift()!);
    await scriptWrites(table, order);
    expect(start(table)).toBe(8);
  });

  it('a re-sorted tracker takes its top row\'s initiative now, even the same row\'s', async () => {
    table = await opposedTable(mode);
    await table.say('GM', `!damage 1 --attack 1 --defense-roll 8 --defense-mode active --ids ${table.id('Bob')}`);
    const [bob, goblin1, goblin2] = table.mock.turnOrder();
    await scriptWrites(table, [bob!, goblin2!, goblin1!]);
    expect(start(table)).toBe(10);
  });

  it('a cleared tracker keeps none', async () => {
    table = await opposedTable(mode);
    table.mock.setTurnOrder([]);
    await table.mock.settle();
    expect(table.stored().round.start).toBeUndefined();
  });
});
