import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { numbersIn } from '../support/numbers';
import { resolveSoakDamage, resolveSoakHit, type SoakArmor } from '../../src/rules/soak/hit';
import { applyHandEdit, applyVitalityLoss } from '../../src/rules/soak/life';
import type { Life } from '../../src/rules/soak/state';

// Out-of-range armor values on purpose: the pipeline must clamp them (Clarifications (soak)).
const armorArb: fc.Arbitrary<SoakArmor | null> = fc.option(
  fc.record({
    soakPercent: fc.integer({ min: -50, max: 150 }),
    protection: fc.integer({ min: -50, max: 500 }),
    protectionMax: fc.integer({ min: 0, max: 500 }),
    // The other track: often 0, so one protection at 0 (armor standing on the other) is well covered.
    otherProtection: fc.oneof(fc.constant(0), fc.integer({ min: -50, max: 500 })),
    otherProtectionMax: fc.integer({ min: 0, max: 500 }),
    armorReduction: fc.integer({ min: -50, max: 200 }),
    naturalReduction: fc.integer({ min: -50, max: 200 }),
  }),
  { nil: null },
);
const amountArb = fc.integer({ min: 0, max: 100_000 });
const pierceArb = fc.integer({ min: 0, max: 100 });
const stanceArb = fc.integer({ min: 0, max: 100 });
const trackArb = fc.constantFrom('physical' as const, 'magical' as const);
const lifeArb: fc.Arbitrary<Life> = fc.oneof(
  fc.constant<Life>({ condition: 'none', savesOwed: 0 }),
  fc.record({ condition: fc.constant('incapacitated' as const), savesOwed: fc.integer({ min: 0, max: 1 }) }),
  fc.record({ condition: fc.constant('dying' as const), savesOwed: fc.integer({ min: 1, max: 3 }) }),
  fc.constant<Life>({ condition: 'dead', savesOwed: 0 }),
);

describe('resolveSoakHit properties', () => {
  it('the loss is never negative and never above the hit', () => {
    fc.assert(fc.property(amountArb, trackArb, pierceArb, armorArb, stanceArb, (amount, track, piercePercent, armor, stanceReduction) => {
      const { vitalityLoss } = resolveSoakHit({ amount, track, piercePercent, armor, stanceReduction });
      expect(vitalityLoss).toBeGreaterThanOrEqual(0);
      expect(vitalityLoss).toBeLessThanOrEqual(amount);
    }));
  });

  it('more damage never means less loss (same armor)', () => {
    fc.assert(fc.property(amountArb, amountArb, trackArb, pierceArb, armorArb, stanceArb, (a, b, track, piercePercent, armor, stanceReduction) => {
      const [low, high] = a <= b ? [a, b] : [b, a];
      const lossLow = resolveSoakHit({ amount: low, track, piercePercent, armor, stanceReduction }).vitalityLoss;
      const lossHigh = resolveSoakHit({ amount: high, track, piercePercent, armor, stanceReduction }).vitalityLoss;
      expect(lossHigh).toBeGreaterThanOrEqual(lossLow);
    }));
  });

  it('protection never grows from a hit', () => {
    fc.assert(fc.property(amountArb, trackArb, pierceArb, armorArb, stanceArb, (amount, track, piercePercent, armor, stanceReduction) => {
      const { protectionAfter } = resolveSoakHit({ amount, track, piercePercent, armor, stanceReduction });
      if (armor === null) expect(protectionAfter).toBeNull();
      else expect(protectionAfter).toBeLessThanOrEqual(Math.max(0, armor.protection));
    }));
  });

  it('while the armor stands, more protection, Soak or Defense never means more damage (one protection at 0 included)', () => {
    const standingArb = fc.record({
      soakPercent: fc.integer({ min: 0, max: 100 }),
      protection: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 500 })),
      otherProtection: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 500 })),
      armorReduction: fc.integer({ min: 0, max: 200 }),
      naturalReduction: fc.integer({ min: 0, max: 200 }),
    }).filter((armor) => armor.protection > 0 || armor.otherProtection > 0);
    const more = fc.record({ protection: fc.nat(300), soak: fc.nat(100), defense: fc.nat(300) });
    fc.assert(fc.property(amountArb, trackArb, pierceArb, standingArb, more, stanceArb, (amount, track, piercePercent, armor, extra, stanceReduction) => {
      const better: SoakArmor = {
        ...armor,
        protection: armor.protection + extra.protection,
        soakPercent: Math.min(100, armor.soakPercent + extra.soak),
        armorReduction: armor.armorReduction + extra.defense,
      };
      const loss = resolveSoakHit({ amount, track, piercePercent, armor, stanceReduction }).vitalityLoss;
      const lossBetter = resolveSoakHit({ amount, track, piercePercent, armor: better, stanceReduction }).vitalityLoss;
      expect(lossBetter).toBeLessThanOrEqual(loss);
    }));
  });

  it('an armor standing on its other protection still soaks and still takes Defense off', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10_000 }), trackArb, fc.integer({ min: 1, max: 500 }), (amount, track, other) => {
      const armor: SoakArmor = { soakPercent: 20, protection: 0, otherProtection: other, armorReduction: 5, naturalReduction: 50 };
      const outcome = resolveSoakHit({ amount, track, piercePercent: 0, armor, stanceReduction: 0 });
      expect(outcome.vitalityLoss).toBe(Math.max(0, Math.floor((amount * 80) / 100) - 5));
      expect(outcome.protectionAfter).toBe(0);
    }));
  });

  it('100% piercing loses exactly N whatever the armor and stance', () => {
    fc.assert(fc.property(amountArb, trackArb, armorArb, stanceArb, (amount, track, armor, stanceReduction) => {
      expect(resolveSoakHit({ amount, track, piercePercent: 100, armor, stanceReduction }).vitalityLoss).toBe(amount);
    }));
  });

  it('no step ever holds NaN or an infinity', () => {
    fc.assert(fc.property(amountArb, trackArb, pierceArb, armorArb, stanceArb, (amount, track, piercePercent, armor, stanceReduction) => {
      const outcome = resolveSoakHit({ amount, track, piercePercent, armor, stanceReduction });
      for (const step of outcome.steps) for (const n of numbersIn(step)) expect(Number.isFinite(n)).toBe(true);
    }));
  });
});

