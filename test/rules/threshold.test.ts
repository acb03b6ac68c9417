// The `threshold` edition (The Defensive Turn), pure: rules.md "Common to all editions",
// "Edition `threshold`" with its Clarifications, and "Switching editions", one rule at a time, from
// hand-built `Facts` (no Roll20).
import { planCheck, planHit } from '../support/plans';
import { toFlagTable } from '../../src/text/flags';
import { registered } from '../../src/rules/editions';
import { givenDice } from '../../src/commands/pipeline';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTION,
  type BarFact,
  type Facts,
  type OtherFacts,
  type Outcome,
  type Step,
  type ValueFact,
  type ValueKey,
} from '../../src/rules/edition';
import { flagElsewhere } from '../../src/rules/editions';
import { wordsOf } from '../../src/rules/sharedSteps';
import { threshold as declared_threshold, thresholdWords, type ThresholdState } from '../../src/rules/threshold'
const threshold = registered(declared_threshold);
import { resolveThresholdHit, type ThresholdHit } from '../../src/rules/threshold/hit';
import { isLayoutStep, type ThresholdStep } from '../../src/rules/threshold/words';
import type { ThresholdPending } from '../../src/rules/threshold/state';
import { resolveThresholdDefend, type ThresholdDefendInput, type ThresholdDefendOutcome } from '../../src/rules/threshold/check';
import { resolveThresholdSave, type ThresholdSaveInput, type ThresholdSaveOutcome } from '../../src/rules/threshold/check';
import { THRESHOLD_SITUATIONS, type ThresholdSituation } from '../../src/rules/threshold/situations';
import { checkFlags, parseLine, UsageError } from '../../src/text/args';
import { bar, cardLines, cardOf, CONTEXT, factsOf, notANumber, offers, outcomeOf, rollsFor, rollsGiven, val } from '../support/facts';

// ---------------------------------------------------------------------------------------------
// Hand-built facts

const NAMES: Record<string, string> = { 'goblin-1': 'Goblin Boss', 'alice-1': 'Alice', 'spec-1': 'Hooded Stranger' };
const nameOf = (id: string) => NAMES[id] ?? id;

/** Bob of The Defensive Turn (Vitality 30, Defense 10, Physical Armor 18), with the check targets a sheet would give. */
const BOB_VALUES: Partial<Record<ValueKey, ValueFact>> = {
  armor_physical: val(18),
  armor_magical: val(12),
  armor_defense: val(10),
  defend_check: val(55),
  reaction_check: val(60),
  perception_check: val(50),
  save_check: val(40),
  exp: val(200),
};

interface Over {
  vitality?: BarFact;
  values?: Partial<Record<ValueKey, ValueFact>>;
  acting?: boolean;
  armorSource?: boolean;
  /** Bob's defense made ahead (his answer on file). */
  answer?: ThresholdPending | null;
  others?: Record<string, OtherFacts<ThresholdState, ThresholdPending>>;
}

function bob(state: ThresholdState = {}, over: Over = {}): Facts<ThresholdState, ThresholdPending> {
  return factsOf<ThresholdState, ThresholdPending>(state, {
    bars: { vitality: over.vitality ?? bar(30, 30), soul: bar(20, 20), power: bar(30, 30) },
    values: over.values ?? BOB_VALUES,
    armorSource: over.armorSource ?? true,
    acting: over.acting ?? false,
    answer: over.answer ?? null,
    others: over.others ?? {},
    nameOf,
  });
}

/** Bob dead at -3 in the round of his death. */
const deadBob = (state: ThresholdState = { roundsDead: 0 }, over: Over = {}) => bob(state, { vitality: bar(-3, 30), ...over });

const damage = (line: string, facts: Facts<ThresholdState, ThresholdPending> = bob()) => planHit(threshold, parseLine(line), CONTEXT).resolve(facts, {});
/** `!defend` as the pipeline runs it: a roll given with its flag is handed over; `rolls` are the dice rolled, in the plan's order. */
const defend = (line: string, facts: Facts<ThresholdState, ThresholdPending> = bob(), rolls: number[] = []) => {
  const parsed = parseLine(line);
  const plan = planCheck(threshold, parsed);
  return plan.resolve(facts, rollsGiven(plan, parsed, rolls));
};

const vitalityAfter = (outcome: Outcome<ThresholdState, ThresholdPending>) => outcome.changes.find((change) => change.kind === 'bar' && change.resource === 'vitality');

/** A defense made ahead: the token's answer on file. */
const pending = (result: 'success' | 'fail', situation: ThresholdSituation = 'front', perceived = false): ThresholdPending => ({ result, situation, perceived });

/** The card as Bob's is laid out (names from NAMES). */
const card = (outcome: Outcome<ThresholdState, ThresholdPending>) => cardOf(threshold, outcome, bob());
const linesOf = (outcome: Outcome<ThresholdState, ThresholdPending>) => cardLines(threshold, outcome, bob());

/** The rules' own steps of an outcome, in order: not the card's layout (title, public line, result, now, buttons), and without the section each is placed in. */
const ruleSteps = (outcome: Outcome<ThresholdState, ThresholdPending>): Step[] =>
  outcome.steps.filter((step) => !isLayoutStep(step) && step.section !== ACTION).map(({ section: _section, ...step }) => step);

/** One hit on Bob of The Defensive Turn: 20 damage, hit chance 19, Physical Armor 18, Defense 10, Vitality 30. */
function hit(over: Partial<ThresholdHit> = {}): ThresholdHit {
  return { amount: 20, track: 'physical', hit: 19, situation: null, mod: 0, armor: 18, armorDefense: 10, override: null, vitality: 30, state: {}, pending: null, ...over };
}

// ---------------------------------------------------------------------------------------------
// The Defensive Turn, "Example on Taking Damage"

describe('The Defensive Turn: Bob, Vitality 30, Defense 10, Physical Armor 18, hit by 20', () => {
  it('hit chance 19 beats 18; the defense succeeds: 20 - 10 Defense = 10; Vitality 30 -> 20', () => {
    expect(resolveThresholdHit(hit({ override: 'success' }))).toEqual({
      missed: false,
      vitality: 20,
      state: {},
      dies: false,
      answerUsed: true,
      steps: [
        { kind: 'defense-used', result: 'success', source: 'override' },
        { kind: 'hit-check', hit: 19, bonus: 0, mod: 0, total: 19, armor: 18, track: 'physical', hits: true, situation: 'front' },
        { kind: 'armor-defense', before: 20, defense: 10, after: 10 },
        { kind: 'vitality-change', before: 30, after: 20 },
      ],
    });
  });

  it('the defense failed: the whole 20 comes off; Vitality 30 -> 10', () => {
    const out = resolveThresholdHit(hit({ override: 'fail' }));
    expect(out.vitality).toBe(10);
    expect(out.steps).not.toContainEqual(expect.objectContaining({ kind: 'armor-defense' }));
  });

  it('hit chance 18 is "equal to or less than your Physical Armor": no damage', () => {
    const out = resolveThresholdHit(hit({ hit: 18, override: 'fail' }));
    expect(out.missed).toBe(true);
    expect(out.vitality).toBe(30);
    expect(out.steps).toEqual([
      { kind: 'defense-used', result: 'fail', source: 'override' },
      { kind: 'hit-check', hit: 18, bonus: 0, mod: 0, total: 18, armor: 18, track: 'physical', hits: false, situation: 'front' },
    ]);
  });

  it('hit chance 17 from the side: 17 + 2 = 19 beats 18', () => {
    const out = resolveThresholdHit(hit({ hit: 17, situation: 'side', override: 'success' }));
    expect(out.steps[1]).toEqual({ kind: 'hit-check', hit: 17, bonus: 2, mod: 0, total: 19, armor: 18, track: 'physical', hits: true, situation: 'side' });
    expect(out.vitality).toBe(20);
  });

  it.each([
    ['!damage 20 --hit 19 --defense success', 20],
    ['!damage 20 --hit 19 --defense fail', 10],
    ['!damage 20 --hit 18 --defense fail', null],
    ['!damage 20 --hit 17 --situation side --defense success', 20],
  ])('through !damage: %s -> Vitality %s', (line, after) => {
    const outcome = outcomeOf(damage(line));
    expect(outcome.changes).toEqual(after === null ? [] : [{ kind: 'bar', resource: 'vitality', to: after }]);
    expect(outcome.headline).toBe(after === null ? 'missed' : 'hit');
  });

  it('through !defend then !damage: the defense succeeds, then the hit takes 10; the card says every step', () => {
    const defended = outcomeOf(defend('!defend --action defend --roll 30'));
    expect(defended.answer).toEqual({ result: 'success', situation: 'front', perceived: false });
    const outcome = outcomeOf(damage('!damage 20 --hit 19', bob({}, { answer: defended.answer })));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
    expect(outcome.state).toEqual({});
    expect(outcome.answer).toBeNull();
    expect(card(outcome).title).toBe('Bob loses 10 Vitality (20 physical)');
    // A standing token has no "Now" step: the card has no such row.
    expect(card(outcome).rows).toEqual([
      { label: 'Defense', lines: ["Succeeded (from !defend): the armor's Defense applies"] },
      { label: 'Breakdown', lines: ['Hit chance 19 beats Physical Armor 18: a hit', '20 - 10 Defense = 10', 'Vitality 30 -> 20'] },
    ]);
    expect(card(outcome).summary).toBe('Bob is hit.');
  });
});

// ---------------------------------------------------------------------------------------------
// Hit chance against armor: every situation row

/** The hit-chance bonus of each row of The Defensive Turn's table (a projectile's is the weapon's, as --mod). */
const HIT_BONUS: Record<Exclude<ThresholdSituation, 'aoe'>, number> = {
  front: 0,
  'thrown-object': 0,
  'spell-seen': 0,
  behind: 5,
  distracted: 5,
  side: 2,
  projectile: 0,
  'aoe-edge': 0,
  'spell-fast': 2,
  'spell-invisible': 5,
  covert: 0,
  spectator: 0,
};

