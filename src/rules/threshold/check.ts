// `!defend` in the `threshold` edition (The Defensive Turn, "Defense Actions", "Special Defense Situations",
// "Defending Against Spectators", "Death"; rules.md, "Defense check", "Death" and Clarifications):
// the defense checks, the Vitality saves, and their plans. Pure.
import { ACTION, at, isRefusal, placed, SUMMARY, TITLE, type AttackAsked, type ButtonStep, type Die, type Facts, type KeptAnswer, type Order, type Outcome, type Plan, type Resolution, type RuleChange, type Step, type ValueKey } from '../edition';
import { UsageError, echo } from '../../text/args';
import type { FlagValues } from '../../text/flags';
import { percentileCheck } from '../check';
import { actingRefusal, answerPlan, keepFiled } from '../shared';
import { SITUATION_NAME } from '../situationNames';
import type { THRESHOLD_DEFEND_FLAGS } from './index';
import { alive, deadNow, isDead, triesLeft } from './life';
import { SAVE_ROUNDS, type ThresholdPending, type ThresholdState } from './state';
import { answersSituation, needsPerceive, targetForDifficulty, THRESHOLD_SITUATION_RULES, type Difficulty, type ThresholdSituation } from './situations';
import type { ThresholdCheckName, ThresholdStep } from './words';

export type ThresholdAction = 'defend' | 'guard' | 'skill' | 'counter' | 'opportunity';

export interface ThresholdDefendInput {
  action: ThresholdAction;
  situation: ThresholdSituation;
  /** `--difficulty`: makes the gate or the React check harder where the seed allows it. */
  difficulty: Difficulty | null;
  checkTargets: { defend: number | null; react: number | null; perceive: number | null };
  /** d100s: the perceive gate's, and the action's own check (defend, or React in its situations). */
  rolls: { perceive: number; check: number };
  mod: number;
  perceptionMod: number;
  vs: string | null;
  ally: string | null;
  skillName: string | null;
}

export type ThresholdDefendOutcome =
  | { kind: 'missing'; check: ThresholdCheckName }
  | {
      kind: 'resolved';
      steps: ThresholdStep[];
      /** The defense this check leaves pending (on the defender, or on the guarded ally); null: none. */
      pending: ThresholdPending | null;
      drawSpectator: boolean;
    };

/** The check that decides the defense here: React for projectiles and fast or invisible spells (The Defensive Turn). */
export function defenseCheckOf(situation: ThresholdSituation): 'defend' | 'react' {
  return THRESHOLD_SITUATION_RULES[situation].reactCheck !== null ? 'react' : 'defend';
}

/** Which d100s an action needs: the perceive gate's and its own check's. */
export function thresholdRollsNeeded(action: ThresholdAction, situation: ThresholdSituation): { perceive: boolean; check: boolean } {
  const rule = THRESHOLD_SITUATION_RULES[situation];
  if (action === 'opportunity') return { perceive: false, check: false };
  const defends = action === 'defend' || action === 'guard';
  return { perceive: rule.perceive !== null, check: defends || rule.reactCheck !== null };
}

