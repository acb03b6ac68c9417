// The stances of The Defensive Round ("Defensive Stance", "Reactive Stance") and the limits they put on
// defensive actions, as pure predicates (rules.md, "Stances" and "Clarifications (soak)").

export type SoakStance = 'defensive' | 'reactive' | 'none';

/** Every stance name, for parsing `!stance`. */
export const SOAK_STANCES: readonly SoakStance[] = ['defensive', 'reactive', 'none'];

/**
 * A reaction check's result against one attacker this round: failed (false), succeeded and not yet
 * used (true), or succeeded and spent on its one reaction ('used').
 */
export type ReactionResult = boolean | 'used';

/** What this round already holds for one defender: its reaction checks and the skills it used. */
export interface SoakRoundLimits {
  /** Attacker id -> the reaction check against that attacker. */
  reactions: Record<string, ReactionResult>;
  /** Attackers a defensive skill was used against this round (defensive stance). */
  skillsVs: string[];
}

/** Whether a word from chat names a stance. */
export function isSoakStance(word: string): word is SoakStance {
  return (SOAK_STANCES as readonly string[]).includes(word);
}

/** The Defensive Round: "For each enemy you get to make one Reaction Check" — in the reactive stance only. */
export function canMakeReactionChecks(stance: SoakStance): boolean {
  return stance === 'reactive';
}

/** The Defensive Round, defensive stance: "You cannot counter attack, as you are focused on drawing yourself in." */
export function counterForbiddenByStance(stance: SoakStance): boolean {
  return stance === 'defensive';
}

/** The Defensive Round: counter attacks come from a successful reaction check, which only the reactive stance makes. */
export function canCounterAttack(stance: SoakStance): boolean {
  return stance === 'reactive';
}

/** The Defensive Round, reactive stance: "You can use defensive skills that help your ally" (after a successful reaction). */
export function canHelpAllies(stance: SoakStance): boolean {
  return stance === 'reactive';
}

/** The Defensive Round, defensive stance: skills only on oneself. */
export function skillsOnlyOnSelf(stance: SoakStance): boolean {
  return stance === 'defensive';
}

/** The Defensive Round, defensive stance: "one skill per attacker attacking you, not per attack" (Ruling: per round). */
export function skillsLimitedPerAttacker(stance: SoakStance): boolean {
  return stance === 'defensive';
}

/** Ids are opaque strings from the game: read own keys only, so an id like "constructor" is not found on Object. */
function ownValue(record: Record<string, ReactionResult>, id: string): ReactionResult | undefined {
  return Object.prototype.hasOwnProperty.call(record, id) ? record[id] : undefined;
}

/** One reaction check per attacker per round, whatever its result. */
export function hasReactedAgainst(round: SoakRoundLimits, attackerId: string): boolean {
  return ownValue(round.reactions, attackerId) !== undefined;
}

/**
 * A counter attack, a skill on an ally, or aid needs a successful reaction against that attacker
 * this round that has not bought its one reaction yet (rules.md: one reaction per success).
 */
export function reactionSucceededAgainst(round: SoakRoundLimits, attackerId: string): boolean {
  return ownValue(round.reactions, attackerId) === true;
}

/** The success was spent already (said apart from "no success", so the player knows why). */
export function reactionUsedAgainst(round: SoakRoundLimits, attackerId: string): boolean {
  return ownValue(round.reactions, attackerId) === 'used';
}

/** Whether the defensive-stance skill against this attacker is already used this round. */
export function skillUsedAgainst(round: SoakRoundLimits, attackerId: string): boolean {
  return round.skillsVs.includes(attackerId);
}

/** rules.md: countering for an ally needs the Reactive Guard skill, declared by name (any case). */
export function isReactiveGuard(skillName: string | null): boolean {
  return skillName !== null && skillName.trim().replace(/\s+/g, ' ').toLowerCase() === 'reactive guard';
}
