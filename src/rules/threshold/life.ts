// Life and death in the `threshold` edition (The Defensive Turn, "Death"; rules.md, "Death" and
// "Switching editions"): dead at 0, then a window of four rounds for saves. Pure.
import { at, type VitalitySet } from '../edition';
import { SAVE_ROUNDS, type ThresholdState } from './state';
import type { ThresholdCardStep, ThresholdStep } from './words';

/** The Defensive Turn: "Should your character's Vitality ever reach 0, your character is dead." */
export function isDead(vitality: number | null): boolean {
  return vitality !== null && vitality <= 0;
}

/** A fresh death: the window starts now, with its own free save ("Every death gets its own free save"). */
export function died(state: ThresholdState): ThresholdState {
  const { freeSaveUsed: _f, triedThisRound: _t, ...rest } = state;
  return { ...rest, roundsDead: 0 };
}

/** Back among the living: nothing of the death is kept. */
export function alive(state: ThresholdState): ThresholdState {
  const { roundsDead: _r, freeSaveUsed: _f, triedThisRound: _t, ...rest } = state;
  return rest;
}

/** rules.md, "Switching editions": at or below 0 dead, with a fresh window starting this round; dead for good stays so. */
export function enterThreshold(vitality: number | null, deadForGood: boolean): ThresholdState {
  if (deadForGood) return { roundsDead: SAVE_ROUNDS, freeSaveUsed: true };
  return isDead(vitality) ? { roundsDead: 0 } : {};
}

/** A round ends: a dead token's window moves on and its try is back. */
export function endThresholdRound(state: ThresholdState): ThresholdState {
  const { triedThisRound: _tried, ...rest } = state;
  if (rest.roundsDead === undefined) return rest;
  return { ...rest, roundsDead: Math.min(SAVE_ROUNDS, rest.roundsDead + 1) };
}

/** The Defensive Turn: the paid tries a dead token has left, one a round until the window closes (this round's counted once used). */
export function triesLeft(state: ThresholdState): number {
  return Math.max(0, SAVE_ROUNDS - (state.roundsDead ?? 0) - (state.triedThisRound ? 1 : 0));
}

/** Dead with no save left: the window is over, or its last round's try is spent (rules.md, "Switching editions"). */
export function isDeadForGood(state: ThresholdState, vitality: number | null): boolean {
  return isDead(vitality) && triesLeft(state) === 0;
}

/** A "Now" step for a dead token (or, `standing`, for any token). */
export function deadNow(section: string, state: ThresholdState, vitality: number, standing = false): ThresholdCardStep[] {
  if (!standing && !isDead(vitality)) return [];
  return [at(section, { kind: 'dead-now', state, vitality, ...(standing ? { standing: true as const } : {}) })];
}

/** Heals and plain hand edits (commands.md, "Hand edits"): dying at 0, revived above it. */
export function setThresholdVitality(before: number, after: number, state: ThresholdState): VitalitySet<ThresholdState> {
  const steps: ThresholdStep[] = [];
  let vitality = after;
  let next = state;
  if (after < before && isDead(before)) {
    // commands.md: a dead token's bar is set back (the dead take no damage).
    vitality = before;
    steps.push({ kind: 'set-back', attempted: after, vitality: before });
  } else if (after !== before) {
    steps.push({ kind: 'vitality-change', before, after });
    if (after > 0) {
      if (isDead(before)) steps.push({ kind: 'revived' });
      next = alive(state);
    } else if (before > 0) {
      steps.push({ kind: 'dead-at-0' });
      next = died(state);
    }
  }
  return {
    vitality,
    state: next,
    steps,
    conditions: steps.filter((step) => step.kind !== 'vitality-change'),
    now: deadNow('Now', next, vitality)[0],
    // The dead make no defense: one made ahead goes with the death.
    ...(next !== state && next.roundsDead === 0 ? { dropsAnswer: true as const } : {}),
  };
}