export function resolveThresholdDefend(input: ThresholdDefendInput): ThresholdDefendOutcome {
  const { action, situation } = input;
  const rule = THRESHOLD_SITUATION_RULES[situation];
  const steps: ThresholdStep[] = [];
  const needed = thresholdRollsNeeded(action, situation);
  if (needed.perceive && input.checkTargets.perceive === null) return { kind: 'missing', check: 'perceive' };
  const ownCheck = needed.check ? defenseCheckOf(situation) : null;
  if (ownCheck && input.checkTargets[ownCheck] === null) return { kind: 'missing', check: ownCheck };

  if (action === 'opportunity') {
    steps.push({ kind: 'announced', action, vs: input.vs, skillName: input.skillName });
    return { kind: 'resolved', steps, pending: null, drawSpectator: false };
  }
  const defends = action === 'defend' || action === 'guard';
  const fail = (perceived: boolean): ThresholdDefendOutcome => {
    if (!defends) return { kind: 'resolved', steps, pending: null, drawSpectator: false };
    const pending: ThresholdPending = { result: 'fail', situation, perceived };
    steps.push({ kind: 'pending-defense', result: 'fail', situation, for: input.ally });
    return { kind: 'resolved', steps, pending, drawSpectator: false };
  };

  // The Defensive Turn: behind, distracted and covert need a hard (covert: hard to impossible) perceive check first.
  let perceived = false;
  if (rule.perceive) {
    const difficulty = rule.difficultyFlag && input.difficulty ? input.difficulty : rule.perceive.difficulty;
    const base = input.checkTargets.perceive ?? 0;
    const mod = rule.perceive.withMod ? input.perceptionMod : 0;
    const gate = check('perceive', input.rolls.perceive, base, difficulty, mod);
    steps.push(gate.step);
    if (!gate.success) {
      steps.push({ kind: 'no-defense', situation, takesDamage: rule.gateFailureTakesDamage });
      return fail(false);
    }
    perceived = true;
  }

  if (ownCheck) {
    // The Defensive Turn: against projectiles and fast or invisible spells the defense check is a React check.
    const difficulty = ownCheck === 'react' ? (rule.difficultyFlag && input.difficulty ? input.difficulty : (rule.reactCheck ?? 'hard')) : 'normal';
    const own = check(ownCheck, input.rolls.check, input.checkTargets[ownCheck] ?? 0, difficulty, defends ? input.mod : 0);
    steps.push(own.step);
    if (!defends) {
      if (!own.success) {
        steps.push({ kind: 'not-in-time', action: action as 'skill' | 'counter' });
        return fail(perceived);
      }
    } else {
      const result = own.success ? 'success' : 'fail';
      steps.push({ kind: 'pending-defense', result, situation, for: input.ally });
      return { kind: 'resolved', steps, pending: { result, situation, perceived }, drawSpectator: false };
    }
  }

  steps.push({ kind: 'announced', action: action as 'skill' | 'counter', vs: input.vs, skillName: input.skillName });
  // The Defensive Turn, section 4: a counter draws a spectator into the battle.
  const draw = action === 'counter' && rule.counterDrawsIntoBattle && input.vs !== null;
  if (draw) steps.push({ kind: 'spectator-drawn', spectator: input.vs as string });
  return { kind: 'resolved', steps, pending: null, drawSpectator: draw };
}

/** Ruling: the target is divided for difficulty first, then modifiers are added. */
function check(name: ThresholdCheckName, roll: number, base: number, difficulty: Difficulty, mod: number) {
  const target = targetForDifficulty(base, difficulty) + mod;
  const result = percentileCheck(roll, target);
  const step: ThresholdStep = { kind: 'check', check: name, roll, base, difficulty, mod, target, success: result.success, critical: result.critical };
  return { success: result.success, step };
}

/**
 * rules.md, "Guard keeps the better": of the token's own pending defense and a guard's, the better,
 * a success over a failure over none, never a worse one after a better; on a tie its own. A guard's
 * result kept is marked so: a defense of its own made after it may still be the better.
 */
export function betterPending(own: ThresholdPending | undefined, guard: ThresholdPending): ThresholdPending {
  if (own && (own.result === 'success' || guard.result === 'fail')) return own;
  return { ...guard, byGuard: true };
}

// ---- Vitality saves (The Defensive Turn, "Death"): one free save per death, then one try per
// round at a cost of 1d% EXP, for the round of death and three more.

export type ThresholdSaveRefusal = 'not-dead' | 'dead-for-good' | 'tried-this-round' | 'missing-exp' | 'missing-save-check';

export type ThresholdSaveOutcome =
  | { kind: 'refused'; reason: ThresholdSaveRefusal }
  | { kind: 'resolved'; steps: ThresholdStep[]; vitality: number; state: ThresholdState; expAfter: number | null; stood: boolean };

export interface ThresholdSaveInput {
  vitality: number;
  state: ThresholdState;
  saveTarget: number | null;
  mod: number;
  /** The `exp` attribute; null: missing or not a number. */
  exp: number | null;
  rolls: { cost: number; save: number };
}

// The Defensive Turn: "stand back up with 1 Vitatlity".
const STOOD_UP_VITALITY = 1;

