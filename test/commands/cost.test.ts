import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, type Table } from '../support/table';

describe.each(MODES)('reading the game cheaply (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('scans nothing at start-up', async () => {
    table = await openTable(mode, {
      setup: (mock) => mock.resetStats(),
    });
    expect(table.mock.stats.findObjsCalls).toBe(0);
    expect(table.mock.stats.filterObjsCalls).toBe(0);
    expect(table.mock.stats.getAllObjsCalls).toBe(0);
  });

  it('looks a character\'s attributes up once, however many of its tokens are hit, and never again', async () => {
    table = await openTable(mode);
    table.mock.resetStats();
    await table.say('GM', '!damage 10', ['Goblin 1', 'Goblin 2']);
    expect(table.mock.stats.findObjsCalls).toBe(1);
    await table.say('GM', '!defend --action defend --roll 5', ['Goblin 1', 'Goblin 2']);
    await table.say('GM', '!damage 10', ['Goblin 1', 'Goblin 2']);
    expect(table.mock.stats.findObjsCalls).toBe(1);
    expect(table.mock.stats.filterObjsCalls + table.mock.stats.getAllObjsCalls).toBe(0);
  });

  it('reads values live: a sheet change is seen at once, with no new look-up', async () => {
    table = await openTable(mode);
    await table.say('Alice', '!damage 10', ['Bob']);
    table.mock.resetStats();
    table.mock.attribute('Bob', 'armor_physical').set('current', 0);
    table.mock.attribute('Bob', 'armor_magical').set('current', 0);
    await table.say('Alice', '!damage 10', ['Bob']);
    // Both protections at 0: the armor is destroyed, no soak, no Defense; natural defense 0 -> the full 10 lands
    expect(table.attr('Bob', 'vitality')).toBe(60);
    expect(table.mock.stats.findObjsCalls).toBe(0);
  });

  it('sees an attribute added to a character after the first look-up', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 10', ['Crate']); // no character: no look-up
    await table.say('GM', '!damage 100 --type magical', ['Goblin 1']);
    // The armor stands on its Physical 20: 100 x 90% soak = 90; Magical 0 and no armor_spirit: 90 lands
    expect(table.bar('Goblin 1')).toBe(-60);
    table.mock.userCreate('attribute', { characterid: table.scene.characters.Goblin, name: 'armor_spirit', current: 7 });
    await table.mock.settle();
    await table.say('GM', '!damage 10 --type magical', ['Goblin 2']);
    // 10 x 90% = 9, - 0 Magical = 9, - 7 Spirit = 2
    expect(table.bar('Goblin 2')).toBe(28);
  });
});
