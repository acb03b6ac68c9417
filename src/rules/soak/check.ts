// `!defend` in the `soak` edition (The Defensive Round, "The Defensive Round", "Defensive Stance",
// "Reactive Stance"; rules.md, "Defensive actions", "Stances" and "Clarifications (soak)"): the stances'
// limits, the defensive actions and owed saves, and their plan. Pure: numbers in, every step out.
import { ACTION, at, placed, SUMMARY, TITLE, type AttackAsked, type ButtonStep, type Die, type Facts, type Headline, type Condition, type LineStep, type Order, type OtherFacts, type Plan, type Resolution, type RuleChange, type Step, type ValueKey } from '../edition';
import { UsageError, echo } from '../../text/args';
import type { FlagValues } from '../../text/flags';
import { percentileCheck, type PercentileCheck } from '../check';
import type { SOAK_DEFEND_FLAGS } from './index';
import { lifeNow, lifeOf, resolveSave } from './life';
import { withLife, type FiledDefense, type SoakAnswer, type SoakState } from './state';
import { asksTheSame, isSoakSituation, penaltyAfterMentalCheck, situationPenalty, SOAK_SITUATION_RULES, type SoakSituation } from './situations';
import { COUNTER_ON_ITS_TURN, describeRefusal, misfitWords, OUT_OF_TURN, REACTED, type DefendStep, type RolledDefendAction } from './words';

// ---- the stances (The Defensive Round, "Defensive Stance", "Reactive Stance") and the limits they put on defensive actions

export type SoakStance = 'defensive' | 'reactive' | 'none';

/** Every stance name, for parsing `!stance`. */
export const SOAK_STANCES: readonly SoakStance[] = ['defensive', 'reactive', 'none'];

/**
 * A reaction check's result against one attacker this round: failed (false), succeeded and not yet
 * used (true), or succeeded and spent on its one reaction ('used').
 */
export type ReactionResult = boolean | 'used';

/** What this round already holds for one defender: its reaction checks and the skills it used. */
export interface SoakRoundLimits {
  /** Attacker id -> the reaction check against that attacker. */
  reactions: Record<string, ReactionResult>;
  /** Attackers a defensive skill was used against this round (defensive stance). */
  skillsVs: string[];
}

/** Whether a word from chat names a stance. */
export function isSoakStance(word: string): word is SoakStance {
  return (SOAK_STANCES as readonly string[]).includes(word);
}

/** The Defensive Round: "For each enemy you get to make one Reaction Check" — in the reactive stance only. */
export function canMakeReactionChecks(stance: SoakStance): boolean {
  return stance === 'reactive';
}

/** The Defensive Round, defensive stance: "You cannot counter attack, as you are focused on drawing yourself in." */
export function counterForbiddenByStance(stance: SoakStance): boolean {
  return stance === 'defensive';
}

/** The Defensive Round: counter attacks come from a successful reaction check, which only the reactive stance makes. */
export function canCounterAttack(stance: SoakStance): boolean {
  return stance === 'reactive';
}

/** The Defensive Round, reactive stance: "You can use defensive skills that help your ally" (after a successful reaction). */
export function canHelpAllies(stance: SoakStance): boolean {
  return stance === 'reactive';
}

/** The Defensive Round, defensive stance: skills only on oneself. */
export function skillsOnlyOnSelf(stance: SoakStance): boolean {
  return stance === 'defensive';
}

/** The Defensive Round, defensive stance: "one skill per attacker attacking you, not per attack" (Ruling: per round). */
export function skillsLimitedPerAttacker(stance: SoakStance): boolean {
  return stance === 'defensive';
}

/** Ids are opaque strings from the game: read own keys only, so an id like "constructor" is not found on Object. */
function ownValue(record: Record<string, ReactionResult>, id: string): ReactionResult | undefined {
  return Object.prototype.hasOwnProperty.call(record, id) ? record[id] : undefined;
}

/** One reaction check per attacker per round, whatever its result. */
export function hasReactedAgainst(round: SoakRoundLimits, attackerId: string): boolean {
  return ownValue(round.reactions, attackerId) !== undefined;
}

/**
 * A counter attack, a skill on an ally, or aid needs a successful reaction against that attacker
 * this round that has not bought its one reaction yet (rules.md: one reaction per success).
 */
export function reactionSucceededAgainst(round: SoakRoundLimits, attackerId: string): boolean {
  return ownValue(round.reactions, attackerId) === true;
}

/** The success was spent already (said apart from "no success", so the player knows why). */
export function reactionUsedAgainst(round: SoakRoundLimits, attackerId: string): boolean {
  return ownValue(round.reactions, attackerId) === 'used';
}

/** Whether the defensive-stance skill against this attacker is already used this round. */
export function skillUsedAgainst(round: SoakRoundLimits, attackerId: string): boolean {
  return round.skillsVs.includes(attackerId);
}

/** rules.md: countering for an ally needs the Reactive Guard skill, declared by name (any case). */
export function isReactiveGuard(skillName: string | null): boolean {
  return skillName !== null && skillName.trim().replace(/\s+/g, ' ').toLowerCase() === 'reactive guard';
}