export function resolveThresholdSave(input: ThresholdSaveInput): ThresholdSaveOutcome {
  const { state } = input;
  if (!isDead(input.vitality)) return { kind: 'refused', reason: 'not-dead' };
  const roundsDead = state.roundsDead ?? 0;
  // The Defensive Turn: "After 4 rounds you are simply dead".
  if (roundsDead >= SAVE_ROUNDS) return { kind: 'refused', reason: 'dead-for-good' };
  // The Defensive Turn: "You get once try per round".
  if (state.triedThisRound) return { kind: 'refused', reason: 'tried-this-round' };
  if (input.saveTarget === null) return { kind: 'refused', reason: 'missing-save-check' };
  const free = !state.freeSaveUsed;
  const steps: ThresholdStep[] = [];
  let expAfter: number | null = null;
  if (!free) {
    // The Defensive Turn: "Any additional use costs you 1d% points worth of EXP".
    if (input.exp === null) return { kind: 'refused', reason: 'missing-exp' };
    const cost = input.rolls.cost;
    const affordable = input.exp >= cost;
    steps.push({ kind: 'save-cost', cost, exp: input.exp, paid: affordable });
    // Ruling: EXP short: the save is not made, nothing is taken, and the round's try is used.
    if (!affordable) return { kind: 'resolved', steps, vitality: input.vitality, state: { ...state, triedThisRound: true }, expAfter: null, stood: false };
    expAfter = input.exp - cost;
  }
  const save = check('save', input.rolls.save, input.saveTarget, 'normal', input.mod);
  steps.push(save.step);
  if (save.success) {
    steps.push({ kind: 'stood-up', before: input.vitality });
    return { kind: 'resolved', steps, vitality: STOOD_UP_VITALITY, state: alive(state), expAfter, stood: true };
  }
  const after: ThresholdState = { ...state, freeSaveUsed: true, triedThisRound: true };
  steps.push({ kind: 'save-failed', triesLeft: triesLeft(after) });
  return { kind: 'resolved', steps, vitality: input.vitality, state: after, expAfter, stood: false };
}

// ---- !defend

type Action = FlagValues<typeof THRESHOLD_DEFEND_FLAGS>['action'];

/** The check as declared, before any token is read. */
type Defense = Omit<ThresholdDefendInput, 'action' | 'checkTargets' | 'rolls'> & { action: Action };

/** `!defend`: the order the pipeline parsed, as the rules take it. */
export function defendPlan(order: Order): Plan<ThresholdState, ThresholdPending> {
  if (order.positionals.length > 0) throw new UsageError(`unexpected "${echo(order.positionals.join(' '))}" (give the action with --action)`);
  const flags = order as FlagValues<typeof THRESHOLD_DEFEND_FLAGS> & Order;
  const defense: Defense = {
    action: flags.action,
    situation: flags.situation ?? 'front',
    difficulty: flags.difficulty ?? null,
    mod: flags.mod ?? 0,
    perceptionMod: flags['perception-mod'] ?? 0,
    vs: flags.vs ?? null,
    ally: flags.ally ?? null,
    skillName: flags.skill ?? null,
  };
  if (defense.action === 'save') return savePlan(defense.mod);
  const action = defense.action;
  const needed = thresholdRollsNeeded(action, defense.situation);
  // The Defensive Turn: the defense check is a React check where the situation asks for one.
  const dice: Die[] = [];
  if (needed.perceive) dice.push({ name: 'perceive', sides: 100, flag: 'perception-roll' });
  if (needed.check) dice.push({ name: 'check', sides: 100, flag: defenseCheckOf(defense.situation) === 'react' ? 'react-roll' : 'roll' });
  return {
    values: ['defend_check', 'reaction_check', 'perception_check'],
    bars: ['vitality'],
    dice,
    readsTurnOrder: true,
    ...(defense.ally !== null ? { others: [defense.ally] } : {}),
    resolve(facts, rolled) {
      return resolveDefense({ ...defense, action }, facts, { perceive: rolled.perceive ?? 100, check: rolled.check ?? 100 });
    },
  };
}

