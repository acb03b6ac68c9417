// `!defend` in the `soak` edition (The Defensive Round, "The Defensive Round"; rules.md, "Defensive actions"
// and "Clarifications (soak)"): numbers in, every step with its numbers out. Pure: no Roll20, no I/O.

import { percentileCheck, type PercentileCheck } from '../check';
import { actingRefusal } from '../shared';
import type { DefendStep, RolledDefendAction } from './defendSteps';
import type { Condition } from './life';
import { penaltyAfterMentalCheck, situationPenalty, SOAK_SITUATION_RULES, type SoakSituation } from './situations';
import {
  canCounterAttack,
  canHelpAllies,
  canMakeReactionChecks,
  counterForbiddenByStance,
  hasReactedAgainst,
  isReactiveGuard,
  reactionSucceededAgainst,
  reactionUsedAgainst,
  type ReactionResult,
  skillsLimitedPerAttacker,
  skillsOnlyOnSelf,
  skillUsedAgainst,
  type SoakRoundLimits,
  type SoakStance,
} from './stance';


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

export type SoakDefendRefusalCode = SoakDefendRefusal['code'];

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

const ACTION_WORD: Record<SoakDefendAction, string> = {
  defend: 'defend',
  evade: 'evade',
  react: 'make a reaction check',
  counter: 'counter attack',
  skill: 'use a defensive skill',
};

const FLAG_WORD: Record<DefendFlag, string> = {
  mental: '--mental / --mental-roll',
  'perception-mod': '--perception-mod',
  mod: '--mod',
  aided: '--aided-by',
  ally: '--ally',
  skill: '--skill',
};

/** A clear sentence for the player saying why nothing was rolled; token ids go through `nameOf`. */
export function describeRefusal(reason: SoakDefendRefusal, nameOf: (id: string) => string = (id) => id): string {
  switch (reason.code) {
    case 'acting-turn':
      return capitalized(actingRefusal('round'));
    case 'aid-down':
      return `Aid needs a standing ally: ${nameOf(reason.by)} is ${reason.condition} (only a standing token can act).`;
    case 'aid-acting':
      return `No aid on the aider's own turn: ${nameOf(reason.by)} is acting (top of the Turn Tracker); its reaction can aid once the turn moves on.`;
    case 'aid-not-reactive':
      return `Aid needs the reactive stance: ${nameOf(reason.by)} is not in it (an aided check comes from a successful reaction check).`;
    case 'aid-no-reaction':
      return reason.used
        ? `Aid needs an unspent reaction: ${nameOf(reason.by)} already spent its success against ${nameOf(reason.vs)} this round (one reaction per success).`
        : `Aid needs a successful reaction check: ${nameOf(reason.by)} has none against ${nameOf(reason.vs)} this round (it makes one with !defend --action react --vs).`;
    case 'cannot-act':
      return reason.condition === 'dead'
        ? 'This character is dead and makes no defensive action.'
        : `This character is ${reason.condition} and makes no defensive action; it may only make the saves it is owed (--action save).`;
    case 'situation-not-allowed':
      return `--situation does not apply to --action ${reason.action}: situations change only defend and evade checks and gate counters and skills.`;
    case 'flag-not-applicable':
      return flagRefusal(reason.flag, reason.action, reason.situation);
    case 'evade-impossible-aoe':
      return 'An area attack cannot be evaded unless you are on its farthest reach (--situation aoe-edge). You can still defend (--action defend). Your pending defense is unchanged.';
    case 'needs-reactive-stance':
      return `To ${ACTION_WORD[reason.action]}${reason.action === 'skill' ? ' on an ally' : ''} you need the reactive stance (now: ${reason.stance}). Use !stance reactive.`;
    case 'counter-in-defensive-stance':
      return 'In the defensive stance you cannot counter attack: you are focused on drawing yourself in.';
    case 'needs-vs':
      return `--action ${reason.action} needs --vs with the attacker's token id.`;
    case 'already-reacted':
      return `You already made your reaction check against ${nameOf(reason.vs)} this round (one per attacker per round).`;
    case 'no-reaction-success':
      return reason.used
        ? `Your successful reaction against ${nameOf(reason.vs)} is already spent this round: one success buys one reaction (a counter, a skill on an ally, or aid).`
        : `To ${ACTION_WORD[reason.action]}${reason.action === 'skill' ? ' on an ally' : ''} against ${nameOf(reason.vs)} you need a successful reaction check against that attacker this round (!defend --action react --vs with ${nameOf(reason.vs)}'s token id).`;
    case 'needs-reactive-guard':
      return 'Countering for an ally needs the Reactive Guard skill: add --skill "Reactive Guard".';
    case 'defensive-skill-on-ally':
      return 'In the defensive stance you can use skills only on yourself, not to defend others.';
    case 'skill-limit':
      return `In the defensive stance you can use one defensive skill per attacker per round, and you already used one against ${nameOf(reason.vs)}.`;
  }
}

function flagRefusal(flag: DefendFlag, action: SoakDefendAction, situation: SoakSituation): string {
  const name = FLAG_WORD[flag];
  switch (flag) {
    case 'mental':
      return `${name} applies only to evading an unseen or very fast spell (--action evade --situation spell-unseen).`;
    case 'perception-mod':
      return `${name} applies only to the perception check of a covert attack or a spectator (--situation covert|spectator), not to --situation ${situation}.`;
    case 'mod':
    case 'aided':
      return `${name} changes a check, and --action ${action} is announced, not rolled.`;
    case 'ally':
      return `${name} applies only to --action counter and --action skill, not to --action ${action}.`;
    case 'skill':
      return `${name} names a skill for --action skill or --action counter (Reactive Guard), not for --action ${action}.`;
  }
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
