import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { createDice } from '../mocks/dice.js';

describe('mock dice: forced faces', () => {
  for (const sides of [100, 20, 6]) {
    it(`shows exactly every forced face of a d${sides}`, () => {
      const dice = createDice(1);
      for (let face = 1; face <= sides; face++) {
        dice.force(face);
        expect(dice.evaluate(`1d${sides}`)).toMatchObject({ total: face, faces: [face] });
      }
    });
  }

  it('uses forced faces in order across the next dice rolled', () => {
    const dice = createDice(1);
    dice.force(37, 5);
    expect(dice.evaluate('1d100').total).toBe(37);
    expect(dice.evaluate('1d20+2').total).toBe(7);
    expect(dice.pendingForced()).toEqual([]);
  });

  it('forces any face of any die size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }).chain((n) => fc.tuple(fc.constant(n), fc.integer({ min: 1, max: n }))), ([sides, face]) => {
        const dice = createDice(5);
        dice.force(face);
        return dice.evaluate(`1d${sides}`).total === face;
      }),
    );
  });

  it('refuses a forced face the die cannot show', () => {
    const dice = createDice(1);
    dice.force(7);
    expect(() => dice.evaluate('1d6')).toThrow(/forced face 7 cannot show on a d6/);
  });

  it('applies forced faces to randomInteger too', () => {
    const dice = createDice(1);
    dice.force(42);
    expect(dice.randomInteger(100)).toBe(42);
  });
});

describe('mock dice: Roll20 notation', () => {
  it('evaluates sums, keep-highest, crit ranges and plain numbers', () => {
    const dice = createDice(1);
    dice.force(2, 5);
    expect(dice.evaluate('2d6+3').total).toBe(10);
    dice.force(6, 1, 5, 3);
    expect(dice.evaluate('4d6kh3').total).toBe(14);
    dice.force(20);
    expect(dice.evaluate('1d20cs>19+5').total).toBe(25);
    expect(dice.evaluate('7')).toMatchObject({ total: 7, expression: '7', faces: [] });
  });

  it('refuses what Roll20 would not roll', () => {
    const dice = createDice(1);
    expect(() => dice.evaluate('abc')).toThrow();
    expect(() => dice.evaluate('1d20+@{strength}')).toThrow(/cannot evaluate/);
    expect(() => dice.evaluate('1d6 +')).toThrow(/cannot evaluate/);
  });
});

describe('mock dice: seeded randomness', () => {
  it('replays the same rolls from the same seed, and other rolls from another', () => {
    const roll = (seed: number) => {
      const dice = createDice(seed);
      return Array.from({ length: 20 }, () => dice.evaluate('1d100').total);
    };
    expect(roll(9)).toEqual(roll(9));
    expect(roll(9)).not.toEqual(roll(10));
  });

  it('seed() restarts the sequence', () => {
    const dice = createDice(3);
    const first = [dice.evaluate('1d20').total, dice.evaluate('1d20').total];
    dice.seed(3);
    expect([dice.evaluate('1d20').total, dice.evaluate('1d20').total]).toEqual(first);
  });

  // The parser alone rounds r * sides, so a d6 could show 7 and 1 came up half as often.
  it('rolls every face of a d6 about equally often, and nothing else', () => {
    const dice = createDice(11);
    const counts = new Map<number, number>();
    for (let i = 0; i < 6000; i++) {
      const face = dice.evaluate('1d6').total;
      counts.set(face, (counts.get(face) ?? 0) + 1);
    }
    expect([...counts.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
    for (const count of counts.values()) expect(count).toBeGreaterThan(850);
  });
});
