// Open attacks (commands.md, "!attack"), kept in `state` until they resolve or are cancelled, so a
// restart loses none: who declared it, the attacker, the declared line (inline rolls as rolled),
// its situation, and each defender's answer as the attack keeps it. Checked on load like the rest.
import * as v from 'valibot';
import { objectSchema } from '../rules/schemaObject';
import { editionIdSchema, isRecord } from './settings';
import { editionOf } from '../rules/editions';
import { cutWhole } from '../text/cut';

/** commands.md: at most 20 open attacks at once (a 21st is refused). */
export const MAX_OPEN_ATTACKS = 20;
/** Defenders of one attack (a hit on 50 tokens is the largest a table makes). */
export const MAX_DEFENDERS = 100;

const id = v.pipe(v.string(), v.minLength(1), v.maxLength(64));
const word = v.pipe(v.string(), v.minLength(1), v.maxLength(40));

const AnswerSchema = objectSchema({
  word,
  // The edition's answer, typed, which the hit reads in place of the one on file (checked by its `parseAnswer`).
  answer: v.optional(v.unknown()),
  /** The answer's own roll, said on the result, and whether the answerer typed it. */
  roll: v.optional(v.pipe(v.number(), v.safeInteger())),
  success: v.optional(v.boolean()),
  typed: v.optional(v.literal(true)),
  /** The GM gave it: an attack on a token its declarer does not control is settled only by the GM (commands.md, "!attack"). */
  gm: v.optional(v.literal(true)),
  /** Another token whose help the answer used (an aider): the edition settles it with the hit. */
  helper: v.optional(id),
  /** Not prompted: the hit cannot touch this defender (rules.md, "The exchange"), and why. */
  spared: v.optional(v.pipe(v.string(), v.maxLength(200))),
  /** Given in place of a defense made ahead that did not fit the attack: the hit takes that one off file. */
  replaces: v.optional(v.literal(true)),
});

const AttackSchema = objectSchema({
  /** A1, A2 ... for attacks the players were told of; G1, G2 ... for those among hidden tokens only (their numbers are no hint). */
  key: v.pipe(v.string(), v.regex(/^[AG]\d{1,6}$/)),
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
  /**
   * What its answer time limit counts from (Roll20's clock, ms), across restarts: its declaration, or
   * the GM's later change of the limit. None: kept by an older version, and no limit set since.
   */
  waitingSince: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
  defenders: v.pipe(v.array(id), v.minLength(1), v.maxLength(MAX_DEFENDERS)),
  answers: v.record(id, AnswerSchema),
});

export type OpenAttack = v.InferOutput<typeof AttackSchema>;
export type KeptAnswerRecord = v.InferOutput<typeof AnswerSchema>;

/** Whether an open attack is one the script could have kept: its shape, and each answer's defense as its edition checks it. */
export function isSoundAttack(attack: unknown): attack is OpenAttack {
  const parsed = v.safeParse(AttackSchema, attack);
  if (!parsed.success) return false;
  const edition = editionOf(parsed.output.edition);
  for (const kept of Object.values(parsed.output.answers)) if (kept.answer !== undefined && edition.life.parseAnswer(kept.answer) === null) return false;
  return true;
}

/** Each open attack that passes its check (under its own key), the others named and dropped. */
export function checkAttacks(raw: unknown, problems: string[], edition: string): Record<string, OpenAttack> {
  const attacks: Record<string, OpenAttack> = {};
  if (raw === undefined) return attacks;
  if (!isRecord(raw)) {
    problems.push('exchange.attacks: not an object; open attacks forgotten');
    return attacks;
  }
  for (const [key, attack] of Object.entries(raw)) {
    // commands.md, "Undo, hardened": a stored answer is checked by its edition like every stored memory.
    const parsed = v.safeParse(AttackSchema, attack);
    // An edition switch cancels every open attack: one of another edition (settings reset, or tampered) is cancelled here too.
    if (parsed.success && parsed.output.edition !== edition) problems.push(`exchange.attacks.${cutWhole(key, 20)}: declared in the ${parsed.output.edition} edition, not the active one; cancelled`);
    else if (parsed.success && parsed.output.key === key && isSoundAttack(parsed.output) && Object.keys(attacks).length < MAX_OPEN_ATTACKS) attacks[key] = parsed.output;
    else problems.push(`exchange.attacks.${cutWhole(key, 20)}: not a valid open attack; forgotten`);
  }
  return attacks;
}
