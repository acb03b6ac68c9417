// Undo as data, the pure part: an application's changes merged by where each value lives (one
// linked attribute hit through two tokens is one value: first `from`, last `to`), the check
// that each still holds what the application left ("changed since"), and memory moved on by the
// rounds that ended since.
import { RESOURCE_LABEL } from '../rules/edition';
import type { AnyEdition } from '../rules/edition';
import type { AppliedToken, StoredChange } from './history';
import { sameData, type Memory } from './memory';

type MemoryChange = Extract<StoredChange, { kind: 'memory' }>;

/** Where a memory change's memory lives: the character's id, the other token's, or the token's own. */
export function memoryKey(tokenId: string, change: MemoryChange): string {
  return change.character ?? change.tokenId ?? tokenId;
}

/** A token's memory from -> to as recorded, under where it lives (`character`: its character's); nothing when it did not change. */
export function memoryChanges(from: Memory, to: Memory, character: string | undefined, tokenId?: string): MemoryChange[] {
  if (sameData(from, to)) return [];
  const change: MemoryChange = { kind: 'memory', from, to };
  if (tokenId !== undefined) change.tokenId = tokenId;
  if (character !== undefined) change.character = character;
  return [change];
}

export interface MergedChange {
  /** Where the value lives: the same key for the same value, whichever token changed it. */
  place: string;
  tokenId: string;
  name: string;
  change: StoredChange;
}

export function placeOf(tokenId: string, change: StoredChange): string {
  switch (change.kind) {
    case 'bar':
      return change.attributeId ? `attribute:${change.attributeId}` : `bar:${tokenId}:${change.bar}`;
    case 'attribute':
      return `attribute:${change.attributeId}`;
    case 'worn':
      return `worn:${tokenId}:${change.track}`;
    case 'override':
      return `override:${tokenId}:${change.key}`;
    case 'markers':
      return `markers:${tokenId}`;
    case 'memory':
      return `memory:${memoryKey(tokenId, change)}`;
    case 'answer':
      return `answer:${change.tokenId ?? tokenId}`;
    case 'initiative':
      return `initiative:${tokenId}`;
    case 'turn-order':
      return `turn-order:${change.tokenId}`;
  }
}

/**
 * One change per place, in first-seen order: the first `from` and the last `to`. With `onTable`,
 * only places a token still on the table changed are kept, under that token; a token gone since
 * still counts for a value it shared with one that is there (one sheet attribute hit through two
 * linked tokens: its first `from` is what the sheet held before the command).
 */
export function mergeChanges(
  tokens: readonly AppliedToken[],
  onTable: (tokenId: string) => boolean = () => true,
  /** For a value only gone tokens changed: a token still on the table that holds the same value (a twin linked to that attribute). */
  adopt: (change: StoredChange) => AppliedToken | undefined = () => undefined,
): MergedChange[] {
  const merged = new Map<string, { first: StoredChange; last: StoredChange; owner?: AppliedToken }>();
  for (const entry of tokens) {
    const here = onTable(entry.tokenId);
    for (const change of entry.changes) {
      const place = placeOf(entry.tokenId, change);
      const earlier = merged.get(place);
      if (!earlier) merged.set(place, { first: change, last: change, ...(here ? { owner: entry } : {}) });
      else {
        earlier.last = change;
        if (here && earlier.owner === undefined) earlier.owner = entry;
      }
    }
  }
  const out: MergedChange[] = [];
  for (const [place, entry] of merged) {
    const { first, last } = entry;
    const owner = entry.owner ?? adopt(first);
    if (owner === undefined) continue;
    const change = first !== last && 'to' in first && 'to' in last ? ({ ...first, to: last.to } as StoredChange) : first;
    out.push({ place, tokenId: owner.tokenId, name: owner.name, change });
  }
  return out;
}

/** Memory as it is after `rounds` more rounds ended. */
export function shiftMemory(memory: Memory, edition: AnyEdition, rounds: number): Memory {
  if (rounds <= 0 || !memory.edition || memory.edition.id !== edition.id) return memory;
  let state = edition.life.parseState(memory.edition.state);
  if (state === null) return memory;
  for (let i = 0; i < Math.min(rounds, 10); i += 1) state = edition.life.endRound(state);
  const out: Memory = { ...memory };
  if (edition.life.isEmptyState(state)) delete out.edition;
  else out.edition = { id: edition.id, state };
  return out;
}