function resolveDefense(
  defense: Defense & { action: ThresholdAction },
  facts: Facts<ThresholdState, ThresholdPending>,
  rolls: { perceive: number; check: number },
): Resolution<ThresholdState, ThresholdPending> {
  const vitality = facts.bars.vitality.value;
  if (vitality === null) return { kind: 'bar', resource: 'vitality' };
  if (isDead(vitality)) return { kind: 'refused', reason: 'this character is dead and makes no defense; it may only make its Vitality saves (--action save)' };
  // The Defensive Turn: the defensive turn is "when it is not actively your turn".
  if (facts.acting) return { kind: 'refused', reason: actingRefusal('turn') };
  const ally = defense.ally !== null ? facts.others[defense.ally] : undefined;
  if (defense.ally !== null && !ally) return { kind: 'refused', reason: "--ally: no token on the table has that id" };
  if (defense.ally !== null && defense.ally === facts.id) return { kind: 'refused', reason: '--ally names this token itself: guard defends others (use --action defend)' };
  const value = (key: ValueKey) => facts.values[key]?.current ?? null;
  const outcome = resolveThresholdDefend({
    ...defense,
    checkTargets: { defend: value('defend_check'), react: value('reaction_check'), perceive: value('perception_check') },
    rolls,
  });
  if (outcome.kind === 'missing') {
    const key: ValueKey = outcome.check === 'perceive' ? 'perception_check' : outcome.check === 'react' ? 'reaction_check' : 'defend_check';
    return { kind: 'missing-value', key };
  }
  const { action } = defense;
  const steps: ThresholdStep[] = [...outcome.steps];
  const changes: RuleChange[] = [];
  let answer: ThresholdPending | undefined;
  if (outcome.pending && action === 'guard' && ally && defense.ally) {
    const kept = betterPending(ally.answer ?? undefined, outcome.pending);
    steps.push({ kind: 'guard-kept', ally: defense.ally, result: kept.result });
    changes.push({ kind: 'ally-answer', tokenId: defense.ally, answer: kept });
  } else if (outcome.pending && facts.answer?.byGuard) {
    // rules.md, "Guard keeps the better": its own defense after a guard's keeps the better of the two.
    answer = betterPending(outcome.pending, facts.answer);
    if (answer.byGuard) steps.push({ kind: 'guard-kept', ally: facts.id, result: answer.result });
  } else if (outcome.pending) {
    answer = outcome.pending;
  }
  if (outcome.drawSpectator && defense.vs) changes.push({ kind: 'join-turn-order', tokenId: defense.vs, initiative: 0 });
  // What the token keeps: its own defense's result, or the guard's it kept over a worse one.
  const result = answer?.result ?? outcome.pending?.result;
  const who = facts.id;
  const guarded = action === 'guard' && ally && defense.ally ? defense.ally : null;
  return {
    headline: 'acts',
    steps: [
      at(TITLE, { kind: 'defense-title', who, action, situation: defense.situation }),
      result ? at(SUMMARY, { kind: 'defense-result', who, guarded, result, summary: true }) : at(SUMMARY, { kind: 'defense-announced', who, action }),
      ...placed('Check', steps),
      ...(result ? [at('Result', { kind: 'defense-result', who, guarded, result })] : []),
      ...(result === 'fail' && action === 'defend' ? [at(ACTION, { kind: 'offer-damage' })] : []),
    ],
    changes,
    ...(answer !== undefined ? { answer } : {}),
    observed: false,
    detail: outcome,
  };
}

function savePlan(mod: number): Plan<ThresholdState, ThresholdPending> {
  return {
    values: ['save_check', 'exp'],
    bars: ['vitality'],
    // The cost die is rolled first (Ruling), then the save; a given --roll is the save's.
    dice: [{ name: 'cost', sides: 100 }, { name: 'save', sides: 100, flag: 'roll' }],
    resolve(facts, rolled) {
      const vitality = facts.bars.vitality.value;
      if (vitality === null) return { kind: 'bar', resource: 'vitality' };
      const outcome = resolveThresholdSave({
        vitality,
        state: facts.state,
        saveTarget: facts.values.save_check?.current ?? null,
        mod,
        exp: facts.values.exp?.current ?? null,
        rolls: { cost: rolled.cost ?? 100, save: rolled.save ?? 100 },
      });
      if (outcome.kind === 'refused') {
        switch (outcome.reason) {
          case 'not-dead':
            return { kind: 'refused', reason: 'no save is owed (saves come from dying at 0 or below)' };
          case 'dead-for-good':
            // Either its four rounds are over, or it died for good in the edition before (it stays dead).
            return { kind: 'refused', reason: 'dead for good: no save is left (The Defensive Turn: "After 4 rounds you are simply dead"; a token dead for good in another edition stays dead)' };
          case 'tried-this-round':
            return { kind: 'refused', reason: 'this round\'s try is used (one try a round); the next round brings the next' };
          case 'missing-exp':
            return { kind: 'missing-value', key: 'exp' };
          case 'missing-save-check':
            return { kind: 'missing-value', key: 'save_check' };
        }
      }
      const changes: RuleChange[] = [];
      if (outcome.vitality !== vitality) changes.push({ kind: 'bar', resource: 'vitality', to: outcome.vitality });
      if (outcome.expAfter !== null) changes.push({ kind: 'value', key: 'exp', to: outcome.expAfter });
      const who = facts.id;
      return {
        headline: outcome.stood ? 'saved' : 'acts',
        steps: [
          at(TITLE, { kind: 'save-title', who }),
          at(SUMMARY, { kind: 'save-summary', who, stood: outcome.stood }),
          ...placed('Roll', outcome.steps),
          ...deadNow('Now', outcome.state, outcome.vitality, true),
        ],
        changes,
        state: outcome.state,
        // Undo puts paid EXP back (issue: the threshold edition).
        ...(outcome.expAfter !== null ? { undoable: true } : {}),
        detail: outcome,
      };
    },
  };
}

