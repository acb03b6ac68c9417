// What the `threshold` edition remembers per token (rules.md, "Edition `threshold`"): the death
// window (The Defensive Turn, "Death"). A defense made ahead is the exchange's, checked here.
import * as v from 'valibot';
import { objectSchema } from '../schemaObject';
import { THRESHOLD_SITUATIONS } from './situations';

// The Defensive Turn: "After 4 rounds you are simply dead": the round of death and the three after it.
export const SAVE_ROUNDS = 4;

/** A defense made ahead, with the situation it answers (kept by the exchange until its hit). */
const ThresholdAnswerSchema = objectSchema({
  result: v.picklist(['success', 'fail'] as const),
  situation: v.picklist(THRESHOLD_SITUATIONS),
  /** A perceive check was passed for it (a defense made in a situation with no perceive check has none). */
  perceived: v.boolean(),
});
export type ThresholdPending = v.InferOutput<typeof ThresholdAnswerSchema>;

export function parseThresholdAnswer(raw: unknown): ThresholdPending | null {
  const parsed = v.safeParse(ThresholdAnswerSchema, raw);
  return parsed.success ? parsed.output : null;
}

const ThresholdStateSchema = objectSchema({
  /** Rounds ended since the token died (0 in the round of death); absent while alive. */
  roundsDead: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SAVE_ROUNDS))),
  /** The free save of this death has been tried. */
  freeSaveUsed: v.optional(v.literal(true)),
  /** This round's one try is used (The Defensive Turn: "once try per round"). */
  triedThisRound: v.optional(v.literal(true)),
});
export type ThresholdState = v.InferOutput<typeof ThresholdStateSchema>;

export function parseThresholdState(raw: unknown): ThresholdState | null {
  // valibot's object takes an array as a record with no keys: a stored list is no state.
  if (Array.isArray(raw)) return null;
  const parsed = v.safeParse(ThresholdStateSchema, raw);
  if (!parsed.success) return null;
  const out: ThresholdState = {};
  for (const [key, value] of Object.entries(parsed.output)) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}

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

export function describeThresholdStateChange(_left: ThresholdState, _now: ThresholdState): string {
  return 'has had a save or another round dead since';
}
