// The `threshold` edition's side of `!attack` (The Defensive Turn; rules.md, "The exchange (`!attack`):
// rulings" and section 10), pure: the answers as the attack asks them, the guard that keeps the
// better, the defense made ahead that does not fit, the hit chance that comes first, the area's edge
// and the attacker out of turn, from hand-built facts.
import { describe, expect, it } from 'vitest';
import { isRefusal, type AnyEdition, type AttackAsked, type Facts, type OtherFacts, type ValueFact, type ValueKey } from '../../src/rules/edition';
import { registered } from '../../src/rules/editions';
import { threshold as declared, type ThresholdState } from '../../src/rules/threshold';
import { betterPending } from '../../src/rules/threshold/check';
import type { ThresholdPending } from '../../src/rules/threshold/state';
import { parseThresholdAnswer } from '../../src/rules/threshold/state';
import { attackOrderOf } from '../../src/commands/exchange/line';
import { parseLine, UsageError } from '../../src/text/args';
import { planCheck } from '../support/plans';
import { bar, CONTEXT, factsOf, outcomeOf, rollsGiven, val } from '../support/facts';

const threshold = registered(declared);
const answers = threshold.check.answers;

/** Bob of The Defensive Turn (Vitality 30, Defense 10, Physical Armor 18), Defend 55, React 60, Perceive 50. */
const VALUES: Partial<Record<ValueKey, ValueFact>> = {
  armor_physical: val(18), armor_magical: val(12), armor_defense: val(10), defend_check: val(55), reaction_check: val(60), perception_check: val(50),
};
const ally = (name: string, answer: ThresholdPending | null = null, vitality = 30): OtherFacts<ThresholdState, ThresholdPending> => ({ name, stance: null, state: {}, answer, vitality });

function bob(over: Partial<Facts<ThresholdState, ThresholdPending>> = {}): Facts<ThresholdState, ThresholdPending> {
  return factsOf<ThresholdState, ThresholdPending>({}, { bars: { vitality: bar(30, 30), soul: bar(20, 20), power: bar(30, 30) }, values: VALUES, ...over });
}

/** `!attack LINE` as Bob (`bob-1`) meets it, among `defenders`. */
function asked(line: string, defenders: readonly string[] = ['bob-1'], defender = 'bob-1'): AttackAsked {
  const order = answers.forDefender(attackOrderOf(parseLine(`!attack ${line}`), threshold as AnyEdition), defender);
  return { key: 'A1', order, situation: answers.situation(order), attacker: 'goblin-1', defender, defenders };
}

const pending = (result: 'success' | 'fail', situation: ThresholdPending['situation'] = 'front', perceived = false): ThresholdPending => ({ result, situation, perceived });
const NO_FLAGS = { positionals: [] };
/** An answer rolled as the pipeline rolls it: its own flags (`--perception-roll`, `--ally`) from the answer line, its dice given. */
function answer(word: string, attack: AttackAsked, line = '', facts = bob()) {
  const parsed = parseLine(`!defend ${line}`);
  const flags = Object.fromEntries([...parsed.flags].filter(([name]) => name === 'ally').map(([name, [value]]) => [name, value]));
  const plan = answers.planAnswer(word, attack, CONTEXT, { positionals: [], ...flags });
  const outcome = outcomeOf(plan.resolve(facts, rollsGiven(plan, parsed)));
  return { plan, outcome, kept: answers.keep(word, outcome, {}) };
}

