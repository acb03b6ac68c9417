// TurnMarker1 keeps a row of its own in the Turn Tracker: its marker graphic (named "Round N", on
// the GM layer) at initiative -1. It is the round counter, not a token's turn, and it sits on top
// between fights; TurnMarker1 skips past it inside its own handler (commands.md, "Rounds").

import { rowNumber, rowText } from './turnorder';

const MARKER_NAME = /^Round -?\d+$/;

/** Whether this Turn Tracker row is TurnMarker1's own. Only a row at -1 is looked at further (one get per such row). */
export function isTurnMarkerRow(entry: Roll20TurnEntry): boolean {
  if (rowNumber(entry.pr) !== -1 || rowText(entry.custom) !== '') return false;
  const id = rowText(entry.id);
  if (id === '' || id === '-1') return false;
  const graphic = getObj('graphic', id);
  return graphic !== undefined && graphic.get('layer') === 'gmlayer' && MARKER_NAME.test(String(graphic.get('name') ?? '')) && String(graphic.get('represents') ?? '') === '';
}

/** The row whose turn it is: the top one, passing over TurnMarker1's own row. */
export function currentRow(order: readonly Roll20TurnEntry[]): Roll20TurnEntry | undefined {
  for (const entry of order) if (!isTurnMarkerRow(entry)) return entry;
  return undefined;
}
