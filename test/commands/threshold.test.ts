// The `threshold` edition (The Defensive Turn) at the table: GM and player commands
// through chat, read back from bars, markers, memory and chat, on the TypeScript source and on the
// built bundle. Rules: /work/shared/design/rules.md, "Edition `threshold`", its Clarifications and
// "Switching editions". Every number is worked by hand in a comment.
//
// Bob's sheet holds soak-scale numbers (armor_physical 100, ...): each test sets threshold-scale
// values on it. His check targets stay as the demo has them: defend_check 55, reaction_check 50,
// perception_check 50, save_check 50. The goblins: armor_physical 20, armor_defense 5,
// defend_check 40, save_check 45, Vitality 30 each (unlinked). The Crate represents no character.
// The Turn Tracker opens on Bob's turn (Bob, Goblin 1, Goblin 2): Bob defends after one passTurn.
import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, texts, whispered, type Table } from '../support/table';

describe.each(MODES)('the threshold edition at the table (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  /** A table switched to threshold, Bob with the seed's example numbers (and EXP when asked). */
  async function thresholdTable(options: { exp?: number; bob?: Record<string, number> } = {}): Promise<Table> {
    table = await openTable(mode);
    // Created before the script first reads Bob's sheet (the script indexes a sheet's attributes once).
    if (options.exp !== undefined) {
      table.mock.create('attribute', { characterid: table.scene.characters.Bob, name: 'exp', current: options.exp });
    }
    setBob({ vitality: 30, armor_defense: 10, armor_physical: 18, armor_magical: 12, ...options.bob });
    const out = await table.say('GM', '!defense-round config edition threshold');
    expect(whispered(out, 'gm').join('\n')).toMatch(/Edition is now threshold/);
    return table;
  }

  function setBob(values: Record<string, number>): void {
    for (const [name, value] of Object.entries(values)) table.mock.attribute('Bob', name).set('current', value);
  }

  async function handEdit(token: string, value: unknown) {
    table.mock.newMessages();
    table.mock.userEdit(table.mock.token(token), { bar1_value: value });
    await table.mock.settle();
    table.mock.assertNoCrash();
    return table.mock.newMessages();
  }

  /** Everything the script said about a command, whoever it went to (the audience is asserted where it matters). */
  const all = (out: Parameters<typeof texts>[0]) => texts(out.filter((record) => record.who === 'DefenseRound')).join('\n');

  describe("the seed's example: Vitality 30, Defense 10, Physical Armor 18, a hit of 20", () => {
    it('a successful defense, hit chance 19 > 18: 20 - 10 Defense = 10, Vitality 30 -> 20', async () => {
      await thresholdTable();
      await table.passTurn(); // Goblin 1's turn: Bob is in his defensive turn
      const defended = await table.say('Alice', '!defend --action defend --roll 55', ['Bob']); // 55 <= 55: success
      expect(all(defended)).toMatch(/Defend d100 55 vs 55: success/);
      expect(table.memory('Bob')).toEqual({ pendingDefense: { result: 'success', situation: 'front', perceived: false } });
      const out = await table.say('Alice', '!damage 20 --hit 19', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(20);
      expect(table.attr('Bob', 'armor_physical')).toBe(18); // a threshold: it never wears
      expect(all(out)).toMatch(
        /Defense: Succeeded \(from !defend\).*Hit chance 19 beats Physical Armor 18: a hit.*20 - 10 Defense = 10.*Vitality 30 -> 20/s,
      );
      expect(table.memory('Bob')).toBeUndefined(); // the pending defense is used up
      expect(table.markers('Bob')).toEqual([]);
    });

    it('a failed defense (56 > 55): the whole 20 lands, Vitality 30 -> 10, and the card offers the damage button', async () => {
      await thresholdTable();
      await table.passTurn();
      const defended = await table.say('Alice', '!defend --action defend --roll 56', ['Bob']);
      expect(all(defended)).toMatch(/Defend d100 56 vs 55: failure.*no defense against the next hit/s);
      expect(all(defended)).toContain(`!damage [[?{Damage}]] --ids ${table.id('Bob')}`);
      const out = await table.say('Alice', '!damage 20 --hit 19', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(10); // 30 - 20
      expect(all(out)).toMatch(/Defense: Failed \(from !defend\).*Vitality 30 -> 10/s);
      expect(all(out)).not.toMatch(/Defense = /);
    });

    it('hit chance 18 is not above the armor 18: no damage, and the miss uses up the pending defense', async () => {
      await thresholdTable();
      await table.passTurn();
      await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
      const out = await table.say('Alice', '!damage 20 --hit 18', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(30);
      expect(all(out)).toMatch(/Hit chance 18 vs Physical Armor 18: no damage \(at or under the armor\)/);
      expect(table.memory('Bob')).toBeUndefined();
      // The next hit meets no defense: 30 - 20 = 10.
      await table.say('Alice', '!damage 20 --hit 19', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(10);
    });

    it('--defense success overrides the missing pending defense: 20 - 10 = 10, Vitality 20', async () => {
      await thresholdTable();
      const out = await table.say('GM', '!damage 20 --hit 19 --defense success', ['Bob']);
      expect(all(out)).toMatch(/Defense: Succeeded \(--defense\): the armor's Defense applies/);
      expect(table.attr('Bob', 'vitality')).toBe(20);
    });

    it("an NPC's miss (Goblin 1: hit chance 20 vs armor 20): no damage, the numbers only in the GM's card", async () => {
      await thresholdTable();
      const out = await table.say('GM', '!damage 20 --hit 20', ['Goblin 1']);
      expect(table.bar('Goblin 1')).toBe(30);
      expect(whispered(out, 'gm').join('\n')).toMatch(/Hit chance 20 vs Physical Armor 20: no damage \(at or under the armor\)/);
      expect(publicFromScript(out).join('\n')).not.toMatch(/Hit chance|Armor|\b20\b/);
    });

    it('hit chance 17 from the side: 17 + 2 = 19 > 18, a hit; no defense, Vitality 30 -> 10', async () => {
      await thresholdTable();
      const out = await table.say('Alice', '!damage 20 --hit 17 --situation side', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(10);
      expect(all(out)).toMatch(/Defense: None \| .*Hit chance 17 \+ 2 side = 19 beats Physical Armor 18: a hit.*Vitality 30 -> 10/s);
    });
  });

  describe('hit chance bonuses and armor tracks', () => {
    it('behind +5, spell-fast +2 and spell-invisible +5 against Magical Armor 12, projectile with the weapon bonus as --mod, aoe not compared', async () => {
      await thresholdTable({ bob: { vitality: 100 } });
      // 13 + 5 = 18: at or under Physical 18, no damage; 14 + 5 = 19 hits.
      let out = await table.say('Alice', '!damage 1 --hit 13 --situation behind', ['Bob']);
      expect(all(out)).toMatch(/Hit chance 13 \+ 5 behind = 18 vs Physical Armor 18: no damage/);
      out = await table.say('Alice', '!damage 1 --hit 14 --situation distracted', ['Bob']);
      expect(all(out)).toMatch(/Hit chance 14 \+ 5 distracted = 19 beats Physical Armor 18/);
      // Magical: 10 + 2 = 12 <= 12, no damage; 8 + 5 = 13 > 12 hits.
      out = await table.say('Alice', '!damage 1 --type magical --hit 10 --situation spell-fast', ['Bob']);
      expect(all(out)).toMatch(/Hit chance 10 \+ 2 very fast spell = 12 vs Magical Armor 12: no damage/);
      out = await table.say('Alice', '!damage 1 --type energy --hit 8 --situation spell-invisible', ['Bob']);
      expect(all(out)).toMatch(/Hit chance 8 \+ 5 invisible spell = 13 beats Magical Armor 12/);
      // A projectile has no situation bonus; its weapon's bonus is --mod: 15 + 4 = 19 > 18.
      out = await table.say('Alice', '!damage 1 --hit 15 --situation projectile --mod 4', ['Bob']);
      expect(all(out)).toMatch(/Hit chance 15 \+ 4 = 19 beats Physical Armor 18/);
      // An area attack needs no hit chance: a hit of 1 is not compared.
      out = await table.say('Alice', '!damage 1 --hit 1 --situation aoe', ['Bob']);
      expect(all(out)).toMatch(/Area attack: no hit chance needed \(the given 1 is not compared\)/);
      // Hits landed: distracted, spell-invisible, projectile, aoe: 100 - 4 = 96.
      expect(table.attr('Bob', 'vitality')).toBe(96);
    });

    // Fixed bug, kept as a guard: rules.md "Common to all editions": no character, no armor, "and says so".
    it('a token that represents no character (the Crate) is hit past "armor 0" and the breakdown says it has no character', async () => {
      await thresholdTable();
      const out = await table.say('GM', '!damage 5 --hit 1', ['Crate']);
      expect(table.bar('Crate')).toBe(15); // 20 - 5
      expect(whispered(out, 'gm').join('\n')).toMatch(/no character/i);
    });

    it('--mod needs --hit; a soak situation (gun) is refused naming the edition', async () => {
      await thresholdTable();
      let out = await table.say('Alice', '!damage 20 --mod 4', ['Bob']);
      expect(whispered(out, 'Alice').join('\n')).toMatch(/--mod adds to the hit chance and needs --hit/);
      out = await table.say('Alice', '!damage 20 --hit 19 --situation gun', ['Bob']);
      expect(whispered(out, 'Alice').join('\n')).toMatch(/--situation gun means nothing in the threshold edition/);
      expect(table.attr('Bob', 'vitality')).toBe(30);
    });
  });

  describe('!defend: every situation and its gate', () => {
    it('behind: the hard perceive check (50 halved = 25) fails at 26: no defense, and the hit lands whole', async () => {
      await thresholdTable();
      await table.passTurn();
      const out = await table.say('Alice', '!defend --action defend --situation behind --perception-roll 26 --roll 1', ['Bob']);
      const card = all(out);
      expect(card).toMatch(/Perceive d100 26 vs 50 hard \(half\) = 25: failure.*Behind: attack not perceived, no defense/s);
      expect(card).not.toMatch(/Defend 1/); // the defense check is never made
      expect(table.memory('Bob')).toEqual({ pendingDefense: { result: 'fail', situation: 'behind', perceived: false } });
      // The attack is taken as the defense's situation: 14 + 5 = 19 > 18; 30 - 20 = 10.
      const hit = await table.say('Alice', '!damage 20 --hit 14', ['Bob']);
      expect(all(hit)).toMatch(/Hit chance 14 \+ 5 behind = 19 beats/);
      expect(table.attr('Bob', 'vitality')).toBe(10);
    });

    it('behind: perceived at 25, then a defense check at 55 succeeds: 20 - 10 = 10, Vitality 20', async () => {
      await thresholdTable();
      await table.passTurn();
      const out = await table.say('Alice', '!defend --action defend --situation behind --perception-roll 25 --roll 55', ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 25 vs 50 hard \(half\) = 25: success.*Defend d100 55 vs 55: success/s);
      expect(table.memory('Bob')).toEqual({ pendingDefense: { result: 'success', situation: 'behind', perceived: true } });
      await table.say('Alice', '!damage 20 --hit 14', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(20);
    });

    it('distracted: the same hard perceive gate (26 > 25 fails)', async () => {
      await thresholdTable();
      await table.passTurn();
      const out = await table.say('Alice', '!defend --action defend --situation distracted --perception-roll 26', ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 26 vs 50 hard \(half\) = 25: failure.*Distracted: attack not perceived, no defense/s);
      expect(table.memory('Bob').pendingDefense).toEqual({ result: 'fail', situation: 'distracted', perceived: false });
    });

    it('covert with --difficulty impossible: the perceive target is 50 / 4 = 12 (13 fails, 12 passes); the covert skill\'s penalty comes after', async () => {
      await thresholdTable();
      await table.passTurn();
      let out = await table.say('Alice', '!defend --action defend --situation covert --difficulty impossible --perception-roll 13 --roll 1', ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 13 vs 50 impossible \(quarter\) = 12: failure.*Covert attack: attack not perceived, no defense/s);
      expect(table.memory('Bob').pendingDefense).toEqual({ result: 'fail', situation: 'covert', perceived: false });
      out = await table.say('Alice', '!defend --action defend --situation covert --difficulty impossible --perception-roll 12 --roll 1', ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 12 vs 50 impossible \(quarter\) = 12: success.*Defend d100 1 vs 55: success/s);
      expect(table.memory('Bob').pendingDefense).toEqual({ result: 'success', situation: 'covert', perceived: true });
      // Divided first, then the modifier: 12 - 2 = 10, so 11 fails.
      out = await table.say('Alice', '!defend --action defend --situation covert --difficulty impossible --perception-mod -2 --perception-roll 11 --roll 1', ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 11 vs 50 impossible \(quarter\) - 2 = 10: failure/);
      // covert defaults to hard: 25 passes.
      out = await table.say('Alice', '!defend --action defend --situation covert --perception-roll 25 --roll 56', ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 25 vs 50 hard \(half\) = 25: success.*Defend d100 56 vs 55: failure/s);
    });

    it('projectile: the defense check is a hard React check (50 / 2 = 25) given with --react-roll; --roll is refused', async () => {
      await thresholdTable();
      await table.passTurn();
      const refused = await table.say('Alice', '!defend --action defend --situation projectile --roll 10', ['Bob']);
      expect(whispered(refused, 'Alice').join('\n')).toMatch(/--roll does not apply here: the defense check against --situation projectile is a React check; give its roll with --react-roll/);
      expect(table.memory('Bob')).toBeUndefined();
      let out = await table.say('Alice', '!defend --action defend --situation projectile --react-roll 26', ['Bob']);
      expect(all(out)).toMatch(/React d100 26 vs 50 hard \(half\) = 25: failure/);
      expect(table.memory('Bob').pendingDefense).toEqual({ result: 'fail', situation: 'projectile', perceived: false });
      out = await table.say('Alice', '!defend --action defend --situation projectile --react-roll 25', ['Bob']);
      expect(all(out)).toMatch(/React d100 25 vs 50 hard \(half\) = 25: success/);
      expect(all(out)).not.toMatch(/Defend /);
      // The weapon's bonus as --mod: 15 + 4 = 19 > 18; the React success lets Defense apply: 20 - 10 = 10.
      await table.say('Alice', '!damage 20 --hit 15 --mod 4', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(20);
    });

    it('spell-fast: a hard React check (26 > 25 fails): the hit lands whole, 11 + 2 = 13 > Magical 12', async () => {
      await thresholdTable();
      await table.passTurn();
      const out = await table.say('Alice', '!defend --action defend --situation spell-fast --react-roll 26', ['Bob']);
      expect(all(out)).toMatch(/React d100 26 vs 50 hard \(half\) = 25: failure/);
      await table.say('Alice', '!damage 20 --type magical --hit 11', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(10); // 30 - 20
    });

    it('spell-invisible with --difficulty impossible: React 50 / 4 = 12 (12 passes): Defense applies to a magical hit, 20 - 10 = 10', async () => {
      await thresholdTable();
      await table.passTurn();
      const out = await table.say('Alice', '!defend --action defend --situation spell-invisible --difficulty impossible --react-roll 12', ['Bob']);
      expect(all(out)).toMatch(/React d100 12 vs 50 impossible \(quarter\) = 12: success/);
      const hit = await table.say('Alice', '!damage 20 --type magical --hit 8', ['Bob']); // 8 + 5 = 13 > 12
      expect(all(hit)).toMatch(/Hit chance 8 \+ 5 invisible spell = 13 beats Magical Armor 12.*20 - 10 Defense = 10/s);
      expect(table.attr('Bob', 'vitality')).toBe(20);
    });

    it('spectator: a plain perceive check (51 > 50 fails): no defense, the attack hits', async () => {
      await thresholdTable();
      await table.passTurn();
      const out = await table.say('Alice', '!defend --action defend --situation spectator --perception-roll 51 --roll 1', ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 51 vs 50: failure.*Spectator not perceived: no defense, the attack hits/s);
      expect(table.memory('Bob').pendingDefense).toEqual({ result: 'fail', situation: 'spectator', perceived: false });
    });

    it('spectator: a counter after a passed perceive check (50) draws the spectator into the Turn Tracker at initiative 0', async () => {
      await thresholdTable();
      await table.passTurn(); // Goblin 1, Goblin 2, Bob
      const crate = table.id('Crate');
      const out = await table.say('Alice', `!defend --action counter --situation spectator --vs ${crate} --perception-roll 50`, ['Bob']);
      const card = all(out);
      expect(card).toMatch(/Perceive d100 50 vs 50: success.*Counter attack against Crate.*Crate is drawn into the battle/s);
      expect(card).toMatch(/added to the Turn Tracker at initiative 0/);
      expect(table.mock.turnOrder().map((entry) => [entry.id, entry.pr])).toEqual([
        [table.id('Goblin 1'), 12],
        [table.id('Goblin 2'), 8],
        [table.id('Bob'), 15],
        [crate, 0],
      ]);
      expect(table.memory('Bob')).toBeUndefined(); // a counter leaves no pending defense
    });

    it('spectator: a counter whose perceive check fails (51) draws no one in', async () => {
      await thresholdTable();
      await table.passTurn();
      const crate = table.id('Crate');
      const out = await table.say('Alice', `!defend --action counter --situation spectator --vs ${crate} --perception-roll 51`, ['Bob']);
      expect(all(out)).toMatch(/Spectator not perceived/);
      expect(all(out)).not.toMatch(/drawn into the battle/);
      expect(table.mock.turnOrder().map((entry) => entry.id)).not.toContain(crate);
    });

    it('guard --ally: the guard\'s roll (Bob, 55) becomes the ally\'s pending defense: Goblin 1 takes 20 - 5 = 15', async () => {
      await thresholdTable();
      await table.passTurn(); // Goblin 1 acts; Bob guards him anyway (a guard is another's defensive action)
      const goblin = table.id('Goblin 1');
      const out = await table.say('Alice', `!defend --action guard --ally ${goblin} --roll 55`, ['Bob']);
      expect(all(out)).toMatch(/Defend d100 55 vs 55: success.*Kept for the next hit on Goblin 1 \(front\).*Goblin 1 keeps the better defense: success/s);
      expect(table.memory('Bob')).toBeUndefined();
      // Marked as a guard's (rules.md, "Guard keeps the better"): Goblin 1 has not defended itself.
      expect(table.memory('Goblin 1')).toEqual({ pendingDefense: { result: 'success', situation: 'front', perceived: false, byGuard: true } });
      await table.say('GM', '!damage 20 --hit 21', ['Goblin 1']); // 21 > Physical 20
      expect(table.bar('Goblin 1')).toBe(15); // 30 - (20 - 5)
    });

    it('guard: the ally keeps the better of its own defense and the guard\'s', async () => {
      await thresholdTable();
      await table.passTurn(); // Goblin 1 acts: Goblin 2 and Bob defend
      const goblin = table.id('Goblin 2');
      await table.say('GM', '!defend --action defend --roll 40', ['Goblin 2']); // 40 <= 40: success
      const out = await table.say('Alice', `!defend --action guard --ally ${goblin} --roll 90`, ['Bob']); // the guard fails
      expect(all(out)).toMatch(/Goblin 2 keeps the better defense: success/);
      expect(table.memory('Goblin 2').pendingDefense.result).toBe('success');
      await table.say('GM', '!defend --action defend --roll 41', ['Goblin 2']); // its own check now fails
      await table.say('Alice', `!defend --action guard --ally ${goblin} --roll 10`, ['Bob']);
      expect(table.memory('Goblin 2').pendingDefense.result).toBe('success');
    });

    it('the gates come before skill and counter: a failed React check (projectile, 26 > 25) means no skill in time', async () => {
      await thresholdTable();
      await table.passTurn();
      const goblin = table.id('Goblin 1');
      let out = await table.say('Alice', `!defend --action skill --situation projectile --react-roll 26 --vs ${goblin} --skill Parry`, ['Bob']);
      expect(all(out)).toMatch(/React d100 26 vs 50 hard \(half\) = 25: failure.*React check failed: no defensive skill in time/s);
      expect(all(out)).not.toMatch(/Defensive skill "Parry"/);
      out = await table.say('Alice', `!defend --action skill --situation projectile --react-roll 25 --vs ${goblin} --skill Parry`, ['Bob']);
      expect(all(out)).toMatch(/React d100 25 vs 50 hard \(half\) = 25: success.*Defensive skill "Parry" against Goblin 1/s);
      out = await table.say('Alice', `!defend --action counter --situation behind --perception-roll 26 --vs ${goblin}`, ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 26 vs 50 hard \(half\) = 25: failure.*Behind: attack not perceived, no defense/s);
      expect(all(out)).not.toMatch(/Counter attack/);
      out = await table.say('Alice', `!defend --action counter --situation behind --perception-roll 25 --vs ${goblin}`, ['Bob']);
      expect(all(out)).toMatch(/Perceive d100 25 vs 50 hard \(half\) = 25: success.*Counter attack against Goblin 1/s);
      expect(table.memory('Bob')).toBeUndefined(); // skills and counters leave no pending defense
    });

    it('a defense made for the front, without the perceive gate, counts as none against an attack from behind', async () => {
      await thresholdTable();
      await table.passTurn();
      await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
      const out = await table.say('Alice', '!damage 20 --hit 14 --situation behind', ['Bob']);
      expect(all(out)).toMatch(
        /The pending defense was made against front, without the perceive check behind needs: it counts as none.*Hit chance 14 \+ 5 behind = 19/s,
      );
      expect(table.attr('Bob', 'vitality')).toBe(10); // 30 - 20: no Defense
      expect(table.memory('Bob')).toBeUndefined();
    });

    it('a front defense still answers an attack from the side (no gate needed): 17 + 2 = 19, 20 - 10 = 10', async () => {
      await thresholdTable();
      await table.passTurn();
      await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
      await table.say('Alice', '!damage 20 --hit 17 --situation side', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(20);
    });

    it('the acting token (top of the Turn Tracker) cannot defend or guard', async () => {
      await thresholdTable(); // Bob's turn
      for (const action of ['defend --roll 1', `guard --ally ${table.id('Goblin 1')} --roll 1`, `counter --vs ${table.id('Goblin 1')}`, 'skill']) {
        const out = await table.say('Alice', `!defend --action ${action}`, ['Bob']);
        expect(whispered(out, 'Alice').join('\n')).toMatch(/Bob: it is this token's turn \(top of the Turn Tracker\)/);
        expect(publicFromScript(out)).toEqual([]);
      }
      expect(table.memory('Bob')).toBeUndefined();
      expect(table.memory('Goblin 1')).toBeUndefined();
    });

    it('evade, react and !stance are refused naming the edition', async () => {
      await thresholdTable();
      await table.passTurn();
      let out = await table.say('Alice', '!defend --action evade --roll 3', ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/--action evade means nothing in the threshold edition.*use --action defend/);
      out = await table.say('Alice', `!defend --action react --vs ${table.id('Goblin 1')} --roll 3`, ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/--action react means nothing in the threshold edition/);
      out = await table.say('Alice', '!stance reactive', ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/the threshold edition has no stances/i);
      expect(table.memory('Bob')).toBeUndefined();
      expect(table.markers('Bob')).toEqual([]);
    });

    it('soak-only flags are refused naming the threshold edition; back in soak, --hit is refused naming soak', async () => {
      await thresholdTable();
      await table.passTurn();
      for (const line of ['!damage 20 --pierce 50', '!damage 20 --to soul', '!damage --instant-kill']) {
        const out = await table.say('GM', line, ['Goblin 1']);
        const flag = line.match(/--([a-z-]+)/)![1];
        expect(whispered(out, 'gm')[0]).toMatch(new RegExp(`--${flag} means nothing in the threshold edition`));
      }
      for (const line of [`!defend --action defend --aided-by ${table.id('Goblin 1')} --roll 10`, '!defend --action defend --mental --roll 10']) {
        const out = await table.say('Alice', line, ['Bob']);
        const flag = line.includes('--aided-by') ? 'aided-by' : 'mental';
        expect(whispered(out, 'Alice')[0]).toMatch(new RegExp(`--${flag} means nothing in the threshold edition`));
      }
      expect(table.bar('Goblin 1')).toBe(30);
      expect(table.attr('Bob', 'vitality')).toBe(30);
      expect(table.memory('Bob')).toBeUndefined();
      await table.say('GM', '!defense-round config edition soak');
      const out = await table.say('GM', '!damage 20 --hit 19', ['Goblin 1']);
      expect(whispered(out, 'gm')[0]).toMatch(/--hit means nothing in the soak edition/);
      expect(table.bar('Goblin 1')).toBe(30);
    });

    it('a dead token makes no defense', async () => {
      await thresholdTable();
      await table.passTurn();
      await table.say('GM', '!damage 30', ['Bob']); // 30 - 30 = 0: dead
      const out = await table.say('Alice', '!defend --action defend --roll 1', ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/Bob: this character is dead and makes no defense/);
    });
  });

  describe('death and the Vitality Saves, across rounds', () => {
    it('a hit to 0 is death (the dead marker); the free save needs no exp attribute and stands Bob up at 1', async () => {
      await thresholdTable(); // Bob has no exp attribute; it is his own turn, and saves stay allowed
      const out = await table.say('GM', '!damage 30', ['Bob']); // no --hit: the hit is decided; 30 - 30 = 0
      expect(all(out)).toMatch(/No hit chance given: the hit is taken as decided.*Vitality 30 -> 0.*Dies at 0/s);
      expect(table.attr('Bob', 'vitality')).toBe(0);
      expect(table.markers('Bob')).toEqual(['dead']);
      expect(table.memory('Bob')).toEqual({ roundsDead: 0 });
      // A dead token takes no more damage.
      const again = await table.say('GM', '!damage 5', ['Bob']);
      expect(all(again)).toMatch(/Dead: takes no damage \(Vitality 0\)/);
      expect(table.attr('Bob', 'vitality')).toBe(0);
      const saved = await table.say('Alice', '!defend --action save --roll 50', ['Bob']); // 50 <= 50
      expect(all(saved)).toMatch(/Vitality save d100 50 vs 50: success.*Stands back up: Vitality 0 -> 1/s);
      expect(all(saved)).not.toMatch(/EXP/);
      expect(table.attr('Bob', 'vitality')).toBe(1);
      expect(table.markers('Bob')).toEqual([]);
      expect(table.memory('Bob')).toBeUndefined();
    });

    it('every death gets its own free save: dead again at 1 - 5 = -4, the new free try needs no EXP either', async () => {
      await thresholdTable();
      await table.say('GM', '!damage 30', ['Bob']);
      await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      await table.say('GM', '!damage 5', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(-4);
      expect(table.memory('Bob')).toEqual({ roundsDead: 0 });
      const out = await table.say('Alice', '!defend --action save --roll 90', ['Bob']);
      expect(all(out)).toMatch(/Vitality save d100 90 vs 50: failure.*Still dead: 3 more tries, one a round, each for 1d% EXP/s);
      expect(table.memory('Bob')).toEqual({ roundsDead: 0, freeSaveUsed: true, triedThisRound: true });
    });

    it('an unused free save is not lost: made in a later round, it is still free', async () => {
      await thresholdTable({ exp: 50 });
      await table.say('GM', '!damage 30', ['Bob']);
      await table.say('GM', '!defense-round next-round');
      expect(table.memory('Bob')).toEqual({ roundsDead: 1 });
      await table.say('Alice', '!defend --action save --roll 90', ['Bob']);
      expect(table.attr('Bob', 'exp')).toBe(50);
      expect(table.memory('Bob')).toEqual({ roundsDead: 1, freeSaveUsed: true, triedThisRound: true });
    });

    it('paid saves: one a round for 1d% EXP, the cost rolled first; EXP short takes nothing and uses the try', async () => {
      await thresholdTable({ exp: 50 });
      await table.say('GM', '!damage 30', ['Bob']);
      // Round 1 (the round of death): the free save fails.
      await table.say('Alice', '!defend --action save --roll 51', ['Bob']);
      expect(table.attr('Bob', 'exp')).toBe(50);
      const second = await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(whispered(second, 'Alice')[0]).toMatch(/Bob: this round's try is used \(one try a round\)/);
      expect(table.attr('Bob', 'vitality')).toBe(0);

      // Round 2: no --roll, so two dice: the cost (30) first, then the save (90). EXP 50 - 30 = 20.
      await table.say('GM', '!defense-round next-round');
      table.mock.dice.force(30, 90);
      let out = await table.say('Alice', '!defend --action save', ['Bob']);
      expect(table.mock.dice.pendingForced()).toEqual([]);
      expect(all(out)).toMatch(/Save costs 1d% EXP: 30, EXP 50 -> 20.*Vitality save d100 90 vs 50: failure.*Still dead: 2 more tries/s);
      expect(table.attr('Bob', 'exp')).toBe(20);
      expect(table.memory('Bob')).toEqual({ roundsDead: 1, freeSaveUsed: true, triedThisRound: true });
      out = await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/this round's try is used/);
      expect(table.attr('Bob', 'exp')).toBe(20);

      // Round 3: the cost 45 is more than EXP 20: not made, nothing taken, the try used.
      await table.say('GM', '!defense-round next-round');
      table.mock.dice.force(45);
      out = await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(table.mock.dice.pendingForced()).toEqual([]); // with --roll only the cost die is rolled
      expect(all(out)).toMatch(/Save costs 1d% EXP: 45, but EXP is 20: not made, nothing taken, this round's try is used/);
      expect(all(out)).not.toMatch(/Vitality save d100/); // no save was rolled
      expect(table.attr('Bob', 'exp')).toBe(20);
      expect(table.attr('Bob', 'vitality')).toBe(0);
      expect(table.markers('Bob')).toEqual(['dead']);
      out = await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/this round's try is used/);

      // Round 4, the last: cost 20 <= 20, EXP 0; the save 50 <= 50 stands Bob up at 1.
      await table.say('GM', '!defense-round next-round');
      table.mock.dice.force(20);
      out = await table.say('Alice', '!defend --action save --roll 50', ['Bob']);
      expect(all(out)).toMatch(/Save costs 1d% EXP: 20, EXP 20 -> 0.*Vitality save d100 50 vs 50: success.*Stands back up: Vitality 0 -> 1/s);
      expect(table.attr('Bob', 'exp')).toBe(0);
      expect(table.attr('Bob', 'vitality')).toBe(1);
      expect(table.markers('Bob')).toEqual([]);
      expect(table.memory('Bob')).toBeUndefined();
    });

    it('a paid save with no exp attribute is refused naming it, and uses nothing: the round\'s try stays', async () => {
      await thresholdTable();
      await table.say('GM', '!damage 30', ['Bob']);
      await table.say('Alice', '!defend --action save --roll 90', ['Bob']); // the free one fails
      await table.say('GM', '!defense-round next-round');
      const out = await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/Bob: .*"exp"/);
      expect(table.memory('Bob')).toEqual({ roundsDead: 1, freeSaveUsed: true });
      // The GM adds EXP to the sheet (the add event tells the script): the same round's try is there.
      table.mock.userCreate('attribute', { characterid: table.scene.characters.Bob, name: 'exp', current: 40 });
      await table.mock.settle();
      table.mock.dice.force(15);
      await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(table.attr('Bob', 'exp')).toBe(25); // 40 - 15
      expect(table.attr('Bob', 'vitality')).toBe(1);
    });

    it('after the fourth round ends there is no save: dead for good (one try in each of the four rounds)', async () => {
      await thresholdTable();
      await table.say('GM', '!damage 30', ['Bob']);
      for (let round = 0; round < 3; round += 1) await table.say('GM', '!defense-round next-round');
      expect(table.memory('Bob')).toEqual({ roundsDead: 3 });
      // Round 4 still has its try (here the free one): it fails.
      const last = await table.say('Alice', '!defend --action save --roll 90', ['Bob']);
      expect(all(last)).toMatch(/Still dead: no try left after this round/);
      await table.say('GM', '!defense-round next-round');
      expect(table.memory('Bob')).toEqual({ roundsDead: 4, freeSaveUsed: true });
      const out = await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/Bob: dead for good: no save is left \(The Defensive Turn: "After 4 rounds you are simply dead"/);
      expect(table.attr('Bob', 'vitality')).toBe(0);
      expect(table.markers('Bob')).toEqual(['dead']);
    });

    it('rounds that end by the Turn Tracker wrapping count too: four wraps with no try, and the save is refused', async () => {
      await thresholdTable();
      await table.say('GM', '!damage 30', ['Bob']);
      // Bob, Goblin 1, Goblin 2: three turns bring Bob back on top and end a round.
      for (let turn = 0; turn < 12; turn += 1) await table.passTurn();
      expect(table.memory('Bob')).toEqual({ roundsDead: 4 });
      const out = await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(whispered(out, 'Alice')[0]).toMatch(/dead for good/);
    });

    it('heal refuses a dead token', async () => {
      await thresholdTable();
      await table.say('GM', '!damage 30', ['Goblin 1']); // 30 - 30 = 0: dead
      expect(table.markers('Goblin 1')).toEqual(['dead']);
      const out = await table.say('GM', '!heal 5', ['Goblin 1']);
      expect(whispered(out, 'gm')[0]).toMatch(/Goblin 1 is dead: healing does not bring the dead back/);
      expect(publicFromScript(out)).toEqual([]);
      expect(table.bar('Goblin 1')).toBe(0);
      expect(table.markers('Goblin 1')).toEqual(['dead']);
    });
  });

  describe('!damage --undo', () => {
    async function deadBobWithPaidSaveDue(): Promise<void> {
      await thresholdTable({ exp: 50 });
      await table.say('GM', '!damage 30', ['Bob']);
      await table.say('Alice', '!defend --action save --roll 90', ['Bob']); // the free save fails
      await table.say('GM', '!defense-round next-round');
    }

    it('the GM undoes a paid save that stood Bob up: EXP, Vitality, the dead marker and the state come back; the player who made it cannot', async () => {
      await deadBobWithPaidSaveDue();
      table.mock.dice.force(30);
      await table.say('Alice', '!defend --action save --roll 10', ['Bob']); // 50 - 30 = 20 EXP; stands at 1
      expect(table.attr('Bob', 'exp')).toBe(20);
      expect(table.attr('Bob', 'vitality')).toBe(1);
      // A save a player made is not hers to take back (she would try a failed one again, paying once).
      const mine = await table.say('Alice', '!damage --undo');
      expect(whispered(mine, 'Alice')[0]).toMatch(/you have applied no damage that can be undone/i);
      expect(table.attr('Bob', 'exp')).toBe(20);
      const out = await table.say('GM', '!damage --undo');
      expect(publicFromScript(out)).toEqual(['Save undone: Bob (Vitality 1 -> 0).']);
      expect(table.attr('Bob', 'exp')).toBe(50);
      expect(table.attr('Bob', 'vitality')).toBe(0);
      expect(table.markers('Bob')).toEqual(['dead']);
      expect(table.memory('Bob')).toEqual({ roundsDead: 1, freeSaveUsed: true });
      // The round's try is back.
      table.mock.dice.force(5);
      await table.say('Alice', '!defend --action save --roll 90', ['Bob']);
      expect(table.attr('Bob', 'exp')).toBe(45);
    });

    it('the GM undoes a player\'s failed paid save; another player cannot', async () => {
      await deadBobWithPaidSaveDue();
      table.mock.dice.force(30, 90);
      await table.say('Alice', '!defend --action save', ['Bob']);
      expect(table.attr('Bob', 'exp')).toBe(20);
      const ben = await table.say('Ben', '!damage --undo');
      expect(whispered(ben, 'Ben')[0]).toMatch(/you have applied no damage that can be undone/i);
      expect(table.attr('Bob', 'exp')).toBe(20);
      const out = await table.say('GM', '!damage --undo');
      expect(publicFromScript(out)).toEqual(['Save undone: Bob.']);
      expect(table.attr('Bob', 'exp')).toBe(50);
      expect(table.attr('Bob', 'vitality')).toBe(0);
      expect(table.memory('Bob')).toEqual({ roundsDead: 1, freeSaveUsed: true });
    });

    // Fixed bug, kept as a guard: undo puts paid EXP back.
    it('undoes a paid save whose EXP is a per-token override (a generic goblin): the EXP comes back', async () => {
      await thresholdTable();
      await table.say('GM', '!defense-round set exp 50', ['Goblin 1']);
      await table.say('GM', '!damage 30', ['Goblin 1']); // 30 - 30 = 0: dead
      await table.say('GM', '!defend --action save --roll 90', ['Goblin 1']); // the free save fails (90 > 45)
      await table.say('GM', '!defense-round next-round');
      table.mock.dice.force(30);
      await table.say('GM', '!defend --action save --roll 10', ['Goblin 1']); // 50 - 30 = 20; 10 <= 45 stands it up
      expect(table.memory('Goblin 1').overrides).toEqual({ exp: 20 });
      expect(table.bar('Goblin 1')).toBe(1);
      const out = await table.say('GM', '!damage --undo');
      expect(publicFromScript(out)).toEqual(['Save undone: Goblin 1.']);
      expect(table.bar('Goblin 1')).toBe(0);
      expect(table.memory('Goblin 1').overrides).toEqual({ exp: 50 });
    });

    it('undoes a threshold hit: Vitality and the used pending defense come back; a killing hit loses its marker', async () => {
      await thresholdTable();
      await table.passTurn();
      await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
      await table.say('Alice', '!damage 20 --hit 19', ['Bob']); // 30 - (20 - 10) = 20
      expect(table.attr('Bob', 'vitality')).toBe(20);
      const out = await table.say('Alice', '!damage --undo');
      expect(publicFromScript(out)).toEqual(['Damage undone: Bob (Vitality 20 -> 30).']);
      expect(table.attr('Bob', 'vitality')).toBe(30);
      expect(table.memory('Bob')).toEqual({ pendingDefense: { result: 'success', situation: 'front', perceived: false } });
      await table.say('Alice', '!damage 40', ['Bob']); // 30 - (40 - 10) = 0: dead
      expect(table.markers('Bob')).toEqual(['dead']);
      await table.say('Alice', '!damage --undo');
      expect(table.attr('Bob', 'vitality')).toBe(30);
      expect(table.markers('Bob')).toEqual([]);
      expect(table.memory('Bob')).toEqual({ pendingDefense: { result: 'success', situation: 'front', perceived: false } });
    });
  });

  describe('switching editions', () => {
    /** In soak: Goblin 1 incapacitated at -3, Goblin 2 dying at -15, the Crate dead at -15, Bob standing and reactive. */
    async function soakTableInEveryCondition(): Promise<void> {
      table = await openTable(mode);
      await table.say('GM', '!damage 33 --pierce 100', ['Goblin 1']); // 30 - 33 = -3: incapacitated, one save owed
      await table.say('GM', '!damage 45 --pierce 100', ['Goblin 2']); // 30 - 45 = -15 in one hit: dying, three saves
      await table.say('GM', '!damage 25', ['Crate']); // no armor: 20 - 25 = -5, incapacitated
      await table.say('GM', '!damage 10', ['Crate']); // -15: an incapacitated token at -10 or below is dead
      await table.say('Alice', '!stance reactive', ['Bob']);
      await table.passTurn(); // Goblin 1's turn
      await table.say('Alice', '!defend --action react --vs ' + table.id('Goblin 1') + ' --roll 10', ['Bob']);
      expect(table.markers('Goblin 1')).toEqual(['sleepy']);
      expect(table.markers('Goblin 2')).toEqual(['death-zone']);
      expect(table.markers('Crate')).toEqual(['dead']);
      expect(table.markers('Bob')).toEqual(['fist']);
      expect(table.memory('Bob')).toEqual({ stance: 'reactive', reactions: { [table.id('Goblin 1')]: true } });
    }

    it('to threshold: at or below 0 is dead with a fresh free save; soak\'s dead stays dead for good; the reactive stance goes with its marker', async () => {
      await soakTableInEveryCondition();
      const out = await table.say('GM', '!defense-round config edition threshold');
      expect(whispered(out, 'gm')[0]).toMatch(/Edition is now threshold\..*Bars, worn armor and the Turn Tracker are kept/);
      expect([table.bar('Goblin 1'), table.bar('Goblin 2'), table.bar('Crate'), table.attr('Bob', 'vitality')]).toEqual([-3, -15, -15, 70]);
      expect(table.markers('Goblin 1')).toEqual(['dead']);
      expect(table.markers('Goblin 2')).toEqual(['dead']);
      expect(table.markers('Crate')).toEqual(['dead']);
      expect(table.markers('Bob')).toEqual([]);
      expect(table.memory('Goblin 1')).toEqual({ roundsDead: 0 });
      expect(table.memory('Goblin 2')).toEqual({ roundsDead: 0 });
      expect(table.memory('Crate')).toEqual({ roundsDead: 4, freeSaveUsed: true });
      expect(table.memory('Bob')).toBeUndefined(); // stance and this round's reaction cleared
      // The soak-dead Crate has no save here.
      const crate = await table.say('GM', '!defend --action save --roll 1', ['Crate']);
      expect(whispered(crate, 'gm')[0]).toMatch(/Crate: dead for good/);
      // The soak-dying goblin gets threshold's free save (no EXP on its sheet): 45 <= 45 stands it up.
      await table.say('GM', '!defend --action save --roll 45', ['Goblin 2']);
      expect(table.bar('Goblin 2')).toBe(1);
      expect(table.markers('Goblin 2')).toEqual([]);
    });

    it('threshold, soak, threshold again: a token down at -5 is remembered through soak and shows dead again', async () => {
      await thresholdTable();
      await table.say('GM', '!damage 35', ['Goblin 2']); // 30 - 35 = -5: dead in threshold
      expect(table.markers('Goblin 2')).toEqual(['dead']);
      await table.say('GM', '!defense-round config edition soak');
      expect(table.markers('Goblin 2')).toEqual(['sleepy']); // incapacitated in soak's terms
      const back = await table.say('GM', '!defense-round config edition threshold');
      expect(whispered(back, 'gm')[0]).toMatch(/read again/);
      expect(table.markers('Goblin 2')).toEqual(['dead']);
    });

    it('a token never met, at -12 when soak is left, is judged dead by soak when first met in threshold; at -3 it gets the free save', async () => {
      table = await openTable(mode);
      table.mock.token('Goblin 1').set('bar1_value', -12); // another script's writes: the script never meets them
      table.mock.token('Goblin 2').set('bar1_value', -3);
      expect(table.memory('Goblin 1')).toBeUndefined();
      await table.say('GM', '!defense-round config edition threshold');
      const dead = await table.say('GM', '!defend --action save --roll 1', ['Goblin 1']);
      expect(whispered(dead, 'gm')[0]).toMatch(/Goblin 1: dead for good/);
      await table.say('GM', '!defend --action save --roll 1', ['Goblin 2']); // 1 <= 45: stands up
      expect(table.bar('Goblin 2')).toBe(1);
    });

    it('a token remembered only for its worn armor, at -12 when soak is left, is judged dead by soak: dead for good in threshold', async () => {
      table = await openTable(mode);
      await table.say('GM', '!damage 10', ['Goblin 1']); // the armor holds; only the wear is remembered
      expect(table.memory('Goblin 1')).toEqual({ wear: { physical: 18 } });
      table.mock.token('Goblin 1').set('bar1_value', -12); // another script's write: no event, no condition kept
      await table.say('GM', '!defense-round config edition threshold');
      const out = await table.say('GM', '!defend --action save --roll 1', ['Goblin 1']);
      expect(whispered(out, 'gm')[0]).toMatch(/Goblin 1: dead for good/);
    });

    it('back to soak: a threshold-dead token at -3 is incapacitated with no save owed; dead for good stays dead', async () => {
      await soakTableInEveryCondition();
      await table.say('GM', '!defense-round config edition threshold');
      await table.say('GM', '!defense-round config edition soak');
      expect(table.markers('Goblin 1')).toEqual(['sleepy']);
      const save = await table.say('GM', '!defend --action save --roll 1', ['Goblin 1']);
      expect(whispered(save, 'gm')[0]).toMatch(/Goblin 1: no save is owed/);
      expect(table.bar('Goblin 1')).toBe(-3); // no save owed: nothing stood it up
      expect(table.markers('Goblin 2')).toEqual(['dead']); // -15 is past soak's -10
      expect(table.markers('Crate')).toEqual(['dead']);
      expect(table.memory('Crate')).toEqual({ life: { condition: 'dead', savesOwed: 0 } });
      expect(table.markers('Bob')).toEqual([]);
    });

    it('threshold -> soak: a pending defense is cleared', async () => {
      await thresholdTable();
      await table.passTurn(); // Goblin 1's turn
      await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
      expect(table.memory('Bob').pendingDefense.result).toBe('success');
      await table.say('GM', '!defense-round config edition soak');
      expect(table.memory('Bob')).toBeUndefined();
      expect(table.markers('Bob')).toEqual([]);
    });

    // Fixed bug, kept as a guard: rules.md "Switching editions": dead for good stays dead.
    it('threshold -> soak: a token dead for good after its four rounds stays dead at -3, and has no save either way', async () => {
      await thresholdTable();
      await table.say('GM', '!damage 33', ['Goblin 1']); // 30 - 33 = -3: dead
      for (let round = 0; round < 4; round += 1) await table.say('GM', '!defense-round next-round');
      expect(table.memory('Goblin 1')).toEqual({ roundsDead: 4 });
      await table.say('GM', '!defense-round config edition soak');
      expect(table.markers('Goblin 1')).toEqual(['dead']); // not incapacitated: dead for good
      await table.say('GM', '!defend --action save --roll 1', ['Goblin 1']);
      expect(table.bar('Goblin 1')).toBe(-3);
      // And back again: still no save.
      await table.say('GM', '!defense-round config edition threshold');
      const again = await table.say('GM', '!defend --action save --roll 1', ['Goblin 1']);
      expect(whispered(again, 'gm')[0]).toMatch(/dead for good/);
      expect(table.bar('Goblin 1')).toBe(-3);
    });

    // Fixed bug, kept as a guard: rules.md "Switching editions": dead after its last try is dead for good.
    it('threshold -> soak right after the last try (round 4) failed: dead for good, stays dead', async () => {
      await thresholdTable();
      await table.say('GM', '!damage 33', ['Goblin 1']); // -3: dead
      for (let round = 0; round < 3; round += 1) await table.say('GM', '!defense-round next-round');
      const last = await table.say('GM', '!defend --action save --roll 90', ['Goblin 1']); // round 4's try fails
      expect(whispered(last, 'gm').join('\n')).toMatch(/no try left after this round/);
      await table.say('GM', '!defense-round config edition soak');
      expect(table.markers('Goblin 1')).toEqual(['dead']);
    });

    it('a token entering threshold at or below 0 starts its four-round window in the round of the switch', async () => {
      table = await openTable(mode);
      await table.say('GM', '!damage 33 --pierce 100', ['Goblin 1']); // soak: -3
      await table.say('GM', '!defense-round next-round');
      await table.say('GM', '!defense-round next-round');
      await table.say('GM', '!defense-round config edition threshold');
      expect(table.memory('Goblin 1')).toEqual({ roundsDead: 0 });
      for (let round = 0; round < 3; round += 1) await table.say('GM', '!defense-round next-round');
      await table.say('GM', '!defend --action save --roll 45', ['Goblin 1']); // round 4 of the window: allowed
      expect(table.bar('Goblin 1')).toBe(1);
    });
  });

  describe('hand edits of the Vitality bar', () => {
    it('a hand edit to 0 or below marks the token dead; lower again is set back; above 0 revives it', async () => {
      await thresholdTable();
      await handEdit('Goblin 1', -3);
      expect(table.bar('Goblin 1')).toBe(-3);
      expect(table.markers('Goblin 1')).toEqual(['dead']);
      expect(table.memory('Goblin 1')).toEqual({ roundsDead: 0 });
      const lower = await handEdit('Goblin 1', -8);
      expect(table.bar('Goblin 1')).toBe(-3);
      expect(whispered(lower, 'gm').join('\n')).toMatch(/Dead: takes no damage, Vitality set back from -8 to -3/);
      const raised = await handEdit('Goblin 1', 5);
      expect(whispered(raised, 'gm').join('\n')).toMatch(/Revived/);
      expect(table.bar('Goblin 1')).toBe(5);
      expect(table.markers('Goblin 1')).toEqual([]);
      expect(table.memory('Goblin 1')).toBeUndefined();
    });

    it('a token the script remembers, edited by hand to -3, gets the death card (GM) and the short line (everyone)', async () => {
      await thresholdTable();
      await table.say('GM', '!defend --action defend --roll 90', ['Goblin 2']); // remembered: a pending failure
      const out = await handEdit('Goblin 2', -3);
      expect(whispered(out, 'gm').join('\n')).toMatch(/Goblin 2: Vitality edited by hand.*Vitality 30 -> -3.*Dies at 0/s);
      expect(publicFromScript(out)).toEqual(['Goblin 2: Dead.']);
      expect(table.memory('Goblin 2')).toEqual({ roundsDead: 0 }); // the death clears the pending defense
    });

    // Fixed bug, kept as a guard: commands.md "Output": any new condition is said.
    it('a token the script has not met, edited by hand from 30 to -3, gets the death card and the short line too', async () => {
      await thresholdTable();
      const out = await handEdit('Goblin 1', -3);
      expect(whispered(out, 'gm').join('\n')).toMatch(/Goblin 1: Vitality edited by hand.*Vitality 30 -> -3.*Dies at 0/s);
      expect(publicFromScript(out)).toEqual(['Goblin 1: Dead.']);
    });

    it('a hand edit to exactly 0 is death too', async () => {
      await thresholdTable();
      await handEdit('Goblin 2', 0);
      expect(table.markers('Goblin 2')).toEqual(['dead']);
    });

    it('with armor on manual edits, a decrease uses only a pending success (Defense 5): 30 -> 18 typed becomes 30 - (12 - 5) = 23', async () => {
      await thresholdTable();
      await table.say('GM', '!defense-round config armor-on-manual-edits on');
      // Bob's turn: both goblins are in their defensive turn.
      await table.say('GM', '!defend --action defend --roll 40', ['Goblin 1']); // 40 <= 40: success
      await table.say('GM', '!defend --action defend --roll 41', ['Goblin 2']); // failure
      const out = await handEdit('Goblin 1', 18);
      expect(table.bar('Goblin 1')).toBe(23);
      expect(whispered(out, 'gm').join('\n')).toMatch(/read through armor.*12 - 5 Defense = 7.*Vitality 30 -> 23/s);
      expect(table.memory('Goblin 1')).toBeUndefined(); // used up
      // A failed defense, or none: the loss stands as typed; no hit chance is compared (12 is under armor 20).
      await handEdit('Goblin 2', 18);
      expect(table.bar('Goblin 2')).toBe(18);
      await handEdit('Goblin 1', 11);
      expect(table.bar('Goblin 1')).toBe(11); // 23 - 12, no defense pending now
      // Through armor to 0 or below: dead.
      await handEdit('Goblin 2', -2);
      expect(table.bar('Goblin 2')).toBe(-2);
      expect(table.markers('Goblin 2')).toEqual(['dead']);
    });
  });

  describe('!attack: a guard answers for an ally (rules.md, "Guard keeps the better")', () => {
    /** Goblin 1 acts and attacks Bob and Goblin 2 (hit chance 25 beats both armors). */
    async function guardTable(): Promise<void> {
      await thresholdTable();
      await table.passTurn();
      await table.say('GM', `!attack 20 --hit 25 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    }

    it('an ally answered by the defense it made ahead is not guarded in the attack: refused, nothing answered', async () => {
      await thresholdTable();
      await table.passTurn();
      await table.say('GM', '!defend --action defend --roll 99', ['Goblin 2']); // fails, made ahead: it answers the attack
      await table.say('GM', `!attack 20 --hit 25 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
      const out = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action guard --ally ${table.id('Goblin 2')} --roll 10`);
      expect(whispered(out, 'Alice').join('\n')).toMatch(/Goblin 2 answers attack A1 with the defense it made ahead: nothing answered/);
      expect(table.stored().exchange.attacks.A1.answers).toEqual({});
    });

    it('a guard names another defender of the attack, one its answerer sees; --ally goes with guard only', async () => {
      await guardTable();
      const self = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action guard --ally ${table.id('Bob')} --roll 10`);
      expect(whispered(self, 'Alice').join('\n')).toMatch(/--ally: a guard answers for another defender of this attack/);
      const stranger = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action guard --ally ${table.id('Goblin 1')} --roll 10`);
      expect(whispered(stranger, 'Alice').join('\n')).toMatch(/--ally: a guard answers for another defender of this attack/);
      const stray = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action defend --ally ${table.id('Goblin 2')} --roll 10`);
      expect(whispered(stray, 'Alice').join('\n')).toMatch(/--ally goes with --action guard/);
      table.mock.token('Goblin 2').set('layer', 'gmlayer');
      const hidden = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action guard --ally ${table.id('Goblin 2')} --roll 10`);
      // A token she does not see is, to her, no token at all (as `!defend --ally` says it).
      expect(whispered(hidden, 'Alice').join('\n')).toMatch(/--ally: no token on the table has that id/i);
      expect(table.stored().exchange.attacks.A1.answers).toEqual({});
    });

    it('the guard\'s success is kept as the ally\'s answer, typed as the guard\'s roll was; the ally answers no more', async () => {
      await thresholdTable();
      await table.passTurn();
      // The Crate (no character, no armor) keeps the attack open.
      await table.say('GM', `!attack 20 --hit 25 --ids ${table.id('Bob')} ${table.id('Goblin 2')} ${table.id('Crate')}`, ['Goblin 1']);
      const out = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action guard --ally ${table.id('Goblin 2')} --roll 10`);
      expect(whispered(out, 'Alice').join('\n')).toMatch(/Bob: Defend d100 10 vs 55: success; Goblin 2: guarded\. Waiting for Crate\./);
      const answers = table.stored().exchange.attacks.A1.answers;
      expect(answers[table.id('Bob')]).toEqual({ word: 'guard', roll: 10, success: true, typed: true });
      expect(answers[table.id('Goblin 2')]).toEqual({ word: 'guarded', answer: { result: 'success', situation: 'front', perceived: false, byGuard: true }, roll: 10, success: true, typed: true });
      const again = await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action defend --roll 99`);
      expect(whispered(again, 'gm').join('\n')).toMatch(/Goblin 2 has answered attack A1 already \(guarded\)/);
      const settled = await table.say('GM', `!defend --answer A1 --ids ${table.id('Crate')} --action none`);
      expect(all(settled)).toMatch(/Goblin 2: Guarded 10 \(typed\): success/);
      expect([table.attr('Bob', 'vitality'), table.bar('Goblin 2')]).toEqual([10, 15]); // Bob 30 - 20; Goblin 2 30 - (20 - 5)
    });
  });
});
