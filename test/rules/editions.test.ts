// Every edition on the edition seam (src/rules/edition.ts), one contract function at a time, from
// hand-built `Facts` (no Roll20): the worked examples of /work/shared/design/rules.md and the
// rulings around them.
import { planCheck, planHit } from '../support/plans';
import { stancePlan } from '../../src/rules/stance';
import { registered } from '../../src/rules/editions';
import { describe, expect, it } from 'vitest';
import {
  ACTION,
  isRefusal,
  type BarFact,
  type Facts,
  type OtherFacts,
  type Plan,
  type Reads,
  type Resolution,
  type Step,
  VALUE_KEYS,
  type ValueFact,
  type ValueKey,
} from '../../src/rules/edition';
import { DEFAULT_EDITION, editionIds, editionOf, flagElsewhere, playableEditions } from '../../src/rules/editions';
import { REGISTERED } from '../../src/rules/registry';
import { healedValue, planHeal } from '../../src/rules/heal';
import { wordsOf } from '../../src/rules/sharedSteps';
import { soak as declared_soak, soakWords } from '../../src/rules/soak'
const soak = registered(declared_soak);
import type { SoakAnswer, SoakState } from '../../src/rules/soak/state';
import { threshold as declared_threshold, thresholdWords, type ThresholdState } from '../../src/rules/threshold'
const threshold = registered(declared_threshold);
import type { ThresholdPending } from '../../src/rules/threshold/state';
import { opposed as declared_opposed, type OpposedAnswer, type OpposedState } from '../../src/rules/opposed'
const opposed = registered(declared_opposed);
import { parseLine, UsageError } from '../../src/text/args';
import { bar, cardLines, cardOf, CONTEXT, factsOf, notANumber, offers, outcomeOf, rollsFor, rollsGiven, val } from '../support/facts';

// ---------------------------------------------------------------------------------------------
// Hand-built facts

const NAMES: Record<string, string> = { 'goblin-1': 'Goblin Boss', 'alice-1': 'Alice' };
const nameOf = (id: string) => NAMES[id] ?? id;

interface FactsOver<A = unknown> extends Partial<Omit<Facts<unknown, A>, 'bars' | 'state' | 'others'>> {
  vitality?: BarFact;
  soul?: BarFact;
  power?: BarFact;
  others?: Record<string, OtherFacts<unknown, A>>;
}

/** Bob with his bars given one by one (the other fields as `factsOf` has them, names from NAMES). */
function bobFacts<S, A = never>(state: S, over: FactsOver<A> = {}): Facts<S, A> {
  const { vitality, soul, power, others, ...rest } = over;
  return factsOf<S, A>(state, {
    bars: { vitality: vitality ?? bar(70, 70), soul: soul ?? bar(20, 20), power: power ?? bar(30, 30) },
    nameOf,
    ...(others ? { others: others as Record<string, OtherFacts<S, A>> } : {}),
    ...rest,
  });
}

// ---------------------------------------------------------------------------------------------
// soak

/** Bob of The Defensive Round: Vitality 70, Soak 20, Physical 100, Defense 30. */
const BOB_ARMOR = { armor_soak: val(20), armor_physical: val(100), armor_defense: val(30) };

const soakDamage = (line: string, facts: Facts<SoakState, SoakAnswer>) => planHit(soak, parseLine(line), CONTEXT).resolve(facts, {});
/**
 * What the pipeline reads for a plan over a sheet (src/roll20/read.ts, `readFacts`): its values, then
 * what `more` names from the plain facts read so far, until nothing is new; a max as "key.max".
 */
function readsOf(plan: Plan<SoakState, SoakAnswer>, sheet: Partial<Record<ValueKey, ValueFact>>, over: FactsOver<SoakAnswer> = {}): string[] {
  const facts = bobFacts<SoakState, SoakAnswer>({}, { ...over, values: {} });
  const read: string[] = [];
  const take = ({ values, maxes = [] }: Reads): boolean => {
    const before = read.length;
    for (const key of values) {
      if (facts.values[key] !== undefined) continue;
      facts.values[key] = { ...(sheet[key] ?? { current: null, present: false }), max: null };
      read.push(key);
    }
    for (const key of maxes as ValueKey[]) {
      if (read.includes(`${key}.max`)) continue;
      facts.values[key]!.max = sheet[key]?.max ?? null;
      read.push(`${key}.max`);
    }
    return read.length > before;
  };
  take(plan);
  for (let more = plan.more?.(facts); more !== undefined && take(more); more = plan.more?.(facts));
  return read;
}

/** `!defend` as the pipeline runs it: a roll given with its flag is handed over; `rolls` are the dice rolled, in the plan's order. */
const soakDefend = (line: string, facts: Facts<SoakState, SoakAnswer>, rolls: number[] = []) => {
  const parsed = parseLine(line);
  const plan = planCheck(soak, parsed);
  return plan.resolve(facts, rollsGiven(plan, parsed, rolls));
};

/** The outcomes the soak tests below are about; `words` must word every step in them. */
const soakOutcomes = {
  workedExample: () => outcomeOf(soakDamage('!damage 200', bobFacts<SoakState>({}, { values: BOB_ARMOR }))),
  blocked: () => outcomeOf(soakDamage('!damage 200', bobFacts<SoakState, SoakAnswer>({}, { answer: 'success', values: BOB_ARMOR }))),
  defended: () => outcomeOf(soakDefend('!defend --action defend --roll 20', bobFacts<SoakState>({}, { values: { defend_check: val(55) } }))),
  reacted: () =>
    outcomeOf(
      soakDefend('!defend --action react --vs goblin-1 --roll 30', bobFacts<SoakState>({}, { stance: 'reactive', values: { reaction_check: val(40) } })),
    ),
};

