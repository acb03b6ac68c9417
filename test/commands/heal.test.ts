import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, whispered, type Table } from '../support/table';
import { healedValue } from '../../src/rules/heal';

describe('healedValue', () => {
  it('caps at max, does not cap without a max, and never lowers a value above max', () => {
    expect(healedValue(10, 50, 30)).toBe(30);
    expect(healedValue(10, 5, 30)).toBe(15);
    expect(healedValue(10, 50, null)).toBe(60);
    expect(healedValue(40, 5, 30)).toBe(40);
  });
});

describe.each(MODES)('!heal (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('restores Vitality up to max, through the linked attribute', async () => {
    table = await openTable(mode);
    await table.say('Alice', '!damage 200', ['Bob']);
    await table.say('Alice', '!heal 50', ['Bob']);
    expect(table.attr('Bob', 'vitality')).toBe(70);
  });

  it('stands an incapacitated token up when Vitality goes above 0', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 70', ['Goblin 1']);
    expect(table.markers('Goblin 1')).toEqual(['sleepy']);
    await table.say('GM', '!heal 5', ['Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(-3);
    expect(table.markers('Goblin 1')).toEqual(['sleepy']);
    await table.say('GM', '!heal 10', ['Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(7);
    expect(table.markers('Goblin 1')).toEqual([]);
  });

  it('heals another bar with --to', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 5 --to power', ['Goblin 1']);
    expect(table.bar('Goblin 1', 'bar3')).toBe(5);
    await table.say('GM', '!heal 3 --to power', ['Goblin 1']);
    expect(table.bar('Goblin 1', 'bar3')).toBe(8);
  });

  it('refuses the dead, and bad amounts', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 200', ['Goblin 1']);
    await table.say('GM', '!damage 1', ['Goblin 1']); // dying, hit again: dead
    const out = await table.say('GM', '!heal 10', ['Goblin 1']);
    expect(whispered(out, 'gm').join()).toMatch(/is dead/);
    const bad = await table.say('GM', '!heal -3', ['Goblin 1']);
    expect(whispered(bad, 'gm')).toEqual(['The amount to heal must be from 0 to 1000000 (got -3). [Help](!heal --help)']);
  });

  it('says when the bar has no max', async () => {
    table = await openTable(mode);
    table.mock.token('Crate').set('bar1_max', '');
    const out = await table.say('GM', '!heal 5', ['Crate']);
    expect(whispered(out, 'gm').join()).toMatch(/no max: not capped/i);
    expect(table.bar('Crate')).toBe(25);
  });
});
