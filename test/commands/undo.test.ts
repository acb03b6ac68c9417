import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, whispered, type Table } from '../support/table';

describe.each(MODES)('!damage --undo (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('puts back bars, armor wear, markers, saves owed and the pending defense', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    await table.say('Alice', '!defend --action defend --roll 90', ['Bob']);
    await table.say('Alice', '!damage 400', ['Bob']);
    expect(table.attr('Bob', 'vitality')).toBe(-120);
    expect(table.attr('Bob', 'armor_physical')).toBe(20);
    expect(table.markers('Bob')).toEqual(['death-zone']);
    const out = await table.say('Alice', '!damage --undo');
    expect(publicFromScript(out)).toEqual(['Damage undone: Bob (Vitality -120 -> 70, Physical 20 -> 100).']);
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.attr('Bob', 'armor_physical')).toBe(100);
    expect(table.markers('Bob')).toEqual([]);
    expect(table.memory('Bob')).toEqual({ pendingDefense: { result: 'fail', action: 'defend', situation: 'front' } });
  });

  it('undoes a generic token\'s per-token wear, for every target of the command', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 70', ['Goblin 1', 'Goblin 2']);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.bar('Goblin 2')).toBe(30);
    // Nothing kept: the goblin is as if never hit, its armor the sheet's again.
    expect(table.memory('Goblin 1')).toBeUndefined();
    expect(table.memory('Goblin 2')).toBeUndefined();
  });

  it('after undoing a first wear, a generic token follows its sheet again (a repaired armor reaches it)', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 10', ['Goblin 1']); // 9 after soak; physical 20 -> 18
    await table.say('GM', '!damage --undo');
    table.mock.attribute('Goblin', 'armor_physical').set('current', 30);
    await table.say('GM', '!damage 40', ['Goblin 1']); // 36 after soak - 30 protection = 6 - 5 defense = 1 (kept at 20 it would be 11)
    expect(table.bar('Goblin 1')).toBe(29);
  });

  it('a player undoes only their own damage; the GM undoes anyone\'s', async () => {
    table = await openTable(mode);
    await table.say('Alice', '!damage 200', ['Bob']);
    const ben = await table.say('Ben', '!damage --undo');
    expect(whispered(ben, 'Ben')[0]).toMatch(/you have applied no damage that can be undone/i);
    expect(table.bar('Bob')).toBe(40);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Bob')).toBe(70);
  });

  it('refuses when a touched value changed since, naming it, and overwrites only with --force', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 10', ['Crate']);
    table.mock.token('Crate').set('bar1_value', 4);
    const out = await table.say('GM', '!damage --undo');
    expect(whispered(out, 'gm')[0]).toMatch(/nothing undone.*Crate: Vitality is 4 \(was left at 10\).*--force/i);
    expect(table.bar('Crate')).toBe(4);
    await table.say('GM', '!damage --undo --force');
    expect(table.bar('Crate')).toBe(20);
  });

  it('skips and names a deleted token', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 10', ['Crate', 'Goblin 1']);
    table.mock.token('Crate').remove();
    const out = await table.say('GM', '!damage --undo');
    expect(whispered(out, 'gm').join()).toMatch(/skipped token no longer on the table: Crate/i);
  });

  it('a token hidden since the hit: a player\'s undo skips it like a deleted one; the GM\'s puts it back and names it to the GM alone', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config players-target-any on');
    await table.say('Ben', '!damage 40', ['Goblin 1']);
    table.mock.token('Goblin 1').set('layer', 'gmlayer');
    const ben = await table.say('Ben', '!damage --undo');
    expect(publicFromScript(ben)).toEqual([]);
    expect(whispered(ben, 'Ben')).toEqual(['Skipped 1 token no longer on the table.']);
    expect(table.bar('Goblin 1')).toBe(19);
    await table.say('GM', '!damage 10', ['Goblin 1']);
    const gm = await table.say('GM', '!damage --undo');
    expect(publicFromScript(gm)).toEqual([]);
    // The armor held: no Vitality came back, only the Physical its own armor wore (a second hit: its own wear since the first).
    expect(whispered(gm, 'gm')).toEqual(['Damage undone (GM): Goblin 1 (Physical 9 -> 11) (hidden).']);
  });

  it('says when there is nothing to undo', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!damage --undo');
    expect(whispered(out, 'gm')[0]).toMatch(/there is no damage to undo/i);
  });

  it('keeps the last 50 applications in state, across a restart', async () => {
    table = await openTable(mode);
    for (let i = 0; i < 52; i += 1) {
      await table.say('GM', '!damage 1', ['Crate']); // a hit that changes something is kept...
      await table.say('GM', '!heal 1', ['Crate']); // ...a heal is not undoable
    }
    expect(table.stored().history).toHaveLength(50);
    await table.say('GM', '!damage 0', ['Crate']); // changes nothing: not kept (commands.md, "Undo, hardened")
    expect(table.stored().history).toHaveLength(50);
    await table.say('GM', '!damage 5', ['Crate']);
    await table.restart();
    await table.say('GM', '!damage --undo');
    expect(table.bar('Crate')).toBe(20);
  });
});