describe('soak: hit.plan', () => {
  it('seed worked example: 200 -> 160 -> 60 -> 30; Vitality 70 -> 40, Physical 100 -> 60', () => {
    const outcome = soakOutcomes.workedExample();
    expect(outcome.headline).toBe('hit');
    expect(outcome.changes).toEqual([
      { kind: 'bar', resource: 'vitality', to: 40 },
      { kind: 'value', key: 'armor_physical', to: 60 },
    ]);
    expect(cardLines(soak, outcome)).toEqual(expect.arrayContaining(['200 x 80% soak = 160', '160 - 100 Physical = 60', '60 - 30 Defense = 30']));
    expect(outcome.state).toEqual({});
    // No defense was on file: there is none to use up.
    expect(outcome).not.toHaveProperty('answer');
  });

  it('a pending defense success blocks the hit and is used up', () => {
    const outcome = soakOutcomes.blocked();
    expect(outcome.headline).toBe('blocked');
    expect(outcome.changes).toEqual([]);
    expect(outcome.state).toEqual({});
    expect(outcome.answer).toBeNull();
  });

  it('--defense fail overrides a pending success: the hit lands, and the pending defense is still used up', () => {
    const outcome = outcomeOf(soakDamage('!damage 200 --defense fail', bobFacts<SoakState, SoakAnswer>({}, { answer: 'success', values: BOB_ARMOR })));
    expect(outcome.headline).toBe('hit');
    expect(outcome.changes[0]).toEqual({ kind: 'bar', resource: 'vitality', to: 40 });
    expect(outcome.state).toEqual({});
    expect(outcome.answer).toBeNull();
  });

  it('a malformed command throws UsageError', () => {
    expect(() => planHit(soak, parseLine('!damage -5'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(soak, parseLine('!damage 5 --to soul --pierce 10'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(soak, parseLine('!damage'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(soak, parseLine('!damage 5 --instant-kill'), CONTEXT)).toThrow(UsageError);
  });

  it('a Vitality bar that holds no number refuses the token', () => {
    expect(soakDamage('!damage 200', bobFacts<SoakState>({}, { vitality: bar(null), values: BOB_ARMOR }))).toEqual({ kind: 'bar', resource: 'vitality' });
  });

  it('values: a Vitality hit reads its protection, then Soak and Defense while the armor stands, else the other protection, natural defense and the maxes; none when blocked or dead; Fortitude only in the defensive stance; --to soul reads none', () => {
    const plan = (line: string) => planHit(soak, parseLine(line), CONTEXT);
    const sheet = { ...BOB_ARMOR, armor_magical: val(0, 40), natural_defense: val(4), armor_spirit: val(6), natural_spirit: val(2), fortitude: val(40) };
    expect(readsOf(plan('!damage 200'), sheet)).toEqual(['armor_physical', 'armor_soak', 'armor_defense']);
    expect(readsOf(plan('!damage 200'), sheet, { stance: 'defensive' })).toEqual(['fortitude', 'armor_physical', 'armor_soak', 'armor_defense']);
    // The physical protection worn out, the magical one standing: the armor stands on it.
    expect(readsOf(plan('!damage 200'), { ...sheet, armor_physical: val(0, 100), armor_magical: val(5, 40) })).toEqual(['armor_physical', 'armor_magical', 'armor_soak', 'armor_defense']);
    // Both at 0: the armor is down; the natural defense, and the maxes (worn out or never there): the other's only when this one has none.
    expect(readsOf(plan('!damage 200'), { ...sheet, armor_physical: val(0, 100) })).toEqual(['armor_physical', 'armor_magical', 'natural_defense', 'armor_physical.max']);
    expect(readsOf(plan('!damage 200'), { ...sheet, armor_physical: val(0, 0) })).toEqual(['armor_physical', 'armor_magical', 'natural_defense', 'armor_physical.max', 'armor_magical.max']);
    expect(readsOf(plan('!damage 200 --type magical'), { ...sheet, armor_magical: val(5, 40) })).toEqual(['armor_magical', 'armor_soak', 'armor_spirit']);
    // No character and no overrides: no armor to read, Fortitude still in the defensive stance.
    expect(readsOf(plan('!damage 200'), sheet, { armorSource: false, stance: 'defensive' })).toEqual(['fortitude']);
    // A hit a successful defense blocks, and one on the dead, read no armor.
    expect(readsOf(plan('!damage 200'), sheet, { answer: 'success' })).toEqual([]);
    expect(readsOf(plan('!damage 200 --defense success'), sheet)).toEqual([]);
    expect(readsOf(plan('!damage 200 --defense fail'), sheet, { answer: 'success' })).toEqual(['armor_physical', 'armor_soak', 'armor_defense']);
    expect(readsOf(plan('!damage 200'), sheet, { vitality: bar(-12, 70) })).toEqual([]);
    expect(readsOf(plan('!damage 5 --to soul'), sheet)).toEqual([]);
    expect(plan('!damage 5 --to soul').bars).toEqual(['soul']);
    expect(plan('!damage 200').bars).toEqual(['vitality']);
    expect(plan('!damage 200').dice).toEqual([]);
  });

  it('--to soul takes the whole amount off Soul, no armor', () => {
    const outcome = outcomeOf(soakDamage('!damage 5 --to soul', bobFacts<SoakState>({}, { soul: bar(20, 20), values: BOB_ARMOR })));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'soul', to: 15 }]);
  });

  it('Ruling, revised (step 2): a worn-out Physical track still gets Soak and Defense while Magical stands', () => {
    const values = { armor_soak: val(20), armor_physical: val(0, 100), armor_magical: val(50), armor_defense: val(30) };
    const outcome = outcomeOf(soakDamage('!damage 100', bobFacts<SoakState>({}, { vitality: bar(200, 200), values })));
    // 100 x 80% soak = 80; 80 - 0 Physical = 80; 80 - 30 Defense = 50
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 150 }]);
  });
});