// ---- An attack's answers (`!attack`, rules.md "The exchange"): each rolled as the `!defend` of the
// attack's situation, with what the attack declared (--difficulty, --perception-mod).

/** Guard buttons are offered on attacks of at most this many defenders (a card stays readable). */
const GUARD_BUTTONS_UP_TO = 6;
/** Every die at its best (1 on a d100): whether an answer can succeed at all. */
const BEST: Readonly<Record<string, number>> = { perceive: 1, check: 1 };

/** The attack's situation as a defender meets it: the declared one, or the hit's own default (front). */
function situationOf(attack: AttackAsked): ThresholdSituation {
  return (attack.situation ?? 'front') as ThresholdSituation;
}

/** The other defenders a defender may guard on its prompt (none on a large attack). */
function guardable(attack: AttackAsked): string[] {
  return attack.defenders.length > GUARD_BUTTONS_UP_TO ? [] : attack.defenders.filter((id) => id !== attack.defender);
}

/** The plan of one answer (`defend`, or `guard` with `--ally`), as `!defend` would roll it in the attack's situation. */
export function answerPlanOf(word: string, attack: AttackAsked, answer: Order): Plan<ThresholdState, ThresholdPending> {
  const situation = situationOf(attack);
  const ally = typeof answer.ally === 'string' ? answer.ally : undefined;
  if (word === 'guard' && ally === undefined) throw new UsageError("--action guard needs --ally with the guarded token's id");
  if (word === 'guard' && (ally === attack.defender || !attack.defenders.includes(ally!))) throw new UsageError('--ally: a guard answers for another defender of this attack');
  if (word !== 'guard' && ally !== undefined) throw new UsageError('--ally goes with --action guard');
  if (answer['perception-roll'] !== undefined && !needsPerceive(situation)) throw new UsageError('--perception-roll applies only where a perceive check comes first (behind, distracted, covert, spectator)');
  const declared = attack.order;
  const order: Order = { positionals: [], action: word, situation, difficulty: declared.difficulty, 'perception-mod': declared['perception-mod'], ally };
  // The answerer's line is the check alone: the attack keeps the defense it leaves.
  const plan = answerPlan(answerPlan(defendPlan(order), 'pending-defense'), 'guard-kept');
  // An answer's --roll is its defense check's, a React check too where the situation asks for one.
  const dice = defenseCheckOf(situation) === 'react' ? plan.dice.map((die) => (die.name === 'check' ? { ...die, flag: 'roll' } : die)) : plan.dice;
  // The other defenders' names and defenses, for the prompt's guard buttons.
  const allies = word === 'defend' ? guardable(attack) : [];
  return { ...plan, dice, ...(allies.length > 0 ? { others: allies } : {}) };
}

/** The defense check an answer made (Defend, or React where the situation asks), not the perceive check before it. */
function defenseCheck(outcome: Outcome<ThresholdState, ThresholdPending>): { roll: number; success: boolean } | undefined {
  return outcome.steps.find((step): step is Step & { roll: number; success: boolean } => step.kind === 'check' && ((step as { check?: string }).check === 'defend' || (step as { check?: string }).check === 'react'));
}

/**
 * What the attack keeps of an answer. A guard's own answer is no defense (its check went to the
 * ally); its success answers for the ally, the best it can have (rules.md, "Guard keeps the better"),
 * and its failure leaves the ally's own answer as it is.
 */
