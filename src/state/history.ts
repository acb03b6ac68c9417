// The undo history kept in state: the last damage applications, each with what it found and left.
import * as v from 'valibot';

const nullableInteger = v.nullable(v.pipe(v.number(), v.integer()));

const TokenValuesSchema = v.object({
  bars: v.object({ vitality: nullableInteger, soul: nullableInteger, power: nullableInteger }),
  statusmarkers: v.string(),
  protection: v.optional(
    v.object({ track: v.picklist(['physical', 'magical'] as const), attributeId: v.optional(v.string()), value: nullableInteger }),
  ),
  record: v.object({
    life: v.optional(v.object({ condition: v.picklist(['none', 'incapacitated', 'dying', 'dead'] as const), savesOwed: v.number() })),
    pendingDefense: v.optional(v.picklist(['success', 'fail'] as const)),
    wear: v.optional(v.object({ physical: v.optional(v.number()), magical: v.optional(v.number()) })),
  }),
});
export type TokenValues = v.InferOutput<typeof TokenValuesSchema>;

const ApplicationSchema = v.object({
  /** Who applied it: a player id, "API" for other scripts, "hand-edit" for an armor-read bar edit. */
  by: v.string(),
  kind: v.picklist(['damage', 'hand-edit'] as const),
  /** The round it happened in: a pending defense it used up comes back only within that round. */
  round: v.optional(v.pipe(v.number(), v.integer())),
  tokens: v.array(v.object({ tokenId: v.string(), name: v.string(), before: TokenValuesSchema, after: TokenValuesSchema })),
});
export type Application = v.InferOutput<typeof ApplicationSchema>;

/** Keeps the entries that pass their check; a bad history is dropped whole, with a note. */
export function checkHistory(raw: unknown): { history: Application[]; problems: string[] } {
  if (raw === undefined) return { history: [], problems: [] };
  const parsed = v.safeParse(v.array(ApplicationSchema), raw);
  if (parsed.success) return { history: parsed.output, problems: [] };
  return { history: [], problems: ['history: not a valid undo history; forgotten'] };
}