describe('buttons show the check that is rolled (item 16)', () => {
  it.each([
    ['20 --hit 19', 'Defend (55)'],
    ['20 --hit 19 --situation side', 'Defend (55)'],
    // The Defensive Turn: "Hard React check needed to defend against" a projectile: 60 / 2.
    ['20 --hit 19 --situation projectile', 'React (30)'],
    ['20 --hit 19 --situation spell-fast', 'React (30)'],
    ['20 --hit 19 --situation spell-invisible --difficulty impossible', 'React (15)'],
    ['20 --hit 19 --situation behind', 'Defend (55) after Perceive (25)'],
    ['20 --hit 19 --situation covert --difficulty impossible --perception-mod -5', 'Defend (55) after Perceive (7)'],
    ['20 --hit 19 --situation spectator --perception-mod -10', 'Defend (55) after Perceive (40)'],
  ])('!attack %s: %s', (line, label) => {
    expect(answers.label('defend', bob(), asked(line))).toBe(label);
    expect(answers.label('none', bob(), asked(line))).toBe('No defense');
  });

  it('a check target the sheet lacks shows no number', () => {
    expect(answers.label('defend', bob({ values: {} }), asked('20 --situation projectile'))).toBe('React');
  });
});

describe('answers rolled as !defend would, with what the attack declared (items 12-14)', () => {
  it('covert, --difficulty impossible: the perceive check is quartered (50 -> 12): 13 fails, no defense', () => {
    const { outcome, kept } = answer('defend', asked('20 --hit 25 --situation covert --difficulty impossible'), '--perception-roll 13 --roll 1');
    expect(outcome.detail).toMatchObject({ pending: { result: 'fail', situation: 'covert', perceived: false } });
    expect(kept).toEqual({ word: 'defend', answer: { result: 'fail', situation: 'covert', perceived: false } });
  });

  it('spell-fast, --difficulty impossible: the React check is quartered (60 -> 15), given with --roll', () => {
    const { plan, kept } = answer('defend', asked('20 --hit 25 --situation spell-fast --difficulty impossible'), '--roll 15');
    expect(plan.dice).toEqual([{ name: 'check', sides: 100, flag: 'roll' }]);
    expect(kept).toMatchObject({ roll: 15, success: true });
    expect(answer('defend', asked('20 --hit 25 --situation spell-fast --difficulty impossible'), '--roll 16').kept).toMatchObject({ roll: 16, success: false });
  });

  it('--perception-mod is the spectator\'s perceive penalty (50 - 10 = 40): 41 fails, the attack hits', () => {
    const { outcome } = answer('defend', asked('20 --hit 25 --situation spectator --perception-mod -10'), '--perception-roll 41 --roll 1');
    expect(outcome.steps).toContainEqual(expect.objectContaining({ kind: 'check', check: 'perceive', target: 40, success: false }));
  });

  it('from behind the perceive roll is the answer\'s --perception-roll, the defense check its --roll', () => {
    const { plan, kept } = answer('defend', asked('20 --hit 19 --situation behind'), '--perception-roll 25 --roll 55');
    expect(plan.dice.map((die) => die.flag)).toEqual(['perception-roll', 'roll']);
    expect(kept).toEqual({ word: 'defend', answer: { result: 'success', situation: 'behind', perceived: true }, roll: 55, success: true });
  });

  it.each([
    ['guard', NO_FLAGS, /--action guard needs --ally/],
    ['guard', { positionals: [], ally: 'bob-1' }, /another defender of this attack/],
    ['guard', { positionals: [], ally: 'stranger-1' }, /another defender of this attack/],
    ['defend', { positionals: [], ally: 'alice-1' }, /--ally goes with --action guard/],
    ['defend', { positionals: [], 'perception-roll': 5 }, /--perception-roll applies only where a perceive check comes first/],
  ])('%s with %o is refused before any roll', (word, flags, message) => {
    expect(() => answers.planAnswer(word, asked('20 --hit 19', ['bob-1', 'alice-1']), CONTEXT, flags)).toThrow(UsageError);
    expect(() => answers.planAnswer(word, asked('20 --hit 19', ['bob-1', 'alice-1']), CONTEXT, flags)).toThrow(message);
  });

  it('guard is an announced answer, not a button of its own', () => {
    expect(answers.choices).toEqual(['defend', 'none']);
    expect(answers.announced).toEqual(['guard']);
  });
});

