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
  /** A guard's result, kept over none or a worse one of the token's own: its own defense may still be better (rules.md, "Guard keeps the better"). */
  byGuard: v.optional(v.literal(true)),
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
