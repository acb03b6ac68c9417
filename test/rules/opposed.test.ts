// The `opposed` edition (Opposed Rolls) as pure rules: resolveOpposedAttack and affordableMode
// (src/rules/opposed/rules.ts), and the edition's damage plan on hand-made facts
// (src/rules/opposed/index.ts). rules.md, "Edition `opposed`" and its Clarifications.
// Every number is worked by hand in the comment beside it.
import { planCheck, planHit } from '../support/plans';
import { stancePlan } from '../../src/rules/stance';
import { registered } from '../../src/rules/editions';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  affordableMode,
  COUNTERATTACK_MARGIN,
  INITIATIVE_COST,
  resolveOpposedAttack,
  type OpposedAttackInput,
  type OpposedTurn,
} from '../../src/rules/opposed/rules';
import { DEFENSE_MODES, type DefenseMode } from '../../src/rules/opposed/state';
import { opposed as declared_opposed, type OpposedAnswer, type OpposedState } from '../../src/rules/opposed'
const opposed = registered(declared_opposed);
import { isRefusal, type Facts, type Outcome, type PlanContext, type Resolution } from '../../src/rules/edition';
import { bar, cardLines, cardOf, CONTEXT, factsOf, notANumber, outcomeOf, rollsFor, rollsGiven, val } from '../support/facts';
import { parseLine, UsageError } from '../../src/text/args';

/** The seed's defender: passive_defense 10, so a d20 of 8 makes D 18; Bob leads the Turn Tracker at 15. */
function attack(over: Partial<Omit<OpposedAttackInput, 'defense' | 'turn'>> & { defense?: Partial<OpposedAttackInput['defense']>; turn?: Partial<OpposedTurn> } = {}) {
  const { defense, turn, ...rest } = over;
  return resolveOpposedAttack({
    weapon: 8,
    attack: 24,
    armorPenetration: 0,
    mode: 'passive',
    defenseRoll: 8,
    armorScore: 0,
    ...rest,
    defense: { passive: 10, active: 0, full: 0, ...defense },
    turn: { defender: 12, current: 15, limit: 20, ...turn },
  });
}

