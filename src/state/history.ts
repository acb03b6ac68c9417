// The undo history kept in state (schema 2): each damage application as the changes it made,
// from -> to, per token. Undo is these changes inverted (architecture.md, "One writer").
import * as v from 'valibot';
import { objectSchema } from '../rules/schemaObject';
import { RESOURCES, VALUE_KEYS } from '../rules/edition';
import { BAR_NAMES } from './settings';
import { editionOf, isKnownStance } from '../rules/editions';
import { editionIdSchema } from './settings';

// commands.md, "Undo, hardened": nothing from `state` is written to the game unchecked.
const integer = v.pipe(v.number(), v.safeInteger());
const nullableInteger = v.nullable(integer);
const initiative = v.pipe(v.number(), v.finite(), v.minValue(-1e9), v.maxValue(1e9));
const id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const track = v.picklist(['physical', 'magical'] as const);

const MemorySchema = objectSchema({
  edition: v.optional(objectSchema({ id: editionIdSchema, state: v.unknown() })),
  deadForGood: v.optional(v.literal(true)),
  stance: v.optional(v.pipe(v.string(), v.maxLength(40))),
});

/** An answer on file (a defense made ahead) in the edition it was made in; null: none. */
const AnswerSchema = v.nullable(objectSchema({ edition: editionIdSchema, answer: v.unknown() }));

const ChangeSchema = v.variant('kind', [
  /** A bar, through its linked attribute when there is one. */
  objectSchema({ kind: v.literal('bar'), resource: v.picklist(RESOURCES), bar: v.picklist(BAR_NAMES), attributeId: v.optional(id), from: nullableInteger, to: integer }),
  /** A character value on the sheet (a unique token's worn armor, EXP). */
  objectSchema({ kind: v.literal('attribute'), key: v.picklist(VALUE_KEYS), attributeId: id, from: nullableInteger, to: integer }),
  /** A value kept per token by `!defense-round set` (EXP paid from an override). */
  objectSchema({ kind: v.literal('override'), key: v.picklist(VALUE_KEYS), from: nullableInteger, to: integer }),
  /** A generic token's worn protection, kept per token (null: not worn yet, the sheet's value). */
  objectSchema({ kind: v.literal('worn'), track, from: nullableInteger, to: integer }),
  objectSchema({ kind: v.literal('markers'), from: v.pipe(v.string(), v.maxLength(2000)), to: v.pipe(v.string(), v.maxLength(2000)) }),
  /** The token's remembered edition state, stance and dead-for-good; `tokenId` for another token (an ally); `character` for its character's. */
  objectSchema({ kind: v.literal('memory'), tokenId: v.optional(id), character: v.optional(id), from: MemorySchema, to: MemorySchema }),
  // The token's answer on file (always its own); `tokenId` for another token's (a guarded ally's).
  objectSchema({ kind: v.literal('answer'), tokenId: v.optional(id), from: AnswerSchema, to: AnswerSchema }),
  objectSchema({ kind: v.literal('initiative'), from: initiative, to: initiative }),
  objectSchema({ kind: v.literal('turn-order'), tokenId: id }),
]);
export type StoredChange = v.InferOutput<typeof ChangeSchema>;

const ApplicationSchema = objectSchema({
  /** Who applied it: a player id, "API" for other scripts, "hand-edit" for an armor-read bar edit. */
  by: v.pipe(v.string(), v.minLength(1), v.maxLength(64)),
  kind: v.picklist(['damage', 'hand-edit', 'save'] as const),
  /** The round it happened in: edition state it put back is moved on by the rounds since. */
  round: integer,
  /** What its cards' Undo button names (`!damage --undo --entry U12`); entries from before 0.3 have none. */
  key: v.optional(v.pipe(v.string(), v.regex(/^U\d{1,7}$/))),
  tokens: v.array(objectSchema({ tokenId: id, name: v.pipe(v.string(), v.maxLength(200)), changes: v.array(ChangeSchema) })),
});
export type Application = v.InferOutput<typeof ApplicationSchema>;
export type AppliedToken = Application['tokens'][number];


/**
 * commands.md, "Undo, hardened": a memory an undo would write back must be one the script could
 * have written: each edition state as its edition checks it, a stance some edition has, an answer
 * as the edition it was made in checks it.
 */
function memoryIsSound(change: StoredChange): boolean {
  if (change.kind === 'answer') return [change.from, change.to].every((box) => box === null || editionOf(box.edition).life.parseAnswer(box.answer) !== null);
  if (change.kind !== 'memory') return true;
  return [change.from, change.to].every(
    (memory) => (memory.stance === undefined || isKnownStance(memory.stance)) &&
      (memory.edition === undefined || editionOf(memory.edition.id).life.parseState(memory.edition.state) !== null),
  );
}

/** Keeps the entries that pass their check; each bad one is dropped and named. */
export function checkHistory(raw: unknown): { history: Application[]; problems: string[] } {
  if (raw === undefined) return { history: [], problems: [] };
  if (!Array.isArray(raw)) return { history: [], problems: ['history: not a valid undo history; forgotten'] };
  const history: Application[] = [];
  const problems: string[] = [];
  raw.forEach((entry, index) => {
    const parsed = v.safeParse(ApplicationSchema, entry);
    if (parsed.success && parsed.output.tokens.every((token) => token.changes.every(memoryIsSound))) history.push(parsed.output);
    else problems.push(`history[${index}]: not a valid undo entry; dropped`);
  });
  return { history, problems };
}