// ---- the defensive actions

export type SoakDefendAction = 'defend' | 'evade' | 'react' | 'counter' | 'skill';
export type CheckName = 'defend' | 'evade' | 'reaction' | 'perception' | 'mental';

/** The flags that mean nothing for some action or situation; refused rather than silently ignored (commands.md). */
export type DefendFlag = 'mental' | 'perception-mod' | 'mod' | 'aided' | 'ally' | 'skill';

export interface SoakDefendInput {
  action: SoakDefendAction;
  situation: SoakSituation;
  stance: SoakStance;
  condition: Condition;
  /** null: the attribute is missing or not a number. */
  checkTargets: Record<CheckName, number | null>;
  /** d100 results, already rolled; `mental` null = no mental check asked (`--mental` / `--mental-roll`). */
  rolls: { action: number; perception: number; mental: number | null };
  mod: number;
  perceptionMod: number;
  /** `--aided-by ID`: the reacting ally as it stands now, or null when no aid is asked. */
  aid: SoakAid | null;
  /** The token is on top of a non-empty Turn Tracker: its own active round (The Defensive Round). */
  acting?: boolean;
  vs: string | null;
  ally: string | null;
  skillName: string | null;
  round: SoakRoundLimits;
}

/** The ally who aids a check (`--aided-by`), as it stands this round. */
export interface SoakAid {
  by: string;
  stance: SoakStance;
  /** Its reaction check against the attacker named by `--vs` this round. */
  reaction: ReactionResult | undefined;
  /** rules.md section 5: only a standing token can act, and so aid. */
  condition: Condition;
  /** Ruling 8c: on its own turn (top of the Turn Tracker) a token is not in its defensive round, and gives no aid. */
  acting: boolean;
}

export type SoakDefendRefusal =
  | { code: 'cannot-act'; condition: Exclude<Condition, 'none'> }
  | { code: 'acting-turn' }
  | { code: 'aid-not-reactive'; by: string }
  | { code: 'aid-no-reaction'; by: string; vs: string; used: boolean }
  | { code: 'aid-down'; by: string; condition: Exclude<Condition, 'none'> }
  | { code: 'aid-acting'; by: string }
  | { code: 'situation-not-allowed'; action: SoakDefendAction; situation: SoakSituation }
  | { code: 'flag-not-applicable'; flag: DefendFlag; action: SoakDefendAction; situation: SoakSituation }
  | { code: 'evade-impossible-aoe' }
  | { code: 'needs-reactive-stance'; action: SoakDefendAction; stance: SoakStance }
  | { code: 'counter-in-defensive-stance' }
  | { code: 'needs-vs'; action: SoakDefendAction }
  | { code: 'already-reacted'; vs: string }
  | { code: 'no-reaction-success'; vs: string; action: 'counter' | 'skill'; used: boolean }
  | { code: 'needs-reactive-guard' }
  | { code: 'defensive-skill-on-ally' }
  | { code: 'skill-limit'; vs: string };


export interface SoakDefendRoundUpdate {
  reaction?: { vs: string; success: boolean };
  /** This token's success against `vs` bought its one reaction (a counter, a skill on an ally). */
  reactionUsed?: string;
  /** The aiding ally's success against `vs` was spent on this aid. */
  aidUsed?: { by: string; vs: string };
  skillVs?: string;
}

export type SoakDefendOutcome =
  | { kind: 'refused'; reason: SoakDefendRefusal }
  | { kind: 'missing-target'; check: CheckName }
  | {
      kind: 'resolved';
      steps: DefendStep[];
      /** null: leave the token's pending defense as it is. */
      pendingDefense: 'success' | 'fail' | null;
      roundUpdate: SoakDefendRoundUpdate;
      offerDamageButton: boolean;
      drawSpectator: boolean;
    };

/** The Defensive Round, Reactive Stance: "Aided Checks: ... increase your ally's stat or skill check success by +5". */
export const AIDED_BONUS = 5;

const ROLLED_CHECK: Record<RolledDefendAction, CheckName> = { defend: 'defend', evade: 'evade', react: 'reaction' };

function isRolled(action: SoakDefendAction): action is RolledDefendAction {
  return action === 'defend' || action === 'evade' || action === 'react';
}

function refused(reason: SoakDefendRefusal): SoakDefendOutcome {
  return { kind: 'refused', reason };
}

/** An opaque id is given when it is a non-empty string. */
function given(id: string | null): id is string {
  return id !== null && id !== '';
}

/** The command layer hands over checked numbers; anything else is a bug, not a player's mistake. */
function assertInput(input: SoakDefendInput): void {
  const d100 = (n: number) => Number.isInteger(n) && n >= 1 && n <= 100;
  if (!d100(input.rolls.action) || !d100(input.rolls.perception) || (input.rolls.mental !== null && !d100(input.rolls.mental))) {
    throw new RangeError('resolveSoakDefend: rolls must be integers 1..100');
  }
  for (const n of [input.mod, input.perceptionMod, ...Object.values(input.checkTargets)]) {
    if (n !== null && !Number.isSafeInteger(n)) throw new RangeError('resolveSoakDefend: modifiers and targets must be integers');
  }
}

