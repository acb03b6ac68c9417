// One token's `!damage` in the `soak` edition (rules.md, "Damage", "Incapacitation and death",
// "Clarifications (soak)"): the defense used, the hit through armor, and what it does to life.

import { resolveSoakHit, type SoakArmor } from './damage';
import type { DamageStep, DamageTrack, DefenseResult } from './damageSteps';
import { applyInstantKill, applyVitalityLoss, type Life } from './life';

export type { DefenseResult } from './damageSteps';

export interface SoakBars {
  vitality: number;
  /** null: the bar holds no number (only matters when `--to soul` targets it). */
  soul: number | null;
  power: number | null;
}

export interface SoakDamageInput {
  /** 0 allowed; ignored for an instant kill. */
  amount: number;
  track: DamageTrack;
  piercePercent: number;
  /** soul/power: the whole amount off that bar, no armor (Ruling). */
  to: 'vitality' | 'soul' | 'power';
  instantKill: boolean;
  /** The result kept from an earlier `!defend` on this token. */
  pendingDefense: DefenseResult | null;
  /** `--defense`: wins over the pending defense. */
  defenseOverride: DefenseResult | 'none' | null;
  bars: SoakBars;
  armor: SoakArmor | null;
  stanceReduction: number;
  life: Life;
}

export interface SoakDamageOutcome {
  defenseUsed: { result: DefenseResult | 'none'; source: 'pending' | 'override' | 'none' };
  /** A successful defense blocked the hit: nothing else happened. */
  cancelled: boolean;
  bars: SoakBars;
  /** The track's protection after wear; null when no hit reached armor (or there is none). */
  protectionAfter: number | null;
  life: Life;
  steps: DamageStep[];
  /** Whether any bar, the protection or the condition differs from the input. */
  changed: boolean;
}

function chooseDefense(input: SoakDamageInput): SoakDamageOutcome['defenseUsed'] {
  // rules.md: `!damage --defense success|fail|none` overrides the pending defense.
  if (input.defenseOverride !== null) return { result: input.defenseOverride, source: 'override' };
  if (input.pendingDefense !== null) return { result: input.pendingDefense, source: 'pending' };
  return { result: 'none', source: 'none' };
}

function sameLife(a: Life, b: Life): boolean {
  return a.condition === b.condition && a.savesOwed === b.savesOwed;
}

/** Nothing happened to the token: a blocked hit, or one on the dead. */
function unchangedBy(input: SoakDamageInput, defenseUsed: SoakDamageOutcome['defenseUsed'], steps: DamageStep[], cancelled: boolean): SoakDamageOutcome {
  return { defenseUsed, cancelled, bars: { ...input.bars }, protectionAfter: null, life: { ...input.life }, steps, changed: false };
}

export function resolveSoakDamage(input: SoakDamageInput): SoakDamageOutcome {
  const defenseUsed = chooseDefense(input);
  const steps: DamageStep[] = [{ kind: 'defense-used', result: defenseUsed.result, source: defenseUsed.source }];

  // rules.md, "Outcome": a successful defense negates the attack, `--to` damage and instant kill included.
  if (defenseUsed.result === 'success') return unchangedBy(input, defenseUsed, steps, true);

  // rules.md: a dead token takes no more damage, on any bar (Ruling: Soul and Power too).
  if (input.life.condition === 'dead') {
    steps.push({ kind: 'dead-no-damage', vitality: input.bars.vitality });
    return unchangedBy(input, defenseUsed, steps, false);
  }

  // Ruling: instant kill wins over `--to` (parsing refuses the two together anyway).
  if (input.instantKill) {
    const kill = applyInstantKill(input.bars.vitality, input.life);
    steps.push(...kill.steps);
    const bars = { ...input.bars, vitality: kill.after };
    return {
      defenseUsed, cancelled: false, bars, protectionAfter: null, life: kill.life, steps,
      changed: kill.after !== input.bars.vitality || !sameLife(kill.life, input.life),
    };
  }

  const amount = Math.max(0, input.amount); // a negative hit is no hit (parsing refuses them anyway)

  // rules.md (Ruling): `--to soul|power` takes the whole amount off that bar, no armor applies.
  if (input.to !== 'vitality') {
    const bar = input.to;
    const before = input.bars[bar];
    if (before === null) {
      steps.push({ kind: 'bar-not-a-number', bar });
      return unchangedBy(input, defenseUsed, steps, false);
    }
    const after = before - amount; // bars may go negative: nothing clamps at 0
    steps.push({ kind: 'direct-damage', bar, amount, before, after });
    return {
      defenseUsed, cancelled: false, bars: { ...input.bars, [bar]: after }, protectionAfter: null,
      life: { ...input.life }, steps, changed: after !== before,
    };
  }

  const hit = resolveSoakHit({
    amount, track: input.track, piercePercent: input.piercePercent, armor: input.armor, stanceReduction: input.stanceReduction,
  });
  for (const step of hit.steps) steps.push(step);
  const loss = applyVitalityLoss(input.bars.vitality, hit.vitalityLoss, input.life);
  for (const step of loss.steps) steps.push(step);
  return {
    defenseUsed,
    cancelled: false,
    bars: { vitality: loss.after, soul: input.bars.soul, power: input.bars.power },
    protectionAfter: hit.protectionAfter,
    life: loss.life,
    steps,
    changed:
      loss.after !== input.bars.vitality ||
      !sameLife(loss.life, input.life) ||
      (input.armor !== null && hit.protectionAfter !== input.armor.protection),
  };
}