describe('opposed: resolveOpposedAttack', () => {
  describe('the seed example: A 24 against D 18 (d20 8 + passive 10), weapon 8', () => {
    it('hits for 8 + (24 - 18) = 14; above armor 13 it pierces: Vitality', () => {
      const out = attack({ armorScore: 13 });
      expect(out.hits).toBe(true);
      expect(out.damage).toEqual({ amount: 14, to: 'vitality' });
      expect(out.steps).toContainEqual({ kind: 'defense-roll', mode: 'passive', roll: 8, passive: 10, active: 0, full: 0, total: 18 });
      expect(out.steps).toContainEqual({ kind: 'attack', attack: 24, defense: 18, hits: true });
      expect(out.steps).toContainEqual({ kind: 'damage', weapon: 8, margin: 6, damage: 14 });
      expect(out.steps).toContainEqual({ kind: 'armor', armorScore: 13, penetration: 0, effective: 13, damage: 14, pierces: true });
    });

    it('armor 14: 14 does not exceed 14, so the same 14 comes off stamina', () => {
      expect(attack({ armorScore: 14 }).damage).toEqual({ amount: 14, to: 'stamina' });
    });

    it('armor 30: still the full 14, on stamina (armor never reduces the amount)', () => {
      expect(attack({ armorScore: 30 }).damage).toEqual({ amount: 14, to: 'stamina' });
    });

    it('no armor (0): the hit pierces', () => {
      expect(attack({ armorScore: 0 }).damage).toEqual({ amount: 14, to: 'vitality' });
    });
  });

  describe('armor penetration lowers the armor, never below 0', () => {
    it('armor 16 and no AP: 14 <= 16, stamina', () => {
      expect(attack({ armorScore: 16 }).damage).toEqual({ amount: 14, to: 'stamina' });
    });

    it('armor 16, AP 5: effective 11, 14 > 11, Vitality', () => {
      const out = attack({ armorScore: 16, armorPenetration: 5 });
      expect(out.damage).toEqual({ amount: 14, to: 'vitality' });
      expect(out.steps).toContainEqual({ kind: 'armor', armorScore: 16, penetration: 5, effective: 11, damage: 14, pierces: true });
    });

    it('armor 16, AP 2: effective 14, 14 does not exceed it: still stamina', () => {
      expect(attack({ armorScore: 16, armorPenetration: 2 }).damage).toEqual({ amount: 14, to: 'stamina' });
    });

    it('armor 3, AP 10: effective max(0, -7) = 0', () => {
      const out = attack({ armorScore: 3, armorPenetration: 10 });
      expect(out.steps).toContainEqual({ kind: 'armor', armorScore: 3, penetration: 10, effective: 0, damage: 14, pierces: true });
    });
  });

  describe('hit only when A > D', () => {
    it('a tie (A 18 = D 18) is no hit: no damage, no damage steps', () => {
      const out = attack({ attack: 18 });
      expect(out.hits).toBe(false);
      expect(out.damage).toBeNull();
      expect(out.steps.map((s) => s.kind)).toEqual(['defense-roll', 'attack']);
      expect(out.steps).toContainEqual({ kind: 'attack', attack: 18, defense: 18, hits: false });
    });

    it('A 19 against D 18: a hit by 1, damage 8 + 1 = 9', () => {
      expect(attack({ attack: 19 }).damage).toEqual({ amount: 9, to: 'vitality' });
    });

    it('weapon 0: a hit by 1 still deals 1', () => {
      expect(attack({ attack: 19, weapon: 0, armorScore: 1 }).damage).toEqual({ amount: 1, to: 'stamina' }); // 1 does not exceed armor 1
    });
  });

  describe('defense modes (Ruling: passive; + active_defense; + full_defense on top)', () => {
    const defense = { passive: 10, active: 4, full: 3 };
    it('passive: 8 + 10 = 18 (the active and full bonuses are not added)', () => {
      const out = attack({ defense, mode: 'passive' });
      expect(out.steps[0]).toEqual({ kind: 'defense-roll', mode: 'passive', roll: 8, passive: 10, active: 0, full: 0, total: 18 });
      expect(out.initiativeAfter).toBeNull();
    });

    it('active: 8 + 10 + 4 = 22, costs 5 initiative (12 -> 7)', () => {
      const out = attack({ defense, mode: 'active' });
      expect(out.steps[0]).toEqual({ kind: 'defense-roll', mode: 'active', roll: 8, passive: 10, active: 4, full: 0, total: 22 });
      expect(out.damage).toEqual({ amount: 10, to: 'vitality' }); // 8 + (24 - 22)
      expect(out.initiativeAfter).toBe(7);
      expect(out.steps).toContainEqual({ kind: 'initiative', mode: 'active', cost: 5, before: 12, after: 7 });
    });

    it('full: 8 + 10 + 4 + 3 = 25 beats 24: a miss, but it still costs 10 (12 -> 2)', () => {
      const out = attack({ defense, mode: 'full' });
      expect(out.steps[0]).toEqual({ kind: 'defense-roll', mode: 'full', roll: 8, passive: 10, active: 4, full: 3, total: 25 });
      expect(out.hits).toBe(false);
      expect(out.damage).toBeNull();
      expect(out.initiativeAfter).toBe(2);
    });

    it('the costs are 0, 5 and 10', () => {
      expect(INITIATIVE_COST).toEqual({ passive: 0, active: 5, full: 10 });
    });
  });

  describe('overwhelmed: more than the limit below the current turn (15 - 20 = -5 is the floor)', () => {
    it('full from 5: 5 - 10 = -5, exactly at the limit: allowed', () => {
      const out = attack({ mode: 'full', turn: { defender: 5 } });
      expect(out.mode).toBe('full');
      expect(out.initiativeAfter).toBe(-5);
      expect(out.steps.some((s) => s.kind === 'overwhelmed')).toBe(false);
    });

    it('full from 4: 4 - 10 = -6 is past it; active (4 - 5 = -1) is affordable', () => {
      const out = attack({ mode: 'full', defense: { active: 4, full: 3 }, turn: { defender: 4 } });
      expect(out.mode).toBe('active');
      expect(out.initiativeAfter).toBe(-1);
      expect(out.steps[0]).toEqual({ kind: 'overwhelmed', wanted: 'full', cost: 10, initiative: 4, current: 15, limit: 20, used: 'active' });
      // The defense is the active one: 8 + 10 + 4 = 22, full_defense not added.
      expect(out.steps).toContainEqual({ kind: 'defense-roll', mode: 'active', roll: 8, passive: 10, active: 4, full: 0, total: 22 });
    });

    it('full from 0: active 0 - 5 = -5 is exactly at the limit: active', () => {
      expect(attack({ mode: 'full', turn: { defender: 0 } }).mode).toBe('active');
    });

    it('full from -1: neither full (-11) nor active (-6): passive, nothing paid', () => {
      const out = attack({ mode: 'full', defense: { active: 4, full: 3 }, turn: { defender: -1 } });
      expect(out.mode).toBe('passive');
      expect(out.initiativeAfter).toBeNull();
      expect(out.steps).toContainEqual({ kind: 'overwhelmed', wanted: 'full', cost: 10, initiative: -1, current: 15, limit: 20, used: 'passive' });
      expect(out.steps).toContainEqual({ kind: 'defense-roll', mode: 'passive', roll: 8, passive: 10, active: 0, full: 0, total: 18 });
      expect(out.steps.some((s) => s.kind === 'initiative')).toBe(false);
    });

    it('active from 0: -5 allowed; from -1: -6 past the limit, passive', () => {
      expect(attack({ mode: 'active', turn: { defender: 0 } }).initiativeAfter).toBe(-5);
      const out = attack({ mode: 'active', turn: { defender: -1 } });
      expect(out.mode).toBe('passive');
      expect(out.initiativeAfter).toBeNull();
    });

    it('the limit is a setting: limit 5 with the current turn 15 puts the floor at 10 (12 - 5 = 7 < 10)', () => {
      const out = attack({ mode: 'active', turn: { defender: 12, limit: 5 } });
      expect(out.mode).toBe('passive');
      expect(attack({ mode: 'active', turn: { defender: 15, limit: 5 } }).initiativeAfter).toBe(10); // 15 - 5 = 10 = floor
    });

    it('decimal initiatives: 12.5 - 5 = 7.5, exactly 20 below 27.5: allowed', () => {
      const out = attack({ mode: 'active', turn: { defender: 12.5, current: 27.5 } });
      expect(out.mode).toBe('active');
      expect(out.initiativeAfter).toBe(7.5);
    });

    it('decimal initiatives: 12.5 - 5 = 7.5 is 20.25 below 27.75: passive', () => {
      expect(attack({ mode: 'active', turn: { defender: 12.5, current: 27.75 } }).mode).toBe('passive');
    });

    // Fixed bug, kept as a guard: (rules.md, Clarifications: "Exactly at the limit is allowed" and "Initiative may carry
    // decimals"): rules.ts affordableMode compares in binary floats, 12.1 - 5 = 7.1 (7.09999...)
    // against 27.1 - 20 = 7.100000000000001, so a defender exactly at the limit is overwhelmed.
    it('decimal initiatives: 12.1 - 5 = 7.1 is exactly 20 below 27.1: allowed', () => {
      expect(affordableMode('active', { defender: 12.1, current: 27.1, limit: 20 })).toBe('active');
    });

    // Fixed bug, kept as a guard: (rules.md: "active -5 to the defender's Turn Tracker entry"; decimals "read and written
    // back as numbers"): rules.ts writes 12.3 - 5 as 7.300000000000001, not 7.3.
    it('decimal initiatives: 12.3 pays 5 and is left at 7.3', () => {
      expect(attack({ mode: 'active', turn: { defender: 12.3, current: 15 } }).initiativeAfter).toBe(7.3);
    });
  });

  describe('the Turn Tracker cannot say', () => {
    it('a defender not in it (or not a number) defends in its mode without cost, and it is said', () => {
      const out = attack({ mode: 'full', defense: { active: 4, full: 3 }, turn: { defender: null } });
      expect(out.mode).toBe('full');
      expect(out.initiativeAfter).toBeNull();
      expect(out.steps[0]).toEqual({ kind: 'no-initiative-entry', mode: 'full' });
      expect(out.steps).toContainEqual({ kind: 'defense-roll', mode: 'full', roll: 8, passive: 10, active: 4, full: 3, total: 25 });
    });

    it('the current turn not a number: the cost is paid (-100 - 10 = -110) and the limit not checked', () => {
      const out = attack({ mode: 'full', turn: { defender: -100, current: null } });
      expect(out.mode).toBe('full');
      expect(out.initiativeAfter).toBe(-110);
      expect(out.steps[0]).toEqual({ kind: 'current-not-a-number', mode: 'full' });
    });

    it('passive says nothing about the Turn Tracker', () => {
      expect(attack({ mode: 'passive', turn: { defender: null } }).steps.map((s) => s.kind)).toEqual(['defense-roll', 'attack', 'damage', 'armor']);
    });
  });

  describe('counterattack: an active or full defense beating the attack by 10 or more', () => {
    const defense = { passive: 10, active: 4, full: 3 };
    it('active D 22 against A 12: by exactly 10, a counterattack', () => {
      const out = attack({ defense, mode: 'active', attack: 12 });
      expect(out.counterattack).toBe(true);
      expect(out.steps.at(-1)).toEqual({ kind: 'counterattack', margin: 10 });
      expect(out.initiativeAfter).toBe(7); // still pays
    });

    it('active D 22 against A 13: by 9, none', () => {
      const out = attack({ defense, mode: 'active', attack: 13 });
      expect(out.counterattack).toBe(false);
      expect(out.steps.some((s) => s.kind === 'counterattack')).toBe(false);
    });

    it('full D 25 against A 1: by 24, a counterattack', () => {
      expect(attack({ defense, mode: 'full', attack: 1 }).steps.at(-1)).toEqual({ kind: 'counterattack', margin: 24 });
    });

    it('passive never counterattacks: D 18 against A 8 (by 10) or A -100', () => {
      expect(attack({ defense, mode: 'passive', attack: 8 }).counterattack).toBe(false);
      expect(attack({ defense, mode: 'passive', attack: -100 }).counterattack).toBe(false);
    });

    it('an active defense overwhelmed down to passive does not counterattack (D 18 against A 8)', () => {
      const out = attack({ defense, mode: 'active', attack: 8, turn: { defender: -1 } });
      expect(out.mode).toBe('passive');
      expect(out.counterattack).toBe(false);
    });

    it('the margin is 10', () => {
      expect(COUNTERATTACK_MARGIN).toBe(10);
    });
  });
});