/** The first rule the action breaks, before anything is rolled; null when it may be made. */
function refusalFor(input: SoakDefendInput): SoakDefendRefusal | null {
  const { action, situation, stance, round } = input;
  const rule = SOAK_SITUATION_RULES[situation];

  // rules.md, "Who may act": an incapacitated, dying or dead token makes no defensive action.
  if (input.condition !== 'none') return { code: 'cannot-act', condition: input.condition };

  // The Defensive Round: the defensive round is "when it is not actively your turn".
  if (input.acting) return { code: 'acting-turn' };

  // rules.md, Clarifications (soak): `--situation` with `react` is refused.
  if (action === 'react' && situation !== 'front') return { code: 'situation-not-allowed', action, situation };

  // Flags that would change nothing here are refused, never silently ignored (commands.md, "Syntax").
  const notApplicable = (flag: DefendFlag): SoakDefendRefusal => ({ code: 'flag-not-applicable', flag, action, situation });
  if (input.rolls.mental !== null && !(action === 'evade' && rule.mentalCheckEasesPenalty)) return notApplicable('mental');
  if (input.perceptionMod !== 0 && rule.perceptionGate !== 'with-perception-mod') return notApplicable('perception-mod');
  if (!isRolled(action) && input.mod !== 0) return notApplicable('mod');
  if (!isRolled(action) && input.aid !== null) return notApplicable('aided');
  if (isRolled(action) && input.ally !== null) return notApplicable('ally');
  if (isRolled(action) && input.skillName !== null) return notApplicable('skill');

  // The Defensive Round, reactive stance: "Aided Checks" come from the ally's successful reaction against that attacker.
  if (input.aid !== null) {
    if (!given(input.vs)) return { code: 'needs-vs', action };
    if (input.aid.condition !== 'none') return { code: 'aid-down', by: input.aid.by, condition: input.aid.condition };
    if (input.aid.acting) return { code: 'aid-acting', by: input.aid.by };
    if (!canHelpAllies(input.aid.stance)) return { code: 'aid-not-reactive', by: input.aid.by };
    if (input.aid.reaction !== true) return { code: 'aid-no-reaction', by: input.aid.by, vs: input.vs, used: input.aid.reaction === 'used' };
  }

  switch (action) {
    case 'defend':
      return null;
    case 'evade':
      // The Defensive Round: an area of effect "Cannot evade unless you are on the farthest reach" (that is `aoe-edge`).
      return rule.evadeImpossible ? { code: 'evade-impossible-aoe' } : null;
    case 'react':
      if (!canMakeReactionChecks(stance)) return { code: 'needs-reactive-stance', action, stance };
      if (!given(input.vs)) return { code: 'needs-vs', action };
      // The Defensive Round: "For each enemy you get to make one Reaction Check" (per round, rules.md).
      if (hasReactedAgainst(round, input.vs)) return { code: 'already-reacted', vs: input.vs };
      return null;
    case 'counter':
      if (counterForbiddenByStance(stance)) return { code: 'counter-in-defensive-stance' };
      if (!canCounterAttack(stance)) return { code: 'needs-reactive-stance', action, stance };
      if (!given(input.vs)) return { code: 'needs-vs', action };
      if (!reactionSucceededAgainst(round, input.vs)) return { code: 'no-reaction-success', vs: input.vs, action, used: reactionUsedAgainst(round, input.vs) };
      // The Defensive Round: "You can counter attack for an ally if you have used Reactive Guard."
      if (input.ally !== null && !isReactiveGuard(input.skillName)) return { code: 'needs-reactive-guard' };
      return null;
    case 'skill':
      if (input.ally !== null) {
        // The Defensive Round, defensive stance: "You cannot use skills that defend others, only yourself."
        if (skillsOnlyOnSelf(stance)) return { code: 'defensive-skill-on-ally' };
        if (!canHelpAllies(stance)) return { code: 'needs-reactive-stance', action, stance };
        if (!given(input.vs)) return { code: 'needs-vs', action };
        if (!reactionSucceededAgainst(round, input.vs)) return { code: 'no-reaction-success', vs: input.vs, action, used: reactionUsedAgainst(round, input.vs) };
        return null;
      }
      if (skillsLimitedPerAttacker(stance)) {
        if (!given(input.vs)) return { code: 'needs-vs', action };
        // The Defensive Round: "you can only use one skill per attacker attacking you, not per attack" (Ruling: per round).
        if (skillUsedAgainst(round, input.vs)) return { code: 'skill-limit', vs: input.vs };
      }
      return null;
  }
}

/** The first check target this action needs that is missing, in the order the checks are rolled. */
function missingTarget(input: SoakDefendInput): CheckName | null {
  const needed: CheckName[] = [];
  if (SOAK_SITUATION_RULES[input.situation].perceptionGate !== 'none') needed.push('perception');
  if (input.rolls.mental !== null) needed.push('mental');
  if (isRolled(input.action)) needed.push(ROLLED_CHECK[input.action]);
  return needed.find((check) => input.checkTargets[check] === null) ?? null;
}

