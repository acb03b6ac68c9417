// What the `soak` edition remembers per token: its life (condition and saves owed) and this
// round's reaction checks and defensive skills (rules.md). A defense made ahead is the exchange's.
import * as v from 'valibot';
import { objectSchema } from '../schemaObject';
import { SOAK_SITUATIONS } from './situations';

const SoakStateSchema = objectSchema({
  life: v.optional(
    objectSchema({
      condition: v.picklist(['none', 'incapacitated', 'dying', 'dead'] as const),
      savesOwed: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3)),
    }),
  ),
  // A reaction check's result per attacker: false failed, true succeeded, 'used' spent on its one reaction.
  reactions: v.optional(v.record(v.string(), v.union([v.boolean(), v.literal('used')]))),
  skillsVs: v.optional(v.array(v.string())),
});
export type SoakState = v.InferOutput<typeof SoakStateSchema>;

/** A token's life: its condition and the Vitality saves still owed (1 after a fall to 0..-9, 3 when dying). */
export type Life = NonNullable<SoakState['life']>;

const FiledDefenseSchema = objectSchema({
  result: v.picklist(['success', 'fail'] as const),
  action: v.picklist(['defend', 'evade'] as const),
  situation: v.picklist(SOAK_SITUATIONS),
  // The covert skill's or hidden spectator's penalty its perception check took (absent: none).
  perceptionMod: v.optional(v.pipe(v.number(), v.integer(), v.minValue(-1000), v.maxValue(1000))),
});
/** A defense made ahead as `!defend` files it: its result, and the action and situation it was made for (rules.md: it answers only an attack it fits). */
export type FiledDefense = v.InferOutput<typeof FiledDefenseSchema>;

/**
 * A defense made ahead (The Defensive Round: a success negates the next hit), kept by the exchange
 * until its hit. A bare result was filed before the action and situation were kept (a saved game):
 * it answers any attack, as it did then.
 */
export type SoakAnswer = 'success' | 'fail' | FiledDefense;

export function parseSoakAnswer(raw: unknown): SoakAnswer | null {
  if (raw === 'success' || raw === 'fail') return raw;
  const parsed = v.safeParse(FiledDefenseSchema, raw);
  return parsed.success ? parsed.output : null;
}

/** What a defense made ahead did: succeeded or failed. */
export function resultOf(answer: SoakAnswer): 'success' | 'fail' {
  return typeof answer === 'string' ? answer : answer.result;
}

export function parseSoakState(raw: unknown): SoakState | null {
  // valibot's object takes an array as a record with no keys: a stored list is no state.
  if (Array.isArray(raw)) return null;
  const parsed = v.safeParse(SoakStateSchema, raw);
  return parsed.success ? stateOf(parsed.output.life, parsed.output.reactions, parsed.output.skillsVs) : null;
}

/** Stores a life: a standing token with no save owed keeps nothing. */
export function withLife(state: SoakState, life: Life): SoakState {
  return stateOf(life.condition === 'none' && life.savesOwed === 0 ? undefined : { condition: life.condition, savesOwed: life.savesOwed }, state.reactions, state.skillsVs);
}

/** The one place a state is put together: only the fields it has (state is saved; nothing undefined is kept). */
function stateOf(life: SoakState['life'], reactions: SoakState['reactions'], skillsVs: SoakState['skillsVs']): SoakState {
  const out: SoakState = {};
  if (life) out.life = life;
  if (reactions) out.reactions = reactions;
  if (skillsVs) out.skillsVs = skillsVs;
  return out;
}