describe('opposed: affordableMode', () => {
  const turn = (defender: number | null, current: number | null = 15, limit = 20): OpposedTurn => ({ defender, current, limit });
  it.each([
    ['full', 5, 'full'], // 5 - 10 = -5 = 15 - 20
    ['full', 4, 'active'], // -6 < -5; 4 - 5 = -1
    ['full', 0, 'active'], // 0 - 5 = -5
    ['full', -1, 'passive'],
    ['active', 0, 'active'],
    ['active', -1, 'passive'],
    ['passive', -1000, 'passive'],
  ] as const)('wanted %s from %d: %s', (wanted, defender, used) => {
    expect(affordableMode(wanted, turn(defender))).toBe(used);
  });

  it('no entry or no current number: the wanted mode', () => {
    expect(affordableMode('full', turn(null))).toBe('full');
    expect(affordableMode('full', turn(-1000, null))).toBe('full');
  });
});

// ---------------------------------------------------------------------------------------------
// The edition's damage plan on hand-made facts.

/** Goblin 1 (30/10/10, passive defense 10) at initiative 12 in a turn at 15. */
function facts(over: Partial<Facts<OpposedState, OpposedAnswer>> = {}): Facts<OpposedState, OpposedAnswer> {
  return factsOf<OpposedState, OpposedAnswer>({}, {
    id: 'tok-1',
    name: 'Goblin 1',
    bars: { vitality: bar(30, 30), soul: bar(10, 10), power: bar(10, 10) },
    values: { passive_defense: val(10) },
    initiative: 12,
    currentTurn: { initiative: 15, hidden: false },
    ...over,
  });
}

