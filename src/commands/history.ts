// The undo history: the last applications, each kept as the changes it made. Bounded by count and
// by size so `state` (saved for the whole game) stays small, and fair (commands.md, "Undo,
// hardened"): a command that changed nothing is not kept, each player keeps at most their last 10
// in at most 15,000 bytes, all players together at most half, and a player's entries never push
// out anyone else's.
import type { Application, AppliedToken, StoredChange } from '../state/history';
import type { AnswerBox, Memory } from '../state/memory';
import { isGM, RELAYED } from '../roll20/players';
import type { App } from './context';
import { jsonLength } from '../text/jsonLength';

export const HISTORY_LIMIT = 50;
/** The history's share of `state`, in characters of JSON (commands.md: state stays small). */
export const HISTORY_BYTES = 60_000;
export const PER_PLAYER_LIMIT = 10;
/** Each player's (and the hand edits') bytes: ten ordinary hits fit with room to spare. */
export const PER_PLAYER_BYTES = 15_000;
/** The players and hand edits together keep at most half, so the GM side always has the other half. */
export const PLAYERS_LIMIT = HISTORY_LIMIT / 2;
export const PLAYERS_BYTES = HISTORY_BYTES / 2;

/** Each entry's size, measured once when it is first needed (kept in memory, beside `state`). */
const sizes = new WeakMap<Application, number>();

/**
 * A change's JSON size, estimated from its kind and its strings (this runs on every hit, so no JSON
 * is written): close above the real size for the values the script writes. Start-up measures the
 * stored entries exactly.
 */
function changeSize(change: StoredChange): number {
  switch (change.kind) {
    case 'bar':
      return 90 + (change.attributeId?.length ?? 0);
    case 'attribute':
      return 100 + change.attributeId.length;
    case 'worn':
    case 'override':
    case 'initiative':
      return 80;
    case 'markers':
      return 40 + jsonLength(change.from) + jsonLength(change.to);
    case 'memory':
      return 60 + (change.tokenId?.length ?? 0) + memorySize(change.from) + memorySize(change.to);
    case 'answer':
      return 60 + (change.tokenId?.length ?? 0) + answerSize(change.from) + answerSize(change.to);
    case 'turn-order':
      return 50 + change.tokenId.length;
  }
}

/** A remembered memory's JSON size: small edition states, a stance name, a flag. */
function memorySize(memory: Memory): number {
  return 20 + (memory.stance === undefined ? 0 : jsonLength(memory.stance)) + (memory.deadForGood ? 20 : 0) + (memory.edition ? 40 + valueSize(memory.edition.state) : 0);
}

/** An answer on file's JSON size (null: none). */
function answerSize(box: AnswerBox | null): number {
  return box === null ? 4 : 40 + jsonLength(box.edition) + valueSize(box.answer);
}

/** An upper bound of a small plain value's JSON size (edition states are a few short keys and numbers). */
function valueSize(value: unknown): number {
  if (typeof value === 'string') return jsonLength(value);
  if (value === null || typeof value !== 'object') return 24;
  let size = 2;
  // for-in over own keys: no array of entries made per value (this runs on every hit).
  for (const key in value) if (Object.prototype.hasOwnProperty.call(value, key)) size += key.length + 4 + valueSize((value as Record<string, unknown>)[key]);
  return size;
}

/** The entry's JSON size, estimated once when it is first needed. */
export function sizeOf(application: Application): number {
  let size = sizes.get(application);
  if (size === undefined) {
    size = 100 + application.by.length;
    for (const token of application.tokens) {
      size += 50 + jsonLength(token.tokenId) + jsonLength(token.name);
      for (const change of token.changes) size += changeSize(change);
    }
    sizes.set(application, size);
  }
  return size;
}

/**
 * The other tokens of one linked sheet follow a hand edit read through armor (rules.md, "one sheet,
 * several tokens"): what following changed on them (condition, markers) joins that edit's entry, so
 * undoing the edit puts them back too. Returns whether an entry took it.
 */