describe('soak: check.plan', () => {
  it('--action defend --roll 20 against defend_check 55 leaves a pending success', () => {
    const outcome = soakOutcomes.defended();
    expect(outcome.headline).toBe('acts');
    // Filed with what it was made for (rules.md, "An attack's answers": it answers only an attack it fits).
    expect(outcome.answer).toEqual({ result: 'success', action: 'defend', situation: 'front' });
    expect(outcome.state).toEqual({});
    expect(outcome.observed).toBe(false);
    expect(offers(outcome)).not.toContain('offer-damage');
  });

  it('a failed defend leaves a pending failure and offers the damage button', () => {
    const outcome = outcomeOf(soakDefend('!defend --action defend --roll 56', bobFacts<SoakState>({}, { values: { defend_check: val(55) } })));
    expect(outcome.answer).toEqual({ result: 'fail', action: 'defend', situation: 'front' });
    expect(offers(outcome)).toContain('offer-damage');
  });

  it('dice: one named d100, given by --roll or rolled (read by resolve by its name)', () => {
    // A given --roll still lists the die, with its flag: the pipeline hands the given value over.
    expect(planCheck(soak, parseLine('!defend --action defend --roll 20')).dice).toEqual([{ name: 'action', sides: 100, flag: 'roll' }]);
    const plan = planCheck(soak, parseLine('!defend --action defend'));
    expect(plan.dice).toEqual([{ name: 'action', sides: 100, flag: 'roll' }]);
    const outcome = outcomeOf(plan.resolve(bobFacts<SoakState>({}, { values: { defend_check: val(55) } }), rollsFor(plan, [20])));
    expect(outcome.answer).toEqual({ result: 'success', action: 'defend', situation: 'front' });
  });

  it('values: a check reads every check target; a save reads save_check', () => {
    expect(planCheck(soak, parseLine('!defend --action defend')).values).toEqual(
      expect.arrayContaining(['defend_check', 'evade_check', 'reaction_check', 'perception_check', 'mental_check']),
    );
    expect(planCheck(soak, parseLine('!defend --action save')).values).toEqual(['save_check']);
  });

  it('--action save is refused when no save is owed', () => {
    const resolution = soakDefend('!defend --action save --roll 10', bobFacts<SoakState>({}, { values: { save_check: val(50) } }));
    expect(resolution).toMatchObject({ kind: 'refused' });
  });

  it('--action save with a save owed: a success stands the token back up at 1 Vitality', () => {
    const state: SoakState = { life: { condition: 'incapacitated', savesOwed: 1 } };
    const outcome = outcomeOf(soakDefend('!defend --action save --roll 10', bobFacts(state, { vitality: bar(-3, 70), values: { save_check: val(50) } })));
    expect(outcome.headline).toBe('saved');
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 1 }]);
    expect(outcome.state).toEqual({});
  });

  it('a missing check target names the attribute', () => {
    expect(soakDefend('!defend --action defend --roll 20', bobFacts<SoakState>({}))).toEqual({ kind: 'missing-value', key: 'defend_check' });
  });

  it('a malformed command throws UsageError', () => {
    expect(() => planCheck(soak, parseLine('!defend'))).toThrow(UsageError);
    expect(() => planCheck(soak, parseLine('!defend --action save --situation side'))).toThrow(UsageError);
    // --roll's range is its die's, 1 to 100: the one parser checks it (a typed flag of kind die).
    expect(() => planCheck(soak, parseLine('!defend --action defend --roll 101'))).toThrow('--roll must be from 1 to 100 (got 101)');
    expect(planCheck(soak, parseLine('!defend --action defend --roll 100')).dice).toEqual([{ name: 'action', sides: 100, flag: 'roll' }]);
  });

  it('a reaction check is kept for the round against that attacker', () => {
    const outcome = soakOutcomes.reacted();
    expect(outcome.state).toEqual({ reactions: { 'goblin-1': true } });
    expect(outcome.steps).toContainEqual({ kind: 'reaction-recorded', vs: 'goblin-1', success: true, section: 'Check' });
  });

  it('a counter uses up the successful reaction: a second counter against that attacker is refused', () => {
    const facts = bobFacts<SoakState>({ reactions: { 'goblin-1': true } }, { stance: 'reactive' });
    const first = outcomeOf(soakDefend('!defend --action counter --vs goblin-1', facts));
    expect(first.state).toEqual({ reactions: { 'goblin-1': 'used' } });
    const again = soakDefend('!defend --action counter --vs goblin-1', { ...facts, state: first.state ?? facts.state });
    expect(again).toMatchObject({ kind: 'refused' });
  });

  it('the acting token (top of the Turn Tracker) makes no defensive action, but may save', () => {
    expect(planCheck(soak, parseLine('!defend --action defend')).readsTurnOrder).toBe(true);
    const acting = bobFacts<SoakState>({}, { acting: true, values: { defend_check: val(55) } });
    expect(soakDefend('!defend --action defend --roll 20', acting)).toMatchObject({ kind: 'refused' });
    const owed = bobFacts<SoakState>({ life: { condition: 'incapacitated', savesOwed: 1 } }, { acting: true, vitality: bar(-3, 70), values: { save_check: val(50) } });
    expect(outcomeOf(soakDefend('!defend --action save --roll 10', owed)).headline).toBe('saved');
  });

  it('--aided-by: +5 from an ally in reactive stance with a success against that attacker, which it spends', () => {
    // The ally's stance and reaction, and the attacker's name for a refusal's words.
    expect(planCheck(soak, parseLine('!defend --action defend --aided-by alice-1 --vs goblin-1')).others).toEqual(['alice-1', 'goblin-1']);
    const alice = { name: 'Alice', stance: 'reactive', state: { reactions: { 'goblin-1': true } }, answer: null };
    const facts = bobFacts<SoakState>({}, { stance: 'defensive', values: { defend_check: val(50) }, others: { 'alice-1': alice } });
    const outcome = outcomeOf(soakDefend('!defend --action defend --aided-by alice-1 --vs goblin-1 --roll 55', facts));
    // 55 vs 50 + 5 = 55: a success only with the aid
    expect(outcome.answer).toEqual({ result: 'success', action: 'defend', situation: 'front' });
    expect(outcome.changes).toEqual([{ kind: 'ally-state', tokenId: 'alice-1', state: { reactions: { 'goblin-1': 'used' } } }]);
    expect(cardLines(soak, outcome, facts)).toContain('Aided by Alice: +5');
  });

  it('--aided-by is refused without the ally\'s unused success against that attacker', () => {
    const spent = { name: 'Alice', stance: 'reactive', state: { reactions: { 'goblin-1': 'used' } }, answer: null };
    const facts = bobFacts<SoakState>({}, { values: { defend_check: val(50) }, others: { 'alice-1': spent } });
    expect(soakDefend('!defend --action defend --aided-by alice-1 --vs goblin-1 --roll 55', facts)).toMatchObject({ kind: 'refused' });
    expect(() => planCheck(soak, parseLine('!defend --action defend --aided'))).toThrow(UsageError);
  });

  it('a defender with no stance is told to declare one, with the two !stance buttons', () => {
    const buttons = (outcome: { steps: Step[] }) => outcome.steps.filter((step) => step.section === ACTION && step.kind === 'button');
    expect(buttons(soakOutcomes.defended())).toEqual([
      { kind: 'button', section: ACTION, label: 'Defensive stance', command: '!stance defensive --ids bob-1' },
      { kind: 'button', section: ACTION, label: 'Reactive stance', command: '!stance reactive --ids bob-1' },
    ]);
    expect(offers(soakOutcomes.defended())).toEqual(['Defensive stance', 'Reactive stance']);
    expect(buttons(soakOutcomes.reacted())).toEqual([]);
    expect(offers(soakOutcomes.reacted())).toEqual([]);
  });
});

describe('soak: the stance table and hit.handEdit', () => {
  it('!stance defensive sets the stance and leaves the state alone', () => {
    const outcome = outcomeOf(stancePlan(soak.stance, 'defensive').resolve(bobFacts<SoakState, SoakAnswer>({}, { answer: 'fail' }), {}));
    expect(outcome.stance).toBe('defensive');
    expect(outcome.state).toBeUndefined();
    expect(outcome).not.toHaveProperty('answer');
    expect(outcome.changes).toEqual([]);
    expect(outcome.observed).toBe(false);
  });

  it('!stance none clears the stance', () => {
    expect(outcomeOf(stancePlan(soak.stance, 'none').resolve(bobFacts<SoakState>({}, { stance: 'reactive' }), {})).stance).toBeNull();
  });

  it('hit.handEdit(200) reads the loss through armor exactly as !damage 200', () => {
    const facts = bobFacts<SoakState, SoakAnswer>({}, { answer: 'fail', values: BOB_ARMOR });
    const edit = soak.hit.handEdit(200, CONTEXT);
    const damage = planHit(soak, parseLine('!damage 200'), CONTEXT);
    expect(edit.values).toEqual(damage.values);
    // The card's words are made when shown: compared as words.
    const withWords = (resolution: Resolution<unknown, unknown>) => (isRefusal(resolution) ? resolution : { ...resolution, card: cardOf(soak, resolution, facts) });
    expect(withWords(edit.resolve(facts, {}))).toEqual(withWords(damage.resolve(facts, {})));
    // Used up, as by the hit.
    expect(outcomeOf(edit.resolve(facts, {})).answer).toBeNull();
    expect(outcomeOf(edit.resolve(facts, {})).changes).toEqual([
      { kind: 'bar', resource: 'vitality', to: 40 },
      { kind: 'value', key: 'armor_physical', to: 60 },
    ]);
  });
});