describe('hit chance against armor (!damage N --hit H)', () => {
  it('the situations are the rows of The Defensive Turn\'s table', () => {
    expect([...THRESHOLD_SITUATIONS].sort()).toEqual([...Object.keys(HIT_BONUS), 'aoe'].sort());
  });

  it.each(Object.entries(HIT_BONUS))('%s: +%i to the hit chance; at 18 in total no damage, at 19 a hit', (situation, bonus) => {
    const miss = outcomeOf(damage(`!damage 20 --hit ${18 - bonus} --situation ${situation} --defense fail`));
    expect(miss.headline).toBe('missed');
    expect(miss.changes).toEqual([]);
    expect(ruleSteps(miss)).toContainEqual({ kind: 'hit-check', hit: 18 - bonus, bonus, mod: 0, total: 18, armor: 18, track: 'physical', hits: false, situation });
    const landed = outcomeOf(damage(`!damage 20 --hit ${19 - bonus} --situation ${situation} --defense fail`));
    expect(landed.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
  });

  it('projectile: the weapon\'s bonus is --mod: 15 + 3 = 18 misses, 16 + 3 = 19 hits', () => {
    expect(outcomeOf(damage('!damage 20 --hit 15 --mod 3 --situation projectile --defense fail')).changes).toEqual([]);
    const outcome = outcomeOf(damage('!damage 20 --hit 16 --mod 3 --situation projectile --defense fail'));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
    expect(linesOf(outcome)).toContain('Hit chance 16 + 3 = 19 beats Physical Armor 18: a hit');
  });

  it('--mod adds in any situation, on top of the situation\'s bonus, and may be negative', () => {
    const behind = outcomeOf(damage('!damage 20 --hit 10 --mod 4 --situation behind --defense fail'));
    expect(linesOf(behind)).toContain('Hit chance 10 + 5 behind + 4 = 19 beats Physical Armor 18: a hit');
    expect(vitalityAfter(behind)).toEqual({ kind: 'bar', resource: 'vitality', to: 10 });
    const lowered = outcomeOf(damage('!damage 20 --hit 20 --mod -2 --defense fail'));
    expect(lowered.changes).toEqual([]);
    expect(linesOf(lowered)).toContain('Hit chance 20 - 2 = 18 vs Physical Armor 18: no damage (at or under the armor)');
  });

  it('aoe: no hit chance needed; a given --hit is not compared, and the breakdown says so', () => {
    const outcome = outcomeOf(damage('!damage 20 --hit 1 --situation aoe --defense fail'));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
    expect(ruleSteps(outcome)).toEqual([
      { kind: 'defense-used', result: 'fail', source: 'override' },
      { kind: 'no-hit-chance', given: 1 },
      { kind: 'vitality-change', before: 30, after: 10 },
    ]);
    expect(linesOf(outcome)).toContain('Area attack: no hit chance needed (the given 1 is not compared)');
    const unasked = outcomeOf(damage('!damage 20 --situation aoe --defense success'));
    expect(ruleSteps(unasked)).toContainEqual({ kind: 'no-hit-chance', given: null });
    expect(linesOf(unasked)).toContain('Area attack: no hit chance needed, every target is hit');
    // a defense still lets the armor's Defense apply against an area attack
    expect(unasked.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
  });

  it('aoe-edge: the hit chance applies (18 misses, 19 hits)', () => {
    expect(outcomeOf(damage('!damage 20 --hit 18 --situation aoe-edge')).headline).toBe('missed');
    expect(outcomeOf(damage('!damage 20 --hit 19 --situation aoe-edge --defense fail')).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
  });

  it('no --hit: the hit is taken as decided, whatever the armor', () => {
    const values = { ...BOB_VALUES, armor_physical: val(1000) };
    const outcome = outcomeOf(damage('!damage 20 --defense fail', bob({}, { values })));
    expect(ruleSteps(outcome)).toEqual([
      { kind: 'defense-used', result: 'fail', source: 'override' },
      { kind: 'hit-decided' },
      { kind: 'vitality-change', before: 30, after: 10 },
    ]);
    expect(linesOf(outcome)).toContain('No hit chance given: the hit is taken as decided');
  });

  it('a magical hit is compared with armor_magical, not armor_physical', () => {
    // Magical Armor 12, Physical 18: 12 misses, 13 hits
    const miss = outcomeOf(damage('!damage 20 --type magical --hit 12 --defense fail'));
    expect(ruleSteps(miss)).toContainEqual({ kind: 'hit-check', hit: 12, bonus: 0, mod: 0, total: 12, armor: 12, track: 'magical', hits: false, situation: 'front' });
    expect(outcomeOf(damage('!damage 20 --type magical --hit 13 --defense fail')).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
    // Magical 25 above Physical 18: 19 misses a magical hit
    const warded = bob({}, { values: { ...BOB_VALUES, armor_magical: val(25) } });
    expect(outcomeOf(damage('!damage 20 --type magical --hit 19', warded)).headline).toBe('missed');
    expect(linesOf(outcomeOf(damage('!damage 20 --type magical --hit 19', warded)))).toContain(
      'Hit chance 19 vs Magical Armor 25: no damage (at or under the armor)',
    );
    expect(planHit(threshold, parseLine('!damage 20 --type magical --hit 13'), CONTEXT).more?.(bob({}, { values: {} }))?.values).toEqual(['armor_magical']);
  });

  it.each(['energy', 'breath'])('--type %s is magical', (type) => {
    expect(ruleSteps(outcomeOf(damage(`!damage 20 --type ${type} --hit 13`)))).toContainEqual(expect.objectContaining({ kind: 'hit-check', armor: 12, track: 'magical' }));
  });

  it('armor_defense reduces magical hits too: 20 - 10 = 10', () => {
    const outcome = outcomeOf(damage('!damage 20 --type magical --hit 13 --defense success'));
    expect(ruleSteps(outcome)).toContainEqual({ kind: 'armor-defense', before: 20, defense: 10, after: 10 });
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
  });

  it('armor that is missing or below 0 counts as 0: 1 hits, 0 does not', () => {
    const bare = bob({}, { values: {} });
    expect(outcomeOf(damage('!damage 20 --hit 1', bare)).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
    expect(outcomeOf(damage('!damage 20 --hit 0', bare)).headline).toBe('missed');
    const below = resolveThresholdHit(hit({ armor: -5, hit: 0 }));
    expect(below.missed).toBe(true);
    expect(below.steps).toContainEqual(expect.objectContaining({ kind: 'hit-check', armor: 0, total: 0 }));
  });

  it('the threshold is the track\'s current protection (worn in soak, 10 of 18), and it never wears', () => {
    const worn = bob({}, { values: { ...BOB_VALUES, armor_physical: val(10, 18) } });
    const outcome = outcomeOf(damage('!damage 20 --hit 11 --defense fail', worn));
    expect(ruleSteps(outcome)).toContainEqual(expect.objectContaining({ kind: 'hit-check', total: 11, armor: 10, hits: true }));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
  });

  it('armor_defense applies on a successful defense whatever the protection (no destroyed armor here)', () => {
    const bare = bob({}, { values: { ...BOB_VALUES, armor_physical: val(0, 18), armor_magical: val(0) } });
    expect(outcomeOf(damage('!damage 20 --hit 5 --defense success', bare)).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
    expect(outcomeOf(damage('!damage 20 --type magical --defense success', bare)).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
  });

  it('a token that represents no character has no armor: the hit is unreduced, and the breakdown says so', () => {
    const nobody = bob({}, { armorSource: false, values: {} });
    const outcome = outcomeOf(damage('!damage 20 --hit 1 --defense success', nobody));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
    expect(ruleSteps(outcome)).toContainEqual({ kind: 'no-character' });
    expect(linesOf(outcome)).toContain('No character, so no armor: no armor threshold and no Defense');
    // a character's token says nothing of the kind
    expect(ruleSteps(outcomeOf(damage('!damage 20 --hit 19')))).not.toContainEqual({ kind: 'no-character' });
  });

  it('a Defense larger than the hit leaves 0, never a heal', () => {
    const out = resolveThresholdHit(hit({ amount: 4, override: 'success' }));
    expect(out.steps).toContainEqual({ kind: 'armor-defense', before: 4, defense: 10, after: 0 });
    expect(out.vitality).toBe(30);
  });

  it('--mod without --hit is a UsageError; so are out-of-range and malformed values', () => {
    expect(() => planHit(threshold, parseLine('!damage 20 --mod 3'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(threshold, parseLine('!damage 20 --mod 3'), CONTEXT)).toThrow('--mod adds to the hit chance and needs --hit');
    expect(() => planHit(threshold, parseLine('!damage 20 --hit 1001'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(threshold, parseLine('!damage 20 --hit 5 --mod -1001'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(threshold, parseLine('!damage 20 --type fire'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(threshold, parseLine('!damage 20 --situation lurking'), CONTEXT)).toThrow(UsageError);
  });

  it.each(['gun', 'spell-unseen'])('--situation %s (a soak row) is refused naming the threshold edition, on !damage and !defend', (situation) => {
    expect(() => planHit(threshold, parseLine(`!damage 20 --situation ${situation}`), CONTEXT)).toThrow(`--situation ${situation} means nothing in the threshold edition`);
    expect(() => planCheck(threshold, parseLine(`!defend --action defend --situation ${situation}`))).toThrow(`--situation ${situation} means nothing in the threshold edition`);
  });

  it('--pierce, --to and --instant-kill are soak only: not in threshold\'s !damage flags, refused naming the edition', () => {
    expect(Object.keys(threshold.hit.flags).sort()).toEqual(['defense', 'hit', 'mod', 'situation', 'type']);
    for (const flag of ['--pierce 10', '--to soul', '--instant-kill']) {
      const line = parseLine(`!damage 20 ${flag}`);
      expect(() => checkFlags(line, toFlagTable(threshold.hit.flags), flagElsewhere('threshold', '!damage'))).toThrow(
        `--${flag.slice(2).split(' ')[0]} means nothing in the threshold edition`,
      );
    }
  });

  it('the plan reads the track\'s armor only against a hit chance, armor_defense only where a success would take it off, and rolls nothing', () => {
    const reads = (line: string, over: Over = {}) => {
      const plan = planHit(threshold, parseLine(line), CONTEXT);
      return [...plan.values, ...(plan.more?.(bob({}, { values: {}, ...over }))?.values ?? [])];
    };
    const success: ThresholdPending = { result: 'success', situation: 'front', perceived: false };
    expect(reads('!damage 20 --hit 19')).toEqual(['armor_physical']);
    expect(reads('!damage 20 --type magical --hit 19')).toEqual(['armor_magical']);
    expect(reads('!damage 20 --hit 19', { answer: success })).toEqual(['armor_physical', 'armor_defense']);
    expect(reads('!damage 20 --defense success')).toEqual(['armor_defense']);
    expect(reads('!damage 20')).toEqual([]);
    // An area attack has no hit chance; the dead and a token with no armor read nothing.
    expect(reads('!damage 20 --hit 19 --situation aoe')).toEqual([]);
    expect(reads('!damage 20 --hit 19', { vitality: bar(0, 30) })).toEqual([]);
    expect(reads('!damage 20 --hit 19', { armorSource: false })).toEqual([]);
    expect(planHit(threshold, parseLine('!damage 20 --hit 19'), CONTEXT).dice).toEqual([]);
  });

  it('bars may go negative: 20 on Vitality 5 leaves -15, and it dies', () => {
    const outcome = outcomeOf(damage('!damage 20', bob({}, { vitality: bar(5, 30) })));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: -15 }]);
    expect(outcome.headline).toBe('dies');
    expect(card(outcome).summary).toBe('Bob is hit and dies.');
  });
});

// ---------------------------------------------------------------------------------------------
// The pending defense answers the attack it was made for

describe('a pending defense answers the situation it was made for', () => {
  it('!damage without --situation takes the pending defense\'s situation, and its hit bonus (14 + 5 behind = 19)', () => {
    const outcome = outcomeOf(damage('!damage 20 --hit 14', bob({}, { answer: pending('success', 'behind', true) })));
    expect(ruleSteps(outcome)).toContainEqual({ kind: 'hit-check', hit: 14, bonus: 5, mod: 0, total: 19, armor: 18, track: 'physical', hits: true, situation: 'behind' });
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
    // the same defense made for the front: 14 does not beat 18
    expect(outcomeOf(damage('!damage 20 --hit 14', bob({}, { answer: pending('success') }))).headline).toBe('missed');
  });

  it.each(['behind', 'distracted', 'covert', 'spectator'] as const)(
    'a front defense (no perceive check) does not answer --situation %s: it counts as none, said in chat',
    (situation) => {
      const outcome = outcomeOf(damage(`!damage 20 --hit 30 --situation ${situation}`, bob({}, { answer: pending('success') })));
      expect(ruleSteps(outcome).slice(0, 2)).toEqual([
        { kind: 'defense-does-not-answer', madeFor: 'front', attack: situation },
        { kind: 'defense-used', result: 'none', source: 'none' },
      ]);
      expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
      expect(outcome.state).toEqual({});
      expect(outcome.answer).toBeNull();
      expect(card(outcome).rows[0]!.lines[0]).toMatch(/^The pending defense was made against front, without the perceive check .+ needs: it counts as none$/);
    },
  );

  it('a defense made with a passed perceive check answers another perceive situation', () => {
    const outcome = outcomeOf(damage('!damage 20 --hit 30 --situation behind', bob({}, { answer: pending('success', 'covert', true) })));
    expect(ruleSteps(outcome)[0]).toEqual({ kind: 'defense-used', result: 'success', source: 'pending' });
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
  });

  it('a situation that needs no gate (side, projectile) is answered by any defense', () => {
    for (const situation of ['side', 'projectile', 'aoe'] as const) {
      const outcome = outcomeOf(damage(`!damage 20 --hit 30 --situation ${situation}`, bob({}, { answer: pending('success') })));
      expect(outcome.changes, situation).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
    }
  });

  it('a failed perceive gate left a failure: the whole hit', () => {
    const outcome = outcomeOf(damage('!damage 20 --hit 14', bob({}, { answer: pending('fail', 'behind', false) })));
    expect(ruleSteps(outcome)[0]).toEqual({ kind: 'defense-used', result: 'fail', source: 'pending' });
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
  });

  it('--defense overrides the pending defense, which is still used up', () => {
    const outcome = outcomeOf(damage('!damage 20 --hit 19 --defense none', bob({}, { answer: pending('success') })));
    expect(ruleSteps(outcome)[0]).toEqual({ kind: 'defense-used', result: 'none', source: 'override' });
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
    expect(outcome.state).toEqual({});
    expect(outcome.answer).toBeNull();
  });

  it('a miss uses up the pending defense', () => {
    const outcome = outcomeOf(damage('!damage 20 --hit 3', bob({}, { answer: pending('success') })));
    expect(outcome.headline).toBe('missed');
    expect(card(outcome).summary).toBe('Bob is missed.');
    expect(outcome.changes).toEqual([]);
    expect(outcome.state).toEqual({});
    expect(outcome.answer).toBeNull();
  });

  it('a hit that kills also ends the pending defense and opens a fresh window of saves', () => {
    const outcome = outcomeOf(damage('!damage 20', bob({}, { answer: pending('fail'), vitality: bar(20, 30) })));
    expect(outcome.state).toEqual({ roundsDead: 0 });
    expect(outcome.answer).toBeNull();
    expect(card(outcome).rows.find((row) => row.label === 'Now')!.lines).toEqual(['Dead: the free Vitality save is owed (!defend --action save)']);
  });

  it.each([0, -5])('a dead token (Vitality %i) takes no damage and keeps its state', (vitality) => {
    const state: ThresholdState = { roundsDead: 1, freeSaveUsed: true, triedThisRound: true };
    const outcome = outcomeOf(damage('!damage 20 --hit 19 --defense fail', bob(state, { vitality: bar(vitality, 30) })));
    expect(outcome.changes).toEqual([]);
    expect(outcome.state).toEqual(state);
    expect(ruleSteps(outcome)).toEqual([{ kind: 'dead-no-damage', vitality }]);
    expect(outcome.headline).toBe('unharmed');
    expect(linesOf(outcome)).toContain(`Dead: takes no damage (Vitality ${vitality})`);
  });
});

// ---------------------------------------------------------------------------------------------
// !defend

function defendInput(over: Partial<Omit<ThresholdDefendInput, 'rolls' | 'checkTargets'>> & {
  rolls?: Partial<ThresholdDefendInput['rolls']>;
  checkTargets?: Partial<ThresholdDefendInput['checkTargets']>;
} = {}): ThresholdDefendInput {
  return {
    action: 'defend',
    situation: 'front',
    difficulty: null,
    mod: 0,
    perceptionMod: 0,
    vs: null,
    ally: null,
    skillName: null,
    ...over,
    checkTargets: { defend: 55, react: 60, perceive: 50, ...over.checkTargets },
    rolls: { perceive: 30, check: 50, ...over.rolls },
  };
}

type Resolved = Extract<ThresholdDefendOutcome, { kind: 'resolved' }>;

function resolved(over: Parameters<typeof defendInput>[0] = {}): Resolved {
  const outcome = resolveThresholdDefend(defendInput(over));
  if (outcome.kind !== 'resolved') throw new Error(`expected resolved, got ${JSON.stringify(outcome)}`);
  return outcome;
}

const checkStep = (
  check: 'defend' | 'react' | 'perceive' | 'save',
  roll: number,
  base: number,
  difficulty: 'normal' | 'hard' | 'impossible',
  mod: number,
  target: number,
  success: boolean,
  critical = false,
): ThresholdStep => ({ kind: 'check', check, roll, base, difficulty, mod, target, success, critical });

describe('!defend: the defense check', () => {
  it('defend rolls defend_check: 55 vs 55 succeeds, 56 fails', () => {
    expect(resolved({ rolls: { check: 55 } })).toEqual({
      kind: 'resolved',
      steps: [checkStep('defend', 55, 55, 'normal', 0, 55, true), { kind: 'pending-defense', result: 'success', situation: 'front', for: null }],
      pending: { result: 'success', situation: 'front', perceived: false },
      drawSpectator: false,
    });
    expect(resolved({ rolls: { check: 56 } }).pending).toEqual({ result: 'fail', situation: 'front', perceived: false });
  });

  it('--mod changes the defend check: 60 vs 55 + 5', () => {
    expect(resolved({ rolls: { check: 60 }, mod: 5 }).steps[0]).toEqual(checkStep('defend', 60, 55, 'normal', 5, 60, true));
  });

  it('a roll of 100 always fails; a critical is at or under a tenth of the target', () => {
    expect(resolved({ rolls: { check: 100 }, mod: 200 }).pending?.result).toBe('fail');
    expect(resolved({ rolls: { check: 5 } }).steps[0]).toEqual(checkStep('defend', 5, 55, 'normal', 0, 55, true, true));
    expect(resolved({ rolls: { check: 6 } }).steps[0]).toEqual(checkStep('defend', 6, 55, 'normal', 0, 55, true, false));
  });

  it.each(['front', 'thrown-object', 'spell-seen', 'side', 'aoe', 'aoe-edge'] as const)('%s: a plain defend check, no gate', (situation) => {
    expect(resolved({ situation, rolls: { check: 55 } }).steps).toEqual([
      checkStep('defend', 55, 55, 'normal', 0, 55, true),
      { kind: 'pending-defense', result: 'success', situation, for: null },
    ]);
  });

  it.each(['behind', 'distracted'] as const)('%s: a hard perceive check first (perception_check 50 -> 25), then defend', (situation) => {
    const passed = resolved({ situation, rolls: { perceive: 25, check: 55 } });
    expect(passed.steps).toEqual([
      checkStep('perceive', 25, 50, 'hard', 0, 25, true),
      checkStep('defend', 55, 55, 'normal', 0, 55, true),
      { kind: 'pending-defense', result: 'success', situation, for: null },
    ]);
    expect(passed.pending).toEqual({ result: 'success', situation, perceived: true });
  });

  it.each(['behind', 'distracted'] as const)('%s: failing the perceive check leaves a pending failure, with no defense check', (situation) => {
    const failed = resolved({ situation, rolls: { perceive: 26, check: 1 } });
    expect(failed.steps).toEqual([
      checkStep('perceive', 26, 50, 'hard', 0, 25, false),
      { kind: 'no-defense', situation, takesDamage: false },
      { kind: 'pending-defense', result: 'fail', situation, for: null },
    ]);
    expect(failed.pending).toEqual({ result: 'fail', situation, perceived: false });
  });

  it('hard halves with floor (51 -> 25); behind takes no --perception-mod', () => {
    expect(resolved({ situation: 'behind', checkTargets: { perceive: 51 }, rolls: { perceive: 26 } }).steps[0]).toEqual(checkStep('perceive', 26, 51, 'hard', 0, 25, false));
    expect(resolved({ situation: 'behind', perceptionMod: 30, rolls: { perceive: 26 } }).steps[0]).toEqual(checkStep('perceive', 26, 50, 'hard', 0, 25, false));
  });

  it('covert: a hard perceive check by default, with --perception-mod (50 -> 25 - 5 = 20)', () => {
    expect(resolved({ situation: 'covert', perceptionMod: -5, rolls: { perceive: 20 } }).steps[0]).toEqual(checkStep('perceive', 20, 50, 'hard', -5, 20, true));
    expect(resolved({ situation: 'covert', perceptionMod: -5, rolls: { perceive: 21 } }).pending).toEqual({ result: 'fail', situation: 'covert', perceived: false });
    expect(resolved({ situation: 'covert', difficulty: 'hard', rolls: { perceive: 25 } }).steps[0]).toEqual(checkStep('perceive', 25, 50, 'hard', 0, 25, true));
  });

  it('covert --difficulty impossible quarters it (50 -> 12)', () => {
    expect(resolved({ situation: 'covert', difficulty: 'impossible', rolls: { perceive: 12 } }).steps[0]).toEqual(checkStep('perceive', 12, 50, 'impossible', 0, 12, true));
    expect(resolved({ situation: 'covert', difficulty: 'impossible', rolls: { perceive: 13 } }).pending?.result).toBe('fail');
  });

  it('difficulty is applied before modifiers: 45 hard + 10 = 32 (not (45 + 10) / 2 = 27)', () => {
    expect(resolved({ situation: 'covert', checkTargets: { perceive: 45 }, perceptionMod: 10, rolls: { perceive: 32 } }).steps[0]).toEqual(
      checkStep('perceive', 32, 45, 'hard', 10, 32, true),
    );
    expect(resolved({ situation: 'covert', difficulty: 'impossible', checkTargets: { perceive: 45 }, perceptionMod: 10, rolls: { perceive: 22 } }).steps[0]).toEqual(
      checkStep('perceive', 22, 45, 'impossible', 10, 21, false),
    );
    expect(resolved({ situation: 'spell-fast', checkTargets: { react: 45 }, mod: 10, rolls: { check: 32 } }).steps[0]).toEqual(
      checkStep('react', 32, 45, 'hard', 10, 32, true),
    );
  });

  it('projectile: the defense check is a hard React check (reaction_check 60 -> 30) + --mod, not defend_check', () => {
    const out = resolved({ situation: 'projectile', mod: 4, checkTargets: { defend: null }, rolls: { check: 34 } });
    expect(out.steps).toEqual([
      checkStep('react', 34, 60, 'hard', 4, 34, true),
      { kind: 'pending-defense', result: 'success', situation: 'projectile', for: null },
    ]);
    expect(out.pending).toEqual({ result: 'success', situation: 'projectile', perceived: false });
    expect(resolved({ situation: 'projectile', mod: 4, rolls: { check: 35 } }).pending?.result).toBe('fail');
  });

  it.each(['spell-fast', 'spell-invisible'] as const)('%s: a React check, hard by default (60 -> 30), impossible with --difficulty (60 -> 15)', (situation) => {
    expect(resolved({ situation, rolls: { check: 30 } }).steps[0]).toEqual(checkStep('react', 30, 60, 'hard', 0, 30, true));
    expect(resolved({ situation, rolls: { check: 31 } }).pending?.result).toBe('fail');
    expect(resolved({ situation, difficulty: 'impossible', rolls: { check: 15 } }).steps[0]).toEqual(checkStep('react', 15, 60, 'impossible', 0, 15, true));
    expect(resolved({ situation, difficulty: 'impossible', rolls: { check: 16 } }).pending?.result).toBe('fail');
  });

  it('spectator: a plain perceive check with --perception-mod (50 - 10 = 40); failing it, the attack hits', () => {
    const passed = resolved({ situation: 'spectator', perceptionMod: -10, rolls: { perceive: 40, check: 55 } });
    expect(passed.steps.slice(0, 2)).toEqual([checkStep('perceive', 40, 50, 'normal', -10, 40, true), checkStep('defend', 55, 55, 'normal', 0, 55, true)]);
    expect(passed.pending).toEqual({ result: 'success', situation: 'spectator', perceived: true });
    const failed = resolved({ situation: 'spectator', perceptionMod: -10, rolls: { perceive: 41 } });
    expect(failed.steps).toEqual([
      checkStep('perceive', 41, 50, 'normal', -10, 40, false),
      { kind: 'no-defense', situation: 'spectator', takesDamage: true },
      { kind: 'pending-defense', result: 'fail', situation: 'spectator', for: null },
    ]);
    expect(threshold.words(failed.steps[1]!, nameOf)).toBe('Spectator not perceived: no defense, the attack hits');
  });
});

describe('!defend: skill, counter, opportunity', () => {
  it('a skill from the front is announced: no check, no pending defense', () => {
    expect(resolved({ action: 'skill', vs: 'goblin-1', skillName: 'Iron Wall', checkTargets: { defend: null, react: null, perceive: null } })).toEqual({
      kind: 'resolved',
      steps: [{ kind: 'announced', action: 'skill', vs: 'goblin-1', skillName: 'Iron Wall' }],
      pending: null,
      drawSpectator: false,
    });
  });

  it.each(['skill', 'counter'] as const)('%s from behind is gated by the hard perceive check', (action) => {
    expect(resolved({ action, situation: 'behind', vs: 'goblin-1', rolls: { perceive: 26 } })).toEqual({
      kind: 'resolved',
      steps: [checkStep('perceive', 26, 50, 'hard', 0, 25, false), { kind: 'no-defense', situation: 'behind', takesDamage: false }],
      pending: null,
      drawSpectator: false,
    });
    expect(resolved({ action, situation: 'behind', vs: 'goblin-1', rolls: { perceive: 25 } }).steps).toEqual([
      checkStep('perceive', 25, 50, 'hard', 0, 25, true),
      { kind: 'announced', action, vs: 'goblin-1', skillName: null },
    ]);
  });

  it.each(['skill', 'counter'] as const)('%s against a projectile needs the hard React check first; failing it, not in time', (action) => {
    expect(resolved({ action, situation: 'projectile', rolls: { check: 31 } })).toEqual({
      kind: 'resolved',
      steps: [checkStep('react', 31, 60, 'hard', 0, 30, false), { kind: 'not-in-time', action }],
      pending: null,
      drawSpectator: false,
    });
    expect(resolved({ action, situation: 'projectile', rolls: { check: 30 } }).steps).toEqual([
      checkStep('react', 30, 60, 'hard', 0, 30, true),
      { kind: 'announced', action, vs: null, skillName: null },
    ]);
  });

  it('a counter against an invisible spell with --difficulty impossible: React 60 -> 15', () => {
    expect(resolved({ action: 'counter', situation: 'spell-invisible', difficulty: 'impossible', rolls: { check: 16 } }).steps).toEqual([
      checkStep('react', 16, 60, 'impossible', 0, 15, false),
      { kind: 'not-in-time', action: 'counter' },
    ]);
  });

  it('a counter against a spectator (with --vs) draws it into the Turn Tracker', () => {
    const out = resolved({ action: 'counter', situation: 'spectator', vs: 'spec-1', rolls: { perceive: 30 } });
    expect(out.steps).toEqual([
      checkStep('perceive', 30, 50, 'normal', 0, 50, true),
      { kind: 'announced', action: 'counter', vs: 'spec-1', skillName: null },
      { kind: 'spectator-drawn', spectator: 'spec-1' },
    ]);
    expect(out.drawSpectator).toBe(true);
    const outcome = outcomeOf(defend('!defend --action counter --situation spectator --vs spec-1 --perception-roll 30'));
    expect(outcome.changes).toEqual([{ kind: 'join-turn-order', tokenId: 'spec-1', initiative: 0 }]);
    expect(linesOf(outcome)).toContain('Hooded Stranger is drawn into the battle (Turn Tracker, initiative 0)');
  });

  it('no spectator is drawn by a skill, a counter that was not perceived, a counter without --vs, or a counter elsewhere', () => {
    expect(resolved({ action: 'skill', situation: 'spectator', vs: 'spec-1', rolls: { perceive: 30 } }).drawSpectator).toBe(false);
    expect(resolved({ action: 'counter', situation: 'spectator', vs: 'spec-1', rolls: { perceive: 51 } }).drawSpectator).toBe(false);
    expect(resolved({ action: 'counter', situation: 'spectator', rolls: { perceive: 30 } }).drawSpectator).toBe(false);
    expect(resolved({ action: 'counter', situation: 'front', vs: 'goblin-1' }).drawSpectator).toBe(false);
    expect(outcomeOf(defend('!defend --action counter --situation spectator --vs spec-1 --perception-roll 51')).changes).toEqual([]);
  });

  it('an attack of opportunity is announced, with nothing to check', () => {
    expect(resolved({ action: 'opportunity', vs: 'goblin-1', checkTargets: { defend: null, react: null, perceive: null } })).toEqual({
      kind: 'resolved',
      steps: [{ kind: 'announced', action: 'opportunity', vs: 'goblin-1', skillName: null }],
      pending: null,
      drawSpectator: false,
    });
    const outcome = outcomeOf(defend('!defend --action opportunity --vs goblin-1', bob({}, { values: {} })));
    expect(linesOf(outcome)).toContain('Attack of opportunity against Goblin Boss');
    expect(outcome.state).toBeUndefined();
    expect(outcome.changes).toEqual([]);
  });

  it('the plan words an announced skill with its name; the token\'s state is left alone', () => {
    const outcome = outcomeOf(defend('!defend --action skill --skill "Iron Wall" --vs goblin-1', bob({}, { answer: pending('fail') })));
    expect(linesOf(outcome)).toContain('Defensive skill "Iron Wall" against Goblin Boss');
    expect(outcome.state).toBeUndefined();
    // Nor its answer on file: the pending failure stays.
    expect(outcome).not.toHaveProperty('answer');
    expect(card(outcome).summary).toBe('Bob makes a defensive action (skill).');
  });
});

describe('!defend --action guard --ally ID', () => {
  const alice = (answer: ThresholdPending | null = null): OtherFacts<ThresholdState, ThresholdPending> => ({ name: 'Alice', stance: null, state: {}, answer });
  /** Bob guards Alice; `allyAnswer` is Alice's own defense on file, `own` Bob's. */
  const guard = (line: string, allyAnswer: ThresholdPending | null = null, own: ThresholdPending | null = null) =>
    outcomeOf(defend(line, bob({}, { answer: own, others: { 'alice-1': alice(allyAnswer) } })));

  it('the guard\'s roll becomes the ally\'s pending defense; the guard\'s own state is untouched', () => {
    expect(planCheck(threshold, parseLine('!defend --action guard --ally alice-1')).others).toEqual(['alice-1']);
    const outcome = guard('!defend --action guard --ally alice-1 --roll 30', null, pending('fail'));
    expect(outcome.changes).toEqual([{ kind: 'ally-answer', tokenId: 'alice-1', answer: { result: 'success', situation: 'front', perceived: false, byGuard: true } }]);
    expect(outcome.state).toBeUndefined();
    // The guard's own pending failure stays as it was.
    expect(outcome).not.toHaveProperty('answer');
    expect(ruleSteps(outcome)).toContainEqual({ kind: 'guard-kept', ally: 'alice-1', result: 'success' });
    expect(linesOf(outcome)).toEqual(
      expect.arrayContaining(['Kept for the next hit on Alice (front)', 'Alice keeps the better defense: success']),
    );
    expect(card(outcome).summary).toBe("Bob guards Alice: the armor's Defense will apply to the next hit.");
  });

  it('the ally keeps its own success over the guard\'s failure', () => {
    const own = { result: 'success', situation: 'side', perceived: false } as const;
    const outcome = guard('!defend --action guard --ally alice-1 --roll 90', own);
    expect(outcome.changes).toEqual([{ kind: 'ally-answer', tokenId: 'alice-1', answer: own }]);
    expect(ruleSteps(outcome)).toContainEqual({ kind: 'guard-kept', ally: 'alice-1', result: 'success' });
  });

  it('the guard\'s success replaces the ally\'s own failure', () => {
    const outcome = guard('!defend --action guard --ally alice-1 --roll 30', pending('fail'));
    expect(outcome.changes).toEqual([{ kind: 'ally-answer', tokenId: 'alice-1', answer: { result: 'success', situation: 'front', perceived: false, byGuard: true } }]);
  });

  it('the guard makes its checks with the situation: from behind, the hard perceive gate first', () => {
    const outcome = guard('!defend --action guard --ally alice-1 --situation behind --perception-roll 26 --roll 1');
    expect(outcome.changes).toEqual([{ kind: 'ally-answer', tokenId: 'alice-1', answer: { result: 'fail', situation: 'behind', perceived: false, byGuard: true } }]);
  });

  it('an ally not on the table, or the guard itself, is refused', () => {
    expect(defend('!defend --action guard --ally alice-1 --roll 30', bob())).toMatchObject({ kind: 'refused', reason: '--ally: no token on the table has that id' });
    expect(defend('!defend --action guard --ally bob-1 --roll 30', bob({}, { others: { 'bob-1': alice() } }))).toMatchObject({ kind: 'refused' });
  });
});

describe('!defend: refusals', () => {
  it.each([
    ['!defend --action evade', /threshold edition.*use --action defend/],
    ['!defend --action react', /threshold edition/],
    ['!defend --action defend --situation projectile --roll 20', /React check/],
    ['!defend --action defend --react-roll 20', /--react-roll/],
    ['!defend --action defend --situation spell-fast --roll 20', /--react-roll/],
    ['!defend --action defend --perception-roll 20', /--perception-roll/],
    ['!defend --action defend --situation side --perception-roll 20', /--perception-roll/],
    ['!defend --action defend --situation behind --perception-mod -5', /--perception-mod/],
    ['!defend --action defend --difficulty hard', /--difficulty/],
    ['!defend --action defend --situation behind --difficulty impossible', /--difficulty/],
    ['!defend --action defend --situation projectile --difficulty impossible', /--difficulty/],
    ['!defend --action guard', /--ally/],
    ['!defend --action defend --ally alice-1', /--ally/],
    ['!defend --action save --situation behind', /--situation/],
    ['!defend --action opportunity --situation behind', /--situation/],
    ['!defend --action save --difficulty hard', /--difficulty/],
    ['!defend --action skill --roll 20', /--roll/],
    ['!defend --action skill --mod 5', /--mod/],
    ['!defend', /no action/],
  ])('%s is a UsageError', (line, message) => {
    expect(() => planCheck(threshold, parseLine(line))).toThrow(UsageError);
    expect(() => planCheck(threshold, parseLine(line))).toThrow(message);
  });

  it('--roll\'s range is its die\'s, 1 to 100: the one parser checks it, and the pipeline takes the roll given', () => {
    expect(() => planCheck(threshold, parseLine('!defend --action defend --roll 101'))).toThrow('--roll must be from 1 to 100 (got 101)');
    const defend = parseLine('!defend --action defend --roll 100');
    expect(planCheck(threshold, defend).dice).toEqual([{ name: 'check', sides: 100, flag: 'roll' }]);
    expect(givenDice(defend, planCheck(threshold, defend).dice)).toEqual({ check: 100 });
  });

  it('!stance is refused: no stances here', () => {
    expect(threshold.stance.modes).toEqual([]);
  });

  it.each([
    '!defend --action defend --roll 20',
    '!defend --action guard --ally alice-1 --roll 20',
    '!defend --action skill',
    '!defend --action counter --vs goblin-1',
    '!defend --action opportunity',
  ])('the acting token (top of the Turn Tracker) is refused: %s', (line) => {
    expect(planCheck(threshold, parseLine(line)).readsTurnOrder).toBe(true);
    const acting = bob({}, { acting: true, others: { 'alice-1': { name: 'Alice', stance: null, state: {}, answer: null } } });
    expect(defend(line, acting)).toMatchObject({ kind: 'refused', reason: expect.stringContaining('turn') });
  });

  it('the acting token may still make its save', () => {
    const outcome = outcomeOf(defend('!defend --action save --roll 10', deadBob({ roundsDead: 0 }, { acting: true })));
    expect(outcome.headline).toBe('saved');
  });

  it.each([
    '!defend --action defend --roll 20',
    '!defend --action guard --ally alice-1 --roll 20',
    '!defend --action skill',
    '!defend --action counter --vs goblin-1',
    '!defend --action opportunity',
  ])('a dead token makes no defensive action, only saves: %s', (line) => {
    const dead = deadBob({ roundsDead: 0 }, { others: { 'alice-1': { name: 'Alice', stance: null, state: {}, answer: null } } });
    expect(defend(line, dead)).toMatchObject({ kind: 'refused', reason: expect.stringContaining('dead') });
    expect(defend(line, bob({ roundsDead: 0 }, { vitality: bar(0, 30) }))).toMatchObject({ kind: 'refused' });
  });

  it('a missing check target names the attribute', () => {
    const without = (key: ValueKey) => {
      const values = { ...BOB_VALUES };
      delete values[key];
      return bob({}, { values });
    };
    expect(defend('!defend --action defend --roll 20', without('defend_check'))).toEqual({ kind: 'missing-value', key: 'defend_check' });
    expect(defend('!defend --action defend --situation behind --roll 20 --perception-roll 5', without('perception_check'))).toEqual({ kind: 'missing-value', key: 'perception_check' });
    expect(defend('!defend --action defend --situation projectile --react-roll 5', without('reaction_check'))).toEqual({ kind: 'missing-value', key: 'reaction_check' });
    expect(defend('!defend --action skill --situation spell-fast --react-roll 5', without('reaction_check'))).toEqual({ kind: 'missing-value', key: 'reaction_check' });
    expect(defend('!defend --action defend --roll 20', bob({}, { values: { ...BOB_VALUES, defend_check: notANumber } }))).toEqual({ kind: 'missing-value', key: 'defend_check' });
    // a projectile's defense does not need defend_check
    expect(outcomeOf(defend('!defend --action defend --situation projectile --react-roll 5', without('defend_check'))).answer).toEqual(pending('success', 'projectile'));
  });

  it('a Vitality bar with no number is refused', () => {
    expect(defend('!defend --action defend --roll 20', bob({}, { vitality: bar(null) }))).toEqual({ kind: 'bar', resource: 'vitality' });
  });
});

describe('!defend: the plan', () => {
  const PERCEIVE = { name: 'perceive', sides: 100, flag: 'perception-roll' };
  const CHECK = { name: 'check', sides: 100, flag: 'roll' };
  const REACT = { name: 'check', sides: 100, flag: 'react-roll' };
  // Every die the command uses is listed, with the flag that may give it; the pipeline rolls those
  // whose flag the line does not give (the last column).
  it.each([
    ['!defend --action defend', [CHECK], [100]],
    ['!defend --action defend --roll 20', [CHECK], []],
    ['!defend --action guard --ally alice-1', [CHECK], [100]],
    ['!defend --action defend --situation behind', [PERCEIVE, CHECK], [100, 100]],
    ['!defend --action defend --situation behind --perception-roll 10', [PERCEIVE, CHECK], [100]],
    ['!defend --action defend --situation behind --roll 10', [PERCEIVE, CHECK], [100]],
    ['!defend --action defend --situation behind --perception-roll 10 --roll 20', [PERCEIVE, CHECK], []],
    ['!defend --action defend --situation covert --difficulty impossible', [PERCEIVE, CHECK], [100, 100]],
    ['!defend --action defend --situation projectile', [REACT], [100]],
    ['!defend --action defend --situation projectile --react-roll 20', [REACT], []],
    ['!defend --action defend --situation spectator --perception-roll 10', [PERCEIVE, CHECK], [100]],
    ['!defend --action skill', [], []],
    ['!defend --action counter --situation behind', [PERCEIVE], [100]],
    ['!defend --action skill --situation spell-fast', [REACT], [100]],
    ['!defend --action skill --situation spell-fast --react-roll 5', [REACT], []],
    ['!defend --action opportunity', [], []],
  ])('%s: dice %j, rolls %j', (line, dice, rolled) => {
    const parsed = parseLine(line);
    const plan = planCheck(threshold, parsed);
    expect(plan.dice).toEqual(dice);
    expect(plan.dice.filter((die) => die.flag === undefined || !parsed.flags.has(die.flag)).map((die) => die.sides)).toEqual(rolled);
  });

  it('resolve reads the dice by name: the perceive gate\'s, then the check\'s', () => {
    const plan = planCheck(threshold, parseLine('!defend --action defend --situation behind'));
    expect(outcomeOf(plan.resolve(bob(), rollsFor(plan, [25, 56]))).answer).toEqual(pending('fail', 'behind', true));
    expect(outcomeOf(plan.resolve(bob(), rollsFor(plan, [25, 55]))).answer).toEqual(pending('success', 'behind', true));
    expect(outcomeOf(plan.resolve(bob(), rollsFor(plan, [26, 1]))).answer).toEqual(pending('fail', 'behind', false));
    expect(outcomeOf(plan.resolve(bob(), { perceive: 25, check: 55 })).answer).toEqual(pending('success', 'behind', true));
    // a given perceive roll: the pipeline hands it over, and the one die rolled is the check's
    const line = parseLine('!defend --action defend --situation behind --perception-roll 25');
    const given = planCheck(threshold, line);
    expect(outcomeOf(given.resolve(bob(), rollsGiven(given, line, [55]))).answer).toEqual(pending('success', 'behind', true));
  });

  it('values: the three check targets; a save reads save_check and exp', () => {
    expect([...planCheck(threshold, parseLine('!defend --action defend')).values].sort()).toEqual(['defend_check', 'perception_check', 'reaction_check']);
    expect([...planCheck(threshold, parseLine('!defend --action save')).values].sort()).toEqual(['exp', 'save_check']);
  });

  it('a failed defend offers the damage button; the card says the result', () => {
    const failed = outcomeOf(defend('!defend --action defend --roll 56'));
    expect(offers(failed)).toEqual(['offer-damage']);
    expect(failed.observed).toBe(false);
    expect(failed.headline).toBe('acts');
    expect(card(failed).title).toBe('Bob: defend');
    expect(card(failed).rows).toEqual([
      { label: 'Check', lines: ['Defend d100 56 vs 55: failure', 'Kept for the next hit on this token (front)'] },
      { label: 'Result', lines: ['Bob: no defense against the next hit'] },
    ]);
    const behind = outcomeOf(defend('!defend --action defend --situation behind --perception-roll 20 --roll 20'));
    expect(offers(behind)).toEqual([]);
    expect(card(behind).title).toBe('Bob: defend (behind)');
    expect(linesOf(behind)).toEqual([
      'Perceive d100 20 vs 50 hard (half) = 25: success',
      'Defend d100 20 vs 55: success',
      'Kept for the next hit on this token (behind)',
      "Bob: the armor's Defense will apply to the next hit",
    ]);
  });

  it('a new defense replaces the token\'s older pending one', () => {
    const outcome = outcomeOf(defend('!defend --action defend --situation projectile --react-roll 5', bob({}, { answer: pending('fail', 'behind', true) })));
    expect(outcome.answer).toEqual(pending('success', 'projectile'));
  });
});

// ---------------------------------------------------------------------------------------------
// Vitality saves

function saveInput(over: Partial<Omit<ThresholdSaveInput, 'rolls'>> & { rolls?: Partial<ThresholdSaveInput['rolls']> } = {}): ThresholdSaveInput {
  return { vitality: -3, state: { roundsDead: 0 }, saveTarget: 40, mod: 0, exp: 200, ...over, rolls: { cost: 30, save: 20, ...over.rolls } };
}

type SaveResolved = Extract<ThresholdSaveOutcome, { kind: 'resolved' }>;

function saved(over: Parameters<typeof saveInput>[0] = {}): SaveResolved {
  const outcome = resolveThresholdSave(saveInput(over));
  if (outcome.kind !== 'resolved') throw new Error(`expected resolved, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** A save as the pipeline runs it: `rolls` are the dice rolled in the plan's order (the cost's, then the save's), a given --roll handed over. */
const save = (facts: Facts<ThresholdState, ThresholdPending>, rolls: number[] = [30, 20], line = '!defend --action save') => {
  const parsed = parseLine(line);
  const plan = planCheck(threshold, parsed);
  return plan.resolve(facts, rollsGiven(plan, parsed, rolls));
};

describe('Vitality saves (!defend --action save)', () => {
  it('a token that is not dead has no save', () => {
    expect(resolveThresholdSave(saveInput({ vitality: 1, state: {} }))).toEqual({ kind: 'refused', reason: 'not-dead' });
    expect(save(bob())).toMatchObject({ kind: 'refused', reason: expect.stringContaining('no save is owed') });
  });

  it('the free save needs no EXP (even with exp missing): a success stands it up at 1 Vitality and clears the death', () => {
    expect(saved({ exp: null })).toEqual({
      kind: 'resolved',
      steps: [checkStep('save', 20, 40, 'normal', 0, 40, true), { kind: 'stood-up', before: -3 }],
      vitality: 1,
      state: {},
      expAfter: null,
      stood: true,
    });
    const noExp = { ...BOB_VALUES };
    delete noExp.exp;
    const outcome = outcomeOf(save(deadBob({ roundsDead: 2 }, { values: noExp }), [99, 20]));
    expect(outcome.headline).toBe('saved');
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 1 }]);
    expect(outcome.state).toEqual({});
    expect(outcome.undoable).toBeUndefined();
    expect(card(outcome).summary).toBe('Bob makes a save and stands back up.');
    expect(linesOf(outcome)).toEqual(['Vitality save d100 20 vs 40: success', 'Stands back up: Vitality -3 -> 1', 'Standing, Vitality 1']);
  });

  it('a failed free save keeps it dead and uses the round\'s try; the next tries are paid', () => {
    const out = saved({ rolls: { save: 41 } });
    expect(out.steps).toEqual([checkStep('save', 41, 40, 'normal', 0, 40, false), { kind: 'save-failed', triesLeft: 3 }]);
    expect(out.state).toEqual({ roundsDead: 0, freeSaveUsed: true, triedThisRound: true });
    expect(out.vitality).toBe(-3);
    const outcome = outcomeOf(save(deadBob(), [30, 41]));
    expect(outcome.changes).toEqual([]);
    expect(outcome.headline).toBe('acts');
    expect(card(outcome).summary).toBe('Bob stays dead.');
    expect(linesOf(outcome)).toContain('Dead: 3 paid tries left, one a round, 1d% EXP each (this round\'s try is used)');
  });

  it('after the free try, a save costs 1d% EXP (the first die), taken from exp, then the save is rolled', () => {
    const state: ThresholdState = { roundsDead: 1, freeSaveUsed: true };
    expect(saved({ state })).toEqual({
      kind: 'resolved',
      steps: [{ kind: 'save-cost', cost: 30, exp: 200, paid: true }, checkStep('save', 20, 40, 'normal', 0, 40, true), { kind: 'stood-up', before: -3 }],
      vitality: 1,
      state: {},
      expAfter: 170,
      stood: true,
    });
    const outcome = outcomeOf(save(deadBob(state), [30, 20]));
    expect(outcome.changes).toEqual([
      { kind: 'bar', resource: 'vitality', to: 1 },
      { kind: 'value', key: 'exp', to: 170 },
    ]);
    expect(outcome.undoable).toBe(true);
    expect(linesOf(outcome)).toContain('Save costs 1d% EXP: 30, EXP 200 -> 170');
  });

  it('a paid save that fails still takes the EXP (undoable), and uses the round\'s try', () => {
    const outcome = outcomeOf(save(deadBob({ roundsDead: 1, freeSaveUsed: true }), [30, 90]));
    expect(outcome.changes).toEqual([{ kind: 'value', key: 'exp', to: 170 }]);
    expect(outcome.undoable).toBe(true);
    expect(outcome.state).toEqual({ roundsDead: 1, freeSaveUsed: true, triedThisRound: true });
    expect(ruleSteps(outcome)).toContainEqual({ kind: 'save-failed', triesLeft: 2 });
  });

  it('--roll gives the save\'s roll; the one die rolled is the cost', () => {
    const line = parseLine('!defend --action save --roll 20');
    const plan = planCheck(threshold, line);
    // The cost die has no flag: it is always rolled; the save's may be given with --roll.
    expect(plan.dice).toEqual([{ name: 'cost', sides: 100 }, { name: 'save', sides: 100, flag: 'roll' }]);
    expect(planCheck(threshold, parseLine('!defend --action save')).dice).toEqual([{ name: 'cost', sides: 100 }, { name: 'save', sides: 100, flag: 'roll' }]);
    const outcome = outcomeOf(plan.resolve(deadBob({ roundsDead: 1, freeSaveUsed: true }), rollsGiven(plan, line, [45])));
    expect(outcome.changes).toEqual([
      { kind: 'bar', resource: 'vitality', to: 1 },
      { kind: 'value', key: 'exp', to: 155 },
    ]);
  });

  it('--mod changes the save: 45 vs 40 + 5', () => {
    expect(saved({ mod: 5, rolls: { save: 45 } }).steps[0]).toEqual(checkStep('save', 45, 40, 'normal', 5, 45, true));
  });

  it('EXP short of the cost: no save, nothing taken, and the round\'s try is used', () => {
    const state: ThresholdState = { roundsDead: 1, freeSaveUsed: true };
    expect(saved({ state, exp: 29 })).toEqual({
      kind: 'resolved',
      steps: [{ kind: 'save-cost', cost: 30, exp: 29, paid: false }],
      vitality: -3,
      state: { roundsDead: 1, freeSaveUsed: true, triedThisRound: true },
      expAfter: null,
      stood: false,
    });
    const values = { ...BOB_VALUES, exp: val(29) };
    const outcome = outcomeOf(save(deadBob(state, { values }), [30, 1]));
    expect(outcome.changes).toEqual([]);
    expect(outcome.undoable).toBeUndefined();
    expect(linesOf(outcome)).toContain("Save costs 1d% EXP: 30, but EXP is 29: not made, nothing taken, this round's try is used");
    expect(save(deadBob(outcome.state, { values }), [1, 1])).toMatchObject({ kind: 'refused' });
  });

  it('EXP exactly the cost is enough: EXP 30 -> 0', () => {
    expect(saved({ state: { roundsDead: 1, freeSaveUsed: true }, exp: 30 }).expAfter).toBe(0);
  });

  it('a paid save with exp missing (or not a number) names the attribute; nothing changes', () => {
    const state: ThresholdState = { roundsDead: 1, freeSaveUsed: true };
    expect(resolveThresholdSave(saveInput({ state, exp: null }))).toEqual({ kind: 'refused', reason: 'missing-exp' });
    const noExp = { ...BOB_VALUES };
    delete noExp.exp;
    expect(save(deadBob(state, { values: noExp }))).toEqual({ kind: 'missing-value', key: 'exp' });
    expect(save(deadBob(state, { values: { ...BOB_VALUES, exp: notANumber } }))).toEqual({ kind: 'missing-value', key: 'exp' });
  });

  it('a missing save_check names the attribute', () => {
    const noSave = { ...BOB_VALUES };
    delete noSave.save_check;
    expect(save(deadBob({ roundsDead: 0 }, { values: noSave }))).toEqual({ kind: 'missing-value', key: 'save_check' });
  });

  it('one try per round', () => {
    expect(resolveThresholdSave(saveInput({ state: { roundsDead: 1, freeSaveUsed: true, triedThisRound: true } }))).toEqual({ kind: 'refused', reason: 'tried-this-round' });
    expect(save(deadBob({ roundsDead: 1, freeSaveUsed: true, triedThisRound: true }))).toMatchObject({ kind: 'refused', reason: expect.stringContaining('one try a round') });
  });

  it('endRound moves the window on and gives the try back', () => {
    expect(threshold.life.endRound({ roundsDead: 0, freeSaveUsed: true, triedThisRound: true })).toEqual({ roundsDead: 1, freeSaveUsed: true });
    expect(threshold.life.endRound({ roundsDead: 3, freeSaveUsed: true })).toEqual({ roundsDead: 4, freeSaveUsed: true });
    expect(threshold.life.endRound({ roundsDead: 4, freeSaveUsed: true })).toEqual({ roundsDead: 4, freeSaveUsed: true });
  });

  it('four rounds, four tries (one free, three paid); dead for good once the last is spent', () => {
    let state: ThresholdState = { roundsDead: 0 };
    let exp = 200;
    const costs = [11, 22, 33, 44];
    for (let round = 0; round < 4; round++) {
      const outcome = outcomeOf(save(deadBob(state, { values: { ...BOB_VALUES, exp: val(exp) } }), [costs[round]!, 99]));
      const paid = outcome.changes.find((change) => change.kind === 'value');
      if (round === 0) expect(paid).toBeUndefined();
      else {
        expect(paid).toEqual({ kind: 'value', key: 'exp', to: exp - costs[round]! });
        exp -= costs[round]!;
      }
      state = outcome.state!;
      expect(save(deadBob(state))).toMatchObject({ kind: 'refused' });
      // no save left once the fourth round's try is spent
      expect(threshold.life.deadForGood(state, -3)).toBe(round === 3);
      state = threshold.life.endRound(state);
    }
    expect(exp).toBe(200 - 22 - 33 - 44);
    expect(state).toEqual({ roundsDead: 4, freeSaveUsed: true });
    expect(threshold.life.deadForGood(state, -3)).toBe(true);
    expect(resolveThresholdSave(saveInput({ state }))).toEqual({ kind: 'refused', reason: 'dead-for-good' });
    expect(save(deadBob(state))).toMatchObject({ kind: 'refused', reason: expect.stringContaining('dead for good') });
  });

  it('dead for good as soon as the last try is spent (the fourth round\'s try used): no save is left (rules.md, "Switching editions")', () => {
    const spent: ThresholdState = { roundsDead: 3, freeSaveUsed: true, triedThisRound: true };
    expect(resolveThresholdSave(saveInput({ state: spent }))).toEqual({ kind: 'refused', reason: 'tried-this-round' });
    expect(threshold.life.deadForGood(spent, -3)).toBe(true);
    // an earlier round's spent try is not the last
    expect(threshold.life.deadForGood({ roundsDead: 2, freeSaveUsed: true, triedThisRound: true }, -3)).toBe(false);
    // the last round with its try unused still has a save
    expect(threshold.life.deadForGood({ roundsDead: 3, freeSaveUsed: true }, -3)).toBe(false);
  });

  it('an unused free save is not lost: it can be made in the last round', () => {
    const out = saved({ state: { roundsDead: 3 }, exp: null, rolls: { save: 41 } });
    expect(out.steps).toEqual([checkStep('save', 41, 40, 'normal', 0, 40, false), { kind: 'save-failed', triesLeft: 0 }]);
    expect(threshold.words(out.steps[1]!, nameOf)).toBe('Still dead: no try left after this round');
  });

  it('every new death gets a new free save', () => {
    // stood up by a paid save, then killed again
    const stood = outcomeOf(save(deadBob({ roundsDead: 2, freeSaveUsed: true }), [30, 20]));
    expect(stood.state).toEqual({});
    const killed = outcomeOf(damage('!damage 5', bob(stood.state, { vitality: bar(1, 30) })));
    expect(killed.state).toEqual({ roundsDead: 0 });
    const noExp = { ...BOB_VALUES };
    delete noExp.exp;
    const again = outcomeOf(save(bob(killed.state, { vitality: bar(-4, 30), values: noExp }), [99, 20]));
    expect(again.headline).toBe('saved');
    expect(ruleSteps(again)).not.toContainEqual(expect.objectContaining({ kind: 'save-cost' }));
    // a death by hand edit too
    expect(threshold.life.setVitality(10, -1, { roundsDead: 3, freeSaveUsed: true }).state).toEqual({ roundsDead: 0 });
  });

  it('--situation, --vs and --skill do not apply to a save', () => {
    expect(() => planCheck(threshold, parseLine('!defend --action save --vs goblin-1'))).toThrow(UsageError);
    expect(() => planCheck(threshold, parseLine('!defend --action save --skill Grit'))).toThrow(UsageError);
    expect(() => planCheck(threshold, parseLine('!defend --action save --perception-roll 5'))).toThrow(UsageError);
  });
});

// ---------------------------------------------------------------------------------------------
// State

describe('state', () => {
  it('enter: at or below 0 is dead with a fresh window; above 0 (or no number) nothing', () => {
    expect(threshold.life.enter(-3, false)).toEqual({ roundsDead: 0 });
    expect(threshold.life.enter(0, false)).toEqual({ roundsDead: 0 });
    expect(threshold.life.enter(1, false)).toEqual({});
    expect(threshold.life.enter(null, false)).toEqual({});
    // the fresh window has its free save
    expect(saved({ state: threshold.life.enter(-3, false), exp: null }).stood).toBe(true);
  });

  it('enter: a token dead for good stays dead for good, with no save', () => {
    const state = threshold.life.enter(-12, true);
    expect(threshold.life.deadForGood(state, -12)).toBe(true);
    expect(threshold.life.condition(state, -12)).toBe('dead');
    expect(resolveThresholdSave(saveInput({ vitality: -12, state }))).toEqual({ kind: 'refused', reason: 'dead-for-good' });
  });

  it('condition: dead at or below 0, otherwise none', () => {
    expect(threshold.life.condition({}, 1)).toBe('none');
    expect(threshold.life.condition({}, 0)).toBe('dead');
    expect(threshold.life.condition({}, -40)).toBe('dead');
    expect(threshold.life.condition({ roundsDead: 4, freeSaveUsed: true }, -1)).toBe('dead');
    expect(threshold.life.condition({}, null)).toBe('none');
  });

  it('parseState accepts a good state as it is', () => {
    const good: ThresholdState = { roundsDead: 4, freeSaveUsed: true, triedThisRound: true };
    expect(threshold.life.parseState(good)).toEqual(good);
    expect(threshold.life.parseState({})).toEqual({});
  });

  it('parseAnswer accepts a good pending defense as it is', () => {
    const good: ThresholdPending = { result: 'fail', situation: 'spell-invisible', perceived: true };
    expect(threshold.life.parseAnswer(good)).toEqual(good);
  });

  it.each([
    ['the skeleton\'s string pending defense', 'fail'],
    ['an unknown result', { result: 'maybe', situation: 'front', perceived: false }],
    ['a soak situation', { result: 'fail', situation: 'gun', perceived: false }],
    ['no perceived flag', { result: 'fail', situation: 'front' }],
    ['null', null],
  ])('parseAnswer returns null for garbage: %s', (_what, raw) => {
    expect(threshold.life.parseAnswer(raw)).toBeNull();
  });

  it.each([
    ['roundsDead above 4', { roundsDead: 5 }],
    ['roundsDead below 0', { roundsDead: -1 }],
    ['roundsDead not whole', { roundsDead: 1.5 }],
    ['freeSaveUsed false', { freeSaveUsed: false }],
    ['a string', 'dead'],
    ['null', null],
  ])('parseState returns null for garbage: %s', (_what, raw) => {
    expect(threshold.life.parseState(raw)).toBeNull();
  });

  it('isEmptyState: only a state holding nothing', () => {
    expect(threshold.life.isEmptyState({})).toBe(true);
    expect(threshold.life.isEmptyState({ roundsDead: 0 })).toBe(false);
    expect(threshold.life.isEmptyState({ triedThisRound: true })).toBe(false);
  });

  it('setVitality: a fall to 0 or below dies, with its own free save', () => {
    const fall = threshold.life.setVitality(10, -2, {});
    expect(fall.vitality).toBe(-2);
    expect(fall.state).toEqual({ roundsDead: 0 });
    // The dead make no defense: a pending defense goes with the death.
    expect(fall.dropsAnswer).toBe(true);
    expect(fall.steps).toEqual([{ kind: 'vitality-change', before: 10, after: -2 }, { kind: 'dead-at-0' }]);
    expect(fall.conditions.map((step) => threshold.words(step, nameOf))).toEqual(['Dies at 0: after the free save, one try a round for 1d% EXP, for 4 rounds']);
    expect(threshold.words(fall.now!, nameOf)).toBe('Dead: the free Vitality save is owed (!defend --action save)');
  });

  it('setVitality: a dead token\'s lowered bar is set back', () => {
    const dead: ThresholdState = { roundsDead: 1, freeSaveUsed: true };
    const set = threshold.life.setVitality(-3, -8, dead);
    expect(set.vitality).toBe(-3);
    expect(set.state).toEqual(dead);
    expect(set.steps).toEqual([{ kind: 'set-back', attempted: -8, vitality: -3 }]);
    expect(set.steps.map((step) => threshold.words(step, nameOf))).toEqual(['Dead: takes no damage, Vitality set back from -8 to -3']);
    expect(threshold.words(set.now!, nameOf)).toBe('Dead: 3 paid tries left, one a round, 1d% EXP each');
    expect(set.dropsAnswer).toBeUndefined();
  });

  it('setVitality: raising a dead token above 0 revives it and clears its death', () => {
    const set = threshold.life.setVitality(-3, 5, { roundsDead: 4, freeSaveUsed: true });
    expect(set.vitality).toBe(5);
    expect(set.state).toEqual({});
    expect(set.steps).toEqual([{ kind: 'vitality-change', before: -3, after: 5 }, { kind: 'revived' }]);
    expect(set.conditions.map((step) => threshold.words(step, nameOf))).toEqual(['Revived: raised above 0 by hand, no longer dead']);
    expect(set.now).toBeUndefined();
  });

  it('setVitality: raised but not above 0, it stays dead with its window; a living token just moves', () => {
    const dead: ThresholdState = { roundsDead: 2, freeSaveUsed: true };
    const set = threshold.life.setVitality(-5, -1, dead);
    expect(set.vitality).toBe(-1);
    expect(set.state).toEqual(dead);
    expect(set.steps).toEqual([{ kind: 'vitality-change', before: -5, after: -1 }]);
    const living = threshold.life.setVitality(10, 4, {});
    expect(living.state).toEqual({});
    // A living token keeps its pending defense.
    expect(living.dropsAnswer).toBeUndefined();
    expect(living.steps.map((step) => threshold.words(step, nameOf))).toEqual(['Vitality 10 -> 4']);
    expect(living.now).toBeUndefined();
  });

  it('describeStateChange says what differs', () => {
    expect(threshold.life.describeStateChange({ roundsDead: 0 }, { roundsDead: 0, freeSaveUsed: true, triedThisRound: true })).toBe('has had a save or another round dead since');
  });
});

// ---------------------------------------------------------------------------------------------
// Words

/** Every step kind, so that a new one cannot go unworded. */
const EVERY_KIND: Record<ThresholdStep['kind'], true> = {
  'defense-used': true,
  'defense-does-not-answer': true,
  'hit-check': true,
  'no-character': true,
  'no-hit-chance': true,
  'hit-decided': true,
  'armor-defense': true,
  'vitality-change': true,
  'dead-at-0': true,
  'dead-no-damage': true,
  'set-back': true,
  revived: true,
  check: true,
  'no-defense': true,
  'not-in-time': true,
  'pending-defense': true,
  'guard-kept': true,
  announced: true,
  'spectator-drawn': true,
  'save-cost': true,
  'stood-up': true,
  'save-failed': true,
};

describe('words', () => {
  const alice: OtherFacts<ThresholdState, ThresholdPending> = { name: 'Alice', stance: null, state: {}, answer: null };
  const steps = (): Step[] => [
    ...outcomeOf(damage('!damage 20 --hit 30 --situation behind', bob({}, { answer: pending('success') }))).steps,
    ...outcomeOf(damage('!damage 20 --hit 10 --mod 4 --situation behind --defense success')).steps,
    ...outcomeOf(damage('!damage 20 --hit 3 --situation aoe')).steps,
    ...outcomeOf(damage('!damage 30 --type magical')).steps,
    ...outcomeOf(damage('!damage 5 --hit 2', bob({}, { armorSource: false, values: {} }))).steps,
    ...outcomeOf(damage('!damage 5', bob({ roundsDead: 0 }, { vitality: bar(-1, 30) }))).steps,
    ...threshold.life.setVitality(-3, -8, { roundsDead: 0 }).steps,
    ...threshold.life.setVitality(-3, 8, { roundsDead: 0 }).steps,
    ...outcomeOf(defend('!defend --action guard --ally alice-1 --situation covert --difficulty impossible --perception-mod 5 --perception-roll 40', bob({}, { others: { 'alice-1': alice } }))).steps,
    ...outcomeOf(defend('!defend --action counter --situation spectator --vs spec-1 --perception-roll 3')).steps,
    ...outcomeOf(defend('!defend --action skill --situation spell-invisible --react-roll 90')).steps,
    ...outcomeOf(defend('!defend --action defend --situation projectile --react-roll 2 --mod -3')).steps,
    ...outcomeOf(save(deadBob(), [30, 99])).steps,
    ...outcomeOf(save(deadBob({ roundsDead: 1, freeSaveUsed: true }), [30, 10])).steps,
    ...outcomeOf(save(deadBob({ roundsDead: 1, freeSaveUsed: true }, { values: { ...BOB_VALUES, exp: val(3) } }), [30, 10])).steps,
  ];

  it('words every step kind, with no undefined or NaN', () => {
    const all = steps();
    // Every rules step kind is among them (besides the card's layout steps, worded below too).
    expect(new Set(all.filter((step) => !isLayoutStep(step)).map((step) => step.kind))).toEqual(new Set(Object.keys(EVERY_KIND)));
    // The card's words: the steps every edition shares, then threshold's own.
    const say = wordsOf(threshold, nameOf);
    for (const step of all) {
      const words = say(step);
      expect(words, step.kind).toMatch(/\w/);
      expect(words, step.kind).not.toMatch(/undefined|NaN|null|\[object/);
    }
  });

  it('words the checks with their difficulty and modifiers', () => {
    expect(threshold.words(checkStep('perceive', 40, 50, 'impossible', 5, 17, false), nameOf)).toBe('Perceive d100 40 vs 50 impossible (quarter) + 5 = 17: failure');
    expect(threshold.words(checkStep('react', 2, 60, 'hard', -3, 27, true, true), nameOf)).toBe('React d100 2 vs 60 hard (half) - 3 = 27: success (critical)');
    expect(threshold.words(checkStep('save', 20, 40, 'normal', 0, 40, true), nameOf)).toBe('Vitality save d100 20 vs 40: success');
    expect(threshold.words(checkStep('defend', 20, 55, 'normal', 5, 60, true), nameOf)).toBe('Defend d100 20 vs 55 + 5 = 60: success');
  });

  it('names ids through nameOf, and shows the id without it', () => {
    const guardKept = { kind: 'guard-kept', ally: 'alice-1', result: 'fail' } as Step;
    expect(threshold.words(guardKept, nameOf)).toBe('Alice keeps the better defense: fail');
    expect(thresholdWords(guardKept)).toBe('alice-1 keeps the better defense: fail');
    const announced = { kind: 'announced', action: 'counter', vs: 'spec-1', skillName: null } as Step;
    expect(threshold.words(announced, nameOf)).toBe('Counter attack against Hooded Stranger');
    expect(thresholdWords(announced)).toBe('Counter attack against spec-1');
    const guarding = { kind: 'pending-defense', result: 'success', situation: 'covert', for: 'alice-1' } as Step;
    expect(threshold.words(guarding, nameOf)).toBe('Kept for the next hit on Alice (covert attack)');
  });

  it('words the save steps', () => {
    expect(threshold.words({ kind: 'save-cost', cost: 30, exp: 200, paid: true } as Step, nameOf)).toBe('Save costs 1d% EXP: 30, EXP 200 -> 170');
    expect(threshold.words({ kind: 'stood-up', before: -3 } as Step, nameOf)).toBe('Stands back up: Vitality -3 -> 1');
    expect(threshold.words({ kind: 'save-failed', triesLeft: 1 } as Step, nameOf)).toBe('Still dead: 1 more try, one a round, each for 1d% EXP');
    expect(threshold.words({ kind: 'save-failed', triesLeft: 2 } as Step, nameOf)).toBe('Still dead: 2 more tries, one a round, each for 1d% EXP');
  });
});

// ---------------------------------------------------------------------------------------------
// Properties

const situationArb = fc.constantFrom(...THRESHOLD_SITUATIONS);
const comparedArb = fc.constantFrom(...(Object.keys(HIT_BONUS) as Array<keyof typeof HIT_BONUS>));
const pendingArb: fc.Arbitrary<ThresholdPending | null> = fc.option(
  fc.record({ result: fc.constantFrom('success' as const, 'fail' as const), situation: situationArb, perceived: fc.boolean() }),
  { nil: null },
);
const overrideArb = fc.constantFrom('success' as const, 'fail' as const, 'none' as const, null);
const hitArb: fc.Arbitrary<ThresholdHit> = fc.record({
  amount: fc.integer({ min: 0, max: 1_000_000 }),
  track: fc.constantFrom('physical' as const, 'magical' as const),
  hit: fc.option(fc.integer({ min: -1000, max: 1000 }), { nil: null }),
  situation: fc.option(situationArb, { nil: null }),
  mod: fc.integer({ min: -1000, max: 1000 }),
  armor: fc.integer({ min: -50, max: 1000 }),
  armorDefense: fc.integer({ min: -50, max: 1000 }),
  override: overrideArb,
  vitality: fc.integer({ min: -100, max: 1000 }),
  state: fc.constant<ThresholdState>({}),
  pending: pendingArb,
});

describe('properties', () => {
  it('no hit chance at or under the armor ever deals damage', () => {
    fc.assert(
      fc.property(hitArb, comparedArb, (base, situation) => {
        const bonus = HIT_BONUS[situation];
        const armor = Math.max(0, base.armor);
        // a hit chance whose total (with the situation's bonus and --mod) is at or under the armor
        const h = Math.min(armor - bonus - base.mod, 1000);
        const out = resolveThresholdHit({ ...base, situation, hit: h });
        expect(out.vitality).toBe(base.vitality);
        if (base.vitality > 0) expect(out.missed).toBe(true);
      }),
    );
  });

  it('a successful defense never deals more than a failed one', () => {
    fc.assert(
      fc.property(hitArb, (base) => {
        const success = resolveThresholdHit({ ...base, override: 'success' });
        const failed = resolveThresholdHit({ ...base, override: 'fail' });
        expect(base.vitality - success.vitality).toBeLessThanOrEqual(base.vitality - failed.vitality);
      }),
    );
  });

  it('Vitality never rises from !damage', () => {
    fc.assert(
      fc.property(hitArb, (h) => {
        expect(resolveThresholdHit(h).vitality).toBeLessThanOrEqual(h.vitality);
      }),
    );
  });

  it('Vitality never rises from !damage, through the plan', () => {
    const lineArb = fc.record({
      amount: fc.integer({ min: 0, max: 1000 }),
      hit: fc.option(fc.integer({ min: -50, max: 50 }), { nil: null }),
      situation: fc.option(situationArb, { nil: null }),
      type: fc.constantFrom('physical', 'magical'),
    });
    let changed = 0;
    fc.assert(
      fc.property(lineArb, pendingArb, fc.integer({ min: -20, max: 60 }), (order, answer, vitality) => {
        const line = `!damage ${order.amount} --type ${order.type}${order.hit === null ? '' : ` --hit ${order.hit}`}${order.situation === null ? '' : ` --situation ${order.situation}`}`;
        const outcome = outcomeOf(damage(line, bob({}, { answer, vitality: bar(vitality, 60) })));
        if (outcome.changes.length > 0) changed += 1;
        for (const change of outcome.changes) {
          expect(change.kind).toBe('bar');
          if (change.kind === 'bar') expect(change.to).toBeLessThanOrEqual(vitality);
        }
      }),
    );
    // The property was tried on hits that did change the bar, not only on misses and blocks.
    expect(changed).toBeGreaterThan(0);
  });

  it('EXP never goes below 0 after any save: a paid save takes exactly its cost, or nothing when EXP is short', () => {
    // Dead with tries left and this round's try unused: every paid save resolves (rules.md, threshold saves).
    const stateArb: fc.Arbitrary<ThresholdState> = fc.record({
      roundsDead: fc.integer({ min: 0, max: 3 }), // The Defensive Turn: four rounds of tries
      freeSaveUsed: fc.constant(true as const),
    });
    fc.assert(
      fc.property(
        stateArb,
        fc.integer({ min: 0, max: 300 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: -100, max: 0 }),
        (state, exp, cost, roll, vitality) => {
          const out = resolveThresholdSave(saveInput({ state, exp, vitality, rolls: { cost, save: roll } }));
          expect(out.kind).toBe('resolved');
          if (out.kind !== 'resolved') return;
          if (exp >= cost) {
            expect(out.expAfter).toBe(exp - cost);
          } else {
            expect(out.expAfter).toBeNull();
            expect(out.stood).toBe(false);
            expect(out.vitality).toBe(vitality);
          }
        },
      ),
    );
  });
});
