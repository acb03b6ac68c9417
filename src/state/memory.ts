// What the script remembers of a token beside the game's own values, as one `Memory`: its edition
// state, whether it is dead for good, and its stance (in its token record, or its character's for a
// linked token: rules.md, "One character, several tokens"); and apart, its answer on file (a
// defense made ahead, kept by the exchange: always the token's own). Commands replace a token's
// memory whole and its answer whole; undo keeps each from -> to. Pure state: nothing here touches Roll20.
import type { AnyEdition, EditionId } from '../rules/edition';
import { isEmptyRecord, type EditionBox, type TokenRecord } from './tokens';

/** A defense made ahead, waiting for its hit: the edition it was made in, and the edition's answer. */
export interface AnswerBox {
  edition: EditionId;
  answer: unknown;
}

/** The part of what the script keeps of a token that a command's outcome may replace. */
export interface Memory {
  edition?: EditionBox;
  deadForGood?: true;
  stance?: string;
}

/** Where memories live: token records, and the exchange's answers waiting for their hits (both in `state`). */
export interface Memories {
  tokens: Record<string, TokenRecord>;
  exchange: { waiting: Record<string, AnswerBox> };
}

/** A token's memory, from where it lives (its character's id, for a linked token). */
export function memoryOf(memories: Memories, home: string): Memory {
  const record = memories.tokens[home];
  const out: Memory = {};
  if (record?.edition) out.edition = record.edition;
  if (record?.deadForGood) out.deadForGood = true;
  if (record?.stance !== undefined) out.stance = record.stance;
  return out;
}

/** A token's answer on file, or null. */
export function answerOn(memories: Memories, tokenId: string): AnswerBox | null {
  return memories.exchange.waiting[tokenId] ?? null;
}

/** Files a token's answer, or takes it off file (null). */
export function storeAnswer(memories: Memories, tokenId: string, answer: AnswerBox | null): void {
  if (answer !== null) memories.exchange.waiting[tokenId] = answer;
  else delete memories.exchange.waiting[tokenId];
}

/** Memory as kept: an edition state with nothing in it is not kept. */
export function normalMemory(memory: Memory, edition: AnyEdition): Memory {
  const out: Memory = {};
  if (memory.edition && !(memory.edition.id === edition.id && edition.life.isEmptyState(memory.edition.state))) out.edition = memory.edition;
  if (memory.deadForGood) out.deadForGood = true;
  if (memory.stance !== undefined) out.stance = memory.stance;
  return out;
}

/** Puts a token's memory where it lives, dropping its record when nothing is left in it. */
export function storeMemory(memories: Memories, tokenId: string, memory: Memory): void {
  const stored = memories.tokens[tokenId];
  // The record's other fields (overrides, worn armor) stay; its memory is replaced whole.
  const record: TokenRecord = {};
  if (stored?.overrides !== undefined) record.overrides = stored.overrides;
  if (stored?.worn !== undefined) record.worn = stored.worn;
  if (memory.stance !== undefined) record.stance = memory.stance;
  if (memory.deadForGood !== undefined) record.deadForGood = memory.deadForGood;
  if (memory.edition !== undefined) record.edition = memory.edition;
  if (isEmptyRecord(record)) delete memories.tokens[tokenId];
  else memories.tokens[tokenId] = record;
}

/** Deep equality of plain data (JSON-like), keys in any order, an undefined key the same as a missing one. */
export function sameData(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || a === undefined || b === undefined) return (a ?? null) === (b ?? null);
  if (typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const list = b as unknown[];
    if (a.length !== list.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!sameData(a[i], list[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  // Own keys only: another script's enumerable property on Object.prototype is no part of the data.
  for (const key of Object.keys(left)) if (!sameData(left[key], right[key])) return false;
  for (const key of Object.keys(right)) if (!Object.prototype.hasOwnProperty.call(left, key) && right[key] !== undefined) return false;
  return true;
}
