// Open attacks (commands.md, "!attack"), kept in `state` until they resolve or are cancelled, so a
// restart loses none: who declared it, the attacker, the declared line (inline rolls as rolled),
// its situation, and each defender's answer as the attack keeps it. Checked on load like the rest.
import * as v from 'valibot';
import { objectSchema } from '../rules/schemaObject';
import { editionIdSchema, isRecord } from './settings';
import { cutWhole } from '../text/cut';

/** commands.md: at most 20 open attacks at once (a 21st is refused). */
export const MAX_OPEN_ATTACKS = 20;
/** Defenders of one attack (a hit on 50 tokens is the largest a table makes). */
export const MAX_DEFENDERS = 100;

const id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const word = v.pipe(v.string(), v.minLength(1), v.maxLength(40));

const AnswerSchema = objectSchema({
  word,
  /** The defense made ahead, filed as the defender's answer on file just before the hit. */
  file: v.optional(v.unknown()),
  /** Flags the defender's hit takes (its defense mode and roll). */
  flags: v.optional(v.record(word, v.pipe(v.string(), v.maxLength(40)))),
  /** The answer's own roll, said on the result, and whether the answerer typed it. */
  roll: v.optional(v.pipe(v.number(), v.safeInteger())),
  success: v.optional(v.boolean()),
  typed: v.optional(v.literal(true)),
});

const AttackSchema = objectSchema({
  key: v.pipe(v.string(), v.regex(/^A\d{1,6}$/)),
  /** Who declared it (a player id); `gm`: that player is a GM. */
  by: id,
  gm: v.boolean(),
  attacker: v.nullable(id),
  edition: editionIdSchema,
  /** The declared line as parsed, inline rolls as Roll20 rolled them. */
  positionals: v.pipe(v.array(v.pipe(v.string(), v.maxLength(200))), v.maxLength(4)),
  flags: v.pipe(v.array(v.tuple([word, v.pipe(v.array(v.pipe(v.string(), v.maxLength(200))), v.maxLength(8))])), v.maxLength(20)),
  situation: v.nullable(word),
  round: v.pipe(v.number(), v.safeInteger()),
  defenders: v.pipe(v.array(id), v.minLength(1), v.maxLength(MAX_DEFENDERS)),
  answers: v.record(id, AnswerSchema),
});

export type OpenAttack = v.InferOutput<typeof AttackSchema>;
export type KeptAnswerRecord = v.InferOutput<typeof AnswerSchema>;

/** Each open attack that passes its check (under its own key), the others named and dropped. */
export function checkAttacks(raw: unknown, problems: string[]): Record<string, OpenAttack> {
  const attacks: Record<string, OpenAttack> = {};
  if (raw === undefined) return attacks;
  if (!isRecord(raw)) {
    problems.push('exchange.attacks: not an object; open attacks forgotten');
    return attacks;
  }
  for (const [key, attack] of Object.entries(raw)) {
    const parsed = v.safeParse(AttackSchema, attack);
    if (parsed.success && parsed.output.key === key && Object.keys(attacks).length < MAX_OPEN_ATTACKS) attacks[key] = parsed.output;
    else problems.push(`exchange.attacks.${cutWhole(key, 20)}: not a valid open attack; forgotten`);
  }
  return attacks;
}