/** `!damage` as the pipeline runs it: a --defense-roll given is handed over; `rolls` are the dice rolled, in the plan's order. */
function damage(line: string, f: Facts<OpposedState, OpposedAnswer>, rolls: number[] = [], context: PlanContext = CONTEXT): Resolution<OpposedState, OpposedAnswer> {
  const parsed = parseLine(line);
  const plan = planHit(opposed, parsed, context);
  return plan.resolve(f, rollsGiven(plan, parsed, rolls));
}

const outcome = outcomeOf;
/** The card as the defender's is laid out (the token's own id said as its name). */
const card = (o: Outcome<OpposedState, OpposedAnswer>) => cardOf(opposed, o, facts());
const lines = (o: Outcome<OpposedState, OpposedAnswer>) => cardLines(opposed, o, facts());

describe('opposed: hit.plan', () => {
  it('the seed example: 30 - 14 = 16 Vitality, said step by step', () => {
    const o = outcome(damage('!damage 8 --attack 24 --defense-roll 8', facts()));
    expect(o.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 16 }]);
    expect(o.headline).toBe('hit');
    expect(lines(o)).toEqual([
      'Defense (passive) d20 8 + 10 passive = 18',
      'Attack 24 beats defense 18: a hit',
      'Damage 8 + 6 margin = 14',
      'Effective armor 0 - 0 AP = 0: 14 beats it, Vitality damage',
      'Vitality 30 -> 16',
    ]);
  });

  it('armor_score 14: the 14 comes off stamina, the Power resource: 10 - 14 = -4', () => {
    const o = outcome(damage('!damage 8 --attack 24 --defense-roll 8', facts({ values: { passive_defense: val(10), armor_score: val(14) } })));
    expect(o.changes).toEqual([{ kind: 'bar', resource: 'power', to: -4 }]);
    expect(card(o).summary).toBe('Goblin 1 is hit (stamina).');
  });

  it('stamina mapped elsewhere: the plan writes to that resource (soul 10 -> -4)', () => {
    const f = facts({ values: { passive_defense: val(10), armor_score: val(14) } });
    const o = outcome(damage('!damage 8 --attack 24 --defense-roll 8', f, [], { ...CONTEXT, stamina: 'soul' }));
    expect(o.changes).toEqual([{ kind: 'bar', resource: 'soul', to: -4 }]);
  });

  it('--ap 5 against armor_score 16: effective 11, so Vitality (30 -> 16)', () => {
    const f = facts({ values: { passive_defense: val(10), armor_score: val(16) } });
    expect(outcome(damage('!damage 8 --attack 24 --defense-roll 8', f)).changes).toEqual([{ kind: 'bar', resource: 'power', to: -4 }]);
    expect(outcome(damage('!damage 8 --attack 24 --defense-roll 8 --ap 5', f)).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 16 }]);
  });

  it('a tie is missed and changes nothing', () => {
    const o = outcome(damage('!damage 8 --attack 18 --defense-roll 8', facts()));
    expect(o.headline).toBe('missed');
    expect(o.changes).toEqual([]);
    expect(card(o).summary).toBe('Goblin 1 is missed.');
  });

  it('the stance is the default mode; --defense-mode overrides it for this attack', () => {
    const values = { passive_defense: val(10), active_defense: val(4), full_defense: val(3) };
    // stance full: D = 8 + 10 + 4 + 3 = 25 > 24: missed, 12 -> 2
    expect(outcome(damage('!damage 8 --attack 24 --defense-roll 8', facts({ values, stance: 'full' }))).changes).toEqual([{ kind: 'initiative', to: 2 }]);
    // --defense-mode passive: D 18, hit for 14, nothing paid
    expect(outcome(damage('!damage 8 --attack 24 --defense-roll 8 --defense-mode passive', facts({ values, stance: 'full' }))).changes).toEqual([
      { kind: 'bar', resource: 'vitality', to: 16 },
    ]);
    // no stance: passive
    expect(card(outcome(damage('!damage 8 --attack 24 --defense-roll 8', facts({ values })))).title).toBe('Goblin 1 loses 14 Vitality (attack 24 vs passive defense)');
  });

  it('the overwhelmed fall-back is said: full from 4 with the current turn 15 -> active', () => {
    const values = { passive_defense: val(10), active_defense: val(4), full_defense: val(3) };
    const o = outcome(damage('!damage 8 --attack 24 --defense-roll 8 --defense-mode full', facts({ values, initiative: 4 })));
    expect(lines(o)[0]).toBe('Overwhelmed: full defense costs 10 initiative, and 4 - 10 is more than 20 below the current turn (15): active defense instead');
    // D 22, hit for 8 + 2 = 10: 30 -> 20; 4 -> -1
    expect(o.changes).toEqual([
      { kind: 'bar', resource: 'vitality', to: 20 },
      { kind: 'initiative', to: -1 },
    ]);
  });

  it('the overwhelm limit comes from the settings (limit 5: floor 10, 12 - 5 = 7 is past it)', () => {
    const o = outcome(damage('!damage 8 --attack 24 --defense-roll 8 --defense-mode active', facts(), [], { ...CONTEXT, overwhelmLimit: 5 }));
    expect(o.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 16 }]);
    expect(lines(o)[0]).toMatch(/^Overwhelmed: active defense .* passive defense instead$/);
  });

  it('a counterattack is said in the card and the short line', () => {
    const values = { passive_defense: val(10), active_defense: val(4) };
    const o = outcome(damage('!damage 8 --attack 12 --defense-roll 8 --defense-mode active', facts({ values })));
    expect(card(o).summary).toBe('Goblin 1 is missed and scores a counterattack.');
    expect(lines(o)).toContain('Counterattack: the defense beats the attack by 10 (its damage is the table\'s call)');
    const by9 = outcome(damage('!damage 8 --attack 13 --defense-roll 8 --defense-mode active', facts({ values })));
    expect(card(by9).summary).toBe('Goblin 1 is missed.');
  });

  it('a falling hit (30 -> 0) is headlined "falls" and says incapacitated; 30 -> 1 does not', () => {
    const falls = outcome(damage('!damage 24 --attack 24 --defense-roll 8', facts())); // 24 + 6 = 30
    expect(falls.headline).toBe('falls');
    expect(card(falls).summary).toBe('Goblin 1 is hit and falls.');
    const stands = outcome(damage('!damage 23 --attack 24 --defense-roll 8', facts())); // 29
    expect(stands.headline).toBe('hit');
    expect(opposed.life.condition({}, 0)).toBe('incapacitated');
    expect(opposed.life.condition({}, 1)).toBe('none');
    expect(opposed.life.deadForGood({}, -1000)).toBe(false);
  });

  it('missing defense modifiers and armor count as 0: D = the roll alone', () => {
    const o = outcome(damage('!damage 8 --attack 24 --defense-roll 8', facts({ values: {} })));
    expect(lines(o)[0]).toBe('Defense (passive) d20 8 + 0 passive = 8');
    expect(o.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 6 }]); // 8 + 16 = 24: 30 -> 6
  });

  it.each(['passive_defense', 'active_defense', 'full_defense', 'armor_score'] as const)('%s not a number refuses the token, naming it, and pays nothing', (key) => {
    const r = damage('!damage 8 --attack 24 --defense-roll 8 --defense-mode active', facts({ values: { passive_defense: val(10), [key]: notANumber } }));
    expect(isRefusal(r)).toBe(true);
    expect(r).toMatchObject({ kind: 'refused', reason: expect.stringContaining(key) });
  });

  it('the bar the hit lands on not a number refuses the token: no initiative paid either', () => {
    const f = facts({ bars: { vitality: { value: null, max: null }, soul: { value: 10, max: 10 }, power: { value: 10, max: 10 } } });
    expect(damage('!damage 8 --attack 24 --defense-roll 8 --defense-mode active', f)).toEqual({ kind: 'bar', resource: 'vitality' });
  });

  it('--defense-roll is used for every target (the die listed with its flag); without it each target rolls a d20', () => {
    // The pipeline hands the given --defense-roll to every target instead of rolling the die.
    expect(planHit(opposed, parseLine('!damage 8 --attack 24 --defense-roll 8'), CONTEXT).dice).toEqual([{ name: 'defense', sides: 20, flag: 'defense-roll' }]);
    const plan = planHit(opposed, parseLine('!damage 8 --attack 24'), CONTEXT);
    expect(plan.dice).toEqual([{ name: 'defense', sides: 20, flag: 'defense-roll' }]);
    expect(plan.readsTurnOrder).toBe(true);
    expect(outcome(plan.resolve(facts(), rollsFor(plan, [8]))).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 16 }]);
    expect(outcome(plan.resolve(facts(), { defense: 8 })).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 16 }]);
  });

  it('--attack is required; the numbers are checked', () => {
    expect(() => planHit(opposed, parseLine('!damage 8'), CONTEXT)).toThrow(/--attack is required/);
    // --defense-roll's range is its die's, 1 to 20: the one parser checks it (a typed flag of kind die).
    expect(() => planHit(opposed, parseLine('!damage 8 --attack 24 --defense-roll 21'), CONTEXT)).toThrow('--defense-roll must be from 1 to 20 (got 21)');
    expect(() => planHit(opposed, parseLine('!damage 8 --attack 24 --defense-mode total'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(opposed, parseLine('!damage 8 --attack 24 --ap -1'), CONTEXT)).toThrow(UsageError);
  });

  it('!defend is refused naming where the defense is rolled', () => {
    expect(opposed.check.refused).toMatch(/rolled inside !damage/);
    expect(() => planCheck(opposed, parseLine('!defend'))).toThrow(UsageError);
  });

  it('stances: active and full are kept, passive is the default (none kept)', () => {
    expect(opposed.stance.modes).toEqual(['passive', 'active', 'full']);
    const stanceOf = (mode: string) => outcome(stancePlan(opposed.stance, mode).resolve(facts(), {})).stance;
    expect(stanceOf('active')).toBe('active');
    expect(stanceOf('full')).toBe('full');
    expect(stanceOf('passive')).toBeNull();
  });
});

