// Vitality saves in the `threshold` edition (The Defensive Turn, "Death"; rules.md, "Death"): one free save
// per death, then one try per round at a cost of 1d% EXP, for the round of death and three more.
import { percentileCheck } from '../check';
import { alive, isDead, SAVE_ROUNDS, triesLeft, type ThresholdState } from './state';
import type { ThresholdStep } from './steps';

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
  const roll = percentileCheck(input.rolls.save, input.saveTarget + input.mod);
  steps.push({ kind: 'check', check: 'save', roll: roll.roll, base: input.saveTarget, difficulty: 'normal', mod: input.mod, target: roll.target, success: roll.success, critical: roll.critical });
  if (roll.success) {
    steps.push({ kind: 'stood-up', before: input.vitality });
    return { kind: 'resolved', steps, vitality: STOOD_UP_VITALITY, state: alive(state), expAfter, stood: true };
  }
  const after: ThresholdState = { ...state, freeSaveUsed: true, triedThisRound: true };
  steps.push({ kind: 'save-failed', triesLeft: triesLeft(after) });
  return { kind: 'resolved', steps, vitality: input.vitality, state: after, expAfter, stood: false };
}