describe('soak: setVitality', () => {
  it('a fall from 30 to -3 is incapacitated with one save owed', () => {
    const set = soak.life.setVitality(30, -3, {});
    expect(set.vitality).toBe(-3);
    expect(set.state).toEqual({ life: { condition: 'incapacitated', savesOwed: 1 } });
    expect(set.steps).toEqual([{ kind: 'vitality-change', before: 30, after: -3 }, { kind: 'incapacitated', savesOwed: 1 }]);
    expect(set.steps.map((step) => soak.words(step, nameOf))).toEqual(['Vitality 30 -> -3', 'Falls: incapacitated']);
    expect(set.conditions.map((step) => soak.words(step, nameOf))).toEqual(['Falls: incapacitated']);
    expect(soak.words(set.now!, nameOf)).toMatch(/^Incapacitated/);
  });

  it('a dead token\'s lowered bar is set back', () => {
    const dead: SoakState = { life: { condition: 'dead', savesOwed: 0 } };
    const set = soak.life.setVitality(-12, -20, dead);
    expect(set.vitality).toBe(-12);
    expect(set.state).toEqual(dead);
    expect(set.steps).toEqual([{ kind: 'set-back', attempted: -20, vitality: -12 }]);
    expect(soak.words(set.now!, nameOf)).toBe('Dead');
  });

  it('raising an incapacitated token above 0 clears its condition and owed save', () => {
    const set = soak.life.setVitality(-3, 5, { life: { condition: 'incapacitated', savesOwed: 1 } });
    expect(set.vitality).toBe(5);
    expect(set.state).toEqual({});
    expect(set.now).toBeUndefined();
  });
});

describe('soak: enter, endRound, condition, deadForGood', () => {
  it('enter: standing keeps nothing; down keeps its condition read from Vitality (no save owed); dead for good stays dead', () => {
    expect(soak.life.enter(50, false)).toEqual({});
    expect(soak.life.enter(null, false)).toEqual({});
    expect(soak.life.enter(-3, false)).toEqual({ life: { condition: 'incapacitated', savesOwed: 0 } });
    expect(soak.life.enter(-12, false)).toEqual({ life: { condition: 'dead', savesOwed: 0 } });
    expect(soak.life.enter(5, true)).toEqual({ life: { condition: 'dead', savesOwed: 0 } });
    expect(soak.life.condition(soak.life.enter(5, true), 5)).toBe('dead');
  });

  it('endRound clears reactions and skills, and keeps life (the pending defense is the pipeline\'s to end)', () => {
    const state: SoakState = {
      life: { condition: 'incapacitated', savesOwed: 1 },
      reactions: { 'goblin-1': true },
      skillsVs: ['goblin-1'],
    };
    expect(soak.life.endRound(state)).toEqual({ life: { condition: 'incapacitated', savesOwed: 1 } });
    expect(soak.life.endRound({ reactions: { 'goblin-1': 'used' } })).toEqual({});
  });

  it('condition: the stored life wins; an empty state is read from Vitality (0..-9 incapacitated, -10 dead)', () => {
    expect(soak.life.condition({ life: { condition: 'dying', savesOwed: 3 } }, -15)).toBe('dying');
    expect(soak.life.condition({}, 50)).toBe('none');
    expect(soak.life.condition({}, 0)).toBe('incapacitated');
    expect(soak.life.condition({}, -3)).toBe('incapacitated');
    expect(soak.life.condition({}, -9)).toBe('incapacitated');
    expect(soak.life.condition({}, -10)).toBe('dead');
    expect(soak.life.condition({}, -12)).toBe('dead');
    expect(soak.life.condition({}, null)).toBe('none');
  });

  it('deadForGood: soak\'s dead stay dead; dying or incapacitated is not', () => {
    expect(soak.life.deadForGood({ life: { condition: 'dead', savesOwed: 0 } }, 5)).toBe(true);
    expect(soak.life.deadForGood({}, -12)).toBe(true);
    expect(soak.life.deadForGood({}, -3)).toBe(false);
    expect(soak.life.deadForGood({ life: { condition: 'dying', savesOwed: 1 } }, -15)).toBe(false);
  });
});

describe('soak: parseState, parseAnswer, isEmptyState, describeStateChange', () => {
  it('parseState accepts a good state as it is', () => {
    const good = { life: { condition: 'dying', savesOwed: 3 }, reactions: { 'goblin-1': false }, skillsVs: ['goblin-1'] };
    expect(soak.life.parseState(good)).toEqual(good);
    expect(soak.life.parseState({})).toEqual({});
  });

  it('parseState returns null for garbage', () => {
    expect(soak.life.parseState({ life: { condition: 'zombie', savesOwed: 1 } })).toBeNull();
    expect(soak.life.parseState({ life: { condition: 'dying', savesOwed: 4 } })).toBeNull();
    expect(soak.life.parseState('dead')).toBeNull();
    expect(soak.life.parseState(null)).toBeNull();
  });

  it('parseAnswer: a pending defense is a success or a failure, with what it was made for (or a bare result a saved game filed); anything else is null', () => {
    expect(soak.life.parseAnswer('success')).toBe('success');
    expect(soak.life.parseAnswer('fail')).toBe('fail');
    const filed = { result: 'fail', action: 'evade', situation: 'covert', perceptionMod: -10 };
    expect(soak.life.parseAnswer(filed)).toEqual(filed);
    expect(soak.life.parseAnswer({ result: 'success', action: 'defend', situation: 'front' })).toEqual({ result: 'success', action: 'defend', situation: 'front' });
    expect(soak.life.parseAnswer({ ...filed, action: 'react' })).toBeNull();
    expect(soak.life.parseAnswer({ ...filed, situation: 'nowhere' })).toBeNull();
    expect(soak.life.parseAnswer({ ...filed, perceptionMod: 0.5 })).toBeNull();
    expect(soak.life.parseAnswer([])).toBeNull();
    expect(soak.life.parseAnswer('maybe')).toBeNull();
    expect(soak.life.parseAnswer({ result: 'success' })).toBeNull();
    expect(soak.life.parseAnswer(null)).toBeNull();
  });

  it('isEmptyState: only a state holding nothing', () => {
    expect(soak.life.isEmptyState({})).toBe(true);
    expect(soak.life.isEmptyState({ skillsVs: ['goblin-1'] })).toBe(false);
    expect(soak.life.isEmptyState({ life: { condition: 'incapacitated', savesOwed: 0 } })).toBe(false);
  });

  it('describeStateChange says what differs', () => {
    expect(soak.life.describeStateChange({}, { life: { condition: 'incapacitated', savesOwed: 1 } })).toBe('has a new condition or saves owed');
    expect(soak.life.describeStateChange({}, { reactions: { 'goblin-1': true } })).toBe('has used reactions or skills since');
  });
});