/** Resolve one `!defend` of the `soak` edition. */
export function resolveSoakDefend(input: SoakDefendInput): SoakDefendOutcome {
  assertInput(input);
  const refusal = refusalFor(input);
  if (refusal) return refused(refusal);
  const missing = missingTarget(input);
  if (missing) return { kind: 'missing-target', check: missing };

  const { action, situation } = input;
  const rule = SOAK_SITUATION_RULES[situation];
  const target = (check: CheckName): number => input.checkTargets[check] ?? 0; // present: checked above
  const steps: DefendStep[] = [];
  const setsPendingDefense = action === 'defend' || action === 'evade';

  // The Defensive Round: behind, distracted, covert and spectator need a successful perception check before any defensive action.
  if (rule.perceptionGate !== 'none') {
    const mod = rule.perceptionGate === 'with-perception-mod' ? input.perceptionMod : 0;
    const baseTarget = target('perception');
    const gate = percentileCheck(input.rolls.perception, baseTarget + mod);
    steps.push({ kind: 'perception-check', situation, roll: gate.roll, baseTarget, mod, target: gate.target, success: gate.success, critical: gate.critical });
    if (!gate.success) {
      steps.push({ kind: 'no-defensive-action', situation, takesDamage: rule.gateFailureTakesDamage });
      if (!setsPendingDefense) return resolved(steps, null, {}, false);
      steps.push({ kind: 'pending-defense', result: 'fail' });
      return resolved(steps, 'fail', {}, false);
    }
  }

  switch (action) {
    case 'defend':
    case 'evade': {
      const check = rollActionCheck(input, action, steps);
      const result = check.success ? 'success' : 'fail';
      steps.push({ kind: 'pending-defense', result });
      return resolved(steps, result, aidSpent(input), false);
    }
    case 'react': {
      const vs = input.vs as string; // required by refusalFor
      const check = rollActionCheck(input, action, steps);
      steps.push({ kind: 'reaction-recorded', vs, success: check.success });
      return resolved(steps, null, { reaction: { vs, success: check.success }, ...aidSpent(input) }, false);
    }
    case 'counter': {
      const vs = input.vs as string; // required by refusalFor
      steps.push({ kind: 'counter-announced', vs, ally: input.ally, skillName: input.skillName });
      // The Defensive Round: defending against a spectator does not draw it into battle "unless you use a counter attack".
      const draw = rule.counterDrawsIntoBattle;
      if (draw) steps.push({ kind: 'spectator-drawn', spectator: vs });
      // rules.md: a success buys one reaction against that attacker; this counter spends it.
      return resolved(steps, null, { reactionUsed: vs }, draw);
    }
    case 'skill': {
      steps.push({ kind: 'skill-announced', skillName: input.skillName, vs: input.vs, ally: input.ally });
      const counts = input.ally === null && skillsLimitedPerAttacker(input.stance) && given(input.vs);
      // A skill on an ally spends the reaction that allowed it.
      const spends = input.ally !== null && given(input.vs);
      return resolved(steps, null, { ...(counts ? { skillVs: input.vs as string } : {}), ...(spends ? { reactionUsed: input.vs as string } : {}) }, false);
    }
  }
}

/** An aid given to a check that was rolled spends the aiding ally's reaction against that attacker. */
function aidSpent(input: SoakDefendInput): SoakDefendRoundUpdate {
  return input.aid !== null && given(input.vs) ? { aidUsed: { by: input.aid.by, vs: input.vs } } : {};
}

/** The action's own check: situation penalty (after any mental check), aid, modifier; the critical on the final target. */
function rollActionCheck(input: SoakDefendInput, action: RolledDefendAction, steps: DefendStep[]): PercentileCheck {
  const adjustments: number[] = [];
  if (action === 'defend' || action === 'evade') {
    let penalty = situationPenalty(input.situation, action);
    if (input.rolls.mental !== null && action === 'evade') {
      const mental = percentileCheck(input.rolls.mental, input.checkTargets.mental ?? 0);
      const penaltyAfter = penaltyAfterMentalCheck(penalty, mental);
      steps.push({ kind: 'mental-check', roll: mental.roll, target: mental.target, success: mental.success, critical: mental.critical, penaltyBefore: penalty, penaltyAfter });
      penalty = penaltyAfter;
    }
    if (penalty !== 0) {
      steps.push({ kind: 'situation-penalty', situation: input.situation, check: action, penalty });
      adjustments.push(penalty);
    } else if (input.situation !== 'front') {
      steps.push({ kind: 'situation-no-penalty', situation: input.situation, check: action });
    }
  }
  if (input.aid !== null) {
    steps.push({ kind: 'aided', bonus: AIDED_BONUS, by: input.aid.by });
    adjustments.push(AIDED_BONUS);
  }
  if (input.mod !== 0) {
    steps.push({ kind: 'modifier', mod: input.mod });
    adjustments.push(input.mod);
  }
  const baseTarget = input.checkTargets[ROLLED_CHECK[action]] ?? 0;
  const finalTarget = adjustments.reduce((sum, n) => sum + n, baseTarget);
  const check = percentileCheck(input.rolls.action, finalTarget);
  steps.push({ kind: 'action-check', action, roll: check.roll, baseTarget, adjustments, target: check.target, success: check.success, critical: check.critical });
  return check;
}

