// Plain text for one step of a `soak` damage breakdown, one short line each, worded like the
// seed's worked example ("160 - 100 Physical = 60"). No HTML: the chat renderer escapes and wraps.

import type { ArmorAbsence, DamageStep, DamageTrack, DeathCause } from './damageSteps';

const PROTECTION_NAME: Record<DamageTrack, string> = { physical: 'Physical', magical: 'Magical' };
const REDUCTION_NAME: Record<DamageTrack, string> = { physical: 'Defense', magical: 'Spirit' };
const BAR_NAME = { soul: 'Soul', power: 'Power' } as const;

function armorAbsent(reason: ArmorAbsence, amount: number): string {
  switch (reason) {
    case 'worn-out':
      return `Armor destroyed (worn out): ${amount} is not reduced`;
    case 'never-there':
      return `No armor (no Physical or Magical protection): ${amount} is not reduced`;
    case 'no-character':
      return `No character, so no armor: ${amount} is not reduced by armor`;
  }
}

function death(cause: DeathCause): string {
  switch (cause) {
    case 'reached-minus-10':
      return 'Dead: reached -10 while incapacitated';
    case 'hit-while-dying':
      return 'Dead: hit again while dying';
    case 'saves-failed':
      return 'Dead: every save failed';
  }
}

function saves(count: number): string {
  return count === 1 ? '1 save' : `${count} saves`;
}

/**
 * One reduction of the damage: a clamp is said as one ("32 - 100 Physical: all 32 stopped"), and a
 * reduction of nothing left is left out (an empty line).
 */
function reduced(before: number, by: number, what: string, after: number): string {
  if (before === 0) return '';
  if (after === 0 && by > before) return `${before} - ${by} ${what}: all ${before} stopped`;
  return `${before} - ${by} ${what} = ${after}`;
}

export function describeDamageStep(step: DamageStep): string {
  switch (step.kind) {
    case 'defense-used': {
      const from = step.source === 'pending' ? ' (from !defend)' : step.source === 'override' ? ' (--defense)' : '';
      // The row is "Defense": its line starts with the result, not the word again.
      if (step.result === 'success') return `Succeeded${from}: the hit is blocked, no damage`;
      if (step.result === 'fail') return `Failed${from}: the hit lands`;
      return `None${from}: the hit lands`;
    }
    case 'pierce':
      return `Pierced ${step.piercePercent}% of ${step.amount} = ${step.pierced} (skips armor), ${step.rest} left`;
    case 'armor-absent':
      return armorAbsent(step.reason, step.amount);
    case 'soak':
      return `${step.before} x ${100 - step.soakPercent}% soak = ${step.after}`; // as the seed writes it: 200 x 0.8 Soak (20% Soak)
    case 'protection':
      return reduced(step.before, step.protection, PROTECTION_NAME[step.track], step.after);
    case 'armor-reduction':
      return reduced(step.before, step.reduction, REDUCTION_NAME[step.track], step.after);
    case 'natural-reduction':
      return reduced(step.before, step.reduction, `natural ${REDUCTION_NAME[step.track]}`, step.after);
    case 'defensive-stance':
      return reduced(step.before, step.reduction, 'defensive stance', step.after);
    case 'vitality-loss':
      if (step.loss === 0) return 'No Vitality lost';
      return step.pierced > 0
        ? `Vitality loss ${step.pierced} pierced + ${step.throughArmor} = ${step.loss}`
        : `Vitality loss ${step.loss}`;
    case 'protection-wear':
      return `${PROTECTION_NAME[step.track]} ${step.before === step.after ? `stays ${step.after}` : `${step.before} -> ${step.after}`} (wears ${step.wearPercent}% of ${step.afterSoak} = ${step.wear})`;
    case 'vitality-change':
      // Unchanged is said by "No Vitality lost": no "70 -> 70" line (an empty line is left out).
      return step.before === step.after ? '' : `Vitality ${step.before} -> ${step.after}`;
    case 'direct-damage':
      return `${step.amount} to ${BAR_NAME[step.bar]}, no armor: ${BAR_NAME[step.bar]} ${step.before === step.after ? `stays ${step.after}` : `${step.before} -> ${step.after}`}`;
    case 'bar-not-a-number':
      return `${BAR_NAME[step.bar]} is not a number: nothing taken`;
    case 'instant-kill':
      return step.applied
        ? `Instant kill: Vitality ${step.before} -> 0`
        : `Instant kill: Vitality already ${step.before} (at or below 0), unchanged`;
    case 'dead-no-damage':
      return `Dead: takes no damage (Vitality ${step.vitality})`;
    case 'set-back':
      return `Dead: takes no damage, Vitality set back from ${step.attempted} to ${step.vitality}`;
    // The saves owed are said once, in the card's "Now" row.
    case 'incapacitated':
      return step.savesOwed > 0 ? 'Falls: incapacitated' : 'Incapacitated: no save owed';
    case 'dying':
      return 'Falls: dying (-10 or below)';
    case 'dead':
      return death(step.cause);
    case 'saves-lost':
      return step.count === 1 ? 'The owed save is lost' : `The ${step.count} owed saves are lost`;
    case 'save-rolled': {
      const result = step.success ? (step.critical ? 'critical success' : 'success') : 'failure';
      const left = step.success ? '' : step.savesLeft > 0 ? `, ${saves(step.savesLeft)} left` : ', no save left';
      return `Save d100 ${step.roll} vs ${step.target}: ${result}${left}`;
    }
    case 'stood-up':
      return `Stands back up: Vitality ${step.before} -> ${step.vitality}`;
    case 'saved-from-death':
      return `Saved from death: Vitality ${step.before} -> ${step.vitality}, still incapacitated`;
    case 'revived':
      return 'Revived: raised above 0 by hand, no longer dead';
    case 'conditions-cleared':
      return 'Above 0 again: conditions and owed saves cleared';
  }
}