describe('soak: words', () => {
  it('words every step of the outcomes above', () => {
    const steps: Step[] = [
      ...soakOutcomes.workedExample().steps,
      ...soakOutcomes.blocked().steps,
      ...soakOutcomes.defended().steps,
      ...soakOutcomes.reacted().steps,
      ...soak.life.setVitality(30, -3, {}).steps,
      ...soak.life.setVitality(-12, -20, { life: { condition: 'dead', savesOwed: 0 } }).steps,
    ];
    const kinds = new Set(steps.map((step) => step.kind));
    expect(kinds.size).toBeGreaterThanOrEqual(12);
    // The card's words: the steps every edition shares (its buttons), then soak's own.
    const say = wordsOf(soak, nameOf);
    for (const step of steps) {
      const words = say(step);
      expect(words, step.kind).toMatch(/\w/);
      expect(words, step.kind).not.toMatch(/undefined|NaN|\[object/);
    }
  });

  it('words damage steps as the seed writes them', () => {
    expect(soak.words({ kind: 'defense-used', result: 'success', source: 'pending' } as Step, nameOf)).toBe('Succeeded (from !defend): the hit is blocked, no damage');
    expect(soak.words({ kind: 'vitality-change', before: 70, after: 40 } as Step, nameOf)).toBe('Vitality 70 -> 40');
    expect(soak.words({ kind: 'pending-defense', result: 'success' } as Step, nameOf)).toBe('Kept for the next hit on this token: that hit is negated');
  });

  it('names ids in defend steps through nameOf', () => {
    const step = soakOutcomes.reacted().steps.find((s) => s.kind === 'reaction-recorded');
    expect(step).toBeDefined();
    expect(soak.words(step!, nameOf)).toBe('Reaction against Goblin Boss: success, kept for this round');
    expect(soakWords(step!)).toBe('Reaction against goblin-1: success, kept for this round');
  });
});

// ---------------------------------------------------------------------------------------------
// threshold (the deep tests are in threshold.test.ts)

const thresholdDamage = (line: string, facts: Facts<ThresholdState, ThresholdPending>) => planHit(threshold, parseLine(line), CONTEXT).resolve(facts, {});
/** `!defend` as the pipeline runs it: a roll given with its flag is handed over; `rolls` are the dice rolled, in the plan's order. */
const thresholdDefend = (line: string, facts: Facts<ThresholdState, ThresholdPending>, rolls: number[] = []) => {
  const parsed = parseLine(line);
  const plan = planCheck(threshold, parsed);
  return plan.resolve(facts, rollsGiven(plan, parsed, rolls));
};
/** Bob of The Defensive Turn: Vitality 30, Defense 10, Physical Armor 18. */
const THRESHOLD_ARMOR = { armor_physical: val(18), armor_defense: val(10) };
const bob001 = (state: ThresholdState, over: FactsOver<ThresholdPending> = {}) =>
  bobFacts<ThresholdState, ThresholdPending>(state, { vitality: bar(30, 30), values: THRESHOLD_ARMOR, ...over });
/** A defense made ahead against the front (the token's answer on file). */
const pendingFront = (result: 'success' | 'fail'): ThresholdPending => ({ result, situation: 'front', perceived: false });

describe('threshold: hit.plan', () => {
  it('seed worked example: hit 19 beats Physical 18; 20 damage, defense succeeds -> 10; Vitality 30 -> 20', () => {
    const outcome = outcomeOf(thresholdDamage('!damage 20 --hit 19 --defense success', bob001({})));
    expect(outcome.headline).toBe('hit');
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
    expect(cardLines(threshold, outcome)).toEqual([
      "Succeeded (--defense): the armor's Defense applies",
      'Hit chance 19 beats Physical Armor 18: a hit',
      '20 - 10 Defense = 10',
      'Vitality 30 -> 20',
    ]);
    expect(outcome.state).toEqual({});
  });

  it('a pending defense success takes the armor\'s Defense off, and is used up', () => {
    const outcome = outcomeOf(thresholdDamage('!damage 20', bob001({}, { answer: pendingFront('success') })));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 20 }]);
    expect(outcome.state).toEqual({});
    expect(outcome.answer).toBeNull();
  });

  it('a failed defense takes the whole hit', () => {
    const outcome = outcomeOf(thresholdDamage('!damage 20 --hit 19 --defense fail', bob001({})));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 10 }]);
  });

  it('a hit chance at or under the armor misses: no damage, and the pending defense is used up', () => {
    const outcome = outcomeOf(thresholdDamage('!damage 20 --hit 18', bob001({}, { answer: pendingFront('success') })));
    expect(outcome.headline).toBe('missed');
    expect(outcome.changes).toEqual([]);
    expect(outcome.state).toEqual({});
    expect(outcome.answer).toBeNull();
  });

  it('death at 0: the hit that takes Vitality to 0 kills, and opens the window of saves', () => {
    const outcome = outcomeOf(thresholdDamage('!damage 10', bob001({}, { vitality: bar(10, 30) })));
    expect(outcome.headline).toBe('dies');
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 0 }]);
    expect(outcome.state).toEqual({ roundsDead: 0 });
  });

  it('values and dice: the track\'s armor (against a hit chance) and armor_defense (for a success), read in stages; no dice', () => {
    expect(planHit(threshold, parseLine('!damage 20'), CONTEXT).values).toEqual([]);
    expect(planHit(threshold, parseLine('!damage 20 --type magical --hit 5 --defense success'), CONTEXT).more?.(bobFacts<ThresholdState, ThresholdPending>({}, { values: {} }))?.values).toEqual(['armor_magical', 'armor_defense']);
    expect(planHit(threshold, parseLine('!damage 20'), CONTEXT).dice).toEqual([]);
  });

  it('a malformed command throws UsageError; a bar with no number is refused', () => {
    expect(() => planHit(threshold, parseLine('!damage'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(threshold, parseLine('!damage -5'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(threshold, parseLine('!damage 5 --defense maybe'), CONTEXT)).toThrow(UsageError);
    expect(() => planHit(threshold, parseLine('!damage 5 --mod 2'), CONTEXT)).toThrow(UsageError);
    expect(thresholdDamage('!damage 20', bob001({}, { vitality: bar(null) }))).toEqual({ kind: 'bar', resource: 'vitality' });
  });

  it('hit.handEdit(15) is a hit of 15 taken as decided, using the pending defense: 15 - 10 = 5', () => {
    const outcome = outcomeOf(threshold.hit.handEdit(15, CONTEXT).resolve(bob001({}, { answer: pendingFront('success') }), {}));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 25 }]);
    expect(outcome.state).toEqual({});
    expect(outcome.answer).toBeNull();
  });

  it('a dead token takes no damage', () => {
    const dead: ThresholdState = { roundsDead: 1, freeSaveUsed: true };
    const outcome = outcomeOf(thresholdDamage('!damage 10', bob001(dead, { vitality: bar(-5, 30) })));
    expect(outcome.changes).toEqual([]);
    expect(outcome.state).toEqual(dead);
  });
});

