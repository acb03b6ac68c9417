// Rounds: a round ends once the Turn Tracker has turned through all its rows since the round
// began, whoever turned it (a click, TurnMarker1's !eot, GroupInitiative), or when the GM says so.
// Pending defenses and per-round limits end with it (rules.md, "Rounds").
//
// Other scripts' writes fire no Roll20 event, so the tracker is looked at on every change event,
// at the start of every command, just after any other script's command, and when GroupInitiative
// tells its observers. Each look compares the rows with the ones last seen: a rotation by k rows
// is k turns. TurnMarker1's own row is its round counter, not a turn, and is left out.
import { entryKey, isPlainRow, parseTurnOrder, readTurnOrderText, rowNumber, textHash } from '../roll20/turnorder';
import { currentRow, isTurnMarkerRow } from '../roll20/turnMarker';
import { send, TO_GM } from '../roll20/send';
import { renderLine } from '../render/card';
import type { App } from './context';
import { activeEdition } from './pipeline';
import { memoryOf, normalMemory, storeMemory } from '../state/memory';
import { endRoundAnswers } from './exchange';
import { remindOpenAttacks } from './exchange';
import { MAX_SEEN_ROWS } from '../state/store';
import { nextTurnStart, type TopRow } from '../state/turnStart';

export function endRound(app: App): void {
  const edition = activeEdition(app);
  endRoundAnswers(app);
  for (const [id, record] of Object.entries(app.store.tokens)) {
    if (record.edition?.id !== edition.id) continue;
    const state = edition.life.parseState(record.edition.state);
    if (state === null) continue;
    const next = edition.life.endRound(state);
    storeMemory(app.store, id, normalMemory({ ...memoryOf(app.store, id), edition: { id: edition.id, state: next } }, edition));
  }
  app.store.round.number += 1;
  app.store.round.turned = 0;
  send(TO_GM, renderLine(`Round ${app.store.round.number} begins: pending defenses and per-round limits are cleared.`), { record: true });
  // Open attacks do not resolve by themselves: the GM is reminded of each (commands.md, "!attack").
  remindOpenAttacks(app);
}

/** The tracker's rows as kept between looks: a short hash of each turn's key, TurnMarker1's row left out. */
export function rowKeys(order: readonly Roll20TurnEntry[]): string[] {
  const keys: string[] = [];
  for (const entry of order) {
    if (keys.length >= MAX_SEEN_ROWS) break;
    if (!isTurnMarkerRow(entry)) keys.push(textHash(entryKey(entry)));
  }
  return keys;
}

/**
 * How many rows the tracker turned from `before` to `after`: the k for which the rows both hold
 * read as `before` rotated by k. Null when it did not turn that way (sorted, rows moved by hand).
 */
export function turnedBy(before: readonly string[], after: readonly string[]): number | null {
  if (before.length === 0 || after.length === 0) return null;
  const inAfter = new Set(after);
  const inBefore = new Set(before);
  const was = before.filter((key) => inAfter.has(key));
  const now = after.filter((key) => inBefore.has(key));
  const rows = was.length;
  if (rows === 0 || rows !== now.length) return null;
  for (let k = 0; k < rows; k += 1) {
    if (was[k] !== now[0]) continue;
    let rotated = true;
    for (let i = 1; i < rows && rotated; i += 1) rotated = was[(i + k) % rows] === now[i];
    if (rotated) return k;
  }
  return null;
}

/** At start-up: the Turn Tracker is looked at as at any time (a restart keeps the turns counted). */
export function initRound(app: App): void {
  app.turnOrderSeen = undefined;
  noticeTurnOrder(app);
}

/**
 * Looks at the Turn Tracker; a round ends when it has turned through all its rows. Cheap when nothing
 * changed. `before`: the tracker's text before a hand edit (Roll20's change event; a script's write fires none).
 */
export function noticeTurnOrder(app: App, before?: unknown): void {
  const text = readTurnOrderText();
  if (text === app.turnOrderSeen && before === undefined) return;
  app.turnOrderSeen = text;
  const round = app.store.round;
  const order = parseTurnOrder(text);
  warnOfOddRows(app, order);
  const keys = rowKeys(order);
  const turned = turnedBy(round.seen, keys);
  round.seen = keys;
  // The count the current turn began at: kept while its row stays on top (state/turnStart.ts).
  const top = topRow(order);
  const start = nextTurnStart(round.start, top, turned === null || retyped(before, top));
  if (start === undefined) delete round.start;
  else round.start = start;
  // A new, cleared or re-sorted tracker: its turns count from here.
  if (turned === null) {
    round.turned = 0;
    return;
  }
  round.turned += turned;
  if (round.turned >= keys.length) endRound(app);
}

/** The row whose turn it is, as a look keeps it: its key's hash and its initiative now. */
function topRow(order: readonly Roll20TurnEntry[]): TopRow | undefined {
  const top = currentRow(order);
  if (top === undefined) return undefined;
  const initiative = rowNumber(top.pr);
  return { row: textHash(entryKey(top)), initiative: Number.isFinite(initiative) ? initiative : null };
}

/** A hand edit typed a new initiative into the row on top: its turn goes on at that count. */
function retyped(before: unknown, top: TopRow | undefined): boolean {
  if (before === undefined || top === undefined) return false;
  const was = topRow(parseTurnOrder(before));
  return was !== undefined && was.row === top.row && was.initiative !== top.initiative;
}

/** A row that is not Roll20's (an object where text or a number belongs) is read as empty; the GM is told once. */
function warnOfOddRows(app: App, order: readonly Roll20TurnEntry[]): void {
  if (app.oddTurnRowsTold === true || order.every(isPlainRow)) return;
  app.oddTurnRowsTold = true;
  send(TO_GM, renderLine('The Turn Tracker has a row whose id, text or initiative is neither text nor a number (another script wrote it): it is read as an empty row. Remove that row if rounds do not end as they should.'));
}