function resolved(
  steps: DefendStep[],
  pendingDefense: 'success' | 'fail' | null,
  roundUpdate: SoakDefendRoundUpdate,
  drawSpectator: boolean,
): SoakDefendOutcome {
  // A failed defense (or none possible) offers the button that applies damage (commands.md, "Output").
  return { kind: 'resolved', steps, pendingDefense, roundUpdate, offerDamageButton: pendingDefense === 'fail', drawSpectator };
}

// ---- !defend

type Action = FlagValues<typeof SOAK_DEFEND_FLAGS>['action'];

const CHECK_ATTRIBUTE: Record<CheckName, ValueKey> = {
  defend: 'defend_check',
  evade: 'evade_check',
  reaction: 'reaction_check',
  perception: 'perception_check',
  mental: 'mental_check',
};

/** The parsed command: the rules' own inputs, plus the rolls given in chat (rolled by Roll20 when absent). */
interface DefendOrder extends Pick<SoakDefendInput, 'situation' | 'mod' | 'perceptionMod' | 'vs' | 'ally' | 'skillName'> {
  /** `--aided-by ID`: the reacting ally whose success aids this check. */
  aidedBy: string | null;
  action: Action;
  mentalAsked: boolean;
}

/** The d100s a check rolls, each unless its flag gives it: the action's, the perception gate's, the mental check's. */
function diceOf(defense: DefendOrder): Die[] {
  const rolledAction = defense.action === 'defend' || defense.action === 'evade' || defense.action === 'react' || defense.action === 'save';
  const gated = defense.action !== 'save' && SOAK_SITUATION_RULES[defense.situation].perceptionGate !== 'none';
  const dice: Die[] = [];
  if (rolledAction) dice.push({ name: 'action', sides: 100, flag: 'roll' });
  if (gated) dice.push({ name: 'perception', sides: 100, flag: 'perception-roll' });
  if (defense.mentalAsked) dice.push({ name: 'mental', sides: 100, flag: 'mental-roll' });
  return dice;
}

/** `!defend`: the order the pipeline parsed, as the rules take it (a check, or an owed save). */
export function defendPlan(order: Order): Plan<SoakState, SoakAnswer> {
  if (order.positionals.length > 0) throw new UsageError(`unexpected "${echo(order.positionals.join(' '))}" (give the action with --action)`);
  const flags = order as FlagValues<typeof SOAK_DEFEND_FLAGS> & Order;
  const defense: DefendOrder = {
    action: flags.action,
    situation: flags.situation,
    mentalAsked: flags.mental || flags['mental-roll'] !== undefined,
    mod: flags.mod ?? 0,
    perceptionMod: flags['perception-mod'] ?? 0,
    aidedBy: flags['aided-by'] ?? null,
    vs: flags.vs ?? null,
    ally: flags.ally ?? null,
    skillName: flags.skill ?? null,
  };
  return {
    values: defense.action === 'save' ? ['save_check'] : Object.values(CHECK_ATTRIBUTE),
    bars: ['vitality'],
    // The Defensive Round: the acting token (top of the Turn Tracker) is not in its defensive round.
    readsTurnOrder: defense.action !== 'save',
    // The aiding ally's stance and reaction; the attacker's name, for a refusal's words.
    ...(defense.aidedBy !== null || defense.vs !== null ? { others: [defense.aidedBy, defense.vs].filter((id): id is string => id !== null) } : {}),
    dice: diceOf(defense),
    resolve(facts, rolled) {
      const rolls = { action: rolled.action ?? 100, perception: rolled.perception ?? 100, mental: defense.mentalAsked ? (rolled.mental ?? 100) : null };
      return defense.action === 'save' ? resolveOwedSave(defense, facts, rolls.action) : resolveCheck(defense, facts, rolls);
    },
  };
}

function resolveOwedSave(defense: DefendOrder, facts: Facts<SoakState, SoakAnswer>, roll: number): Resolution<SoakState, SoakAnswer> {
  const vitality = facts.bars.vitality.value;
  if (vitality === null) return { kind: 'bar', resource: 'vitality' };
  const life = lifeOf(facts.state, vitality);
  const target = facts.values.save_check?.current ?? null;
  if (life.savesOwed <= 0) return { kind: 'refused', reason: 'no save is owed (saves come from falling to 0 or below)' };
  if (target === null) return { kind: 'missing-value', key: 'save_check' };
  const outcome = resolveSave(vitality, life, percentileCheck(roll, target + defense.mod));
  if (!outcome.ok) return { kind: 'refused', reason: 'no save is owed' };
  const succeeded = outcome.steps.some((step) => step.kind === 'save-rolled' && step.success);
  const died = outcome.life.condition === 'dead';
  const who = facts.id;
  return {
    headline: succeeded ? 'saved' : died ? 'dies' : 'acts',
    steps: [
      at(TITLE, { kind: 'save-title', who }),
      at(SUMMARY, { kind: 'save-summary', who, result: succeeded ? (outcome.life.condition === 'none' ? 'stands' : 'clings') : died ? 'dies' : 'fails' }),
      ...placed('Roll', outcome.steps),
      ...lifeNow('Now', outcome.life, outcome.vitality),
    ],
    changes: outcome.vitality !== vitality ? [{ kind: 'bar', resource: 'vitality', to: outcome.vitality }] : [],
    state: withLife(facts.state, outcome.life),
    detail: outcome,
  };
}