describe('guard keeps the better (item 11)', () => {
  it('of the ally\'s own defense and a guard\'s: a success over a failure over none; on a tie its own; a guard\'s kept is marked', () => {
    expect(betterPending(undefined, pending('fail'))).toEqual({ ...pending('fail'), byGuard: true });
    expect(betterPending(pending('fail'), pending('success'))).toEqual({ ...pending('success'), byGuard: true });
    expect(betterPending(pending('success', 'side'), pending('fail'))).toEqual(pending('success', 'side'));
    expect(betterPending(pending('fail', 'side'), pending('fail'))).toEqual(pending('fail', 'side'));
    expect(betterPending(pending('success', 'side'), pending('success'))).toEqual(pending('success', 'side'));
  });

  it('a mark survives a restart: the stored answer is checked with it', () => {
    expect(parseThresholdAnswer({ ...pending('fail'), byGuard: true })).toEqual({ ...pending('fail'), byGuard: true });
    expect(parseThresholdAnswer(pending('fail'))).toEqual(pending('fail'));
    expect(parseThresholdAnswer({ ...pending('fail'), byGuard: false })).toBeNull();
  });

  it('!defend: the token\'s own failure after a guard\'s success keeps the guard\'s; its own success after a guard\'s failure is its own', () => {
    const defend = (line: string, filed: ThresholdPending) => {
      const parsed = parseLine(line);
      const plan = planCheck(threshold, parsed);
      return outcomeOf(plan.resolve(bob({ answer: filed }), rollsGiven(plan, parsed)));
    };
    const keptGuard = defend('!defend --action defend --roll 90', { ...pending('success'), byGuard: true });
    expect(keptGuard.answer).toEqual({ ...pending('success'), byGuard: true });
    expect(keptGuard.steps).toContainEqual(expect.objectContaining({ kind: 'guard-kept', ally: 'bob-1', result: 'success' }));
    expect(defend('!defend --action defend --roll 10', { ...pending('fail'), byGuard: true }).answer).toEqual(pending('success'));
    // A defense of its own on file is replaced, as before.
    expect(defend('!defend --action defend --roll 90', pending('success')).answer).toEqual(pending('fail'));
  });

  it('a guard\'s answer: no defense of its own; its success answers for the ally, its failure leaves the ally\'s answer alone', () => {
    const attack = asked('20 --hit 25 --situation side', ['bob-1', 'alice-1']);
    const facts = bob({ others: { 'alice-1': ally('Alice', pending('success', 'front')) } });
    const success = answer('guard', attack, '--ally alice-1 --roll 30', facts).kept;
    expect(success).toEqual({
      word: 'guard', roll: 30, success: true,
      // The guard's own defense, made in this attack's situation, not the ally's made ahead.
      answersFor: { defender: 'alice-1', kept: { word: 'guarded', answer: { result: 'success', situation: 'side', perceived: false, byGuard: true }, roll: 30, success: true } },
    });
    expect(answer('guard', attack, '--ally alice-1 --roll 90', facts).kept).toEqual({ word: 'guard', roll: 90, success: false });
  });

  it('the prompt\'s guard buttons: one per other defender it may guard, each an answer for that ally, with the check rolled', () => {
    const attack = asked('20 --hit 19 --situation behind', ['bob-1', 'alice-1', 'carl-1', 'dora-1', 'ed-1']);
    const facts = bob({
      others: {
        'alice-1': ally('Alice'),
        'carl-1': ally('Carl', null, -2), // dead: nothing to guard
        'dora-1': ally('Dora', pending('success', 'behind', true)), // answered by the defense it made ahead
        'ed-1': ally('Ed', pending('success', 'front')), // made ahead for the front: it does not answer this attack
      },
    });
    expect(answers.planAnswer('defend', attack, CONTEXT, NO_FLAGS).others).toEqual(['alice-1', 'carl-1', 'dora-1', 'ed-1']);
    expect(answers.extra!(facts, attack, () => 'x')).toEqual([
      { kind: 'button', section: 'action', label: 'Guard Alice: Defend (55) after Perceive (25)', command: '!defend --answer A1 --ids bob-1 --action guard --ally alice-1' },
      { kind: 'button', section: 'action', label: 'Guard Ed: Defend (55) after Perceive (25)', command: '!defend --answer A1 --ids bob-1 --action guard --ally ed-1' },
    ]);
    // None when it cannot defend (its own turn), and none on a large attack.
    expect(answers.extra!(bob({ ...facts, acting: true }), attack, () => 'x')).toEqual([]);
    const seven = ['bob-1', 'a', 'b', 'c', 'd', 'e', 'f'];
    expect(answers.extra!(facts, asked('20 --hit 19', seven), () => 'x')).toEqual([]);
    expect(answers.planAnswer('defend', asked('20 --hit 19', seven), CONTEXT, NO_FLAGS).others).toBeUndefined();
  });
});

