// What the `opposed` edition remembers per token and keeps of an answer (Opposed Rolls keeps
// nothing beyond the stance, which the seam stores): `down` only remembers a token shown
// incapacitated, so an edition switch reads it again; `dead` a token dead for good in the edition before.
export interface OpposedState {
  down?: true;
  /** Dead for good in the edition before (rules.md, "Switching editions": it stays dead). */
  dead?: true;
}

// Opposed Rolls: "the opponent can choose" passive, active or total (full) defense.
export const DEFENSE_MODES = ['passive', 'active', 'full'] as const;
export type DefenseMode = (typeof DEFENSE_MODES)[number];

/** A defender's answer to an attack: the mode it chose and its d20 (never on file: `!defend` is not used). */
export interface OpposedAnswer {
  mode: DefenseMode;
  roll: number;
}

/** The one place a state is put together: down at or below 0 Vitality (none: not a number), and dead for good if it was. */
export function stateAt(vitality: number | null, dead = false): OpposedState {
  const state: OpposedState = {};
  if (vitality !== null && vitality <= 0) state.down = true;
  if (dead) state.dead = true;
  return state;
}

export function parseOpposedState(raw: unknown): OpposedState | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const { down, dead, ...rest } = raw as { down?: unknown; dead?: unknown };
  if (Object.keys(rest).length > 0 || (down !== undefined && down !== true) || (dead !== undefined && dead !== true)) return null;
  return stateAt(down ? 0 : null, dead === true);
}

/** A kept answer, checked at start-up: a mode and a d20's face. */
export function parseOpposedAnswer(raw: unknown): OpposedAnswer | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { mode, roll, ...rest } = raw as { mode?: unknown; roll?: unknown };
  if (Object.keys(rest).length > 0 || !(DEFENSE_MODES as readonly unknown[]).includes(mode)) return null;
  return Number.isInteger(roll) && (roll as number) >= 1 && (roll as number) <= 20 ? { mode: mode as DefenseMode, roll: roll as number } : null;
}
