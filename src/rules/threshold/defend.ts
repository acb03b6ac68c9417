// `!defend` in the `threshold` edition (The Defensive Turn, "Defense Actions", "Special Defense Situations",
// "Defending Against Spectators"; rules.md, "Defense check" and Clarifications). Pure.
import { percentileCheck } from '../check';
import { targetForDifficulty, THRESHOLD_SITUATION_RULES, type Difficulty, type ThresholdSituation } from './situations';
import type { ThresholdPending } from './state';
import type { ThresholdCheckName, ThresholdStep } from './steps';

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

/** Of two pending defenses, the better: a success over a failure over none (rules.md: guard). */
export function betterPending(own: ThresholdPending | undefined, guard: ThresholdPending): ThresholdPending {
  if (!own) return guard;
  if (own.result === 'success') return own;
  return guard;
}
