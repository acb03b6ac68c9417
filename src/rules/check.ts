// Percentile checks, shared by the percentile editions (rules.md, "Percentile checks").

export interface PercentileCheck {
  /** The d100 result, 1..100. */
  roll: number;
  /** The target after every modifier. */
  target: number;
  success: boolean;
  critical: boolean;
}

/**
 * Roll at or under the target succeeds. Rulings: a target at or below 0 never succeeds and a 100
 * always fails; a critical is a roll at or under a tenth of the target (floor, at least 1).
 */
export function percentileCheck(roll: number, target: number): PercentileCheck {
  const success = target > 0 && roll < 100 && roll <= target;
  const criticalLimit = Math.max(1, Math.floor(target / 10));
  return { roll, target, success, critical: success && roll <= criticalLimit };
}