// ---------------------------------------------------------------------------------------------
// Properties.

const modeArb = fc.constantFrom<DefenseMode>(...DEFENSE_MODES);
const inputArb: fc.Arbitrary<OpposedAttackInput> = fc.record({
  weapon: fc.integer({ min: 0, max: 1000 }),
  attack: fc.integer({ min: -1000, max: 1000 }),
  armorPenetration: fc.integer({ min: 0, max: 1000 }),
  mode: modeArb,
  defenseRoll: fc.integer({ min: 1, max: 20 }),
  defense: fc.record({ passive: fc.integer({ min: -50, max: 50 }), active: fc.integer({ min: -50, max: 50 }), full: fc.integer({ min: -50, max: 50 }) }),
  armorScore: fc.integer({ min: -50, max: 1000 }),
  turn: fc.record({
    defender: fc.option(fc.integer({ min: -100, max: 100 }), { nil: null }),
    current: fc.option(fc.integer({ min: -100, max: 100 }), { nil: null }),
    limit: fc.integer({ min: 0, max: 1000 }),
  }),
});

const total = (input: OpposedAttackInput, mode: DefenseMode) =>
  input.defenseRoll + input.defense.passive + (mode !== 'passive' ? input.defense.active : 0) + (mode === 'full' ? input.defense.full : 0);

