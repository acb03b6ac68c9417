// The steps of the `threshold` edition (The Defensive Turn) as data: numbers, enums and opaque ids only;
// `text.ts` words them.
import type { Difficulty, ThresholdSituation } from './situations';

export type ThresholdCheckName = 'defend' | 'react' | 'perceive' | 'save';

export type ThresholdStep =
  /** Which defense result the hit met, and where it came from. */
  | { kind: 'defense-used'; result: 'success' | 'fail' | 'none'; source: 'pending' | 'override' | 'none' }
  /** A pending defense made for another situation, without the perceive check this one needs. */
  | { kind: 'defense-does-not-answer'; madeFor: ThresholdSituation; attack: ThresholdSituation }
  /** The hit chance against the track's armor (The Defensive Turn: "equal to or less than your ... Armor ... no damage"). */
  | { kind: 'hit-check'; hit: number; bonus: number; mod: number; total: number; armor: number; track: 'physical' | 'magical'; hits: boolean; situation: ThresholdSituation }
  /** No hit chance is compared: an area attack hits every target. `given` when a --hit was given anyway. */
  | { kind: 'no-hit-chance'; given: number | null }
  /** The token represents no character and has no overrides: no armor, no Defense (rules.md, "Reading values"). */
  | { kind: 'no-character' }
  /** No --hit: the hit is taken as already decided. */
  | { kind: 'hit-decided' }
  /** The Defensive Turn: a successful defense takes the armor's Defense off the damage. */
  | { kind: 'armor-defense'; before: number; defense: number; after: number }
  | { kind: 'vitality-change'; before: number; after: number }
  /** The Defensive Turn: "Should your character's Vitality ever reach 0, your character is dead." */
  | { kind: 'dead-at-0' }
  | { kind: 'dead-no-damage'; vitality: number }
  /** A hand edit lowering a dead token's Vitality is undone. */
  | { kind: 'set-back'; attempted: number; vitality: number }
  | { kind: 'revived' }
  /** A percentile check, its target divided for difficulty first, then modifiers added. */
  | { kind: 'check'; check: ThresholdCheckName; roll: number; base: number; difficulty: Difficulty; mod: number; target: number; success: boolean; critical: boolean }
  /** A failed perceive check: no defense (a spectator's attack simply hits). */
  | { kind: 'no-defense'; situation: ThresholdSituation; takesDamage: boolean }
  /** A failed React check before a skill or counter: not made. */
  | { kind: 'not-in-time'; action: 'skill' | 'counter' }
  | { kind: 'pending-defense'; result: 'success' | 'fail'; situation: ThresholdSituation; for: string | null }
  /** The ally keeps the better of its own pending defense and the guard's. */
  | { kind: 'guard-kept'; ally: string; result: 'success' | 'fail' }
  | { kind: 'announced'; action: 'skill' | 'counter' | 'opportunity'; vs: string | null; skillName: string | null }
  | { kind: 'spectator-drawn'; spectator: string }
  /** A save try: free, or paid with 1d% EXP (the cost rolled first). */
  | { kind: 'save-cost'; cost: number; exp: number; paid: boolean }
  | { kind: 'stood-up'; before: number }
  | { kind: 'save-failed'; triesLeft: number };