describe('threshold: check.plan', () => {
  it('--action defend --roll 20 against defend_check 55 leaves a pending success for the front', () => {
    const outcome = outcomeOf(thresholdDefend('!defend --action defend --roll 20', bob001({}, { values: { defend_check: val(55) } })));
    expect(outcome.headline).toBe('acts');
    expect(outcome.answer).toEqual({ result: 'success', situation: 'front', perceived: false });
    expect(outcome.state).toBeUndefined();
    expect(outcome.observed).toBe(false);
    expect(offers(outcome)).not.toContain('offer-damage');
  });

  it('a failed defend leaves a pending failure and offers the damage button', () => {
    const outcome = outcomeOf(thresholdDefend('!defend --action defend --roll 56', bob001({}, { values: { defend_check: val(55) } })));
    expect(outcome.answer).toEqual({ result: 'fail', situation: 'front', perceived: false });
    expect(offers(outcome)).toContain('offer-damage');
  });

  it('dice: one named d100, given by --roll or rolled (read by resolve by its name); it reads the Turn Tracker', () => {
    // A given --roll still lists the die, with its flag: the pipeline hands the given value over.
    expect(planCheck(threshold, parseLine('!defend --action defend --roll 20')).dice).toEqual([{ name: 'check', sides: 100, flag: 'roll' }]);
    const plan = planCheck(threshold, parseLine('!defend --action defend'));
    expect(plan.dice).toEqual([{ name: 'check', sides: 100, flag: 'roll' }]);
    expect(plan.readsTurnOrder).toBe(true);
    expect(outcomeOf(plan.resolve(bob001({}, { values: { defend_check: val(55) } }), rollsFor(plan, [56]))).answer).toEqual({
      result: 'fail',
      situation: 'front',
      perceived: false,
    });
  });

  it('a missing check target names the attribute', () => {
    expect(thresholdDefend('!defend --action defend --roll 20', bob001({}, { values: {} }))).toEqual({ kind: 'missing-value', key: 'defend_check' });
  });

  it('the acting token makes no defense, but may save', () => {
    expect(thresholdDefend('!defend --action defend --roll 20', bob001({}, { acting: true, values: { defend_check: val(55) } }))).toMatchObject({ kind: 'refused' });
    const dead = bob001({ roundsDead: 0 }, { acting: true, vitality: bar(-3, 30), values: { save_check: val(50) } });
    expect(outcomeOf(thresholdDefend('!defend --action save --roll 10', dead)).headline).toBe('saved');
  });

  it('evade and react are refused naming the edition', () => {
    expect(() => planCheck(threshold, parseLine('!defend --action evade'))).toThrow(/threshold edition/);
    expect(() => planCheck(threshold, parseLine('!defend --action react'))).toThrow(/threshold edition/);
  });
});

describe('threshold: the rest of the contract', () => {
  it('is playable, and has no stances', () => {
    expect(threshold.table.playable).toBe(true);
    expect(threshold.stance.modes).toEqual([]);
  });

  it('condition: at or below 0 is dead', () => {
    expect(threshold.life.condition({}, 1)).toBe('none');
    expect(threshold.life.condition({}, 0)).toBe('dead');
    expect(threshold.life.condition({ roundsDead: 2 }, -4)).toBe('dead');
    expect(threshold.life.condition({}, null)).toBe('none');
  });

  it('endRound counts the rounds dead and gives the try back (the pending defense is the pipeline\'s to end)', () => {
    expect(threshold.life.endRound({ roundsDead: 0, freeSaveUsed: true, triedThisRound: true })).toEqual({ roundsDead: 1, freeSaveUsed: true });
    expect(threshold.life.endRound({})).toEqual({});
  });

  it('deadForGood after 4 rounds dead (the round of death and the three after it)', () => {
    let state: ThresholdState = { roundsDead: 0 };
    for (let round = 1; round <= 3; round++) state = threshold.life.endRound(state);
    expect(state).toEqual({ roundsDead: 3 });
    expect(threshold.life.deadForGood(state, 0)).toBe(false);
    state = threshold.life.endRound(state);
    expect(state).toEqual({ roundsDead: 4 });
    expect(threshold.life.deadForGood(state, 0)).toBe(true);
    expect(threshold.life.deadForGood(state, 5)).toBe(false);
  });

  it('enter: at or below 0 the four-round window starts now; dead for good stays so', () => {
    expect(threshold.life.enter(-3, false)).toEqual({ roundsDead: 0 });
    expect(threshold.life.enter(0, false)).toEqual({ roundsDead: 0 });
    expect(threshold.life.enter(12, false)).toEqual({});
    expect(threshold.life.enter(null, false)).toEqual({});
    expect(threshold.life.deadForGood(threshold.life.enter(-12, true), -12)).toBe(true);
  });

  it('setVitality: a fall to 0 dies; rising above 0 ends the count', () => {
    const fall = threshold.life.setVitality(10, 0, {});
    expect(fall.vitality).toBe(0);
    expect(fall.state).toEqual({ roundsDead: 0 });
    expect(fall.steps.map((step) => threshold.words(step, nameOf))).toEqual([
      'Vitality 10 -> 0',
      'Dies at 0: after the free save, one try a round for 1d% EXP, for 4 rounds',
    ]);
    expect(threshold.words(fall.now!, nameOf)).toBe('Dead: the free Vitality save is owed (!defend --action save)');
    // The dead make no defense: one made ahead goes with the death.
    expect(fall.dropsAnswer).toBe(true);
    const back = threshold.life.setVitality(-2, 1, { roundsDead: 2, freeSaveUsed: true });
    expect(back.state).toEqual({});
    expect(threshold.life.isEmptyState(back.state)).toBe(true);
    expect(back.now).toBeUndefined();
    expect(back.dropsAnswer).toBeUndefined();
  });

  it('parseState, parseAnswer, isEmptyState, describeStateChange', () => {
    const good: ThresholdState = { roundsDead: 2 };
    expect(threshold.life.parseState(good)).toEqual(good);
    expect(threshold.life.parseState({ roundsDead: -1 })).toBeNull();
    expect(threshold.life.parseState('dead')).toBeNull();
    const answer: ThresholdPending = { result: 'fail', situation: 'behind', perceived: true };
    expect(threshold.life.parseAnswer(answer)).toEqual(answer);
    expect(threshold.life.parseAnswer('fail')).toBeNull();
    expect(threshold.life.isEmptyState({})).toBe(true);
    expect(threshold.life.isEmptyState({ roundsDead: 0 })).toBe(false);
    expect(threshold.life.describeStateChange({ roundsDead: 0 }, { roundsDead: 1 })).toBe('has had a save or another round dead since');
  });

  it('words its steps', () => {
    const miss: Step = { kind: 'hit-check', hit: 18, bonus: 0, mod: 0, total: 18, armor: 18, track: 'physical', hits: false, situation: 'front' } as Step;
    expect(threshold.words(miss, nameOf)).toBe('Hit chance 18 vs Physical Armor 18: no damage (at or under the armor)');
    expect(thresholdWords({ kind: 'armor-defense', before: 20, defense: 10, after: 10 } as Step)).toBe('20 - 10 Defense = 10');
  });
});

