// The initiative at which the current turn began (rules.md, "Rounds"): the Turn Tracker's top row
// and its initiative when it came to the top, kept while that row stays there. What the token on
// top pays while it defends on its own turn lowers its row, never the count the turn began at.

/** The top row (its hash, as `RoundState.seen` keeps rows) and its initiative when it came to the top. */
export interface TurnStart {
  row: string;
  initiative: number;
}

/** The top row as a look finds it: its hash, and its initiative now (null: not a number). */
export interface TopRow {
  row: string;
  initiative: number | null;
}

/**
 * The turn's start after a look. The kept one stays while its row is still on top and the tracker
 * only turned (or did not move): the script's own writes change initiatives, never the rows' order.
 * A new top row, a re-sorted or new tracker takes the top's initiative now; an empty one keeps none.
 */
export function nextTurnStart(kept: TurnStart | undefined, top: TopRow | undefined, resorted: boolean): TurnStart | undefined {
  if (top === undefined) return undefined;
  if (kept !== undefined && !resorted && kept.row === top.row) return kept;
  return top.initiative === null ? undefined : { row: top.row, initiative: top.initiative };
}

/** The count the current turn began at, when `row` is the row kept (undefined: not known, use the row's own). */
export function turnStartOf(kept: TurnStart | undefined, row: string): number | undefined {
  return kept !== undefined && kept.row === row ? kept.initiative : undefined;
}

/** A stored turn start as checked on load: anything else is none (the next look takes the top's initiative). */
export function checkTurnStart(raw: unknown): TurnStart | undefined {
  if (typeof raw !== 'object' || raw === null) return undefined;
  const { row, initiative } = raw as Record<string, unknown>;
  if (typeof row !== 'string' || !/^[0-9a-f]{8}$/.test(row)) return undefined;
  if (typeof initiative !== 'number' || !Number.isFinite(initiative) || Math.abs(initiative) > 1e9) return undefined;
  return { row, initiative };
}
