// TurnMarker1 keeps a row of its own in the Turn Tracker: its marker graphic (named "Round N", on
// the GM layer) at initiative -1. It is the round counter, not a token's turn, and it sits on top
// between fights; TurnMarker1 skips past it inside its own handler (commands.md, "Rounds").

import { rowNumber, rowText } from './turnorder';

const MARKER_NAME = /^(.+) -?\d+$/;

/** TurnMarker1's settings, in the `state` all of a game's scripts share: its marker's image and name. */
function turnMarkerSettings(): { tokenURL?: unknown; tokenName?: unknown } | undefined {
  const saved: unknown = typeof state === 'object' && state !== null ? (state as Record<string, unknown>).TurnMarker : undefined;
  return typeof saved === 'object' && saved !== null ? (saved as { tokenURL?: unknown; tokenName?: unknown }) : undefined;
}

/**
 * Whether this Turn Tracker row is TurnMarker1's own: its marker graphic (representing nobody) at
 * initiative -1, known by TurnMarker1's image or by its name, "Round N" (or its own word for a round).
 * Only a row at -1 is looked at further.
 */
export function isTurnMarkerRow(entry: Roll20TurnEntry): boolean {
  if (rowNumber(entry.pr) !== -1 || rowText(entry.custom) !== '') return false;
  const id = rowText(entry.id);
  if (id === '' || id === '-1') return false;
  const graphic = getObj('graphic', id);
  if (graphic === undefined || String(graphic.get('represents') ?? '') !== '') return false;
  const settings = turnMarkerSettings();
  if (typeof settings?.tokenURL === 'string' && graphic.get('imgsrc') === settings.tokenURL) return true;
  const named = MARKER_NAME.exec(String(graphic.get('name') ?? ''));
  const word = typeof settings?.tokenName === 'string' ? settings.tokenName : 'Round';
  return named !== null && named[1] === word;
}

/** The row whose turn it is: the top one, passing over TurnMarker1's own row. */
export function currentRow(order: readonly Roll20TurnEntry[]): Roll20TurnEntry | undefined {
  for (const entry of order) if (!isTurnMarkerRow(entry)) return entry;
  return undefined;
}