describe.each(MODES)('!damage --undo puts back only what the damage changed (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('a new !defend after the hit counts as a change since: the player is told to ask the GM, the GM sees what', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    await table.say('Alice', '!defend --action defend --roll 90', ['Bob']);
    await table.say('Alice', '!damage 200', ['Bob']);
    await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
    const out = await table.say('Alice', '!damage --undo');
    expect(whispered(out, 'Alice')[0]).toBe('Nothing undone, changed since: Bob has a new pending defense. Only the GM can undo over later changes. [Help](!damage --undo --help)');
    expect(table.bar('Bob')).toBe(40);
    const gm = await table.say('GM', '!damage --undo');
    expect(whispered(gm, 'gm')[0]).toMatch(/^Nothing undone, changed since: Bob has a new pending defense\. \[Undo anyway\]\(!damage --undo --entry U1 --force\) \[Help\]\(!damage --undo --help\)$/);
    expect(table.bar('Bob')).toBe(40);
  });

  it('a stance taken after the hit is named as the change, and a forced undo keeps it with its marker', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Goblin 2 may defend
    await table.say('GM', '!defend --action defend --roll 99', ['Goblin 2']); // fails: the hit lands
    // 70 x 90% soak = 63, - 20 Physical = 43, - 5 Defense = 38: Vitality 30 -> -8, incapacitated (its memory changes).
    await table.say('GM', '!damage 70', ['Goblin 2']);
    await table.say('GM', '!stance defensive', ['Goblin 2']);
    const plain = await table.say('GM', '!damage --undo');
    expect(whispered(plain, 'gm')[0]).toMatch(/Goblin 2 has taken the defensive stance since/);
    await table.say('GM', '!damage --undo --force');
    expect(table.memory('Goblin 2')?.stance).toBe('defensive');
    expect(table.markers('Goblin 2')).toEqual(['bolt-shield']);
    expect(table.memory('Goblin 2')?.wear).toBeUndefined();
    expect(table.memory('Goblin 2')?.pendingDefense).toEqual({ result: 'fail', action: 'defend', situation: 'front' });
  });

  it('does not bring back a pending defense from a round that has ended', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    await table.say('Alice', '!defend --action defend --roll 90', ['Bob']);
    await table.say('Alice', '!damage 200', ['Bob']);
    await table.say('GM', '!defense-round next-round');
    await table.say('Alice', '!damage --undo');
    expect(table.bar('Bob')).toBe(70);
    expect(table.memory('Bob')?.pendingDefense).toBeUndefined();
  });

  it('leaves alone what the damage did not touch: Soul edits, the other track\'s wear', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 10', ['Goblin 1']); // physical wear 20 -> 18
    table.mock.token('Goblin 1').set('bar2_value', 3);
    await table.say('GM', '!defense-round set armor_magical 10', ['Goblin 1']);
    await table.say('GM', '!damage 8 --type magical', ['Goblin 2']); // someone else's later hit
    await table.say('GM', '!damage 40 --type magical', ['Goblin 1']); // 36 - 10 = 26 lands; magical wear 10 -> 1
    await table.say('GM', '!damage --undo'); // undoes the magical hit on Goblin 1 only
    // The magical track was first worn by the undone hit: it follows its override (10) again.
    expect(table.memory('Goblin 1').wear).toEqual({ physical: 18 });
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.bar('Goblin 2')).toBe(23); // 8 x 90% soak = 7 (the armor stands on its Physical)
    expect(table.bar('Goblin 1', 'bar2')).toBe(3);
  });

  it('refuses other flags with --undo, naming them', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 5', ['Crate']);
    const out = await table.say('GM', `!damage --undo --ids ${table.id('Crate')}`);
    expect(whispered(out, 'gm')[0]).toMatch(/^--undo takes no --ids: it undoes your last damage \(or its card's, with --entry\), whatever is selected\. \[Help\]\(!damage --undo --help\)$/);
    expect(table.bar('Crate')).toBe(15);
  });
});

describe.each(MODES)('a large hit in the undo history (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('80 goblins falling in one hit: the entry is sized near its real JSON, keeps a player\'s entry beside it, and is still undoable after a restart', async () => {
    table = await openTable(mode, {
      setup: (mock, scene) => {
        for (let i = 0; i < 80; i += 1) {
          mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: `Raider ${i + 1}`, represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
        }
      },
    });
    await table.say('Alice', '!damage 200', ['Bob']);
    const raiders = table.mock.globals.findObjs({ _type: 'graphic', represents: table.mock.globals.findObjs({ _type: 'character', name: 'Goblin' })[0]!.id }).map((token) => token.id);
    await table.say('GM', `!damage 100 --ids ${raiders.join(' ')}`);
    const history = table.stored().history;
    expect(history).toHaveLength(2); // Alice's entry is not pushed out
    expect(JSON.stringify(history[1]).length).toBeLessThan(60_000);
    await table.restart();
    expect(table.stored().history).toHaveLength(2);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Raider 1')).toBe(30);
    await table.say('Alice', '!damage --undo');
    expect(table.attr('Bob', 'vitality')).toBe(70);
  });
});