export function joinLinkedEdit(app: App, attributeId: string, applied: AppliedToken): boolean {
  if (applied.changes.length === 0) return false;
  const history = app.store.history;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const entry = history[i]!;
    if (entry.kind !== 'hand-edit') continue;
    const edited = entry.tokens.some((token) => token.changes.some((change) => change.kind === 'bar' && change.attributeId === attributeId));
    if (!edited) continue;
    if (entry.tokens.some((token) => token.tokenId === applied.tokenId)) return false;
    const counted = tallyOf(history);
    const before = sizeOf(entry);
    entry.tokens.push(applied);
    sizes.delete(entry);
    const grown = sizeOf(entry) - before;
    const owner = ownerOf(counted, entry.by);
    counted.bytes += grown;
    owner.bytes += grown;
    if (owner.quota) counted.quota.bytes += grown;
    // Grown past its quota: the hand edits' own older entries make the room (never anyone else's).
    for (let oldest = oldestOf(history, entry.by); oldest >= 0 && history[oldest] !== entry && overQuota(counted, owner, 0); oldest = oldestOf(history, entry.by)) removeEntry(app, oldest);
    return true;
  }
  return false;
}

/** An owner whose entries only the GM undoes: the GM, another script, or a hand edit. */
export function ownedByGm(by: string): boolean {
  return by === 'hand-edit' || by === RELAYED || isGM(by);
}

/**
 * Entries kept to a quota of their own, which push out only their own older ones: each player's,
 * and hand edits (Roll20 does not say who typed into a bar: a player typing into her own token's
 * bar must not push out the GM's entries).
 */
function quotaOwner(application: Pick<Application, 'by'>, ownerIsGm?: boolean): boolean {
  // The caller may know already whether the GM applied it (no look-up then).
  return application.by === 'hand-edit' || !(ownerIsGm ?? ownedByGm(application.by));
}

/** What one owner holds: entries and bytes, and whether it keeps to a quota (a player, hand edits) or is the GM side. */
interface Holding {
  entries: number;
  bytes: number;
  quota: boolean;
}

/**
 * The history's size, each owner's holding and the quota owners' together, kept as running numbers
 * beside `state` (memory only): a hit appends and trims without walking or copying the history.
 * Worked out again whenever the history is not the one they were kept for (a restart, a reset, a
 * change made elsewhere).
 */
interface Tally {
  history: Application[];
  length: number;
  bytes: number;
  byOwner: Map<string, Holding>;
  /** Every quota owner's together (the players' half). */
  quota: { entries: number; bytes: number };
}
let tally: Tally | undefined;

/** The owner's holding, made (asking once whether the owner keeps to a quota) when first met. */
function ownerOf(counted: Tally, by: string, quota?: boolean): Holding {
  let holding = counted.byOwner.get(by);
  if (!holding) {
    holding = { entries: 0, bytes: 0, quota: quota ?? quotaOwner({ by }) };
    counted.byOwner.set(by, holding);
  }
  return holding;
}

/** Counts an entry in (`sign` 1) or out (-1). */
function count(counted: Tally, entry: Application, sign: 1 | -1, quota?: boolean): void {
  const size = sizeOf(entry) * sign;
  const owner = ownerOf(counted, entry.by, quota);
  counted.bytes += size;
  owner.entries += sign;
  owner.bytes += size;
  if (owner.quota) {
    counted.quota.entries += sign;
    counted.quota.bytes += size;
  }
}

function tallyOf(history: Application[]): Tally {
  if (tally && tally.history === history && tally.length === history.length) return tally;
  const counted: Tally = { history, length: history.length, bytes: 0, byOwner: new Map(), quota: { entries: 0, bytes: 0 } };
  for (const item of history) count(counted, item, 1);
  tally = counted;
  return counted;
}

/** Takes the entry at `index` out of the history, keeping the tally (undo, and trimming). */
export function removeEntry(app: App, index: number): void {
  const history = app.store.history;
  if (index < 0 || index >= history.length) return;
  const counted = tallyOf(history);
  const gone = history.splice(index, 1)[0];
  if (!gone) return;
  counted.length = history.length;
  count(counted, gone, -1);
}

/** The index of the oldest entry of this owner (the first one found from the oldest end). */
function oldestOf(history: readonly Application[], by: string): number {
  for (let i = 0; i < history.length; i += 1) if (history[i]!.by === by) return i;
  return -1;
}

/** The index of the GM side's oldest entry but `newest`; a walk past at most the players' half. */
function oldestOfGmSide(counted: Tally, newest: Application): number {
  const history = counted.history;
  for (let i = 0; i < history.length; i += 1) {
    const entry = history[i]!;
    if (entry !== newest && !(counted.byOwner.get(entry.by)?.quota ?? false)) return i;
  }
  return -1;
}

