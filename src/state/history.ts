// The undo history kept in state (schema 2): each damage application as the changes it made,
// from -> to, per token. Undo is these changes inverted (architecture.md, "One writer").
import * as v from 'valibot';
import { EDITION_IDS, RESOURCES, VALUE_KEYS } from '../rules/edition';
import { BAR_NAMES } from './settings';

const integer = v.pipe(v.number(), v.integer());
const nullableInteger = v.nullable(integer);
const track = v.picklist(['physical', 'magical'] as const);

const MemorySchema = v.object({
  edition: v.optional(v.object({ id: v.picklist(EDITION_IDS), state: v.unknown() })),
  deadForGood: v.optional(v.literal(true)),
  stance: v.optional(v.string()),
});

const ChangeSchema = v.variant('kind', [
  /** A bar, through its linked attribute when there is one. */
  v.object({ kind: v.literal('bar'), resource: v.picklist(RESOURCES), bar: v.picklist(BAR_NAMES), attributeId: v.optional(v.string()), from: nullableInteger, to: integer }),
  /** A character value on the sheet (a unique token's worn armor, EXP). */
  v.object({ kind: v.literal('attribute'), key: v.picklist(VALUE_KEYS), attributeId: v.string(), from: nullableInteger, to: integer }),
  /** A value kept per token by `!defense-round set` (EXP paid from an override). */
  v.object({ kind: v.literal('override'), key: v.picklist(VALUE_KEYS), from: nullableInteger, to: integer }),
  /** A generic token's worn protection, kept per token (null: not worn yet, the sheet's value). */
  v.object({ kind: v.literal('worn'), track, from: nullableInteger, to: integer }),
  v.object({ kind: v.literal('markers'), from: v.string(), to: v.string() }),
  /** The token's remembered edition state, stance and dead-for-good; `tokenId` for another token (an ally). */
  v.object({ kind: v.literal('memory'), tokenId: v.optional(v.string()), from: MemorySchema, to: MemorySchema }),
  v.object({ kind: v.literal('initiative'), from: v.number(), to: v.number() }),
  v.object({ kind: v.literal('turn-order'), tokenId: v.string() }),
]);
export type StoredChange = v.InferOutput<typeof ChangeSchema>;

const ApplicationSchema = v.object({
  /** Who applied it: a player id, "API" for other scripts, "hand-edit" for an armor-read bar edit. */
  by: v.string(),
  kind: v.picklist(['damage', 'hand-edit', 'save'] as const),
  /** The round it happened in: edition state it put back is moved on by the rounds since. */
  round: integer,
  tokens: v.array(v.object({ tokenId: v.string(), name: v.string(), changes: v.array(ChangeSchema) })),
});
export type Application = v.InferOutput<typeof ApplicationSchema>;
export type AppliedToken = Application['tokens'][number];

/** Keeps the entries that pass their check; a bad history is dropped whole, with a note. */
export function checkHistory(raw: unknown): { history: Application[]; problems: string[] } {
  if (raw === undefined) return { history: [], problems: [] };
  const parsed = v.safeParse(v.array(ApplicationSchema), raw);
  if (parsed.success) return { history: parsed.output, problems: [] };
  return { history: [], problems: ['history: not a valid undo history; forgotten'] };
}
