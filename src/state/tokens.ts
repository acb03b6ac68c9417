// What the script remembers per token: stance, pending defense, condition and saves, armor wear
// of generic tokens, per-token overrides and this round's reactions and skills.
import * as v from 'valibot';
import { isRecord } from './settings';

const integer = v.pipe(v.number(), v.integer());

const TokenRecordSchema = v.object({
  stance: v.optional(v.picklist(['defensive', 'reactive', 'passive', 'active', 'full'] as const)),
  pendingDefense: v.optional(v.picklist(['success', 'fail'] as const)),
  life: v.optional(
    v.object({
      condition: v.picklist(['none', 'incapacitated', 'dying', 'dead'] as const),
      savesOwed: v.pipe(integer, v.minValue(0), v.maxValue(3)),
    }),
  ),
  // rules.md: a generic token's armor wears per token, starting from the sheet's values
  wear: v.optional(v.object({ physical: v.optional(integer), magical: v.optional(integer) })),
  overrides: v.optional(v.record(v.string(), integer)),
  reactions: v.optional(v.record(v.string(), v.boolean())),
  skillsVs: v.optional(v.array(v.string())),
});
export type TokenRecord = v.InferOutput<typeof TokenRecordSchema>;
export type StoredLife = NonNullable<TokenRecord['life']>;
export type StoredStance = NonNullable<TokenRecord['stance']>;

/** Keeps every token record that passes its check, naming the ones dropped. */
export function checkTokenRecords(raw: unknown): { tokens: Record<string, TokenRecord>; problems: string[] } {
  const tokens: Record<string, TokenRecord> = {};
  const problems: string[] = [];
  if (raw === undefined) return { tokens, problems };
  if (!isRecord(raw)) return { tokens, problems: ['tokens: not an object; per-token memory cleared'] };
  for (const [id, record] of Object.entries(raw)) {
    const parsed = v.safeParse(TokenRecordSchema, record);
    if (parsed.success) tokens[id] = parsed.output;
    else problems.push(`tokens.${id}: not a valid token record; forgotten`);
  }
  return { tokens, problems };
}

/** True when nothing is left worth remembering, so the record can be dropped from state. */
export function isEmptyRecord(record: TokenRecord): boolean {
  return Object.values(record).every((value) => value === undefined);
}
