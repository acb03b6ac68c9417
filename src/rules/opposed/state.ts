// What the `opposed` edition remembers per token (Opposed Rolls keeps nothing beyond the stance,
// which the seam stores): `down` only remembers a token shown incapacitated, so an edition switch
// reads it again; `dead` a token dead for good in the edition before.
export interface OpposedState {
  down?: true;
  /** Dead for good in the edition before (rules.md, "Switching editions": it stays dead). */
  dead?: true;
}

/** The one place a state is put together: down at or below 0 Vitality, and dead for good if it was. */
export function stateOf(down: boolean, dead: boolean): OpposedState {
  const state: OpposedState = {};
  if (down) state.down = true;
  if (dead) state.dead = true;
  return state;
}

export const stateAt = (vitality: number, dead = false): OpposedState => stateOf(vitality <= 0, dead);

export function parseOpposedState(raw: unknown): OpposedState | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
  const keys = Object.keys(raw);
  if (keys.length === 0) return {};
  const state = raw as { down?: unknown; dead?: unknown };
  if (!keys.every((key) => key === 'down' || key === 'dead')) return null;
  if ((state.down !== undefined && state.down !== true) || (state.dead !== undefined && state.dead !== true)) return null;
  return stateOf(state.down === true, state.dead === true);
}
