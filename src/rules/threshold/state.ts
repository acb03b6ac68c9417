// What the `threshold` edition remembers per token (rules.md, "Edition `threshold`"): the
// pending defense with the situation it answers, and the death window (seed 001, "Death").
import * as v from 'valibot';
import { objectSchema } from '../schemaObject';
import { THRESHOLD_SITUATIONS } from './situations';

// seed 001: "After 4 rounds you are simply dead": the round of death and the three after it.
export const SAVE_ROUNDS = 4;

const ThresholdStateSchema = objectSchema({
  pendingDefense: v.optional(
    objectSchema({
      result: v.picklist(['success', 'fail'] as const),
      situation: v.picklist(THRESHOLD_SITUATIONS),
      /** A perceive check was passed for it (a defense made in a situation with no perceive check has none). */
      perceived: v.boolean(),
    }),
  ),
  /** Rounds ended since the token died (0 in the round of death); absent while alive. */
  roundsDead: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(SAVE_ROUNDS))),
  /** The free save of this death has been tried. */
  freeSaveUsed: v.optional(v.literal(true)),
  /** This round's one try is used (seed 001: "once try per round"). */
  triedThisRound: v.optional(v.literal(true)),
});
export type ThresholdState = v.InferOutput<typeof ThresholdStateSchema>;
export type ThresholdPending = NonNullable<ThresholdState['pendingDefense']>;

export function parseThresholdState(raw: unknown): ThresholdState | null {
  const parsed = v.safeParse(ThresholdStateSchema, raw);
  if (!parsed.success) return null;
  const out: ThresholdState = {};
  for (const [key, value] of Object.entries(parsed.output)) if (value !== undefined) (out as Record<string, unknown>)[key] = value;
  return out;
}

/** seed 001: "Should your character's Vitality ever reach 0, your character is dead." */
export function isDead(vitality: number | null): boolean {
  return vitality !== null && vitality <= 0;
}

/** A fresh death: the window starts now, with its own free save ("Every death gets its own free save"). */
export function died(state: ThresholdState): ThresholdState {
  const { pendingDefense: _gone, freeSaveUsed: _f, triedThisRound: _t, ...rest } = state;
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

/** A round ends: pending defenses end; a dead token's window moves on and its try is back. */
export function endThresholdRound(state: ThresholdState): ThresholdState {
  const { pendingDefense: _ended, triedThisRound: _tried, ...rest } = state;
  if (rest.roundsDead === undefined) return rest;
  return { ...rest, roundsDead: Math.min(SAVE_ROUNDS, rest.roundsDead + 1) };
}

/** seed 001: the paid tries a dead token has left, one a round until the window closes (this round's counted once used). */
export function triesLeft(state: ThresholdState): number {
  return Math.max(0, SAVE_ROUNDS - (state.roundsDead ?? 0) - (state.triedThisRound ? 1 : 0));
}

/** Dead with no save left: the window is over, or its last round's try is spent (rules.md, "Switching editions"). */
export function isDeadForGood(state: ThresholdState, vitality: number | null): boolean {
  return isDead(vitality) && triesLeft(state) === 0;
}

export function describeThresholdStateChange(left: ThresholdState, now: ThresholdState): string {
  if (JSON.stringify(left.pendingDefense ?? null) !== JSON.stringify(now.pendingDefense ?? null)) return 'has a new pending defense';
  return 'has had a save or another round dead since';
}
