// Rounds: they end when the Turn Tracker wraps back to the entry that was on top when the round
// began, or when the GM says so. Pending defenses and per-round limits end with them (rules.md).
import { readTurnOrder, parseTurnOrder, entryKey } from '../roll20/turnorder';
import { send, TO_GM } from '../roll20/send';
import { renderLine } from '../render/card';
import type { App } from './context';
import { activeEdition } from './pipeline';
import { normalMemory, storeMemory } from '../roll20/write';
import { memoryOf } from '../state/tokens';

export function endRound(app: App): void {
  const edition = activeEdition(app);
  for (const [id, record] of Object.entries(app.store.tokens)) {
    if (record.edition?.id !== edition.id) continue;
    const state = edition.parseState(record.edition.state);
    if (state === null) continue;
    const next = edition.endRound(state);
    storeMemory(app.store.tokens, id, normalMemory({ ...memoryOf(record), edition: { id: edition.id, state: next } }, edition));
  }
  app.store.round.number += 1;
  const order = readTurnOrder();
  const top = order[0] ? entryKey(order[0]) : null;
  app.store.round.firstEntry = top;
  app.store.round.lastTop = top;
  send(TO_GM, renderLine(`Round ${app.store.round.number} begins: pending defenses and per-round limits are cleared.`), { record: true });
}

function topOf(order: Roll20TurnEntry[]): string | null {
  return order[0] ? entryKey(order[0]) : null;
}

/** At start-up: the entry on top now begins the round, unless a stored round still fits. */
export function initRound(app: App): void {
  const round = app.store.round;
  const order = readTurnOrder();
  if (round.firstEntry !== null && order.some((entry) => entryKey(entry) === round.firstEntry)) return;
  round.firstEntry = topOf(order);
  round.lastTop = round.firstEntry;
}

/** Follows Roll20's rotation of the Turn Tracker, one look at a time. */
export function onTurnOrderChange(app: App, previousTurnOrder: unknown): void {
  const order = readTurnOrder();
  const round = app.store.round;
  const top = topOf(order);
  if (top === null) {
    round.firstEntry = null;
    round.lastTop = null;
    return;
  }
  const firstStillThere = round.firstEntry !== null && order.some((entry) => entryKey(entry) === round.firstEntry);
  if (!firstStillThere) {
    // A tracker set up after start-up: the round began with whoever was on top before this change.
    const previousTop = topOf(parseTurnOrder(previousTurnOrder));
    round.firstEntry = previousTop !== null && order.some((entry) => entryKey(entry) === previousTop) ? previousTop : top;
    round.lastTop = top;
    if (top !== round.firstEntry) return;
  }
  if (top === round.firstEntry && round.lastTop !== top) {
    endRound(app);
    return;
  }
  round.lastTop = top;
}
