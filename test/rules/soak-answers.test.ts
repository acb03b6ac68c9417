// The Defensive Round's answers to `!attack` (rules.md, "An attack's answers (`!attack`)", soak):
// each answer is the `!defend` it stands for (the Mental check of an Evade against an unseen spell,
// the attack's perception penalty, an aid), a defense made ahead answers only an attack it fits
// (a property over every pair of situations), and an area attack's edge meets it as `aoe-edge`.
import { describe, expect, it } from 'vitest';
import { isRefusal, type AttackAsked, type Facts, type Order, type Plan } from '../../src/rules/edition';
import { plainAttack, registered } from '../../src/rules/editions';
import { soak as declared } from '../../src/rules/soak';
import { SOAK_SITUATIONS, type SoakSituation } from '../../src/rules/soak/situations';
import type { FiledDefense, SoakAnswer, SoakState } from '../../src/rules/soak/state';
import { attackOrderOf } from '../../src/commands/exchange/line';
import { parseLine, UsageError } from '../../src/text/args';
import { planCheck } from '../support/plans';
import { CONTEXT, factsOf, outcomeOf, rollsFor, val } from '../support/facts';

const soak = registered(declared);
const answers = soak.check.answers;
const NO_FLAGS: Order = { positionals: [] };
/** Bob's check targets (the demo sheet): Defend 55, Evade 45, Reaction 50, Perception 50, Mental 40. */
const TARGETS = { defend_check: val(55), evade_check: val(45), reaction_check: val(50), perception_check: val(50), mental_check: val(40) };
const bob = (over: Partial<Facts<SoakState, SoakAnswer>> = {}) => factsOf<SoakState, SoakAnswer>({}, { values: TARGETS, ...over });

/** An attack as a defender meets it, declared with these flags (parsed as `!attack` parses them). */
function attackOf(flags: string, attacker: string | null = 'goblin-1', defender = 'bob-1', defenders = [defender]): AttackAsked {
  const order = attackOrderOf(parseLine(`!attack 10 ${flags}`), soak);
  const own = answers.forDefender(order, defender);
  return { key: 'A1', order: own, situation: answers.situation(own), attacker, defender, defenders };
}

/** An answer planned and resolved with these dice (in the plan's order), as the exchange does. */
function answered(word: string, attack: AttackAsked, rolled: number[], answer: Order = NO_FLAGS, facts = bob()) {
  const plan = answers.planAnswer(word, attack, CONTEXT, answer);
  const rolls = rollsFor(plan, rolled);
  return { plan, rolls, outcome: outcomeOf(plan.resolve(facts, rolls)) };
}

const stepsOf = (plan: Plan<SoakState, SoakAnswer>, facts: Facts<SoakState, SoakAnswer>, rolled: number[]) => {
  const resolution = plan.resolve(facts, rollsFor(plan, rolled));
  // The defense it leaves is the attack's to say (an answer's plan drops that step from its card).
  return isRefusal(resolution) ? resolution : { answer: resolution.answer, steps: resolution.steps.filter((step) => step.section === 'Check' && step.kind !== 'pending-defense') };
};