describe('a defense made ahead answers an attack only where it fits (item 10)', () => {
  it.each([
    [pending('success', 'front'), '20 --hit 19 --situation behind', 'made for front, without the perceive check behind needs'],
    [pending('success', 'side'), '20 --hit 19 --situation covert', 'made for side, without the perceive check covert attack needs'],
    [pending('success', 'spectator', true), '20 --hit 19 --situation behind', null],
    [pending('fail', 'behind'), '20 --hit 19 --situation behind', null],
    [pending('success', 'front'), '20 --hit 19 --situation projectile', null],
    // No situation declared: the hit takes the defense's own.
    [pending('success', 'behind', true), '20 --hit 19', null],
    [{ ...pending('fail'), byGuard: true as const }, '20 --hit 19', "a guard's failure: it may still defend itself"],
    [{ ...pending('success'), byGuard: true as const }, '20 --hit 19', null],
  ])('%o against !attack %s: %s', (filed, line, why) => {
    expect(answers.fits!(filed, asked(line))).toBe(why);
  });
});

describe('the hit chance comes first (item 15)', () => {
  const spared = (line: string, facts = bob()) => answers.spared!(facts, asked(line));
  it('a defender the declared hit chance does not beat is not prompted: missed', () => {
    expect(spared('20 --hit 18')).toBe('missed (hit chance 18 does not beat Physical Armor 18)');
    expect(spared('20 --hit 19')).toBeNull();
    // With the situation's bonus and --mod: 16 + 2 side = 18 misses; + 1 hits.
    expect(spared('20 --hit 16 --situation side')).toBe('missed (hit chance 18 does not beat Physical Armor 18)');
    expect(spared('20 --hit 16 --situation side --mod 1')).toBeNull();
    expect(spared('20 --hit 12 --type magical')).toBe('missed (hit chance 12 does not beat Magical Armor 12)');
  });

  it('no hit chance to compare spares nobody: an area attack, no --hit, a dead defender', () => {
    expect(spared('20 --hit 1 --situation aoe')).toBeNull();
    expect(spared('20')).toBeNull();
    expect(spared('20 --hit 1', bob({ bars: { vitality: bar(-2, 30), soul: bar(0), power: bar(0) } }))).toBeNull();
  });

  it('a token with no character has no armor: only a hit chance of 0 or less misses it', () => {
    expect(spared('20 --hit 0', bob({ armorSource: false }))).toBe('missed (hit chance 0 does not beat Physical Armor 0)');
    expect(spared('20 --hit 1', bob({ armorSource: false }))).toBeNull();
  });

  it('the hit plan reads the armor the answer compares', () => {
    const order = asked('20 --hit 18').order;
    expect(threshold.hit.plan(order, CONTEXT).more?.(bob({ values: {} }))?.values).toEqual(['armor_physical']);
  });
});