const VALUE_LABEL: Record<string, string> = { armor_physical: 'Physical protection', armor_magical: 'Magical protection' };

/**
 * The values an undo would overwrite, in words (commands.md, "Undo": changed since). `now` maps
 * each place to its value now; `same` compares memory, `describe` words a memory difference.
 */
/** The merged changes whose value now differs from what the application left (a spectator drawn in stays drawn in). */
export function changedEntries(merged: readonly MergedChange[], now: ReadonlyMap<string, unknown>, same: (a: unknown, b: unknown) => boolean): MergedChange[] {
  return merged.filter(({ place, change }) => change.kind !== 'turn-order' && !same(now.get(place), change.to));
}

export function changedSince(
  merged: readonly MergedChange[],
  now: ReadonlyMap<string, unknown>,
  same: (a: unknown, b: unknown) => boolean,
  describe: (left: Memory, now: Memory) => string,
): string[] {
  const found: string[] = [];
  for (const { place, name, change } of merged) {
    if (change.kind === 'turn-order') continue; // a spectator drawn in stays drawn in
    const value = now.get(place);
    if (same(value, change.to)) continue;
    switch (change.kind) {
      case 'bar':
        found.push(`${name}: ${RESOURCE_LABEL[change.resource]} is ${value ?? 'not a number'} (was left at ${change.to})`);
        break;
      case 'attribute':
        found.push(`${name}: ${VALUE_LABEL[change.key] ?? change.key} is ${value ?? 'unset'} (was left at ${change.to})`);
        break;
      case 'worn':
        found.push(`${name}: ${change.track === 'physical' ? 'Physical' : 'Magical'} protection is ${value ?? 'unset'} (was left at ${change.to})`);
        break;
      case 'override':
        found.push(`${name}: ${change.key} is ${value ?? 'unset'} (was left at ${change.to})`);
        break;
      case 'markers':
        found.push(`${name}: markers changed`);
        break;
      case 'memory':
        found.push(`${name} ${describe(change.to, (value ?? {}) as Memory)}`);
        break;
      case 'answer':
        found.push(`${name} ${value !== null && value !== undefined ? 'has a new pending defense' : 'no longer has the pending defense it had'}`);
        break;
      case 'initiative':
        found.push(`${name}: initiative is ${value ?? 'gone'} (was left at ${change.to})`);
        break;
    }
  }
  return found;
}

/** Memory changes moved on by the rounds ended since the application (a new round clears what it clears). */
export function shiftMerged(merged: readonly MergedChange[], edition: AnyEdition, rounds: number): MergedChange[] {
  if (rounds <= 0) return [...merged];
  return merged.map((entry) => {
    const { change } = entry;
    if (change.kind === 'memory') return { ...entry, change: { ...change, from: shiftMemory(change.from, edition, rounds), to: shiftMemory(change.to, edition, rounds) } };
    // rules.md, "Rounds": a defense made ahead ends with its round: neither side of it is on file any more.
    if (change.kind === 'answer') return { ...entry, change: { ...change, from: null, to: null } };
    return entry;
  });
}

/**
 * The memory an undo leaves: each part (edition state, dead for good, stance) goes back to what it
 * was before the command only if the command changed it; a part it left alone keeps what it holds
 * now (a forced undo must not take back a stance taken since, which the hit never touched).
 */
export function undoneMemory(from: Memory, to: Memory, now: Memory, same: (a: unknown, b: unknown) => boolean): Memory {
  const out: Memory = {};
  const edition = same(from.edition, to.edition) ? now.edition : from.edition;
  const deadForGood = from.deadForGood === to.deadForGood ? now.deadForGood : from.deadForGood;
  const stance = from.stance === to.stance ? now.stance : from.stance;
  if (edition !== undefined) out.edition = edition;
  if (deadForGood !== undefined) out.deadForGood = deadForGood;
  if (stance !== undefined) out.stance = stance;
  return out;
}
