// `!attack` in the `threshold` edition on the bundle (issue 32, items 10-16; rules.md, "The
// exchange (`!attack`): rulings" and section 10): a defense made ahead that lacks the perceive check
// does not stand in, a guard keeps the better, the attack declares its difficulty, perceive penalty
// and an area's edge, the hit chance comes first, buttons show the check rolled, and an attacker not
// on its turn attacks only as a counter attack or an attack of opportunity. Each test fails on the
// bundle before issue 32 (DEFENSE_ROUND_BUNDLE=old-bundle.js loads that one instead).
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

const OTHER_BUNDLE = process.env.DEFENSE_ROUND_BUNDLE;
const bundleSource = OTHER_BUNDLE === undefined ? undefined : readFileSync(OTHER_BUNDLE, 'utf8');

/**
 * The demo table in threshold, Goblin 1 on its turn (the attacker), Bob as The Defensive Turn's Bob
 * (Vitality 30, Defense 10, Physical Armor 18; Defend 55, React 50, Perceive 50), the goblins
 * Physical Armor 20, Defense 5, Defend 40; a third goblin out of the Turn Tracker.
 */
async function thresholdTable(setup?: (mock: MockRoll20, scene: DemoScene) => void): Promise<Table> {
  const table = await openTable('bundle', {
    seed: 11,
    ...(bundleSource === undefined ? {} : { bundleSource }),
    setup: (mock, scene) => {
      for (const [name, value] of Object.entries({ vitality: 30, armor_defense: 10, armor_physical: 18 })) mock.attribute('Bob', name).set('current', value);
      mock.create('graphic', {
        subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Goblin 3', represents: scene.characters.Goblin,
        bar1_value: 30, bar1_max: 30, imgsrc: String(mock.token('Goblin 1').get('imgsrc')),
      });
      setup?.(mock, scene);
    },
  });
  await table.say('GM', '!defense-round config edition threshold');
  await table.passTurn();
  return table;
}