describe('soak answers: each is the !defend it stands for', () => {
  it('an Evade against an unseen or very fast spell makes the Mental check, as --mental would: a success halves the -25, a critical removes it', () => {
    const attack = attackOf('--situation spell-unseen');
    const hand = planCheck(soak, parseLine('!defend --action evade --situation spell-unseen --mental'));
    expect(answers.planAnswer('evade', attack, CONTEXT, NO_FLAGS).dice).toEqual(hand.dice);
    // Evade 45: mental 30 (success) leaves -12, so 33 succeeds; mental 4 (critical, 40/10) leaves none, so 45 succeeds; mental 90 leaves -25.
    for (const [action, mental, success] of [[33, 30, true], [34, 30, false], [45, 4, true], [20, 90, true], [21, 90, false]] as const) {
      const { outcome, rolls } = answered('evade', attack, [action, mental]);
      expect(answers.keep('evade', outcome, rolls).success, `evade ${action}, mental ${mental}`).toBe(success);
      expect(stepsOf(answers.planAnswer('evade', attack, CONTEXT, NO_FLAGS), bob(), [action, mental])).toEqual(stepsOf(hand, bob(), [action, mental]));
    }
    // A Defend makes none: the spell's penalty is the evade's.
    expect(answers.planAnswer('defend', attack, CONTEXT, NO_FLAGS).dice.map((die) => die.name)).toEqual(['action']);
  });

  it('an answer may give its Mental and perception rolls (--mental-roll, --perception-roll), only where !defend takes them', () => {
    expect(Object.keys(answers.answerFlags).sort()).toEqual(['aided-by', 'mental-roll', 'perception-roll']);
    const given = answers.planAnswer('evade', attackOf('--situation spell-unseen'), CONTEXT, { positionals: [], 'mental-roll': 7 });
    expect(given.dice).toContainEqual({ name: 'mental', sides: 100, flag: 'mental-roll' });
    expect(answers.planAnswer('defend', attackOf('--situation behind'), CONTEXT, { positionals: [], 'perception-roll': 7 }).dice).toContainEqual({ name: 'perception', sides: 100, flag: 'perception-roll' });
    expect(() => answers.planAnswer('defend', attackOf('--situation spell-unseen'), CONTEXT, { positionals: [], 'mental-roll': 7 })).toThrow(/--mental and --mental-roll apply only to --action evade/);
    expect(() => answers.planAnswer('defend', attackOf(''), CONTEXT, { positionals: [], 'perception-roll': 7 })).toThrow(/--perception-roll applies only where a perception check comes first/);
  });

  it('a covert attack or a hidden spectator gives its perception penalty to every answer\'s perception check (--perception-mod), as !defend --perception-mod would', () => {
    for (const situation of ['covert', 'spectator']) {
      const attack = attackOf(`--situation ${situation} --perception-mod -20`);
      const hand = planCheck(soak, parseLine(`!defend --action defend --situation ${situation} --perception-mod -20`));
      // Perception 50 - 20 = 30: a roll of 31 fails the gate, 30 passes it.
      for (const perception of [30, 31]) expect(stepsOf(answers.planAnswer('defend', attack, CONTEXT, NO_FLAGS), bob(), [10, perception])).toEqual(stepsOf(hand, bob(), [10, perception]));
      const { outcome } = answered('defend', attack, [10, 31]);
      expect(outcome.steps.find((step) => step.kind === 'perception-check')).toMatchObject({ baseTarget: 50, mod: -20, target: 30, success: false });
    }
  });

  it('!attack takes --perception-mod only with --situation covert or spectator, and --edge only with --situation aoe', () => {
    expect(() => attackOf('--situation behind --perception-mod -5')).toThrow(/--perception-mod applies only to --situation covert or spectator/);
    expect(() => attackOf('--perception-mod -5')).toThrow(UsageError);
    expect(() => attackOf('--situation side --edge bob-1')).toThrow(/--edge applies only to --situation aoe/);
    expect(attackOf('--situation covert --perception-mod -5').order['perception-mod']).toBe(-5);
  });

  describe('an aided answer (--aided-by ALLY): +5 as !defend --aided-by ALLY --vs ATTACKER, its reaction spent with the hit', () => {
    const alice = (reaction: boolean | 'used' | undefined, over: object = {}) => ({ name: 'Alice', stance: 'reactive', state: reaction === undefined ? {} : { reactions: { 'goblin-1': reaction } }, answer: null, vitality: 40, ...over });
    const aided: Order = { positionals: [], 'aided-by': 'alice-1' };

    it('reads the aider and the attacker, adds +5, keeps the aider as its helper, and settles by spending the aider\'s reaction against the attacker', () => {
      const attack = attackOf('');
      const plan = answers.planAnswer('defend', attack, CONTEXT, aided);
      expect(plan.others).toEqual(['alice-1', 'goblin-1']);
      const facts = bob({ others: { 'alice-1': alice(true) } });
      // 60 vs 55 + 5 = 60: a success only with the aid, as by hand.
      const { outcome, rolls } = answered('defend', attack, [60], aided, facts);
      expect(stepsOf(plan, facts, [60])).toEqual(stepsOf(planCheck(soak, parseLine('!defend --action defend --aided-by alice-1 --vs goblin-1')), facts, [60]));
      const kept = answers.keep('defend', outcome, rolls);
      expect(kept).toMatchObject({ word: 'defend', helper: 'alice-1', roll: 60, success: true });
      // Settled from the aider as it stands when the attack resolves (its other reactions kept).
      const then = { ...alice(true), state: { reactions: { 'goblin-1': true as const, 'goblin-2': false } } };
      expect(answers.settle!(kept, then, attack)).toEqual([{ kind: 'ally-state', tokenId: 'alice-1', state: { reactions: { 'goblin-1': 'used', 'goblin-2': false } } }]);
    });

    it('an unaided answer has no helper and settles nothing', () => {
      const { outcome, rolls } = answered('defend', attackOf(''), [60]);
      const kept = answers.keep('defend', outcome, rolls);
      expect(kept.helper).toBeUndefined();
      expect(answers.settle!(kept, alice(true), attackOf(''))).toEqual([]);
    });

    it('the aider must be able to aid now: the check\'s own refusals', () => {
      const attack = attackOf('');
      const refusal = (other: object | undefined) => {
        const resolution = answers.planAnswer('defend', attack, CONTEXT, aided).resolve(bob({ others: other ? { 'alice-1': other as never } : {} }), { action: 10 });
        return isRefusal(resolution) && resolution.kind === 'refused' ? resolution.reason : 'not refused';
      };
      expect(refusal(alice(false))).toMatch(/Aid needs a successful reaction check/);
      expect(refusal(alice('used'))).toMatch(/Aid needs an unspent reaction/);
      expect(refusal(alice(true, { stance: 'defensive' }))).toMatch(/Aid needs the reactive stance/);
      expect(refusal(alice(true, { acting: true }))).toMatch(/No aid on the aider's own turn/);
      expect(refusal(alice(true, { vitality: -3 }))).toMatch(/Aid needs a standing ally/);
      expect(refusal(undefined)).toMatch(/--aided-by: no token on the table has that id/);
      // Against no attacker there is no reaction to aid with.
      expect(() => answers.planAnswer('defend', attackOf('', null), CONTEXT, aided)).toThrow(/an aid is against the attacker, and this attack names none/);
    });
  });
});

describe('soak: a defense made ahead answers an attack only where it fits (fits)', () => {
  const filed = (action: 'defend' | 'evade', situation: SoakSituation, perceptionMod?: number): FiledDefense => ({ result: 'success', action, situation, ...(perceptionMod === undefined ? {} : { perceptionMod }) });

  it('a bare result a saved game filed answers any attack, as it did then', () => {
    for (const situation of SOAK_SITUATIONS) for (const answer of ['success', 'fail'] as const) expect(answers.fits!(answer, plainAttack(situation))).toBeNull();
  });

  it('an Evade made ahead does not answer an area attack; a Defend does (The Defensive Round: "Cannot evade")', () => {
    expect(answers.fits!(filed('evade', 'front'), attackOf('--situation aoe'))).toBe('an evade made for Front; this attack: Area attack: no evade');
    expect(answers.fits!(filed('defend', 'front'), attackOf('--situation aoe'))).toBeNull();
    // On its edge an evade is made with no penalty: a frontal one fits.
    expect(answers.fits!(filed('evade', 'front'), attackOf('--situation aoe --edge bob-1'))).toBeNull();
  });

  it('a Defend made ahead for a frontal attack does not answer one from behind, distracted, covert or from a spectator: it lacked the perception check (and the -5)', () => {
    expect(answers.fits!(filed('defend', 'front'), attackOf('--situation behind'))).toBe('a defend made for Front; this attack: Behind: a perception check first, defend -5, evade -5');
    for (const situation of ['distracted', 'covert', 'spectator'] as const) expect(answers.fits!(filed('defend', 'front'), plainAttack(situation)), situation).not.toBeNull();
    expect(answers.fits!(filed('defend', 'behind'), plainAttack('distracted'))).toBeNull();
    expect(answers.fits!(filed('defend', 'behind'), plainAttack('behind'))).toBeNull();
  });

  it('under a perception penalty the attack gives, a defense made ahead fits only with the same penalty', () => {
    expect(answers.fits!(filed('defend', 'covert', -10), attackOf('--situation covert --perception-mod -10'))).toBeNull();
    expect(answers.fits!(filed('defend', 'covert', -10), attackOf('--situation spectator --perception-mod -10'))).toBeNull();
    expect(answers.fits!(filed('defend', 'covert', -10), attackOf('--situation covert --perception-mod -20'))).toBe("a defend made for Covert attack: a perception check first; its perception penalty -10, this attack's -20");
    expect(answers.fits!(filed('defend', 'covert'), attackOf('--situation covert'))).toBeNull();
    expect(answers.fits!(filed('defend', 'covert'), attackOf('--situation covert --perception-mod -5'))).not.toBeNull();
  });

  /**
   * What `!defend --action A --situation S` leaves, over every action roll, a few perception and
   * Mental rolls, with and without `--mental` and a perception penalty (a refusal says "refused"):
   * two situations that ask the same of an action leave the same, whatever the dice.
   */
  function outcomes(action: 'defend' | 'evade', situation: SoakSituation): string {
    const said: string[] = [];
    for (const extra of ['', ' --mental', ' --perception-mod -10']) {
      let plan: Plan<SoakState, SoakAnswer>;
      try {
        plan = planCheck(soak, parseLine(`!defend --action ${action} --situation ${situation}${extra}`));
      } catch (error) {
        said.push(`${extra}: ${(error as Error).message}`);
        continue;
      }
      for (let roll = 1; roll <= 100; roll += 1) {
        for (const perception of [10, 45, 90]) {
          for (const mental of [3, 30, 90]) {
            const rolls = Object.fromEntries(plan.dice.map((die) => [die.name, die.name === 'action' ? roll : die.name === 'perception' ? perception : mental]));
            const resolution = plan.resolve(bob(), rolls);
            said.push(isRefusal(resolution) ? 'refused' : String((resolution.answer as FiledDefense | undefined)?.result));
          }
        }
      }
    }
    return said.join(',');
  }

  it('property, over every pair of situations and both actions: a defense made ahead fits an attack exactly when the same dice leave the same defense in both situations', () => {
    for (const action of ['defend', 'evade'] as const) {
      const left = new Map(SOAK_SITUATIONS.map((situation) => [situation, outcomes(action, situation)]));
      for (const made of SOAK_SITUATIONS) {
        for (const met of SOAK_SITUATIONS) {
          const fits = answers.fits!(filed(action, made), plainAttack(met)) === null;
          expect(fits, `${action} made for ${made}, met by an attack ${met}`).toBe(left.get(made) === left.get(met));
          if (made === met) expect(fits).toBe(true);
        }
      }
    }
  });
});

describe('soak: an area attack\'s edge (--edge ID ...)', () => {
  it('its defenders meet it as aoe-edge, through one order (the same object each time); the others as declared', () => {
    const order = attackOrderOf(parseLine('!attack 10 --situation aoe --edge bob-1 gob-2'), soak);
    const edge = answers.forDefender(order, 'bob-1');
    expect(edge).not.toBe(order);
    expect(answers.situation(edge)).toBe('aoe-edge');
    expect(answers.forDefender(order, 'gob-2')).toBe(edge);
    expect(answers.forDefender(order, 'bob-1')).toBe(edge);
    expect(answers.forDefender(order, 'gob-3')).toBe(order);
    // They may evade with no penalty; the others cannot evade at all.
    const { outcome } = answered('evade', { key: 'A1', order: edge, situation: 'aoe-edge', attacker: 'goblin-1', defender: 'bob-1', defenders: ['bob-1'] }, [45]);
    expect(outcome.steps.find((step) => step.kind === 'action-check')).toMatchObject({ target: 45, success: true });
    expect(isRefusal(answers.planAnswer('evade', { key: 'A1', order, situation: 'aoe', attacker: null, defender: 'gob-3', defenders: [] }, CONTEXT, NO_FLAGS).resolve(bob(), { action: 1 }))).toBe(true);
  });

  it('an edge id that is no defender of the attack refuses it; none given, nothing to refuse', () => {
    const order = attackOrderOf(parseLine('!attack 10 --situation aoe --edge bob-1 stranger'), soak);
    expect(answers.refuseDeclared!(order, ['bob-1', 'gob-2'])).toBe('--edge: stranger is no defender of this attack');
    expect(answers.refuseDeclared!(order, ['bob-1', 'stranger'])).toBeNull();
    expect(answers.refuseDeclared!(attackOrderOf(parseLine('!attack 10 --situation aoe'), soak), ['bob-1'])).toBeNull();
    expect(answers.forDefender(attackOrderOf(parseLine('!attack 10'), soak), 'bob-1').situation).toBeUndefined();
  });
});

describe('soak: the hit reads a defense made ahead in either form', () => {
  it('a filed success blocks the hit as a bare one does; a failure lets it land', () => {
    const hit = soak.hit.plan(attackOrderOf(parseLine('!attack 30'), soak), CONTEXT);
    const vitality = (answer: SoakAnswer) => outcomeOf(hit.resolve(bob({ answer }), {})).changes;
    expect(vitality({ result: 'success', action: 'evade', situation: 'side' })).toEqual([]);
    expect(vitality('success')).toEqual([]);
    expect(vitality({ result: 'fail', action: 'defend', situation: 'front' })).toEqual(vitality('fail'));
    expect(vitality('fail')).toEqual([{ kind: 'bar', resource: 'vitality', to: 40 }]);
  });
});
