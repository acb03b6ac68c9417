// A nudge on the map (commands.md, "!attack", ping-defenders): Roll20's sendPing on a token, seen
// only by the players named (its `visibleTo`); nobody's colour, and no one's view is moved.

/** Pings the token where it stands, for these players only (none: no ping at all). */
export function pingTokenFor(token: Roll20Graphic, players: readonly string[]): void {
  if (players.length === 0) return;
  sendPing(Number(token.get('left')), Number(token.get('top')), String(token.get('_pageid')), null, false, [...players]);
}
