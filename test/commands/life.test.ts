import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, whispered, type Table } from '../support/table';

describe.each(MODES)('incapacitation, dying, death and saves at the table (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('a goblin falls from full to incapacitated and stands back up with its save', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 70', ['Goblin 1']);
    // 70 x 90% = 63 - 20 = 43 - 5 = 38: 30 -> -8
    expect(table.bar('Goblin 1')).toBe(-8);
    expect(table.markers('Goblin 1')).toEqual(['sleepy']);
    const out = await table.say('GM', '!defend --action save --roll 30', ['Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(1);
    expect(table.markers('Goblin 1')).toEqual([]);
    expect(whispered(out, 'gm').join('\n')).toMatch(/Save d100 30 vs 45: success/);
    expect(publicFromScript(out).join('\n')).toMatch(/Goblin 1 makes a save and stands back up/);
    const again = await table.say('GM', '!defend --action save --roll 30', ['Goblin 1']);
    expect(whispered(again, 'gm').join('\n')).toMatch(/no save is owed/i);
  });

  it('a failed one-save leaves the token incapacitated with no save left', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 70', ['Goblin 1']);
    await table.say('GM', '!defend --action save --roll 90', ['Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(-8);
    expect(table.markers('Goblin 1')).toEqual(['sleepy']);
    const again = await table.say('GM', '!defend --action save --roll 1', ['Goblin 1']);
    expect(whispered(again, 'gm').join('\n')).toMatch(/no save is owed/i);
  });

  it('a goblin falls from full to dying in one hit and lives through its three saves', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 200', ['Goblin 2']);
    // 200 x 90% = 180 - 20 = 160 - 5 = 155: 30 -> -125
    expect(table.bar('Goblin 2')).toBe(-125);
    expect(table.markers('Goblin 2')).toEqual(['death-zone']);
    await table.say('GM', '!defend --action save --roll 80', ['Goblin 2']);
    await table.say('GM', '!defend --action save --roll 80', ['Goblin 2']);
    expect(table.markers('Goblin 2')).toEqual(['death-zone']);
    const out = await table.say('GM', '!defend --action save --roll 10', ['Goblin 2']);
    expect(table.bar('Goblin 2')).toBe(-9);
    expect(table.markers('Goblin 2')).toEqual(['sleepy']);
    expect(publicFromScript(out).join('\n')).toMatch(/clings to life/);
  });

  it('three failed saves make a dying token dead; the dead take no more damage', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 200', ['Goblin 2']);
    for (let i = 0; i < 3; i += 1) await table.say('GM', '!defend --action save --roll 99', ['Goblin 2']);
    expect(table.markers('Goblin 2')).toEqual(['dead']);
    const out = await table.say('GM', '!damage 10', ['Goblin 2']);
    expect(table.bar('Goblin 2')).toBe(-125);
    expect(whispered(out, 'gm').join('\n')).toMatch(/Dead: takes no damage/);
  });

  it('an incapacitated goblin pushed past -10 is dead at once, its owed save lost', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 70', ['Goblin 1']); // -> -8, one save owed; Physical worn 20 -> 5
    const out = await table.say('GM', '!damage 30', ['Goblin 1']);
    // 30 x 90% = 27 - 5 Physical = 22 - 5 Defense = 17: -8 -> -25, the real total
    expect(table.bar('Goblin 1')).toBe(-25);
    expect(table.markers('Goblin 1')).toEqual(['dead']);
    expect(whispered(out, 'gm').join('\n')).toMatch(/owed save is lost/);
    expect(publicFromScript(out)).toEqual(['Goblin 1 is hit and dies.']);
  });

  it('an instant kill drops Vitality to 0 with one save; a successful pending defense cancels it', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage --instant-kill', ['Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(0);
    expect(table.markers('Goblin 1')).toEqual(['sleepy']);
    await table.say('GM', '!defend --action defend --roll 1', ['Goblin 2']);
    await table.say('GM', '!damage --instant-kill', ['Goblin 2']);
    expect(table.bar('Goblin 2')).toBe(30);
  });

  it('an incapacitated token makes no defensive action, only its save', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 70', ['Goblin 1']);
    const out = await table.say('GM', '!defend --action defend --roll 1', ['Goblin 1']);
    expect(whispered(out, 'gm').join('\n')).toMatch(/incapacitated and makes no defensive action/);
  });

  it('Bob (linked bar) goes through the same flow on his sheet', async () => {
    table = await openTable(mode);
    await table.say('Alice', '!damage 400', ['Bob']);
    // 400 x 80% = 320 - 100 = 220 - 30 = 190: 70 -> -120, dying
    expect(table.attr('Bob', 'vitality')).toBe(-120);
    expect(table.bar('Bob')).toBe(-120);
    expect(table.markers('Bob')).toEqual(['death-zone']);
    await table.say('Alice', '!defend --action save --roll 5', ['Bob']);
    expect(table.attr('Bob', 'vitality')).toBe(-9);
  });
});
