// One token's hit in the `threshold` edition (The Defensive Turn, "Taking Damage", "Physical", "Magical",
// "Defense"; rules.md, "Hit chance against armor" and Clarifications). Pure.
import { isDead, died, type ThresholdPending, type ThresholdState } from './state';
import { needsPerceive, THRESHOLD_SITUATION_RULES, type ThresholdSituation } from './situations';
import type { ThresholdStep } from './steps';

export interface ThresholdHit {
  amount: number;
  track: 'physical' | 'magical';
  /** The attacker's hit chance; null: the hit is taken as decided. */
  hit: number | null;
  /** The attack's situation as given (`--situation`); null: the pending defense's, or front. */
  situation: ThresholdSituation | null;
  /** Added to the hit chance (a projectile weapon's bonus, or any other). */
  mod: number;
  /** The track's armor now (a threshold; it never wears here). */
  armor: number;
  /** The token represents no character (and has no overrides): it has no armor, and says so. */
  noCharacter?: boolean;
  armorDefense: number;
  override: 'success' | 'fail' | 'none' | null;
  vitality: number;
  state: ThresholdState;
  /** The defense made ahead, waiting for this hit; null: none. */
  pending: ThresholdPending | null;
}

export interface ThresholdHitOutcome {
  missed: boolean;
  vitality: number;
  state: ThresholdState;
  steps: ThresholdStep[];
  dies: boolean;
  /** The defense made ahead is used up by this attack, hit or miss (not by a hit on the dead). */
  answerUsed: boolean;
}

function defenseUsed(hit: ThresholdHit, attack: ThresholdSituation, pending: ThresholdPending | undefined, steps: ThresholdStep[]): 'success' | 'fail' | 'none' {
  if (hit.override !== null) {
    steps.push({ kind: 'defense-used', result: hit.override, source: 'override' });
    return hit.override;
  }
  if (!pending) {
    steps.push({ kind: 'defense-used', result: 'none', source: 'none' });
    return 'none';
  }
  // rules.md: a defense made without the gate this attack's situation needs does not answer it.
  if (pending.situation !== attack && needsPerceive(attack) && !pending.perceived) {
    steps.push({ kind: 'defense-does-not-answer', madeFor: pending.situation, attack });
    steps.push({ kind: 'defense-used', result: 'none', source: 'none' });
    return 'none';
  }
  steps.push({ kind: 'defense-used', result: pending.result, source: 'pending' });
  return pending.result;
}

export function resolveThresholdHit(hit: ThresholdHit): ThresholdHitOutcome {
  const steps: ThresholdStep[] = [];
  const pending = hit.pending ?? undefined;
  // rules.md: a dead token takes no damage (its pending defense, if any, stays as it was).
  if (isDead(hit.vitality)) {
    steps.push({ kind: 'dead-no-damage', vitality: hit.vitality });
    return { missed: false, vitality: hit.vitality, state: hit.state, steps, dies: false, answerUsed: false };
  }
  // rules.md: without --situation the attack is taken to be the one the pending defense answered.
  const attack = hit.situation ?? pending?.situation ?? 'front';
  const rule = THRESHOLD_SITUATION_RULES[attack];
  const defense = defenseUsed(hit, attack, pending, steps);
  if (hit.noCharacter) steps.push({ kind: 'no-character' });
  const state: ThresholdState = hit.state;

  if (rule.noHitChance) {
    steps.push({ kind: 'no-hit-chance', given: hit.hit });
  } else if (hit.hit === null) {
    steps.push({ kind: 'hit-decided' });
  } else {
    const total = hit.hit + rule.hitBonus + hit.mod;
    const armor = Math.max(0, hit.armor);
    // The Defensive Turn: "If their hit chance is equal to or less than your ... Armor, you will receive no damage."
    const hits = total > armor;
    steps.push({ kind: 'hit-check', hit: hit.hit, bonus: rule.hitBonus, mod: hit.mod, total, armor, track: hit.track, hits, situation: attack });
    if (!hits) return { missed: true, vitality: hit.vitality, state, steps, dies: false, answerUsed: true };
  }

  let damage = Math.max(0, hit.amount);
  if (defense === 'success') {
    // The Defensive Turn: "Should you succeed with your defense check you ... reduce the damage ... by the armor's defense score."
    const reduction = Math.max(0, hit.armorDefense);
    const after = Math.max(0, damage - reduction);
    steps.push({ kind: 'armor-defense', before: damage, defense: reduction, after });
    damage = after;
  }
  const after = hit.vitality - damage;
  steps.push({ kind: 'vitality-change', before: hit.vitality, after });
  const dies = after <= 0;
  if (dies) steps.push({ kind: 'dead-at-0' });
  return { missed: false, vitality: after, state: dies ? died(state) : state, steps, dies, answerUsed: true };
}