function resolveCheck(
  defense: DefendOrder,
  facts: Facts<SoakState, SoakAnswer>,
  rolls: { action: number; perception: number; mental: number | null },
): Resolution<SoakState, SoakAnswer> {
  const vitality = facts.bars.vitality.value;
  if (vitality === null) return { kind: 'bar', resource: 'vitality' };
  const life = lifeOf(facts.state, vitality);
  const checkTargets = Object.fromEntries(
    (Object.keys(CHECK_ATTRIBUTE) as CheckName[]).map((check) => [check, facts.values[CHECK_ATTRIBUTE[check]]?.current ?? null]),
  ) as Record<CheckName, number | null>;
  const state = facts.state;
  let aid: SoakAid | null = null;
  if (defense.aidedBy !== null) {
    const aider = facts.others[defense.aidedBy];
    if (!aider) return { kind: 'refused', reason: "--aided-by: no token on the table has that id" };
    if (defense.aidedBy === facts.id) return { kind: 'refused', reason: '--aided-by names this token itself: an aid comes from an ally' };
    const reactions = aider.state.reactions ?? {};
    const reaction = defense.vs !== null && Object.prototype.hasOwnProperty.call(reactions, defense.vs) ? reactions[defense.vs] : undefined;
    aid = {
      by: defense.aidedBy,
      stance: aider.stance === 'reactive' || aider.stance === 'defensive' ? aider.stance : 'none',
      reaction,
      condition: lifeOf(aider.state, aider.vitality ?? null).condition,
      acting: aider.acting === true,
    };
  }
  const outcome = resolveSoakDefend({
    action: defense.action as SoakDefendAction,
    situation: defense.situation,
    stance: facts.stance === 'defensive' || facts.stance === 'reactive' ? facts.stance : 'none',
    condition: life.condition,
    checkTargets,
    rolls,
    mod: defense.mod,
    perceptionMod: defense.perceptionMod,
    aid,
    acting: facts.acting,
    vs: defense.vs,
    ally: defense.ally,
    skillName: defense.skillName,
    round: { reactions: state.reactions ?? {}, skillsVs: state.skillsVs ?? [] },
  });
  if (outcome.kind === 'refused') return { kind: 'refused', reason: describeRefusal(outcome.reason, (id) => facts.others[id]?.name ?? id) };
  if (outcome.kind === 'missing-target') return { kind: 'missing-value', key: CHECK_ATTRIBUTE[outcome.check] };

  const next: SoakState = { ...state };
  if (outcome.roundUpdate.reaction) next.reactions = { ...next.reactions, [outcome.roundUpdate.reaction.vs]: outcome.roundUpdate.reaction.success };
  if (outcome.roundUpdate.skillVs) next.skillsVs = [...(next.skillsVs ?? []), outcome.roundUpdate.skillVs];
  const used = outcome.roundUpdate.reactionUsed;
  if (used !== undefined) next.reactions = { ...next.reactions, [used]: 'used' };
  const changes: RuleChange[] = outcome.drawSpectator && defense.vs ? [{ kind: 'join-turn-order', tokenId: defense.vs, initiative: 0 }] : [];
  const aidUsed = outcome.roundUpdate.aidUsed;
  const aider = aidUsed ? facts.others[aidUsed.by] : undefined;
  if (aidUsed && aider) {
    // The aiding ally's success is spent: its state changes too (one reaction per success).
    changes.push({ kind: 'ally-state', tokenId: aidUsed.by, state: reactionSpent(aider.state, aidUsed.vs) });
  }
  const headline: Headline = 'acts';
  const undeclared = facts.stance !== 'defensive' && facts.stance !== 'reactive';
  const who = facts.id;
  const result = outcome.pendingDefense;
  const steps: Step[] = [
    at(TITLE, { kind: 'check-title', who, action: defense.action, situation: defense.situation }),
    at(SUMMARY, { kind: 'check-summary', who, action: defense.action, result }),
    ...placed('Check', outcome.steps),
    ...(result !== null ? [at('Result', { kind: 'check-result', who, result, action: defense.action })] : []),
    // The Defensive Round: "you must declare what kind of stance you are taking: Defensive or Reactive".
    ...(undeclared ? [at('Stance', { kind: 'no-stance-declared' })] : []),
    ...(outcome.offerDamageButton ? [at(ACTION, { kind: 'offer-damage' })] : []),
    ...(undeclared ? stanceButtons(facts.id) : []),
  ];
  return {
    headline,
    steps,
    changes,
    state: next,
    ...(result !== null ? { answer: filed(result, defense) } : {}),
    observed: false,
    detail: outcome,
  };
}