export function keepAnswer(word: string, outcome: Outcome<ThresholdState, ThresholdPending>): KeptAnswer<ThresholdPending> {
  const check = defenseCheck(outcome);
  const kept = keepFiled(word, outcome, check);
  const forAlly = outcome.changes.find((change) => change.kind === 'ally-answer');
  const detail = outcome.detail as ThresholdDefendOutcome;
  if (check?.success && forAlly?.kind === 'ally-answer' && detail.kind === 'resolved' && detail.pending) {
    // The guard's own defense, made in this attack's situation (not one the ally made ahead for another).
    kept.answersFor = { defender: forAlly.tokenId, kept: { word: 'guarded', answer: { ...detail.pending, byGuard: true }, roll: check.roll, success: true } };
  }
  return kept;
}

/** The check a defense is in the attack's situation, with its target ("React (25)"; "Defend (55) after Perceive (25)"). */
export function checksLabel(facts: Facts<ThresholdState, ThresholdPending>, attack: AttackAsked): string {
  const rule = THRESHOLD_SITUATION_RULES[situationOf(attack)];
  const declared = attack.order;
  const given = rule.difficultyFlag && typeof declared.difficulty === 'string' ? (declared.difficulty as Difficulty) : undefined;
  const target = (key: ValueKey, difficulty: Difficulty, mod: number) => {
    const base = facts.values[key]?.current;
    return base === null || base === undefined ? '' : ` (${targetForDifficulty(base, difficulty) + mod})`;
  };
  const own = rule.reactCheck !== null ? `React${target('reaction_check', given ?? rule.reactCheck, 0)}` : `Defend${target('defend_check', 'normal', 0)}`;
  if (!rule.perceive) return own;
  const mod = rule.perceive.withMod && typeof declared['perception-mod'] === 'number' ? declared['perception-mod'] : 0;
  return `${own} after Perceive${target('perception_check', given ?? rule.perceive.difficulty, mod)}`;
}

/** Whether a plan lets the answer succeed at all (not refused, and its check made at the best roll). */
function canSucceed(plan: Plan<ThresholdState, ThresholdPending>, facts: Facts<ThresholdState, ThresholdPending>): boolean {
  const resolution = plan.resolve(facts, BEST);
  return !isRefusal(resolution) && defenseCheck(resolution)?.success === true;
}

/**
 * The prompt's guard buttons (rules.md, "Announced answers are on the prompt"): one per other
 * defender it may guard now, each an answer for that ally; none for an ally dead or answered by a
 * defense it made ahead, nor when this defender cannot defend.
 */
export function guardButtons(facts: Facts<ThresholdState, ThresholdPending>, attack: AttackAsked): ButtonStep[] {
  const buttons: ButtonStep[] = [];
  const allies = guardable(attack);
  if (allies.length === 0 || !canSucceed(answerPlanOf('defend', attack, NO_FLAGS), facts)) return buttons;
  const label = checksLabel(facts, attack);
  for (const ally of allies) {
    const other = facts.others[ally];
    if (!other || isDead(other.vitality ?? null) || (other.answer !== null && fitsAttack(other.answer, attack) === null)) continue;
    buttons.push({ kind: 'button', section: ACTION, label: `Guard ${other.name}: ${label}`, command: `!defend --answer ${attack.key} --ids ${facts.id} --action guard --ally ${ally}` });
  }
  return buttons;
}

const NO_FLAGS: Order = { positionals: [] };

/**
 * Why a defense made ahead does not stand in for this attack (rules.md, "The exchange"), or null: it
 * was made without the perceive check the attack needs, or it is a guard's failure alone (the token
 * may still defend itself, and its own answer is the better).
 */
export function fitsAttack(filed: ThresholdPending, attack: AttackAsked): string | null {
  // Without a declared situation the hit takes the defense's own.
  const situation = (attack.situation ?? filed.situation) as ThresholdSituation;
  if (!answersSituation(filed, situation)) return `made for ${SITUATION_NAME[filed.situation].toLowerCase()}, without the perceive check ${SITUATION_NAME[situation].toLowerCase()} needs`;
  if (filed.byGuard && filed.result === 'fail') return "a guard's failure: it may still defend itself";
  return null;
}
