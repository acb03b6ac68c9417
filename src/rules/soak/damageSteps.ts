// The steps of one `!damage` in the `soak` edition (The Defensive Round, "Taking Damage", "Death and
// Incapacitated"): numbers and enums only, so the renderer decides every word shown in chat.

/** The Defensive Round: physical hits wear Physical; magical, energy and breath weapon hits wear Magical. */
export type DamageTrack = 'physical' | 'magical';

/** A defense result kept from `!defend` (pending) or given with `--defense`. */
export type DefenseResult = 'success' | 'fail';

/** Why the armor gives nothing (rules.md step 2: it stands while either protection is above 0). */
export type ArmorAbsence =
  | 'worn-out' // both protections worn down to 0: the armor is destroyed
  | 'never-there' // no protection on either track (no armor at all)
  | 'no-character'; // the token represents no character: the hit is unreduced

/** Why a token died. */
export type DeathCause =
  | 'reached-minus-10' // The Defensive Round: incapacitated characters take damage "until their vitality reaches -10"
  | 'hit-while-dying' // rules.md: a dying token that loses any more Vitality is dead
  | 'saves-failed'; // the third failed save of a dying token

export type DamageStep =
  /** Which defense result the hit met; a success cancels the hit (rules.md, "Outcome"). */
  | { kind: 'defense-used'; result: DefenseResult | 'none'; source: 'pending' | 'override' | 'none' }
  /** rules.md step 1: the pierced part skips every reduction. `rest` goes on to the armor. */
  | { kind: 'pierce'; amount: number; piercePercent: number; pierced: number; rest: number }
  /** rules.md step 2: the track's armor is not standing. `amount` is what goes on unreduced by armor. */
  | { kind: 'armor-absent'; track: DamageTrack; reason: ArmorAbsence; amount: number }
  /** rules.md step 3: `after = floor(before * (100 - soakPercent) / 100)`. */
  | { kind: 'soak'; soakPercent: number; before: number; after: number }
  /** rules.md step 4: `after = max(0, before - protection)`, protection as it stood before the hit. */
  | { kind: 'protection'; track: DamageTrack; protection: number; before: number; after: number }
  /** rules.md step 5: armor Defense (physical) or Spirit (magical), while the armor stands. */
  | { kind: 'armor-reduction'; track: DamageTrack; reduction: number; before: number; after: number }
  /** rules.md step 5: natural defense or spirit, only when the track's armor is not standing. */
  | { kind: 'natural-reduction'; track: DamageTrack; reduction: number; before: number; after: number }
  /** rules.md step 6: 5% of Fortitude in the defensive stance. */
  | { kind: 'defensive-stance'; reduction: number; before: number; after: number }
  /** rules.md step 7: loss = pierced + what came through the armor. */
  | { kind: 'vitality-loss'; pierced: number; throughArmor: number; loss: number }
  /** The Defensive Round: protection wears 25% of the damage after soak. */
  | { kind: 'protection-wear'; track: DamageTrack; afterSoak: number; wearPercent: number; wear: number; before: number; after: number }
  /** A Vitality bar moving (a hit, or a hand edit). */
  | { kind: 'vitality-change'; before: number; after: number }
  /** `--to soul|power`: the whole amount off that bar, no armor (Ruling). */
  | { kind: 'direct-damage'; bar: 'soul' | 'power'; amount: number; before: number; after: number }
  /** The targeted bar holds no number: nothing is taken from it. */
  | { kind: 'bar-not-a-number'; bar: 'soul' | 'power' }
  /** The Defensive Round: "Instant Kill's only drop your character's Vitality to 0". `applied` false: already at or below 0. */
  | { kind: 'instant-kill'; applied: boolean; before: number; after: number }
  /** A dead token takes no more damage. */
  | { kind: 'dead-no-damage'; vitality: number }
  /** A hand edit lowering a dead token's Vitality is undone. */
  | { kind: 'set-back'; attempted: number; vitality: number }
  /** Vitality at or below 0 (with the saves now owed: 1 from a hit, 0 otherwise). */
  | { kind: 'incapacitated'; savesOwed: number }
  /** The Defensive Round: a hit that "instantly drops" Vitality to -10 or below: three saves. */
  | { kind: 'dying'; savesOwed: number }
  | { kind: 'dead'; cause: DeathCause }
  /** Saves still owed that no longer count (death came first, or a hand edit made them moot). */
  | { kind: 'saves-lost'; count: number }
  /** One Vitality save roll (`save_check`). */
  | { kind: 'save-rolled'; roll: number; target: number; success: boolean; critical: boolean; savesLeft: number }
  /** The Defensive Round: a successful save stands the character back up with 1 Vitality. */
  | { kind: 'stood-up'; before: number; vitality: number }
  /** Ruling: a dying character's successful save leaves it alive, incapacitated at -9. */
  | { kind: 'saved-from-death'; before: number; vitality: number }
  /** A hand edit raised a dead token above 0: the GM's way to revive it. */
  | { kind: 'revived'; before: number; vitality: number }
  /** Vitality above 0 again by hand: every condition and owed save is cleared. */
  | { kind: 'conditions-cleared' };

export type DamageStepKind = DamageStep['kind'];
