import { describe, it, expect } from 'vitest';
import { resolveSoakDamage, type SoakDamageInput } from '../../src/rules/soak/hit';

const bobArmor = { soakPercent: 20, protection: 100, armorReduction: 30, naturalReduction: 0 };
const input = (over: Partial<SoakDamageInput> = {}): SoakDamageInput => ({
  amount: 200, track: 'physical', piercePercent: 0, to: 'vitality', instantKill: false,
  pendingDefense: null, defenseOverride: null,
  bars: { vitality: 70, soul: 40, power: 25 },
  armor: bobArmor, stanceReduction: 0, life: { condition: 'none', savesOwed: 0 },
  ...over,
});

describe("The Defensive Round worked example through the whole !damage", () => {
  const outcome = resolveSoakDamage(input());

  it('Vitality 70 -> 40, Physical 100 -> 60, and the steps in order', () => {
    expect(outcome.bars).toEqual({ vitality: 40, soul: 40, power: 25 });
    expect(outcome.protectionAfter).toBe(60);
    expect(outcome.life).toEqual({ condition: 'none', savesOwed: 0 });
    expect(outcome.changed).toBe(true);
    expect(outcome.cancelled).toBe(false);
    expect(outcome.steps.map((s) => s.kind)).toEqual([
      'defense-used', 'soak', 'protection', 'armor-reduction', 'vitality-loss', 'protection-wear', 'vitality-change',
    ]);
    expect(outcome.steps).toContainEqual({ kind: 'vitality-change', before: 70, after: 40 });
  });

  it('says no defense was used', () => {
    expect(outcome.defenseUsed).toEqual({ result: 'none', source: 'none' });
    expect(outcome.steps[0]).toEqual({ kind: 'defense-used', result: 'none', source: 'none' });
  });
});

describe('defenses', () => {
  it('a pending success cancels the hit entirely', () => {
    const outcome = resolveSoakDamage(input({ pendingDefense: 'success' }));
    expect(outcome).toEqual({
      defenseUsed: { result: 'success', source: 'pending' }, cancelled: true,
      bars: { vitality: 70, soul: 40, power: 25 }, protectionAfter: null,
      life: { condition: 'none', savesOwed: 0 },
      steps: [{ kind: 'defense-used', result: 'success', source: 'pending' }], changed: false,
    });
  });

  it('a success cancels --to soul damage and instant kill too', () => {
    expect(resolveSoakDamage(input({ to: 'soul', pendingDefense: 'success' }))).toMatchObject({
      cancelled: true, bars: { soul: 40 }, changed: false,
    });
    expect(resolveSoakDamage(input({ instantKill: true, defenseOverride: 'success' }))).toMatchObject({
      cancelled: true, bars: { vitality: 70 }, changed: false,
    });
  });

  it('a pending failure lets the hit through and says so', () => {
    const outcome = resolveSoakDamage(input({ pendingDefense: 'fail' }));
    expect(outcome.defenseUsed).toEqual({ result: 'fail', source: 'pending' });
    expect(outcome.bars.vitality).toBe(40);
  });

  it('--defense wins over the pending defense, both ways', () => {
    const forced = resolveSoakDamage(input({ pendingDefense: 'success', defenseOverride: 'fail' }));
    expect(forced.defenseUsed).toEqual({ result: 'fail', source: 'override' });
    expect(forced.bars.vitality).toBe(40);

    const none = resolveSoakDamage(input({ pendingDefense: 'success', defenseOverride: 'none' }));
    expect(none.defenseUsed).toEqual({ result: 'none', source: 'override' });
    expect(none.cancelled).toBe(false);

    const saved = resolveSoakDamage(input({ pendingDefense: 'fail', defenseOverride: 'success' }));
    expect(saved).toMatchObject({ defenseUsed: { result: 'success', source: 'override' }, cancelled: true });
  });
});