/** The two stance buttons a defender who declared none is offered. */
function stanceButtons(tokenId: string): ButtonStep[] {
  return ['defensive', 'reactive'].map((stance) => ({ kind: 'button', section: ACTION, label: `${stance === 'defensive' ? 'Defensive' : 'Reactive'} stance`, command: `!stance ${stance} --ids ${tokenId}` }));
}

// ---- the exchange (rules.md, "An attack's answers"): what a defender may announce beside its answer, and who may attack out of turn

const stanceOf = (stance: string | null): SoakStance => (stance === 'defensive' || stance === 'reactive' ? stance : 'none');

/**
 * Why `!defend --action ACTION` would be refused now, before any roll decides it (null: it would be
 * taken): the same rules, read from the token's facts; 'missing' when a check target it needs is missing.
 */
export function refusalNow(
  facts: Facts<SoakState, SoakAnswer>,
  action: SoakDefendAction,
  vs: string | null,
  situation: SoakSituation = 'front',
  ally: string | null = null,
): SoakDefendRefusal | 'missing' | null {
  const outcome = resolveSoakDefend({
    action,
    situation,
    stance: stanceOf(facts.stance),
    condition: lifeOf(facts.state, facts.bars.vitality.value).condition,
    checkTargets: Object.fromEntries((Object.keys(CHECK_ATTRIBUTE) as CheckName[]).map((check) => [check, facts.values[CHECK_ATTRIBUTE[check]]?.current ?? null])) as Record<CheckName, number | null>,
    rolls: { action: 1, perception: 1, mental: null },
    mod: 0,
    perceptionMod: 0,
    aid: null,
    acting: facts.acting,
    vs,
    ally,
    skillName: ally === null ? null : 'Reactive Guard',
    round: { reactions: facts.state.reactions ?? {}, skillsVs: facts.state.skillsVs ?? [] },
  });
  return outcome.kind === 'refused' ? outcome.reason : outcome.kind === 'missing-target' ? 'missing' : null;
}

/** At most this many Reactive Guard buttons on one row: a prompt stays a card, not a wall (the rest by hand). */
const GUARDED = 5;

/**
 * The buttons beside a defender's answers, each a plain `!defend` offered only when it would be
 * taken now: a reaction check, a counter attack (and Reactive Guard for another defender), a
 * defensive skill, and the stance buttons for a defender that declared none.
 */
export function announced(facts: Facts<SoakState, SoakAnswer>, attack: AttackAsked, nameOf: (id: string) => string | undefined): Array<ButtonStep | LineStep> {
  const { attacker } = attack;
  const id = facts.id;
  const situation = isSoakSituation(attack.situation ?? '') ? (attack.situation as SoakSituation) : 'front';
  // A counter or a skill is made where the situation gates it (behind: a perception check first, with the attack's penalty; a spectator countered joins the battle).
  const gate = SOAK_SITUATION_RULES[situation].perceptionGate;
  const mod = gate === 'with-perception-mod' && typeof attack.order['perception-mod'] === 'number' ? attack.order['perception-mod'] : 0;
  const where = gate === 'none' ? '' : ` --situation ${situation}${mod === 0 ? '' : ` --perception-mod ${mod}`}`;
  const vs = attacker === null ? '' : ` --vs ${attacker}`;
  const out: Array<ButtonStep | LineStep> = [];
  const button = (label: string, command: string): ButtonStep => ({ kind: 'button', section: ACTION, label, command: `!defend ${command} --ids ${id}` });
  if (attacker !== null) {
    // The Defensive Round, "Reactive Stance": "For each enemy you get to make one Reaction Check", whatever its result.
    const react = refusalNow(facts, 'react', attacker);
    if (react === null) out.push(button(`React (${facts.values.reaction_check?.current})`, `--action react${vs}`));
    else if (react !== 'missing' && react.code === 'already-reacted') out.push({ kind: 'line', label: REACTED });
    // "If you succeed you can ... Counter Attack ... for an ally if you have used Reactive Guard": one success, one reaction.
    if (refusalNow(facts, 'counter', attacker, situation) === null) {
      out.push(button('Counter attack', `--action counter${vs}${where}`));
      let guards = 0;
      for (const ally of attack.defenders) {
        const name = ally === id || guards >= GUARDED ? undefined : nameOf(ally);
        if (name === undefined) continue;
        guards += 1;
        out.push(button(`Reactive Guard: ${name}`, `--action counter${vs} --ally ${ally} --skill Reactive Guard${where}`));
      }
    }
  }
  // "As long as the skill is a defensive skill, you can use it during your defensive round" (defensive stance: one per attacker).
  if (refusalNow(facts, 'skill', attacker, situation) === null) out.push(button('Defensive skill', `--action skill${vs}${where}`));
  // "You must declare what kind of stance you are taking": a standing defender with none is offered both.
  if (stanceOf(facts.stance) === 'none' && lifeOf(facts.state, facts.bars.vitality.value).condition === 'none') out.push(...stanceButtons(id));
  return out;
}