// ---------------------------------------------------------------------------------------------
// opposed

/** `!damage` as the pipeline runs it: a --defense-roll given is handed over; `rolls` are the dice rolled, in the plan's order. */
const opposedDamage = (line: string, facts: Facts<OpposedState, OpposedAnswer>, rolls: number[] = []) => {
  const parsed = parseLine(line);
  const plan = planHit(opposed, parsed, CONTEXT);
  return plan.resolve(facts, rollsGiven(plan, parsed, rolls));
};
/** Opposed Rolls's defender: passive_defense 10, so a d20 of 8 makes D 18. */
const defender = (armorScore: number, over: FactsOver<never> = {}) =>
  bobFacts<OpposedState>({}, { vitality: bar(50, 50), power: bar(30, 30), values: { passive_defense: val(10), armor_score: val(armorScore) }, ...over });

describe('opposed: hit.plan', () => {
  it('seed worked example: A 24, D 18, B 8 -> 14 damage, above armor 13: off Vitality', () => {
    const outcome = outcomeOf(opposedDamage('!damage 8 --attack 24 --defense-roll 8', defender(13)));
    expect(outcome.headline).toBe('hit');
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 36 }]);
    expect(cardLines(opposed, outcome)).toContain('Damage 8 + 6 margin = 14');
    expect(cardLines(opposed, outcome)).toContain('Effective armor 13 - 0 AP = 13: 14 beats it, Vitality damage');
  });

  it('14 damage not above armor 14: off stamina (the Power bar)', () => {
    const outcome = outcomeOf(opposedDamage('!damage 8 --attack 24 --defense-roll 8', defender(14)));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'power', to: 16 }]);
  });

  it('an active defense costs 5 initiative: 20 -> 15', () => {
    const outcome = outcomeOf(opposedDamage('!damage 8 --attack 24 --defense-roll 8', defender(13, { stance: 'active', initiative: 20 })));
    // D = 8 + 10 passive + 0 active = 18: the hit and its damage as before, and the cost paid.
    expect(outcome.changes).toEqual([
      { kind: 'bar', resource: 'vitality', to: 36 },
      { kind: 'initiative', to: 15 },
    ]);
  });

  it('a full defense adds active_defense and full_defense, and costs 10 initiative, hit or not', () => {
    const values = { passive_defense: val(10), active_defense: val(4), full_defense: val(3), armor_score: val(0) };
    const outcome = outcomeOf(opposedDamage('!damage 8 --attack 24 --defense-roll 8', defender(0, { stance: 'full', initiative: 20, values })));
    // D = 8 + 10 + 4 + 3 = 25: 24 does not beat it
    expect(outcome.headline).toBe('missed');
    expect(outcome.changes).toEqual([{ kind: 'initiative', to: 10 }]);
  });

  it('an attack that does not beat D misses', () => {
    const outcome = outcomeOf(opposedDamage('!damage 8 --attack 18 --defense-roll 8', defender(13)));
    expect(outcome.headline).toBe('missed');
    expect(outcome.changes).toEqual([]);
  });

  it('dice: one named d20 per target, given by --defense-roll or rolled (read by resolve by its name)', () => {
    // A given --defense-roll still lists the die, with its flag: the pipeline hands the given value over.
    expect(planHit(opposed, parseLine('!damage 8 --attack 24 --defense-roll 8'), CONTEXT).dice).toEqual([{ name: 'defense', sides: 20, flag: 'defense-roll' }]);
    const plan = planHit(opposed, parseLine('!damage 8 --attack 24'), CONTEXT);
    expect(plan.dice).toEqual([{ name: 'defense', sides: 20, flag: 'defense-roll' }]);
    expect(plan.readsTurnOrder).toBe(true);
    expect(outcomeOf(plan.resolve(defender(13), rollsFor(plan, [8]))).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 36 }]);
  });

  it('a malformed command throws UsageError; the hit bar with no number is refused', () => {
    expect(() => planHit(opposed, parseLine('!damage 8'), CONTEXT)).toThrow(UsageError);
    // --defense-roll's range is its die's, 1 to 20: the one parser checks it (a typed flag of kind die).
    expect(() => planHit(opposed, parseLine('!damage 8 --attack 24 --defense-roll 21'), CONTEXT)).toThrow('--defense-roll must be from 1 to 20 (got 21)');
    expect(opposedDamage('!damage 8 --attack 24 --defense-roll 8', defender(13, { vitality: bar(null) }))).toEqual({ kind: 'bar', resource: 'vitality' });
  });

  it('--ap lowers the armor: 14 damage against armor 16 - 5 = 11 goes to Vitality', () => {
    const outcome = outcomeOf(opposedDamage('!damage 8 --attack 24 --defense-roll 8 --ap 5', defender(16)));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 36 }]);
  });

  it('a defense modifier that is not a number refuses the token', () => {
    const facts = defender(13, { values: { passive_defense: notANumber, armor_score: val(13) } });
    expect(isRefusal(opposedDamage('!damage 8 --attack 24 --defense-roll 8', facts))).toBe(true);
  });
});