describe('!attack in threshold (The Defensive Turn)', () => {
  let table: Table;
  afterEach(() => table?.close());
  const all = (out: Parameters<typeof texts>[0]) => texts(out).join('\n');
  const commands = (out: Array<{ content: string }>) => out.map((record) => record.content).join('\n');
  const attack = (line: string, from = 'Goblin 1') => table.say('GM', `!attack ${line}`, [from]);
  const ids = (...names: string[]) => names.map((name) => table.id(name)).join(' ');

  it('item 10: a Defend made ahead from the front does not answer an attack from behind: Bob is prompted, told why, and his answer replaces it', async () => {
    table = await thresholdTable();
    await table.say('Alice', `!defend --action defend --roll 10 --ids ${ids('Bob')}`);
    const declared = await attack(`20 --hit 19 --situation behind --ids ${ids('Bob')}`);
    const alice = whispered(declared, 'Alice').join('\n');
    expect(alice).toMatch(/Its defense made ahead does not answer this attack: made for front, without the perceive check behind needs/);
    expect(alice).toMatch(/Defend \(55\) after Perceive \(25\)/);
    expect(table.stored().exchange.attacks.A1).toBeDefined();
    // The Defensive Turn: "a successful hard perceive check to defend from": 20 <= 25, then Defend 30 <= 55.
    await table.say('Alice', `!defend --answer A1 --ids ${ids('Bob')} --action defend --perception-roll 20 --roll 30`);
    expect(table.attr('Bob', 'vitality')).toBe(20); // 19 + 5 beats 18; 20 - 10 Defense
    expect(table.memory('Bob')?.pendingDefense).toBeUndefined();
    // A plain !damage after a misfit !defend is as it was: the defense counts as none.
    await table.say('Alice', `!defend --action defend --roll 10 --ids ${ids('Bob')}`);
    const hit = await table.say('GM', `!damage 5 --hit 19 --situation behind --ids ${ids('Bob')}`);
    expect(all(hit)).toMatch(/made against front, without the perceive check behind needs: it counts as none/);
    expect(table.attr('Bob', 'vitality')).toBe(15);
  });

  it('item 11, the reported bug: a guard that fails after Bob\'s own successful answer leaves no failure in his place', async () => {
    table = await thresholdTable();
    await attack(`20 --hit 25 --ids ${ids('Bob', 'Goblin 2')}`);
    await table.say('Alice', `!defend --answer A1 --ids ${ids('Bob')} --action defend --roll 10`);
    // Goblin 2 guards Bob the old way, a !defend made with the attack open, and fails.
    await table.say('GM', `!defend --action guard --ally ${ids('Bob')} --roll 99 --ids ${ids('Goblin 2')}`);
    await table.say('GM', `!defend --answer A1 --ids ${ids('Goblin 2')} --action none`);
    expect(table.attr('Bob', 'vitality')).toBe(20); // his own success: 20 - 10
    // The next attack: the guard's failure does not stand in for Bob, who is prompted and defends himself.
    const next = await attack(`20 --hit 25 --ids ${ids('Bob')}`);
    expect(whispered(next, 'Alice').join('\n')).toMatch(/Its defense made ahead does not answer this attack: a guard's failure: it may still defend itself/);
    await table.say('Alice', `!defend --answer A2 --ids ${ids('Bob')} --action defend --roll 10`);
    expect(table.attr('Bob', 'vitality')).toBe(10); // 20 - (20 - 10), not 20 - 20
    expect(table.memory('Bob')?.pendingDefense).toBeUndefined();
  });

  it('item 11: a guard is a button on the prompt that answers for the ally, which keeps the better of its own answer and the guard\'s', async () => {
    // Goblin 3 on the GM layer: Alice's card offers no guard for it.
    table = await thresholdTable((mock) => mock.token('Goblin 3').set('layer', 'gmlayer'));
    const hidden = await attack(`20 --hit 25 --ids ${ids('Bob', 'Goblin 2', 'Goblin 3')}`);
    expect(whispered(hidden, 'Alice').join('\n')).toMatch(/Guard Goblin 2/);
    expect(commands(hidden.filter((record) => record.whisperTo === 'Alice'))).not.toContain(ids('Goblin 3'));
    expect(whispered(hidden, 'gm').join('\n')).toMatch(/Guard Goblin 3/);
    await table.say('GM', '!attack --cancel A1');
    const declared = await attack(`20 --hit 25 --ids ${ids('Bob', 'Goblin 2')}`);
    expect(whispered(declared, 'gm').join('\n')).toMatch(/Guard Bob: Defend \(40\)/);
    expect(whispered(declared, 'Alice').join('\n')).toMatch(/Guard Goblin 2: Defend \(55\)/);
    expect(commands(declared)).toContain(`!defend --answer A2 --ids ${ids('Goblin 2')} --action guard --ally ${ids('Bob')}`);
    // Bob fails his own check; Goblin 2's guard succeeds: Bob keeps the guard's success, Goblin 2 has no defense of its own.
    await table.say('Alice', `!defend --answer A2 --ids ${ids('Bob')} --action defend --roll 99`);
    const guarded = await table.say('GM', `!defend --answer A2 --ids ${ids('Goblin 2')} --action guard --ally ${ids('Bob')} --roll 10`);
    expect(all(guarded)).toMatch(/Bob: Guarded 10: success/);
    expect(table.attr('Bob', 'vitality')).toBe(20);
    expect(table.bar('Goblin 2')).toBe(10);
    // The other way round: Bob succeeds, the guard fails after him: Bob keeps his success.
    await attack(`20 --hit 25 --ids ${ids('Bob', 'Goblin 3')}`);
    await table.say('Alice', `!defend --answer A3 --ids ${ids('Bob')} --action defend --roll 10`);
    await table.say('GM', `!defend --answer A3 --ids ${ids('Goblin 3')} --action guard --ally ${ids('Bob')} --roll 99`);
    expect(table.attr('Bob', 'vitality')).toBe(10);
    expect(table.stored().exchange.attacks).toEqual({});
    // The same by hand, !defend then !damage with the same dice, leaves the same bars.
    const hand = await thresholdTable();
    try {
      await hand.say('Alice', `!defend --action defend --roll 99 --ids ${hand.id('Bob')}`);
      await hand.say('GM', `!defend --action guard --ally ${hand.id('Bob')} --roll 10 --ids ${hand.id('Goblin 2')}`);
      await hand.say('GM', `!damage 20 --hit 25 --ids ${hand.id('Bob')} ${hand.id('Goblin 2')}`);
      expect([hand.attr('Bob', 'vitality'), hand.bar('Goblin 2')]).toEqual([20, 10]);
    } finally {
      hand.close();
    }
  });

  it('items 12 and 13: --difficulty impossible quarters the covert perceive check and the fast spell\'s React check', async () => {
    table = await thresholdTable();
    const covert = await attack(`20 --hit 25 --situation covert --difficulty impossible --ids ${ids('Bob')}`);
    expect(whispered(covert, 'Alice').join('\n')).toMatch(/Defend \(55\) after Perceive \(12\)/);
    // 13 would pass the hard check (25), not the impossible one (12): no defense.
    await table.say('Alice', `!defend --answer A1 --ids ${ids('Bob')} --action defend --perception-roll 13 --roll 1`);
    expect(table.attr('Bob', 'vitality')).toBe(10);
    const spell = await attack(`5 --hit 25 --situation spell-fast --difficulty impossible --ids ${ids('Bob')}`);
    expect(whispered(spell, 'Alice').join('\n')).toMatch(/React \(12\)/);
    const answered = await table.say('Alice', `!defend --answer A2 --ids ${ids('Bob')} --action defend --roll 13`);
    expect(all(answered)).toMatch(/React d100 13 vs 50 impossible \(quarter\) = 12: failure/);
    expect(table.attr('Bob', 'vitality')).toBe(5);
  });

  it('item 14: --perception-mod gives a hidden spectator\'s penalty to the perceive check (50 - 10 = 40)', async () => {
    table = await thresholdTable();
    const declared = await attack(`20 --hit 25 --situation spectator --perception-mod -10 --ids ${ids('Bob')}`);
    expect(whispered(declared, 'Alice').join('\n')).toMatch(/Defend \(55\) after Perceive \(40\)/);
    const answered = await table.say('Alice', `!defend --answer A1 --ids ${ids('Bob')} --action defend --perception-roll 45 --roll 1`);
    expect(all(answered)).toMatch(/Perceive d100 45 vs 50 - 10 = 40: failure/);
    expect(table.attr('Bob', 'vitality')).toBe(10);
  });

  it('item 15: a defender the declared hit chance does not beat is not prompted; an attack that misses them all resolves at once', async () => {
    table = await thresholdTable();
    const mixed = await attack(`20 --hit 19 --ids ${ids('Bob', 'Goblin 2')}`);
    expect(whispered(mixed, 'gm').join('\n')).toMatch(/Goblin 2: Not prompted: missed \(hit chance 19 does not beat Physical Armor 20\)/);
    expect(commands(mixed)).not.toContain(`--ids ${ids('Goblin 2')} --action defend`);
    expect(whispered(mixed, 'Alice').join('\n')).toMatch(/Defend \(55\)/);
    await table.say('Alice', `!defend --answer A1 --ids ${ids('Bob')} --action none`);
    expect(table.stored().exchange.attacks).toEqual({});
    // Nobody to wait for: no prompt and no waiting card, the result at once (issue 33).
    const none = await attack(`20 --hit 15 --ids ${ids('Bob', 'Goblin 2')}`);
    expect(whispered(none, 'Alice')).toEqual([]);
    expect(all(none)).toMatch(/Goblin 1's attack A2: 20 physical \| Bob: is missed\./);
    expect(table.stored().exchange.attacks).toEqual({});
    expect([table.attr('Bob', 'vitality'), table.bar('Goblin 2')]).toEqual([10, 30]);
    // A defense made ahead that does not fit is used up by the miss, as the same !damage uses it.
    await table.say('Alice', `!defend --action defend --roll 10 --ids ${ids('Bob')}`);
    const behind = await attack(`20 --hit 10 --situation behind --ids ${ids('Bob')}`);
    expect(all(behind)).toMatch(/Hit chance 10 \+ 5 behind = 15 vs Physical Armor 18: no damage/);
    expect(table.memory('Bob')?.pendingDefense).toBeUndefined();
  });

  it('item 16: the buttons show the check that is rolled: React (25) against a projectile, the perceive check first from behind', async () => {
    table = await thresholdTable();
    const projectile = whispered(await attack(`20 --hit 25 --situation projectile --ids ${ids('Bob')}`), 'Alice').join('\n');
    expect(projectile).toMatch(/\[React \(25\)\]/);
    expect(projectile).not.toMatch(/Defend \(55\)/);
    const behind = whispered(await attack(`20 --hit 25 --situation distracted --ids ${ids('Bob')}`), 'Alice').join('\n');
    expect(behind).toMatch(/\[Defend \(55\) after Perceive \(25\)\]/);
  });

  it('--edge: on an area attack the defenders on its edge face the hit chance, the others are hit; an edge that is no defender is refused', async () => {
    table = await thresholdTable();
    const stray = await attack(`20 --hit 10 --situation aoe --edge ${ids('Crate')} --ids ${ids('Bob', 'Goblin 2')}`);
    expect(whispered(stray, 'gm').join('\n')).toMatch(/--edge: ".*" is no defender of this attack/);
    expect(table.stored().exchange.attacks).toEqual({});
    const declared = await attack(`20 --hit 10 --situation aoe --edge ${ids('Goblin 2')} --ids ${ids('Bob', 'Goblin 2')}`);
    expect(whispered(declared, 'gm').join('\n')).toMatch(/Goblin 2: Not prompted: missed \(hit chance 10 does not beat Physical Armor 20\)/);
    // Bob is inside the area: no hit chance, he is hit whatever his armor.
    await table.say('Alice', `!defend --answer A1 --ids ${ids('Bob')} --action none`);
    expect([table.attr('Bob', 'vitality'), table.bar('Goblin 2')]).toEqual([10, 30]);
  });

  it('out of turn: with the Turn Tracker in use, a token not on its turn attacks only as a counter attack or an attack of opportunity', async () => {
    table = await thresholdTable();
    const plain = await attack(`20 --hit 25 --ids ${ids('Bob')}`, 'Goblin 2');
    expect(whispered(plain, 'gm').join('\n')).toMatch(/Goblin 2: it is not this token's turn: in the defensive turn it attacks only with a counter attack \(--counter/);
    expect(table.stored().exchange.attacks).toEqual({});
    expect(all(await attack(`20 --hit 25 --counter --ids ${ids('Bob')}`, 'Goblin 2'))).toMatch(/Attack A1: Goblin 2 attacks Bob/);
    expect(all(await attack(`20 --hit 25 --opportunity --ids ${ids('Bob')}`, 'Goblin 2'))).toMatch(/Attack A2: Goblin 2 attacks Bob/);
    // On its own turn an attack is a plain one; a token with no turn in the Turn Tracker (a spectator) is not checked.
    expect(whispered(await attack(`20 --hit 25 --counter --ids ${ids('Bob')}`), 'gm').join('\n')).toMatch(/--counter: it is this token's turn, so its attack is no counter attack/);
    expect(all(await attack(`20 --hit 25 --ids ${ids('Bob')}`, 'Goblin 3'))).toMatch(/Attack A3: Goblin 3 attacks Bob/);
    // No Turn Tracker: no check.
    table.mock.setTurnOrder([]);
    expect(all(await attack(`20 --hit 25 --ids ${ids('Bob')}`, 'Goblin 2'))).toMatch(/Attack A4: Goblin 2 attacks Bob/);
  });
});