describe('--edge: an area attack\'s edge faces the hit chance', () => {
  it('the edge defenders meet it as aoe-edge, one order for them all; the others as declared', () => {
    const order = attackOrderOf(parseLine('!attack 20 --hit 10 --situation aoe --edge alice-1,carl-1'), threshold as AnyEdition);
    const alice = answers.forDefender(order, 'alice-1');
    expect(alice).toMatchObject({ situation: 'aoe-edge', hit: 10 });
    expect(answers.forDefender(order, 'carl-1')).toBe(alice);
    expect(answers.forDefender(order, 'bob-1')).toBe(order);
    expect(answers.spared!(bob(), asked('20 --hit 10 --situation aoe --edge bob-1'))).toBe('missed (hit chance 10 does not beat Physical Armor 18)');
    expect(answers.spared!(bob(), asked('20 --hit 10 --situation aoe --edge alice-1'))).toBeNull();
  });

  it('an edge id that is no defender refuses the attack', () => {
    const order = attackOrderOf(parseLine('!attack 20 --hit 10 --situation aoe --edge alice-1 carl-1'), threshold as AnyEdition);
    expect(answers.refuseDeclared!(order, ['alice-1', 'carl-1'])).toBeNull();
    expect(answers.refuseDeclared!(order, ['alice-1'])).toBe('--edge: "carl-1" is no defender of this attack (name each edge defender in --ids too)');
  });
});

describe('!attack\'s own flags are refused where they change nothing', () => {
  it.each([
    ['20 --hit 10 --edge alice-1', /--edge applies only to --situation aoe/],
    ['20 --hit 10 --situation aoe-edge --edge alice-1', /--edge applies only to --situation aoe/],
    ['20 --hit 10 --situation behind --difficulty impossible', /--difficulty applies only to --situation covert, spell-fast or spell-invisible/],
    ['20 --hit 10 --situation behind --perception-mod -5', /--perception-mod applies only to the perceive check of a covert attack or a spectator/],
    ['20 --hit 10 --counter --opportunity', /--opportunity and --counter: an attack is one or the other/],
  ])('!attack %s', (line, message) => {
    expect(() => attackOrderOf(parseLine(`!attack ${line}`), threshold as AnyEdition)).toThrow(message);
  });
});

describe('out of turn: an attacker not on its turn counters or takes an opportunity', () => {
  const may = (line: string, over: Partial<Facts<ThresholdState, ThresholdPending>>) => {
    const plan = answers.declarer!(attackOrderOf(parseLine(`!attack ${line}`), threshold as AnyEdition), ['alice-1'])!;
    expect(plan.readsTurnOrder).toBe(true);
    const resolution = plan.resolve(bob(over), {});
    return isRefusal(resolution) ? resolution : 'may attack';
  };
  const turn = { currentTurn: { initiative: 12, hidden: false }, initiative: 8 };

  it('no Turn Tracker, or no turn in it (a spectator): no check', () => {
    expect(may('20 --hit 10', {})).toBe('may attack');
    expect(may('20 --hit 10', { currentTurn: { initiative: 12, hidden: false } })).toBe('may attack');
  });

  it('on its own turn a plain attack; --counter or --opportunity then would change nothing and are refused', () => {
    expect(may('20 --hit 10', { ...turn, acting: true })).toBe('may attack');
    expect(may('20 --hit 10 --counter', { ...turn, acting: true })).toMatchObject({ kind: 'refused', reason: "--counter: it is this token's turn, so its attack is no counter attack" });
    expect(may('20 --hit 10 --opportunity', { ...turn, acting: true })).toMatchObject({ kind: 'refused', reason: expect.stringContaining('no attack of opportunity') });
  });

  it('in its defensive turn only --counter (with the skill) or --opportunity, and not when dead', () => {
    expect(may('20 --hit 10', turn)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/^it is not this token's turn: .*--counter.*--opportunity/) });
    expect(may('20 --hit 10 --counter', turn)).toBe('may attack');
    expect(may('20 --hit 10 --opportunity', turn)).toBe('may attack');
    expect(may('20 --hit 10 --counter', { ...turn, bars: { vitality: bar(0, 30), soul: bar(0), power: bar(0) } })).toMatchObject({ kind: 'refused', reason: 'this character is dead: it makes no counter attack' });
  });
});