describe('opposed: the rest of the contract', () => {
  it('is playable; its stances are the defense modes; !defend is refused with why', () => {
    expect(opposed.table.playable).toBe(true);
    expect(opposed.stance.modes).toEqual(['passive', 'active', 'full']);
    expect(opposed.check.refused).toMatch(/rolled inside !damage/);
    expect(() => planCheck(opposed, parseLine('!defend --action defend'))).toThrow(UsageError);
  });

  it('the stance table sets the default mode; passive keeps no stance', () => {
    const active = outcomeOf(stancePlan(opposed.stance, 'active').resolve(defender(13), {}));
    expect(active.stance).toBe('active');
    expect(outcomeOf(stancePlan(opposed.stance, 'passive').resolve(defender(13, { stance: 'active' }), {})).stance).toBeNull();
  });

  it('condition: incapacitated at or below 0 (a visual aid), never dead for good', () => {
    expect(opposed.life.condition({}, 1)).toBe('none');
    expect(opposed.life.condition({}, 0)).toBe('incapacitated');
    expect(opposed.life.condition({}, -30)).toBe('incapacitated');
    expect(opposed.life.deadForGood({}, -30)).toBe(false);
  });

  it('hit.handEdit: a loss above armor_score stays on Vitality; otherwise it moves to stamina', () => {
    // Vitality 50 typed down by 20: above armor 13, Vitality damage.
    expect(outcomeOf(opposed.hit.handEdit(20, CONTEXT).resolve(defender(13), {})).changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 30 }]);
    // Down by 10, not above 13: Vitality stays 50, stamina (Power 30) takes it.
    expect(outcomeOf(opposed.hit.handEdit(10, CONTEXT).resolve(defender(13), {})).changes).toEqual([
      { kind: 'bar', resource: 'vitality', to: 50 },
      { kind: 'bar', resource: 'power', to: 20 },
    ]);
  });

  it('setVitality moves the bar and says incapacitated at or below 0', () => {
    const set = opposed.life.setVitality(5, -1, {});
    expect(set.vitality).toBe(-1);
    expect(set.steps.map((step) => opposed.words(step, nameOf))).toEqual(['Vitality 5 -> -1']);
    expect(opposed.words(set.now!, nameOf)).toBe('Vitality at or below 0 (marked incapacitated)');
    expect(set.state).toEqual({ down: true });
  });

  it('a token dead for good in the edition before stays dead here; raised above 0 by hand it is back', () => {
    expect(opposed.life.enter(-20, true)).toEqual({ down: true, dead: true });
    expect(opposed.life.condition({ dead: true }, -20)).toBe('dead');
    expect(opposed.life.deadForGood({ dead: true }, -20)).toBe(true);
    expect(opposed.life.setVitality(-20, -25, { dead: true }).state).toEqual({ down: true, dead: true });
    expect(opposed.life.setVitality(-20, 5, { dead: true }).state).toEqual({});
  });

  it('state: only whether the token is shown down, so an edition switch reads it again', () => {
    expect(opposed.life.enter(-5, false)).toEqual({ down: true });
    expect(opposed.life.enter(5, false)).toEqual({});
    expect(opposed.life.endRound({ down: true })).toEqual({ down: true });
    expect(opposed.life.parseState({})).toEqual({});
    expect(opposed.life.parseState({ down: true })).toEqual({ down: true });
    expect(opposed.life.parseState({ pendingDefense: 'fail' })).toBeNull();
    // Opposed Rolls has no defense made ahead.
    expect(opposed.life.parseAnswer('fail')).toBeNull();
    expect(opposed.life.isEmptyState({})).toBe(true);
    expect(opposed.life.isEmptyState({ down: true })).toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// the registry

describe('registry', () => {
  it('the three shipped editions are playable, and the menu offers exactly the registered editions that are', () => {
    for (const id of ['soak', 'threshold', 'opposed']) expect(playableEditions()).toContain(id);
    expect(playableEditions()).toEqual(editionIds().filter((id) => editionOf(id).table.playable));
  });

  it.each(editionIds())('%s: its sample, when it has one, is one the tools can play (values it names, a hit it plans, moves as commands)', (id) => {
    const edition = editionOf(id);
    const sample = edition.table.sample;
    if (sample === undefined) return;
    for (const key of Object.keys(sample.sheet)) expect(VALUE_KEYS).toContain(key);
    for (const key of [...Object.keys(sample.hero), ...Object.keys(sample.foe)]) expect([...VALUE_KEYS, 'vitality']).toContain(key);
    expect(() => planHit(edition, parseLine(sample.hit), CONTEXT)).not.toThrow();
    expect(sample.example.title).not.toBe('');
    expect(sample.example.moves.length).toBeGreaterThan(0);
    for (const move of sample.example.moves) expect(move.line).toMatch(/^!(damage|defend|stance|heal|attack) /);
  });

  it('every edition is registered under its own id, in the registry\'s order; the first is the default', () => {
    expect(editionIds()).toEqual(Object.keys(REGISTERED));
    for (const id of editionIds()) expect(editionOf(id).id).toBe(id);
    expect(DEFAULT_EDITION).toBe('soak');
  });

  it('flagElsewhere names the active edition for a flag only another edition has', () => {
    expect(flagElsewhere('soak', '!damage')('hit')).toBe('soak');
    expect(flagElsewhere('soak', '!damage')('attack')).toBe('soak');
    expect(flagElsewhere('soak', '!damage')('nonsense')).toBeUndefined();
    expect(flagElsewhere('opposed', '!damage')('pierce')).toBe('opposed');
    expect(flagElsewhere('soak', '!defend')('difficulty')).toBe('soak');
  });
});

// ---------------------------------------------------------------------------------------------
// planHeal

describe('planHeal', () => {
  it('healedValue caps at max, never lowers a value above max, and has no cap without max', () => {
    expect(healedValue(50, 30, 70)).toBe(70);
    expect(healedValue(50, 10, 70)).toBe(60);
    expect(healedValue(80, 5, 70)).toBe(80);
    expect(healedValue(10, 5, null)).toBe(15);
  });

  it('caps a Vitality heal at max', () => {
    const outcome = outcomeOf(planHeal(soak, 30, 'vitality').resolve(bobFacts<SoakState>({}, { vitality: bar(50, 70) }), {}));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 70 }]);
    expect(cardLines(soak, outcome)).toContain('Vitality 50 -> 70 (capped at max 70)');
  });

  it('never lowers a value already above max', () => {
    const outcome = outcomeOf(planHeal(soak, 5, 'vitality').resolve(bobFacts<SoakState>({}, { vitality: bar(80, 70) }), {}));
    expect(outcome.changes).toEqual([]);
  });

  it('a heal above 0 clears an incapacitated token\'s condition', () => {
    const state: SoakState = { life: { condition: 'incapacitated', savesOwed: 1 } };
    const outcome = outcomeOf(planHeal(soak, 10, 'vitality').resolve(bobFacts(state, { vitality: bar(-3, 70) }), {}));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 7 }]);
    expect(outcome.state).toEqual({});
  });

  it('refuses a dead soak token, stored or read from Vitality', () => {
    const stored = planHeal(soak, 10, 'vitality').resolve(bobFacts<SoakState>({ life: { condition: 'dead', savesOwed: 0 } }, { vitality: bar(-12, 70) }), {});
    expect(stored).toMatchObject({ kind: 'refused', nameFirst: true, reason: expect.stringContaining('dead') });
    const lazy = planHeal(soak, 10, 'soul').resolve(bobFacts<SoakState>({}, { vitality: bar(-12, 70) }), {});
    expect(lazy).toMatchObject({ kind: 'refused', reason: expect.stringContaining('dead') });
  });

  it('a Soul heal leaves the state alone', () => {
    const outcome = outcomeOf(planHeal(soak, 5, 'soul').resolve(bobFacts<SoakState, SoakAnswer>({}, { answer: 'fail', soul: bar(10, 20) }), {}));
    expect(outcome.changes).toEqual([{ kind: 'bar', resource: 'soul', to: 15 }]);
    expect(outcome.state).toBeUndefined();
    expect(outcome).not.toHaveProperty('answer');
  });

  it('a bar with no number is refused', () => {
    expect(planHeal(soak, 5, 'power').resolve(bobFacts<SoakState>({}, { power: bar(null) }), {})).toEqual({ kind: 'bar', resource: 'power' });
  });

  it('works for every edition: threshold refuses its dead, opposed heals its incapacitated', () => {
    const dead = planHeal(threshold, 5, 'vitality').resolve(bobFacts<ThresholdState>({ roundsDead: 0 }, { vitality: bar(0, 30) }), {});
    expect(dead).toMatchObject({ kind: 'refused' });
    const down = outcomeOf(planHeal(opposed, 5, 'vitality').resolve(bobFacts<OpposedState>({}, { vitality: bar(-2, 50) }), {}));
    expect(down.changes).toEqual([{ kind: 'bar', resource: 'vitality', to: 3 }]);
  });
});
