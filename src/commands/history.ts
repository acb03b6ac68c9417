// The undo history: the last applications, each kept as the changes it made. Bounded by count and
// by size so `state` (saved for the whole game) stays small, and fair (commands.md, "Undo,
// hardened"): a command that changed nothing is not kept, each player keeps at most their last 10,
// and a player's entries never push out anyone else's.
import type { Application, AppliedToken, StoredChange } from '../state/history';
import type { Memory } from '../state/memory';
import { isGM, RELAYED } from '../roll20/players';
import type { App } from './context';
import { jsonLength } from '../text/jsonLength';

export const HISTORY_LIMIT = 50;
/** The history's share of `state`, in characters of JSON (commands.md: state stays small). */
export const HISTORY_BYTES = 60_000;
export const PER_PLAYER_LIMIT = 10;

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
    case 'turn-order':
      return 50 + change.tokenId.length;
  }
}

/** A remembered memory's JSON size: small edition states, a stance name, a flag. */
function memorySize(memory: Memory): number {
  return 20 + (memory.stance === undefined ? 0 : jsonLength(memory.stance)) + (memory.deadForGood ? 20 : 0) + (memory.edition ? 40 + valueSize(memory.edition.state) : 0) + (memory.answer ? 40 + jsonLength(memory.answer.edition) + valueSize(memory.answer.answer) : 0);
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
    counted.bytes -= sizeOf(entry);
    entry.tokens.push(applied);
    sizes.delete(entry);
    counted.bytes += sizeOf(entry);
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

/**
 * The history's size and each owner's count, kept as running numbers beside `state` (memory only):
 * a hit appends and trims without walking or copying the history. Worked out again whenever the
 * history is not the one they were kept for (a restart, a reset, a change made elsewhere).
 */
interface Tally {
  history: Application[];
  length: number;
  bytes: number;
  byOwner: Map<string, number>;
}
let tally: Tally | undefined;

function tallyOf(history: Application[]): Tally {
  if (tally && tally.history === history && tally.length === history.length) return tally;
  const byOwner = new Map<string, number>();
  let bytes = 0;
  for (const item of history) {
    bytes += sizeOf(item);
    byOwner.set(item.by, (byOwner.get(item.by) ?? 0) + 1);
  }
  tally = { history, length: history.length, bytes, byOwner };
  return tally;
}

/** Takes the entry at `index` out of the history, keeping the tally (undo, and trimming). */
export function removeEntry(app: App, index: number): void {
  const history = app.store.history;
  if (index < 0 || index >= history.length) return;
  const counted = tallyOf(history);
  const gone = history.splice(index, 1)[0];
  if (!gone) return;
  counted.length = history.length;
  counted.bytes -= sizeOf(gone);
  counted.byOwner.set(gone.by, (counted.byOwner.get(gone.by) ?? 1) - 1);
}

/** The index of the oldest entry of this owner (the first one found from the oldest end). */
function oldestOf(history: readonly Application[], by: string): number {
  for (let i = 0; i < history.length; i += 1) if (history[i]!.by === by) return i;
  return -1;
}

/** What an entry's Undo button sends (an entry kept before keys existed: the sender's latest). */
export function undoCommand(key: string | undefined): string {
  return key === undefined ? '!damage --undo' : `!damage --undo --entry ${key}`;
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
  const history = app.store.history;
  const counted = tallyOf(history);
  const player = quotaOwner(application, ownerIsGm);
  // A player (or hand edits) at the quota: that owner's oldest goes first.
  if (player) {
    for (let oldest = oldestOf(history, entry.by); oldest >= 0 && (counted.byOwner.get(entry.by) ?? 0) >= PER_PLAYER_LIMIT; oldest = oldestOf(history, entry.by)) removeEntry(app, oldest);
  }
  history.push(entry);
  counted.length = history.length;
  counted.bytes += sizeOf(entry);
  counted.byOwner.set(entry.by, (counted.byOwner.get(entry.by) ?? 0) + 1);
  while ((history.length > HISTORY_LIMIT || counted.bytes > HISTORY_BYTES) && history.length > 1) {
    // A player's entry may only push out that player's own older ones (or, when those are gone, itself).
    const index = player ? oldestOf(history, entry.by) : 0;
    const victim = history[index]!;
    removeEntry(app, index);
    if (victim === entry) return undefined;
  }
  return key;
}

/**
 * At start-up: a stored history whose entries each pass their check may still break the limits as a
 * whole (tampered): the oldest are dropped until it keeps them (count, each player's 10, size).
 * Returns how many were dropped.
 */
export function trimHistory(app: App): number {
  const history = app.store.history;
  const before = history.length;
  const kept: Application[] = [];
  const perPlayer = new Map<string, number>();
  let total = 0;
  // Newest first, so the newest are the ones kept. Stored entries are measured exactly (once, at start-up):
  // a tampered one may hold more than the script ever writes.
  for (let i = history.length - 1; i >= 0; i -= 1) {
    const entry = history[i]!;
    if (kept.length >= HISTORY_LIMIT) break;
    // Measured exactly here, once: an estimate could drop a large but honest entry as tampered.
    const size = JSON.stringify(entry).length;
    sizes.set(entry, size);
    if (size > HISTORY_BYTES) continue; // no entry the script writes is that large: tampered
    if (total + size > HISTORY_BYTES && kept.length > 0) {
      // Over the size: a player's (or a hand edit's) entry is what goes; the GM's older ones stay in reach.
      if (quotaOwner(entry)) continue;
      break;
    }
    if (quotaOwner(entry)) {
      const count = perPlayer.get(entry.by) ?? 0;
      if (count >= PER_PLAYER_LIMIT) continue;
      perPlayer.set(entry.by, count + 1);
    }
    kept.unshift(entry);
    total += size;
  }
  history.splice(0, history.length, ...kept);
  tally = undefined; // measured afresh at the next entry
  return before - kept.length;
}
