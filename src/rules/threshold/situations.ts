// The Special Defense Situations table of The Defensive Turn, as data (rules.md, "Edition `threshold`"):
// what each situation adds to the attacker's hit chance, and what the defender must check first.

export const THRESHOLD_SITUATIONS = [
  'front',
  'thrown-object',
  'spell-seen',
  'behind',
  'distracted',
  'side',
  'projectile',
  'aoe',
  'aoe-edge',
  'spell-fast',
  'spell-invisible',
  'covert',
  'spectator',
] as const;
export type ThresholdSituation = (typeof THRESHOLD_SITUATIONS)[number];

/** Situations of the other edition, refused here by name. */
export const SOAK_ONLY_SITUATIONS: readonly string[] = ['gun', 'spell-unseen'];

export type Difficulty = 'normal' | 'hard' | 'impossible';

export interface ThresholdSituationRule {
  /** Added to the attacker's hit chance (a projectile's bonus is the weapon's, given as --mod). */
  hitBonus: number;
  /** No hit chance is compared: every target is hit (The Defensive Turn: large areas of effect). */
  noHitChance: boolean;
  /** A perceive check must succeed before any defense; `difficulty` is its default. */
  perceive: { difficulty: Difficulty; withMod: boolean } | null;
  /** The defense check itself is a React check of this default difficulty (projectiles, fast or invisible spells). */
  reactCheck: Difficulty | null;
  /** `--difficulty` may make the gate or the React check harder (covert, the spells). */
  difficultyFlag: boolean;
  /** A failed perceive check means the attack simply hits (a spectator). */
  gateFailureTakesDamage: boolean;
  /** Countering draws the attacker into the battle (The Defensive Turn, section 4). */
  counterDrawsIntoBattle: boolean;
}

const PLAIN: ThresholdSituationRule = {
  hitBonus: 0, noHitChance: false, perceive: null, reactCheck: null, difficultyFlag: false,
  gateFailureTakesDamage: false, counterDrawsIntoBattle: false,
};

export const THRESHOLD_SITUATION_RULES: Record<ThresholdSituation, ThresholdSituationRule> = {
  front: PLAIN,
  'thrown-object': PLAIN,
  'spell-seen': PLAIN,
  // The Defensive Turn: "Requires a successful hard perceive check to defend from, attacker gets +5 to hit chance".
  behind: { ...PLAIN, hitBonus: 5, perceive: { difficulty: 'hard', withMod: false } },
  distracted: { ...PLAIN, hitBonus: 5, perceive: { difficulty: 'hard', withMod: false } },
  // The Defensive Turn: "Attacker gets a +2 to hit chance".
  side: { ...PLAIN, hitBonus: 2 },
  // The Defensive Turn: "Attacker has weapon given bonuses to hit chance; Hard React check needed to defend against".
  projectile: { ...PLAIN, reactCheck: 'hard' },
  // The Defensive Turn: "No hit chance check needed to affect targets unless targets are on the edge".
  aoe: { ...PLAIN, noHitChance: true },
  'aoe-edge': PLAIN,
  // The Defensive Turn: "Hard to Impossible React Check needed to defend against, +2 hit chance for fast, +5 ... invisible".
  'spell-fast': { ...PLAIN, hitBonus: 2, reactCheck: 'hard', difficultyFlag: true },
  'spell-invisible': { ...PLAIN, hitBonus: 5, reactCheck: 'hard', difficultyFlag: true },
  // The Defensive Turn: "Required hard to impossible perceive check to defend against".
  covert: { ...PLAIN, perceive: { difficulty: 'hard', withMod: true }, difficultyFlag: true },
  // The Defensive Turn, section 4: a plain perceive check first (a hidden spectator's penalties as --perception-mod).
  spectator: { ...PLAIN, perceive: { difficulty: 'normal', withMod: true }, gateFailureTakesDamage: true, counterDrawsIntoBattle: true },
};

/** Ruling: hard halves a check's target, impossible quarters it (floor); modifiers come after. */
export function targetForDifficulty(target: number, difficulty: Difficulty): number {
  if (difficulty === 'hard') return Math.floor(target / 2);
  if (difficulty === 'impossible') return Math.floor(target / 4);
  return target;
}

/** The perceive gate the situation needs, if any: a defense made without it does not answer that attack. */
export function needsPerceive(situation: ThresholdSituation): boolean {
  return THRESHOLD_SITUATION_RULES[situation].perceive !== null;
}

/** rules.md, "a defense answers its own attack": one made for another situation, without the perceive check this one needs, does not. */
export function answersSituation(madeFor: { situation: ThresholdSituation; perceived: boolean }, attack: ThresholdSituation): boolean {
  return madeFor.situation === attack || madeFor.perceived || !needsPerceive(attack);
}
