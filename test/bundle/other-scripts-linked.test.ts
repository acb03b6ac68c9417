// Issue 30, item 5: a PC's condition follows it to a new page. A token whose Vitality bar is linked
// to its character's attribute shares one memory (edition state, dead for good, stance) with every
// such token of that character; a generic token keeps its own. Each test fails on the bundle before
// the fix and passes on it.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';
import type { MockObject } from '../../mocks/roll20';

const MODE = (process.env.DEFENSE_ROUND_MODE as 'bundle' | 'src' | undefined) ?? 'bundle';
const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');

describe(`a character's condition across its tokens and pages (${MODE})`, () => {
  let table: Table;
  afterEach(() => table?.close());

  /** Bob falls to -15 (dying), fails two saves (one left), and is dropped onto the next map as a new token. */
  async function bobDyingOnTheNextMap(): Promise<MockObject> {
    table = await openTable(MODE);
    await table.say('GM', '!damage 85 --pierce 100', ['Bob']);
    await table.say('Alice', '!defend --action save --roll 99', ['Bob']);
    await table.say('Alice', '!defend --action save --roll 98', ['Bob']);
    expect(table.memory('Bob')?.life).toEqual({ condition: 'dying', savesOwed: 1 });
    const page = table.mock.addPage('The next map');
    return table.mock.dropCharacter('Bob', page.id);
  }

  const markers = (token: MockObject) => String(token.get('statusmarkers')).split(',').filter((m) => m !== '');

  it('30.5 Bob dying with one save owed, dropped onto another page: the new token owes the save, shows dying, is not dead', async () => {
    const bob = await bobDyingOnTheNextMap();
    expect(bob.get('bar1_value')).toBe(-15);
    // Dropped onto the map, the new token shows the character's condition at once.
    expect(markers(bob)).toEqual(['death-zone']);
    // A hit the armor takes whole is no loss: the condition stays, and the new token shows it.
    const hit = await table.say('GM', '!damage 1', [bob.id]);
    expect(all(hit)).not.toMatch(/dead/i);
    expect(markers(bob)).toEqual(['death-zone']);
    const save = await table.say('Alice', '!defend --action save --roll 10', [bob.id]);
    expect(all(save)).not.toMatch(/no save is owed/);
    expect(all(save)).toMatch(/success/);
    expect(table.attr('Bob', 'vitality')).toBe(-9);
    expect(table.memory('Bob')?.life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
    expect(markers(bob)).toEqual(['sleepy']);
  });

  it('30.5 a stance follows the character to its new token', async () => {
    table = await openTable(MODE);
    await table.say('Alice', '!stance defensive', ['Bob']);
    const bob = table.mock.dropCharacter('Bob', table.mock.addPage('The next map').id);
    const out = await table.say('Alice', '!stance', [bob.id]);
    expect(whispered(out, 'Alice').join('\n')).toMatch(/Bob: defensive/);
    // Taken back on the new token: the character has no stance, the new token its marker dropped.
    await table.say('Alice', '!stance none', [bob.id]);
    expect(table.stored().tokens[table.scene.characters.Bob]).toBeUndefined();
    expect(whispered(await table.say('Alice', '!stance', ['Bob']), 'Alice').join('\n')).toMatch(/Bob: none/);
  });

  it('30.5 a generic goblin token keeps its own memory while Bob\'s new token shares his', async () => {
    const bob = await bobDyingOnTheNextMap();
    // Goblin 1 falls to -1: incapacitated, one save owed; a new goblin (no bar linked) owes none.
    await table.say('GM', '!damage 31 --pierce 100', ['Goblin 1']);
    expect(table.memory('Goblin 1')?.life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
    const goblin = table.mock.dropCharacter('Goblin', table.scene.pageId, { name: 'Goblin 3', bar1_value: -1, bar1_max: 30 });
    const refused = await table.say('GM', '!defend --action save --roll 10', [goblin.id]);
    expect(all(refused)).toMatch(/no save is owed/);
    expect(table.memory('Goblin 1')?.life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
    expect(table.stored().tokens[goblin.id]).toBeUndefined();
    // Bob's new token shares his: the save is owed there.
    const save = await table.say('Alice', '!defend --action save --roll 99', [bob.id]);
    expect(all(save)).not.toMatch(/no save is owed/);
    expect(table.memory('Bob')?.life).toEqual({ condition: 'dead', savesOwed: 0 });
  });

  it('30.5 undo of a hit on the new token puts the character\'s memory back, for every token of it', async () => {
    const bob = await bobDyingOnTheNextMap();
    // A dying character losing any more Vitality is dead at once.
    await table.say('GM', '!damage 5 --pierce 100', [bob.id]);
    expect(table.memory('Bob')?.life).toEqual({ condition: 'dead', savesOwed: 0 });
    expect(markers(bob)).toEqual(['dead']);
    const undo = await table.say('GM', '!damage --undo');
    expect(all(undo)).toMatch(/Damage undone/);
    expect(table.attr('Bob', 'vitality')).toBe(-15);
    expect(table.stored().tokens[table.scene.characters.Bob]).toEqual({ edition: { id: 'soak', state: { life: { condition: 'dying', savesOwed: 1 } } } });
    // Dying again, as the token showed when it was dropped.
    expect(markers(bob)).toEqual(['death-zone']);
    const save = await table.say('Alice', '!defend --action save --roll 10', ['Bob']);
    expect(all(save)).toMatch(/success/);
  });

  it('30.5 a restart keeps the character\'s memory for its new token', async () => {
    const bob = await bobDyingOnTheNextMap();
    await table.restart();
    expect(table.memory('Bob')?.life).toEqual({ condition: 'dying', savesOwed: 1 });
    const save = await table.say('Alice', '!defend --action save --roll 10', [bob.id]);
    expect(all(save)).not.toMatch(/no save is owed/);
    expect(table.attr('Bob', 'vitality')).toBe(-9);
  });
});
