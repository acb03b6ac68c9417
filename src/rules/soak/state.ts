// What the `soak` edition remembers per token: its life (condition and saves owed) and this
// round's reaction checks and defensive skills (rules.md). A defense made ahead is the exchange's.
import * as v from 'valibot';
import { objectSchema } from '../schemaObject';
import { lifeFromVitality, type Life } from './life';

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

/** A defense made ahead (The Defensive Round: a success negates the next hit), kept by the exchange until its hit. */
export type SoakAnswer = 'success' | 'fail';

export function parseSoakAnswer(raw: unknown): SoakAnswer | null {
  return raw === 'success' || raw === 'fail' ? raw : null;
}

const STANDING: Life = { condition: 'none', savesOwed: 0 };

export function parseSoakState(raw: unknown): SoakState | null {
  // valibot's object takes an array as a record with no keys: a stored list is no state.
  if (Array.isArray(raw)) return null;
  const parsed = v.safeParse(SoakStateSchema, raw);
  return parsed.success ? compact(parsed.output) : null;
}

/** The stored life, or one read from Vitality for a token whose life was never written. */
export function lifeOf(state: SoakState, vitality: number | null): Life {
  if (state.life) return { ...state.life };
  return vitality === null ? { ...STANDING } : lifeFromVitality(vitality);
}

/** Stores a life: a standing token with no save owed keeps nothing. */
export function withLife(state: SoakState, life: Life): SoakState {
  return stateOf(life.condition === 'none' && life.savesOwed === 0 ? undefined : { condition: life.condition, savesOwed: life.savesOwed }, state.reactions, state.skillsVs);
}

/** Entering the edition (rules.md, "Switching editions"): conditions come from Vitality, no saves owed. */
export function enterSoak(vitality: number | null, deadForGood: boolean): SoakState {
  if (deadForGood) return { life: { condition: 'dead', savesOwed: 0 } };
  // A standing token keeps nothing (its life is read from Vitality when next needed). A token that
  // enters down keeps its condition, so the script remembers it and a later switch re-reads its markers.
  const life = vitality === null ? STANDING : lifeFromVitality(vitality);
  return life.condition === 'none' ? {} : { life: { condition: life.condition, savesOwed: life.savesOwed } };
}

/** rules.md, "Rounds": pending defenses and per-round limits end with the round. */
export function endSoakRound(state: SoakState): SoakState {
  return stateOf(state.life, undefined, undefined);
}

export function soakCondition(state: SoakState) {
  return state.life?.condition ?? 'none';
}

export function isEmptySoakState(state: SoakState): boolean {
  return state.life === undefined && state.reactions === undefined && state.skillsVs === undefined;
}

/** Undo's "changed since" in words. */
export function describeSoakStateChange(left: SoakState, now: SoakState): string {
  if (JSON.stringify(left.life ?? null) !== JSON.stringify(now.life ?? null)) return 'has a new condition or saves owed';
  return 'has used reactions or skills since';
}

function compact(state: SoakState): SoakState {
  return stateOf(state.life, state.reactions, state.skillsVs);
}

/** The one place a state is put together: only the fields it has (state is saved; nothing undefined is kept). */
function stateOf(life: SoakState['life'], reactions: SoakState['reactions'], skillsVs: SoakState['skillsVs']): SoakState {
  const out: SoakState = {};
  if (life) out.life = life;
  if (reactions) out.reactions = reactions;
  if (skillsVs) out.skillsVs = skillsVs;
  return out;
}