describe('opposed properties', () => {
  it('a hit deals at least B + 1, exactly B + (A - D); a miss deals nothing', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const out = resolveOpposedAttack(input);
        const d = total(input, out.mode);
        expect(out.hits).toBe(input.attack > d);
        if (out.hits) {
          expect(out.damage!.amount).toBeGreaterThanOrEqual(input.weapon + 1);
          expect(out.damage!.amount).toBe(input.weapon + input.attack - d);
        } else {
          expect(out.damage).toBeNull();
        }
      }),
    );
  });

  it('more AP never moves damage from Vitality to stamina, nor changes the amount', () => {
    fc.assert(
      fc.property(inputArb, fc.integer({ min: 0, max: 1000 }), (input, more) => {
        const low = resolveOpposedAttack(input);
        const high = resolveOpposedAttack({ ...input, armorPenetration: input.armorPenetration + more });
        expect(high.damage?.amount).toBe(low.damage?.amount);
        if (low.damage?.to === 'vitality') expect(high.damage?.to).toBe('vitality');
      }),
    );
  });

  it('the mode used never costs more than the one wanted, and never breaks the limit (numbers on both sides)', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const out = resolveOpposedAttack(input);
        expect(INITIATIVE_COST[out.mode]).toBeLessThanOrEqual(INITIATIVE_COST[input.mode]);
        const { defender, current, limit } = input.turn;
        if (defender !== null && current !== null) {
          const paid = INITIATIVE_COST[out.mode];
          if (paid > 0) expect(defender - paid).toBeGreaterThanOrEqual(current - limit);
          // ... and it is the dearest affordable one: the next dearer mode up to the wanted one breaks the limit.
          const dearer = DEFENSE_MODES.filter((m) => INITIATIVE_COST[m] > paid && INITIATIVE_COST[m] <= INITIATIVE_COST[input.mode]);
          for (const m of dearer) expect(defender - INITIATIVE_COST[m]).toBeLessThan(current - limit);
          expect(out.initiativeAfter).toBe(paid === 0 ? null : defender - paid);
        } else {
          expect(out.mode).toBe(input.mode);
          expect(out.initiativeAfter).toBe(INITIATIVE_COST[input.mode] > 0 && defender !== null ? defender - INITIATIVE_COST[input.mode] : null);
        }
      }),
    );
  });

  it('a counterattack exactly when the mode used is not passive and D - A >= 10', () => {
    fc.assert(
      fc.property(inputArb, (input) => {
        const out = resolveOpposedAttack(input);
        expect(out.counterattack).toBe(out.mode !== 'passive' && total(input, out.mode) - input.attack >= 10);
      }),
    );
  });
});