/** A declared attack's refusal on the attacker's side (null: it may attack), said in a few words. */
export function attackRefusal(facts: Facts<SoakState, SoakAnswer>, counter: boolean, defenders: readonly string[]): string | null {
  // The Defensive Round: "You cannot ... attack" in the defensive round, "You can only defend, evade, or use defensive skills, including counter attack".
  if (!counter) return facts.currentTurn !== null && !facts.acting ? OUT_OF_TURN : null;
  if (facts.acting) return COUNTER_ON_ITS_TURN;
  for (const defender of defenders) {
    const why = refusalNow(facts, 'counter', defender);
    if (why !== null && why !== 'missing') return describeRefusal(why, (other) => facts.others[other]?.name ?? 'that token');
  }
  return null;
}

/** `!attack`'s attacker (rules.md, "Out of turn"): with the Turn Tracker in use, only a counter attack out of turn; `--counter` always needs its reaction. */
export function attackerPlan(order: Order, defenders: readonly string[]): Plan<SoakState, SoakAnswer> {
  const counter = order.counter === true;
  return {
    values: [],
    dice: [],
    readsTurnOrder: true,
    // The defenders' names, for the words of a refused counter.
    ...(counter ? { others: defenders } : {}),
    resolve(facts) {
      const why = attackRefusal(facts, counter, defenders);
      return why === null ? { headline: 'acts', steps: [], changes: [], detail: null } : { kind: 'refused', reason: why };
    },
  };
}

/** rules.md: a counter attack spends the reaction it used, against each defender, as `!defend --action counter` does. */
export function counterSpent(attacker: OtherFacts<SoakState, SoakAnswer>, { order, attacker: id, defenders }: AttackAsked): RuleChange[] {
  const reactions = attacker.state.reactions ?? {};
  const spent = defenders.filter((defender) => ownValue(reactions, defender) === true);
  if (order.counter !== true || id === null || spent.length === 0) return [];
  const next = { ...reactions };
  for (const defender of spent) next[defender] = 'used';
  return [{ kind: 'ally-state', tokenId: id, state: { ...attacker.state, reactions: next } }];
}

/** The defense as `!defend` files it: its result, and what it was made for (rules.md: a defense made ahead answers only an attack it fits). */
function filed(result: 'success' | 'fail', defense: DefendOrder): FiledDefense {
  const answer: FiledDefense = { result, action: defense.action === 'evade' ? 'evade' : 'defend', situation: defense.situation };
  if (defense.perceptionMod !== 0) answer.perceptionMod = defense.perceptionMod;
  return answer;
}

// ---- answers to `!attack` (rules.md, "An attack's answers")

/** A token's state with its success against `vs` spent (one reaction per success): what an aid costs the aider. */
export function reactionSpent(state: SoakState, vs: string): SoakState {
  return { ...state, reactions: { ...state.reactions, [vs]: 'used' } };
}

/** The perception penalty an attack gives (`!attack --perception-mod`), 0 when none. */
const perceptionModOf = (order: Order): number => (typeof order['perception-mod'] === 'number' ? order['perception-mod'] : 0);

/**
 * Why a defense made ahead does not stand in for this attack, or null: it fits when made in a
 * situation that asks the same of its action (`asksTheSame`), with the same perception penalty
 * where the attack gives one (rules.md, "An attack's answers").
 */
export function misfit(answer: SoakAnswer, attack: AttackAsked): string | null {
  // A bare result was filed before defenses kept what they were made for (a saved game): it answers any attack, as it did then.
  if (typeof answer === 'string') return null;
  const situation = (attack.situation ?? 'front') as SoakSituation;
  if (!asksTheSame(answer.situation, situation, answer.action)) return misfitWords(answer.action, answer.situation, situation);
  if (SOAK_SITUATION_RULES[situation].perceptionGate !== 'with-perception-mod') return null;
  const mods = [answer.perceptionMod ?? 0, perceptionModOf(attack.order)] as const;
  return mods[0] === mods[1] ? null : misfitWords(answer.action, answer.situation, situation, mods);
}

const edgeOrders = new WeakMap<Order, Order>();

/** The Defensive Round, area of effect: a defender on its farthest reach (`--edge`) meets it as `aoe-edge`; one order for all of them. */
export function edgeOrder(order: Order, defender: string): Order {
  const edge = order.edge as readonly string[] | undefined;
  if (edge === undefined || !edge.includes(defender)) return order;
  let found = edgeOrders.get(order);
  if (!found) edgeOrders.set(order, (found = { ...order, situation: 'aoe-edge' }));
  return found;
}

/** An `--edge` id that is no defender of the attack refuses it. */
export function edgeRefusal(order: Order, defenders: readonly string[]): string | null {
  const stray = (order.edge as readonly string[] | undefined)?.find((id) => !defenders.includes(id));
  return stray === undefined ? null : `--edge: ${echo(stray)} is no defender of this attack`;
}
