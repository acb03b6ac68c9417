import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { percentileCheck } from '../../src/rules/check';

describe('percentileCheck (rules.md, "Percentile checks")', () => {
  it('succeeds at or under the target', () => {
    expect(percentileCheck(50, 50)).toEqual({ roll: 50, target: 50, success: true, critical: false });
    expect(percentileCheck(51, 50).success).toBe(false);
    expect(percentileCheck(1, 50).success).toBe(true);
  });

  it('Ruling: a target at or below 0 never succeeds', () => {
    expect(percentileCheck(1, 0)).toEqual({ roll: 1, target: 0, success: false, critical: false });
    expect(percentileCheck(1, -15).success).toBe(false);
  });

  it('Ruling: a roll of 100 always fails, even against 100 or more', () => {
    expect(percentileCheck(100, 100).success).toBe(false);
    expect(percentileCheck(100, 250).success).toBe(false);
    expect(percentileCheck(99, 100).success).toBe(true);
  });

  it('Ruling: a critical is a roll at or under a tenth of the target, rounded down', () => {
    expect(percentileCheck(5, 50).critical).toBe(true);
    expect(percentileCheck(6, 50).critical).toBe(false);
    expect(percentileCheck(5, 59).critical).toBe(true);
    expect(percentileCheck(6, 59).critical).toBe(false);
  });

  it('Ruling: the critical limit is at least 1', () => {
    expect(percentileCheck(1, 5)).toEqual({ roll: 1, target: 5, success: true, critical: true });
    expect(percentileCheck(2, 5).critical).toBe(false);
  });

  it('a critical is always a success', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 100 }), fc.integer({ min: -200, max: 300 }), (roll, target) => {
      const check = percentileCheck(roll, target);
      if (check.critical) expect(check.success).toBe(true);
      expect(check.success).toBe(target > 0 && roll < 100 && roll <= target);
    }));
  });
});
