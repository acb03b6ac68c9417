import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, type Table } from '../support/table';

/** Every object the command wrote, with how many times; each must be written once. */
function writes(table: Table): Record<string, number> {
  return { ...table.mock.stats.setsByObject };
}

function once(table: Table, expected: string[]): void {
  const written = writes(table);
  expect(Object.keys(written).sort()).toEqual([...expected].sort());
  for (const id of expected) expect(written[id], `writes to ${id}`).toBe(1);
}

describe.each(MODES)('the one writer: one set per touched object per command (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());
  const bobAttr = (name: string) => (table.scene.attributes.Bob as Record<string, string>)[name]!;

  it('a hit on a unique token: its Vitality attribute, its worn armor attribute and its markers, once each', async () => {
    table = await openTable(mode);
    table.mock.resetStats();
    await table.say('Alice', '!damage 400', ['Bob']); // dying: the marker changes too
    once(table, [bobAttr('vitality'), bobAttr('armor_physical'), table.id('Bob')]);
    expect(table.markers('Bob')).toEqual(['death-zone']);
    expect(table.mock.workerWrites.map((w) => w.id).sort()).toEqual([bobAttr('vitality'), bobAttr('armor_physical')].sort());
  });

  it('a hit on generic tokens: each token once, its bar and markers together; the sheet never', async () => {
    table = await openTable(mode);
    table.mock.resetStats();
    await table.say('GM', '!damage 70', ['Goblin 1', 'Goblin 2']);
    once(table, [table.id('Goblin 1'), table.id('Goblin 2')]);
    expect(table.bar('Goblin 1')).toBe(-8);
    expect(table.markers('Goblin 1')).toEqual(['sleepy']);
  });

  it('a heal, a save and a stance write each touched object once', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 31 --pierce 100', ['Goblin 1']); // 30 -> -1: incapacitated, one save owed
    table.mock.resetStats();
    await table.say('GM', '!defend --action save --roll 1', ['Goblin 1']);
    once(table, [table.id('Goblin 1')]);
    expect(table.bar('Goblin 1')).toBe(1);
    table.mock.resetStats();
    await table.say('GM', '!heal 100', ['Goblin 1']);
    once(table, [table.id('Goblin 1')]);
    table.mock.resetStats();
    await table.say('Alice', '!stance defensive', ['Bob']);
    once(table, [table.id('Bob')]);
  });

  it('a command that changes nothing writes nothing', async () => {
    table = await openTable(mode);
    table.mock.resetStats();
    await table.say('GM', '!damage 0', ['Crate']);
    await table.say('GM', '!heal 5', ['Crate']); // already at max
    expect(writes(table)).toEqual({});
  });

  it('undo writes each object back once', async () => {
    table = await openTable(mode);
    await table.say('Alice', '!damage 400', ['Bob']);
    table.mock.resetStats();
    await table.say('Alice', '!damage --undo');
    once(table, [bobAttr('vitality'), bobAttr('armor_physical'), table.id('Bob')]);
  });
});
