// What the script remembers per token (schema 2; since schema 4 a linked token's stance, dead for
// good and edition state under its character's id): per-token overrides, the worn armor of generic
// tokens, the stance, whether it is dead for good, and its state in the edition it was last
// seen in. The edition state is checked by that edition (`parseState`), not here.
import * as v from 'valibot';
import { isKnownStance } from '../rules/editions';
import { objectSchema } from '../rules/schemaObject';
import { VALUE_KEYS } from '../rules/edition';
import { editionIdSchema, isRecord } from './settings';

// commands.md, "Numbers written": only safe integers; an override is what `set` allows.
const integer = v.pipe(v.number(), v.safeInteger());
const overrideValue = v.pipe(v.number(), v.safeInteger(), v.minValue(-1_000_000), v.maxValue(1_000_000));

const TokenRecordSchema = objectSchema({
  overrides: v.optional(v.record(v.picklist(VALUE_KEYS), overrideValue)),
  // rules.md: a generic token's armor wears per token, starting from the sheet's values
  worn: v.optional(objectSchema({ physical: v.optional(integer), magical: v.optional(integer) })),
  stance: v.optional(v.pipe(v.string(), v.maxLength(40))),
  // rules.md, "Switching editions": dead with no save left stays dead in any edition
  deadForGood: v.optional(v.literal(true)),
  edition: v.optional(objectSchema({ id: editionIdSchema, state: v.unknown() })),
});
export type TokenRecord = v.InferOutput<typeof TokenRecordSchema>;
/** The fields a record may have (a test holds `isEmptyRecord` to them). */
export const TOKEN_RECORD_FIELDS = Object.keys(TokenRecordSchema.entries) as Array<keyof TokenRecord>;
export type EditionBox = NonNullable<TokenRecord['edition']>;

/** Keeps every token record that passes its check, naming the ones dropped. */
export function checkTokenRecords(raw: unknown): { tokens: Record<string, TokenRecord>; problems: string[] } {
  const tokens: Record<string, TokenRecord> = {};
  const problems: string[] = [];
  if (raw === undefined) return { tokens, problems };
  if (!isRecord(raw)) return { tokens, problems: ['tokens: not an object; per-token memory cleared'] };
  for (const [id, record] of Object.entries(raw)) {
    // A Roll20 object id is about 20 characters; anything far longer is not one.
    if (id.length === 0 || id.length > 64) {
      problems.push(`tokens: a record under an id of ${id.length} characters is not a token's; forgotten`);
      continue;
    }
    const parsed = v.safeParse(TokenRecordSchema, record);
    if (!parsed.success) {
      problems.push(`tokens.${id}: not a valid token record; forgotten`);
      continue;
    }
    // A stance no edition has could never have been written: it is forgotten, the rest kept (undo records only stances that exist).
    if (parsed.output.stance !== undefined && !isKnownStance(parsed.output.stance)) {
      problems.push(`tokens.${id}.stance: no edition has that stance; forgotten`);
      delete parsed.output.stance;
    }
    const kept = dropUndefined(parsed.output);
    if (!isEmptyRecord(kept)) tokens[id] = kept;
  }
  return { tokens, problems };
}

function dropUndefined<T extends object>(record: T): T {
  for (const key of Object.keys(record) as Array<keyof T>) if (record[key] === undefined) delete record[key];
  return record;
}

/** A copy of an overrides or worn map with one entry set, or removed for null; undefined once empty. */
export function withEntry<K extends string>(
  map: Partial<Record<K, number>> | undefined,
  key: K,
  value: number | null,
): Partial<Record<K, number>> | undefined {
  const next: Partial<Record<K, number>> = { ...map };
  if (value === null) delete next[key];
  else next[key] = value;
  return Object.keys(next).length > 0 ? next : undefined;
}

/** Stores a token's record without its empty fields, or forgets the token when nothing is left. */
export function putRecord(tokens: Record<string, TokenRecord>, tokenId: string, record: TokenRecord): void {
  dropUndefined(record);
  if (isEmptyRecord(record)) delete tokens[tokenId];
  else tokens[tokenId] = record;
}

/** True when nothing is left worth remembering, so the record can be dropped from state. */
export function isEmptyRecord(record: TokenRecord): boolean {
  // Field by field (this runs per token per command): the record's five fields, none kept.
  return record.overrides === undefined && record.worn === undefined && record.stance === undefined && record.deadForGood === undefined && record.edition === undefined;
}
