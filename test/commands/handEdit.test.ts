import { afterEach, describe, expect, it } from 'vitest';
import { bobTwin, MODES, openTable, publicFromScript, texts, whispered, type Table } from '../support/table';

describe.each(MODES)('hand edits of the Vitality bar (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  async function edit(token: string, value: unknown) {
    table.mock.userEdit(table.mock.token(token), { bar1_value: value });
    await table.mock.settle();
    table.mock.assertNoCrash();
    return table.mock.newMessages();
  }

  it('a hit typed into the bar updates the markers and the save owed', async () => {
    table = await openTable(mode);
    await edit('Goblin 1', -3);
    expect(table.markers('Goblin 1')).toEqual(['sleepy']);
    expect(table.memory('Goblin 1').life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
    await edit('Goblin 1', -30);
    expect(table.markers('Goblin 1')).toEqual(['dead']);
  });

  it('a fall from above 0 to -10 or below by hand makes the token dying', async () => {
    table = await openTable(mode);
    await edit('Goblin 2', -12);
    expect(table.markers('Goblin 2')).toEqual(['death-zone']);
    expect(table.memory('Goblin 2').life.savesOwed).toBe(3);
  });

  it("a dead token's bar is set back; raising it above 0 revives it", async () => {
    table = await openTable(mode);
    await edit('Goblin 1', -3);
    await edit('Goblin 1', -30);
    const out = await edit('Goblin 1', -40);
    expect(table.bar('Goblin 1')).toBe(-30);
    expect(whispered(out, 'gm').join('\n')).toMatch(/set back/);
    await edit('Goblin 1', 12);
    expect(table.markers('Goblin 1')).toEqual([]);
    expect(table.memory('Goblin 1')?.life).toBeUndefined();
  });

  it('with armor on manual edits, a decrease is read through armor like !damage', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    const out = await edit('Bob', -130); // a hit of 200 typed as 70 -> -130
    expect(table.bar('Bob')).toBe(40);
    expect(table.attr('Bob', 'vitality')).toBe(40);
    expect(table.attr('Bob', 'armor_physical')).toBe(60);
    expect(publicFromScript(out).join('\n')).toMatch(/160 - 100 Physical = 60/);
  });

  it('rules.md\'s example: Bob at 70 typed to 40 loses nothing, the bar goes back to 70, Physical wears to 94', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    const out = await edit('Bob', 40); // a hit of 30: 30 x 80% = 24, 24 - 100 Physical = 0
    expect(table.bar('Bob')).toBe(70);
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.attr('Bob', 'armor_physical')).toBe(94);
    const card = texts(out).join('\n');
    expect(card).toContain('Vitality edited by hand, 70 -> 40, read through armor');
    expect(card).toContain('24 - 100 Physical: all 24 stopped');
    expect(card).toContain('No Vitality lost');
    expect(card).not.toMatch(/Vitality 70 -> 70/); // an unchanged Vitality is not printed
    expect(card).toContain('[Undo](!damage --undo --entry U1)');
    // The GM's undo puts the wear back; the bar stays at 70.
    await table.say('GM', '!damage --undo');
    expect(table.bar('Bob')).toBe(70);
    expect(table.attr('Bob', 'armor_physical')).toBe(100);
  });

  it('a generic token whose armor takes a typed drop whole goes back to its value, with no condition marker', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    table.mock.token('Goblin 1').set('bar1_value', 10);
    await edit('Goblin 1', 0); // a hit of 10: 9 after soak, all taken by Physical 20
    expect(table.bar('Goblin 1')).toBe(10);
    expect(table.markers('Goblin 1')).toEqual([]);
    expect(table.memory('Goblin 1')?.life).toBeUndefined();
  });

  it('ignores a bar that is not a number and edits of other bars', async () => {
    table = await openTable(mode);
    const out = await edit('Goblin 1', 'lots');
    expect(out.filter((r) => r.who === 'DefenseRound')).toEqual([]);
    table.mock.userEdit(table.mock.token('Goblin 1'), { bar2_value: -50 });
    await table.mock.settle();
    expect(table.markers('Goblin 1')).toEqual([]);
  });
});

describe.each(MODES)('hand edits read through armor, undone and observed (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('the GM can undo a hand edit read through armor; a player cannot', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    table.mock.userEdit(table.mock.token('Bob'), { bar1_value: -130 });
    await table.mock.settle();
    expect(table.bar('Bob')).toBe(40);
    const alice = await table.say('Alice', '!damage --undo');
    expect(whispered(alice, 'Alice')[0]).toMatch(/no damage that can be undone/i);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Bob')).toBe(70);
    expect(table.attr('Bob', 'armor_physical')).toBe(100);
  });
});

describe.each(MODES)('a linked Vitality shared by several tokens (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('is read through armor once, however many tokens report the edit', async () => {
    table = await openTable(mode, { setup: bobTwin() });
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    table.mock.userEdit(table.mock.token('Bob'), { bar1_value: -130 });
    await table.mock.settle();
    table.mock.assertNoCrash();
    expect(table.attr('Bob', 'vitality')).toBe(40);
    expect(table.attr('Bob', 'armor_physical')).toBe(60);
    expect(table.bar('Bob (mirror image)')).toBe(40);
    const cards = table.mock.newMessages().filter((r) => r.who === 'DefenseRound' && r.content.includes('read through armor'));
    expect(cards).toHaveLength(1);
  });

  it('undoing that edit puts every token of the sheet back: the one that followed leaves its dying condition too', async () => {
    table = await openTable(mode, { setup: bobTwin('Bob 2') });
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    table.mock.userEdit(table.mock.token('Bob 2'), { bar1_value: -200 }); // 270 x 80% = 216 - 100 - 30 = 86: 70 -> -16, dying
    await table.mock.settle();
    expect(table.attr('Bob', 'vitality')).toBe(-16);
    expect(table.memory('Bob')?.life).toEqual({ condition: 'dying', savesOwed: 3 });
    expect(table.memory('Bob 2')?.life).toEqual({ condition: 'dying', savesOwed: 3 });
    await table.say('GM', '!damage --undo');
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.attr('Bob', 'armor_physical')).toBe(100);
    for (const name of ['Bob', 'Bob 2']) {
      expect(table.memory(name)?.life).toBeUndefined();
      expect(table.markers(name)).toEqual([]);
    }
    // No save is owed any more, so none can drop him back to -9.
    const save = await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
    expect(whispered(save, 'Alice').join()).toMatch(/no save is owed|owes no save/i);
    expect(table.attr('Bob', 'vitality')).toBe(70);
  });
});
