// The Special Defense Situations table of The Defensive Round, as data (rules.md, "Defensive actions").
// Only `defend` and `evade` take penalties; the perception gate also gates `counter` and `skill`.

export type SoakSituation =
  | 'front'
  | 'thrown-object'
  | 'spell-seen'
  | 'behind'
  | 'distracted'
  | 'side'
  | 'projectile'
  | 'gun'
  | 'aoe'
  | 'aoe-edge'
  | 'spell-unseen'
  | 'covert'
  | 'spectator';

/** Every situation name, in the table's order, for parsing `--situation`. */
export const SOAK_SITUATIONS: readonly SoakSituation[] = [
  'front',
  'thrown-object',
  'spell-seen',
  'behind',
  'distracted',
  'side',
  'projectile',
  'gun',
  'aoe',
  'aoe-edge',
  'spell-unseen',
  'covert',
  'spectator',
];

/**
 * The perception check that must succeed before any defensive action:
 * `none` no check; `plain` the check as it stands; `with-perception-mod` the check with
 * `--perception-mod` (a covert skill's penalty, a hidden spectator).
 */
export type PerceptionGate = 'none' | 'plain' | 'with-perception-mod';

/** The checks a situation can penalise. */
export type PenalisedCheck = 'defend' | 'evade';

export interface SoakSituationRule {
  perceptionGate: PerceptionGate;
  /** Added to the defend check's target (0 or negative). */
  defendPenalty: number;
  /** Added to the evade check's target (0 or negative). */
  evadePenalty: number;
  /** No evade check is possible at all. */
  evadeImpossible: boolean;
  /** A mental check may shrink the evade penalty: success halves it, critical success removes it. */
  mentalCheckEasesPenalty: boolean;
  /** Failing the perception gate means taking the damage (said so to the player). */
  gateFailureTakesDamage: boolean;
  /** A counter attack against this attacker draws it into the battle. */
  counterDrawsIntoBattle: boolean;
}

const NO_EFFECT: SoakSituationRule = {
  perceptionGate: 'none',
  defendPenalty: 0,
  evadePenalty: 0,
  evadeImpossible: false,
  mentalCheckEasesPenalty: false,
  gateFailureTakesDamage: false,
  counterDrawsIntoBattle: false,
};

export const SOAK_SITUATION_RULES: Readonly<Record<SoakSituation, Readonly<SoakSituationRule>>> = {
  // The Defensive Round: "Direct Melee Attack from the Front or Thrown Object": no effect.
  front: NO_EFFECT,
  'thrown-object': NO_EFFECT,
  // The Defensive Round: "Seen Single Target Spells": no effect.
  'spell-seen': NO_EFFECT,
  // The Defensive Round: behind or distracted: "Requires a successful perception check; ... -5 to any defensive action, including evade".
  behind: { ...NO_EFFECT, perceptionGate: 'plain', defendPenalty: -5, evadePenalty: -5 },
  distracted: { ...NO_EFFECT, perceptionGate: 'plain', defendPenalty: -5, evadePenalty: -5 },
  // The Defensive Round: side: "A penalty of -5 to any defensive action".
  side: { ...NO_EFFECT, defendPenalty: -5, evadePenalty: -5 },
  // The Defensive Round: projectiles and throwing weapons: "-20 to Evade %" (defense not hindered).
  projectile: { ...NO_EFFECT, evadePenalty: -20 },
  // The Defensive Round: gun: "-50 to Evade %".
  gun: { ...NO_EFFECT, evadePenalty: -50 },
  // The Defensive Round: area of effect: "Cannot evade"; Ruling (rules.md): defend is still allowed.
  aoe: { ...NO_EFFECT, evadeImpossible: true },
  // The Defensive Round: on the farthest reach "you can make an Evade check with no penalty".
  'aoe-edge': NO_EFFECT,
  // The Defensive Round: invisible or very fast spell: -25 to evade; a mental check halves it, a critical removes it.
  'spell-unseen': { ...NO_EFFECT, evadePenalty: -25, mentalCheckEasesPenalty: true },
  // The Defensive Round: covert: a perception check "with any penalties given by the skill in use" before any defensive action.
  covert: { ...NO_EFFECT, perceptionGate: 'with-perception-mod' },
  // The Defensive Round, "Defending Against Spectators": perception first (hidden: apply penalties), else take the damage;
  // only a counter attack draws the spectator into the battle.
  spectator: {
    ...NO_EFFECT,
    perceptionGate: 'with-perception-mod',
    gateFailureTakesDamage: true,
    counterDrawsIntoBattle: true,
  },
};

/** Whether a word from chat names a situation (parsing happens at the edge; this is its list). */
export function isSoakSituation(word: string): word is SoakSituation {
  return (SOAK_SITUATIONS as readonly string[]).includes(word);
}

/** The situation's penalty to one check, before any mental check. */
export function situationPenalty(situation: SoakSituation, check: PenalisedCheck): number {
  const rule = SOAK_SITUATION_RULES[situation];
  return check === 'defend' ? rule.defendPenalty : rule.evadePenalty;
}

/**
 * The penalty after the mental check of an unseen spell. rules.md, "Rounding": halving a penalty
 * halves its size, rounded down (-25 becomes -12); a critical success removes it.
 */
export function penaltyAfterMentalCheck(penalty: number, mental: { success: boolean; critical: boolean }): number {
  if (mental.critical) return 0;
  if (!mental.success) return penalty;
  return -Math.floor(Math.abs(penalty) / 2) + 0; // `+ 0` keeps a zero penalty from turning into -0
}

/**
 * Whether two situations ask the same of one defensive action: the same perception check before it,
 * the same penalty, and (an evade) the same "cannot evade" and Mental check. A defense made ahead in
 * one answers an attack in the other (rules.md, "An attack's answers": where it fits).
 */
export function asksTheSame(a: SoakSituation, b: SoakSituation, action: PenalisedCheck): boolean {
  const x = SOAK_SITUATION_RULES[a];
  const y = SOAK_SITUATION_RULES[b];
  if (x.perceptionGate !== y.perceptionGate || situationPenalty(a, action) !== situationPenalty(b, action)) return false;
  return action === 'defend' || (x.evadeImpossible === y.evadeImpossible && x.mentalCheckEasesPenalty === y.mentalCheckEasesPenalty);
}