describe('--to soul|power (Ruling: the whole amount, no armor)', () => {
  it('takes the whole amount off Soul, ignoring armor, piercing and stance', () => {
    const outcome = resolveSoakDamage(input({ to: 'soul', amount: 50, piercePercent: 20, stanceReduction: 5 }));
    expect(outcome.bars).toEqual({ vitality: 70, soul: -10, power: 25 });
    expect(outcome.protectionAfter).toBeNull();
    expect(outcome.steps).toEqual([
      { kind: 'defense-used', result: 'none', source: 'none' },
      { kind: 'direct-damage', bar: 'soul', amount: 50, before: 40, after: -10 },
    ]);
    expect(outcome.changed).toBe(true);
  });

  it('takes the whole amount off Power, and Power may go negative', () => {
    expect(resolveSoakDamage(input({ to: 'power', amount: 30 })).bars.power).toBe(-5);
  });

  it('leaves a bar that is not a number as it was', () => {
    const outcome = resolveSoakDamage(input({ to: 'power', amount: 30, bars: { vitality: 70, soul: 40, power: null } }));
    expect(outcome.bars.power).toBeNull();
    expect(outcome.changed).toBe(false);
    expect(outcome.steps).toContainEqual({ kind: 'bar-not-a-number', bar: 'power' });
  });

  it('does not touch life conditions', () => {
    const outcome = resolveSoakDamage(input({ to: 'soul', amount: 500, bars: { vitality: 5, soul: 0, power: 0 } }));
    expect(outcome.life).toEqual({ condition: 'none', savesOwed: 0 });
  });
});

describe('instant kill', () => {
  it('from above 0: Vitality 0 with one save, amount ignored, no armor worn', () => {
    const outcome = resolveSoakDamage(input({ instantKill: true, amount: 5 }));
    expect(outcome.bars.vitality).toBe(0);
    expect(outcome.life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
    expect(outcome.protectionAfter).toBeNull();
    expect(outcome.changed).toBe(true);
  });

  it('at or below 0: unchanged', () => {
    const outcome = resolveSoakDamage(input({
      instantKill: true, bars: { vitality: -4, soul: 1, power: 1 }, life: { condition: 'incapacitated', savesOwed: 0 },
    }));
    expect(outcome.bars.vitality).toBe(-4);
    expect(outcome.changed).toBe(false);
  });
});

describe('life through !damage', () => {
  it('the dead take no damage on any bar', () => {
    const dead = { condition: 'dead' as const, savesOwed: 0 };
    for (const to of ['vitality', 'soul', 'power'] as const) {
      const outcome = resolveSoakDamage(input({ to, bars: { vitality: -12, soul: 3, power: 3 }, life: dead }));
      expect(outcome.bars).toEqual({ vitality: -12, soul: 3, power: 3 });
      expect(outcome.changed).toBe(false);
      expect(outcome.steps).toContainEqual({ kind: 'dead-no-damage', vitality: -12 });
    }
  });

  it('a hit through armor that drops Vitality to -10 or below makes the token dying', () => {
    const outcome = resolveSoakDamage(input({ amount: 200, armor: null, bars: { vitality: 70, soul: 0, power: 0 } }));
    expect(outcome.bars.vitality).toBe(-130);
    expect(outcome.life).toEqual({ condition: 'dying', savesOwed: 3 });
  });

  it('a token with no character takes the hit unreduced', () => {
    const outcome = resolveSoakDamage(input({ amount: 30, armor: null }));
    expect(outcome.bars.vitality).toBe(40);
    expect(outcome.protectionAfter).toBeNull();
    expect(outcome.steps).toContainEqual({ kind: 'armor-absent', track: 'physical', reason: 'no-character', amount: 30 });
  });

  it('a hit of 0 that wears nothing changes nothing', () => {
    const outcome = resolveSoakDamage(input({ amount: 0, armor: null }));
    expect(outcome.changed).toBe(false);
    expect(outcome.bars.vitality).toBe(70);
  });

  it('a hit fully stopped by armor still counts as a change: the armor wore', () => {
    const outcome = resolveSoakDamage(input({ amount: 20, armor: { ...bobArmor, soakPercent: 0 } }));
    expect(outcome.bars.vitality).toBe(70);
    expect(outcome.protectionAfter).toBe(95);
    expect(outcome.changed).toBe(true);
  });
});
