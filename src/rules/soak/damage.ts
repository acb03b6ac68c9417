// One hit against one token's armor in the `soak` edition (The Defensive Round, "Taking Damage";
// rules.md, "Damage", steps 1-7). Pure: numbers in, the Vitality loss and every step out.

import { clamp, percentOf } from '../values';
import type { ArmorAbsence, DamageStep, DamageTrack } from './damageSteps';

export type { DamageTrack } from './damageSteps';

export interface SoakArmor {
  /** `armor_soak`: percent of the non-pierced damage the armor absorbs. */
  soakPercent: number;
  /** The track's current protection (`armor_physical` or `armor_magical`, current). */
  protection: number;
  /**
   * The track's undamaged protection (max), only to say why an armor is not standing:
   * above 0 with protection 0 reads as worn out; absent or 0 reads as never there.
   */
  protectionMax?: number;
  /**
   * The other track's current protection: the armor is one piece and stands while either
   * protection is above 0 (rules.md step 2, Ruling revised). Absent: 0.
   */
  otherProtection?: number;
  /** The other track's undamaged protection, for the same "worn out or never there". */
  otherProtectionMax?: number;
  /** Armor Defense (physical) or Spirit (magical). */
  armorReduction: number;
  /** Natural defense (physical) or natural spirit (magical). */
  naturalReduction: number;
}

export interface SoakHit {
  amount: number;
  track: DamageTrack;
  piercePercent: number;
  /** null: the token represents no character, so the hit is unreduced by armor. */
  armor: SoakArmor | null;
  /** `defensiveStanceReduction(fortitude)` in the defensive stance, else 0. */
  stanceReduction: number;
}

export interface SoakHitOutcome {
  vitalityLoss: number;
  /** The track's protection after wear (as given when the armor is not standing); null with no armor (no character). */
  protectionAfter: number | null;
  steps: DamageStep[];
}

// The Defensive Round: "you automatically get 5% of your Fortitude as a flat defense"; a negative Fortitude gives none.
export function defensiveStanceReduction(fortitude: number): number {
  return Math.max(0, percentOf(fortitude, 5));
}

// The Defensive Round: "it only decreases by 25% of the damage it received ... after Soak".
const WEAR_PERCENT = 25;

export function resolveSoakHit(hit: SoakHit): SoakHitOutcome {
  const steps: DamageStep[] = [];
  const amount = Math.max(0, hit.amount); // a negative hit is no hit (parsing refuses them anyway)
  const piercePercent = clamp(hit.piercePercent, 0, 100);
  const stanceReduction = Math.max(0, hit.stanceReduction);

  // rules.md step 1: the pierced part skips soak, protection, defense, natural and stance alike.
  const pierced = percentOf(amount, piercePercent);
  const rest = amount - pierced;
  if (piercePercent > 0) steps.push({ kind: 'pierce', amount, piercePercent, pierced, rest });

  let throughArmor = rest;
  let protectionAfter: number | null = null;
  let wearStep: DamageStep | null = null;
  const armor = hit.armor;
  // Clarifications (soak): armor values below 0 count as 0, soak counts as 0..100.
  const protection = armor === null ? 0 : Math.max(0, armor.protection);
  // The Defensive Round: each protection "must be dropped to zero before the armor is destroyed", and Soak is
  // lost "only when the armor providing Soak is destroyed": the armor stands while either is above 0.
  const standing = armor !== null && (protection > 0 || Math.max(0, armor.otherProtection ?? 0) > 0);

  if (armor !== null && standing) {
    // rules.md step 3: soak comes first and never wears.
    const soakPercent = clamp(armor.soakPercent, 0, 100);
    const afterSoak = percentOf(rest, 100 - soakPercent);
    if (soakPercent > 0) steps.push({ kind: 'soak', soakPercent, before: rest, after: afterSoak });

    // rules.md step 4: protection as it stood before this hit (a worn-out track subtracts 0).
    throughArmor = Math.max(0, afterSoak - protection);
    steps.push({ kind: 'protection', track: hit.track, protection, before: afterSoak, after: throughArmor });

    // rules.md step 5: armor Defense/Spirit works while the armor stands.
    const armorReduction = Math.max(0, armor.armorReduction);
    if (armorReduction > 0) {
      const before = throughArmor;
      throughArmor = Math.max(0, throughArmor - armorReduction);
      steps.push({ kind: 'armor-reduction', track: hit.track, reduction: armorReduction, before, after: throughArmor });
    }

    // The Defensive Round: wear is 25% of damage after soak, and protection stops at 0 (a worn-out track has nothing to wear).
    const wear = percentOf(afterSoak, WEAR_PERCENT);
    protectionAfter = Math.max(0, protection - wear);
    if (protection > 0) {
      wearStep = {
        kind: 'protection-wear', track: hit.track, afterSoak, wearPercent: WEAR_PERCENT, wear,
        before: protection, after: protectionAfter,
      };
    } else {
      protectionAfter = armor.protection; // nothing left to wear: left exactly as it was
    }
  } else {
    // rules.md step 2: with both protections at 0 the armor is destroyed: no soak, no Defense/Spirit.
    const wasThere = (armor?.protectionMax ?? 0) > 0 || (armor?.otherProtectionMax ?? 0) > 0;
    const reason: ArmorAbsence = armor === null ? 'no-character' : wasThere ? 'worn-out' : 'never-there';
    steps.push({ kind: 'armor-absent', track: hit.track, reason, amount: rest });
    if (armor !== null) {
      protectionAfter = armor.protection; // not hit, not worn: left exactly as it was (even below 0)
      // rules.md step 5 (Ruling): natural defense/spirit is the fallback, never a bonus on top.
      const naturalReduction = Math.max(0, armor.naturalReduction);
      if (naturalReduction > 0) {
        const before = throughArmor;
        throughArmor = Math.max(0, throughArmor - naturalReduction);
        steps.push({ kind: 'natural-reduction', track: hit.track, reduction: naturalReduction, before, after: throughArmor });
      }
    }
  }

  // rules.md step 6 (Ruling): after Defense/Spirit, on both tracks, armor or not.
  if (stanceReduction > 0) {
    const before = throughArmor;
    throughArmor = Math.max(0, throughArmor - stanceReduction);
    steps.push({ kind: 'defensive-stance', reduction: stanceReduction, before, after: throughArmor });
  }

  // rules.md step 7.
  const vitalityLoss = pierced + throughArmor;
  steps.push({ kind: 'vitality-loss', pierced, throughArmor, loss: vitalityLoss });
  // The seed's example tells the wear last, after the loss.
  if (wearStep !== null) steps.push(wearStep);

  return { vitalityLoss, protectionAfter, steps };
}