/** Whether `extra` more bytes in one more entry of this quota owner would break its quota, the players' half, or the history's limits. */
function overQuota(counted: Tally, owner: Holding, extra: number, entries = 0): boolean {
  return (
    owner.entries + entries > PER_PLAYER_LIMIT ||
    owner.bytes + extra > PER_PLAYER_BYTES ||
    counted.quota.entries + entries > PLAYERS_LIMIT ||
    counted.quota.bytes + extra > PLAYERS_BYTES ||
    counted.length + entries > HISTORY_LIMIT ||
    counted.bytes + extra > HISTORY_BYTES
  );
}

/** What an entry's Undo button sends (an entry kept before keys existed: the sender's latest). */
export function undoCommand(key: string | undefined): string {
  return key === undefined ? '!damage --undo' : `!damage --undo --entry ${key}`;
}

/**
 * Adds an entry within the limits (commands.md, "Undo, hardened"). A quota owner's entry makes room
 * from that owner's own oldest only, and is not kept when they cannot make it (then nothing of
 * theirs goes). A GM-side entry makes room from the GM side's oldest, and reaches the players'
 * entries only when the GM side has nothing older. Returns whether the entry was kept.
 */
function keep(app: App, entry: Application, quota: boolean): boolean {
  const history = app.store.history;
  const counted = tallyOf(history);
  const size = sizeOf(entry);
  if (quota) {
    const owner = ownerOf(counted, entry.by, true);
    // Room only from the owner's own: if all of them going would not make it, none goes.
    const without = { entries: 0, bytes: 0, quota: true };
    const rest: Tally = { ...counted, length: counted.length - owner.entries, bytes: counted.bytes - owner.bytes, quota: { entries: counted.quota.entries - owner.entries, bytes: counted.quota.bytes - owner.bytes } };
    if (overQuota(rest, without, size, 1)) return false;
    for (let oldest = oldestOf(history, entry.by); oldest >= 0 && overQuota(counted, owner, size, 1); oldest = oldestOf(history, entry.by)) removeEntry(app, oldest);
  }
  history.push(entry);
  counted.length = history.length;
  count(counted, entry, 1, quota);
  if (!quota) {
    while ((counted.length > HISTORY_LIMIT || counted.bytes > HISTORY_BYTES) && history.length > 1) {
      const index = oldestOfGmSide(counted, entry);
      removeEntry(app, index >= 0 ? index : 0);
    }
  }
  return true;
}

/** Keeps an application for undo; returns its key (what its cards' Undo button names), or undefined when nothing changed. */
export function recordApplication(app: App, application: Application, ownerIsGm?: boolean): string | undefined {
  // The tokens that changed (all of them, as a rule: then the list is kept as it is, not copied).
  let tokens = application.tokens;
  let unchanged = 0;
  for (let i = 0; i < tokens.length; i += 1) if (tokens[i]!.changes.length === 0) unchanged += 1;
  if (unchanged > 0) tokens = tokens.filter((entry) => entry.changes.length > 0);
  if (tokens.length === 0) return undefined; // nothing changed: nothing to undo
  app.store.lastEntry = app.store.lastEntry >= 9_999_999 ? 1 : app.store.lastEntry + 1;
  const key = `U${app.store.lastEntry}`;
  const entry: Application = { by: application.by, kind: application.kind, round: application.round, tokens, key };
  return keep(app, entry, quotaOwner(application, ownerIsGm)) ? key : undefined;
}

/**
 * At start-up: a stored history whose entries each pass their check may still break the limits as a
 * whole (tampered): it is kept again entry by entry, oldest first, by the rules every new entry
 * keeps to, so what stays is what recording them in play would have kept. Returns how many were
 * dropped.
 */
export function trimHistory(app: App): number {
  const history = app.store.history;
  const stored = history.splice(0, history.length);
  tally = undefined; // counted afresh from the empty history
  for (const entry of stored) {
    // Measured exactly here, once: an estimate could drop a large but honest entry as tampered,
    // and a tampered one may hold more than the script ever writes.
    const size = JSON.stringify(entry).length;
    sizes.set(entry, size);
    if (size > HISTORY_BYTES) continue; // no entry the script writes is that large: tampered
    keep(app, entry, quotaOwner(entry));
  }
  tally = undefined; // measured afresh at the next entry
  return stored.length - history.length;
}