describe('resolveSoakDamage and life properties', () => {
  const inputArb = fc.record({
    amount: amountArb,
    track: trackArb,
    piercePercent: pierceArb,
    to: fc.constantFrom('vitality' as const, 'soul' as const, 'power' as const),
    instantKill: fc.boolean(),
    pendingDefense: fc.constantFrom(null, 'success' as const, 'fail' as const),
    defenseOverride: fc.constantFrom(null, 'success' as const, 'fail' as const, 'none' as const),
    bars: fc.record({
      vitality: fc.integer({ min: -200, max: 200 }),
      soul: fc.option(fc.integer({ min: -200, max: 200 }), { nil: null }),
      power: fc.option(fc.integer({ min: -200, max: 200 }), { nil: null }),
    }),
    armor: armorArb,
    stanceReduction: stanceArb,
    life: lifeArb,
  });

  it('no step ever holds NaN, Vitality never rises, and the dead never change', () => {
    fc.assert(fc.property(inputArb, (input) => {
      const outcome = resolveSoakDamage(input);
      for (const step of outcome.steps) for (const n of numbersIn(step)) expect(Number.isFinite(n)).toBe(true);
      expect(outcome.bars.vitality).toBeLessThanOrEqual(input.bars.vitality);
      if (input.life.condition === 'dead' || outcome.cancelled) {
        expect(outcome.bars).toEqual(input.bars);
        expect(outcome.changed).toBe(false);
      }
      expect(outcome.life.savesOwed).toBeGreaterThanOrEqual(0);
      expect(outcome.life.savesOwed).toBeLessThanOrEqual(3);
    }));
  });

  // A Vitality with a condition it can really have: none above 0, incapacitated at 0..-9, dying or dead below.
  type Token = { vitality: number; life: Life };
  const tokenArb: fc.Arbitrary<Token> = fc.integer({ min: -50, max: 50 }).chain((vitality): fc.Arbitrary<Token> => {
    if (vitality > 0) return fc.constant({ vitality, life: { condition: 'none', savesOwed: 0 } });
    if (vitality > -10) {
      return fc.integer({ min: 0, max: 1 }).map((savesOwed): Token => ({ vitality, life: { condition: 'incapacitated', savesOwed } }));
    }
    return fc.oneof(
      fc.integer({ min: 1, max: 3 }).map((savesOwed): Token => ({ vitality, life: { condition: 'dying', savesOwed } })),
      fc.constant<Token>({ vitality, life: { condition: 'dead', savesOwed: 0 } }),
    );
  });

  it('a loss never stands a token up, and the condition always fits the new Vitality', () => {
    fc.assert(fc.property(tokenArb, fc.integer({ min: 0, max: 100 }), ({ vitality, life }, loss) => {
      const result = applyVitalityLoss(vitality, loss, life);
      if (result.after <= 0) expect(result.life.condition).not.toBe('none');
      if (result.after <= -10 && loss > 0) expect(['dying', 'dead']).toContain(result.life.condition);
    }));
  });

  it('hand edits never hold NaN and never leave an edited token above 0 with a condition', () => {
    fc.assert(fc.property(tokenArb, fc.integer({ min: -50, max: 50 }), ({ vitality, life }, after) => {
      const result = applyHandEdit(vitality, after, life);
      for (const step of result.steps) for (const n of numbersIn(step)) expect(Number.isFinite(n)).toBe(true);
      if (result.after > 0) expect(result.life).toEqual({ condition: 'none', savesOwed: 0 });
      if (life.condition === 'dead' && after < vitality) expect(result.after).toBe(vitality);
    }));
  });
});
