import { describe, it, expect } from 'vitest';
import { clamp, percentOf, readInteger } from '../../src/rules/values';

describe('readInteger (rules.md, "Reading values")', () => {
  it('reads integers and strings holding one, spaces allowed', () => {
    expect(readInteger(42)).toBe(42);
    expect(readInteger(-7)).toBe(-7);
    expect(readInteger('42')).toBe(42);
    expect(readInteger(' 42 ')).toBe(42);
    expect(readInteger('+5')).toBe(5);
    expect(readInteger('-12')).toBe(-12);
  });

  it('reads -0 as 0', () => {
    expect(Object.is(readInteger('-0'), 0)).toBe(true);
    expect(Object.is(readInteger(-0), 0)).toBe(true);
  });

  it('never reads "" as 0 by accident', () => {
    expect(readInteger('')).toBeNull();
    expect(readInteger('   ')).toBeNull();
  });

  it('refuses fractions, exponents, huge numbers and words', () => {
    expect(readInteger('12.5')).toBeNull();
    expect(readInteger(12.5)).toBeNull();
    expect(readInteger('1e309')).toBeNull();
    expect(readInteger('1e3')).toBeNull();
    expect(readInteger('99999999999999999999')).toBeNull();
    expect(readInteger(Number.MAX_SAFE_INTEGER + 1)).toBeNull();
    expect(readInteger('ten')).toBeNull();
    expect(readInteger('12 hp')).toBeNull();
    expect(readInteger('0x10')).toBeNull();
  });

  it('refuses what is neither a number nor a string', () => {
    expect(readInteger(NaN)).toBeNull();
    expect(readInteger(Infinity)).toBeNull();
    expect(readInteger(null)).toBeNull();
    expect(readInteger(undefined)).toBeNull();
    expect(readInteger(true)).toBeNull();
    expect(readInteger({})).toBeNull();
  });
});

describe('percentOf (rules.md, "Rounding": every percentage rounds down)', () => {
  it('rounds down', () => {
    expect(percentOf(200, 80)).toBe(160);
    expect(percentOf(160, 25)).toBe(40);
    expect(percentOf(9, 50)).toBe(4);
    expect(percentOf(19, 5)).toBe(0);
  });

  it('floors negative results too: a penalty is halved by its size, not through percentOf (rules.md: -25 -> -12)', () => {
    expect(percentOf(-25, 50)).toBe(-13);
  });
});

describe('clamp', () => {
  it('keeps a value within bounds', () => {
    expect(clamp(150, 0, 100)).toBe(100);
    expect(clamp(-5, 0, 100)).toBe(0);
    expect(clamp(42, 0, 100)).toBe(42);
  });
});
