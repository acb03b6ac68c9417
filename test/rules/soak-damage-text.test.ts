import { describe, it, expect } from 'vitest';
import { soakWords } from '../../src/rules/soak/words';
import { resolveSoakDamage } from '../../src/rules/soak/hit';
import type { DamageStep } from '../../src/rules/soak/words';

const describeDamageStep = (step: DamageStep): string => soakWords(step);

describe('the The Defensive Round worked example, as chat lines', () => {
  it('reads like the seed: 200 -> 160 -> 60 -> 30, Vitality 70 -> 40, Physical 100 -> 60', () => {
    const outcome = resolveSoakDamage({
      amount: 200, track: 'physical', piercePercent: 0, to: 'vitality', instantKill: false,
      pendingDefense: 'fail', defenseOverride: null,
      bars: { vitality: 70, soul: 10, power: 10 },
      armor: { soakPercent: 20, protection: 100, armorReduction: 30, naturalReduction: 0 },
      stanceReduction: 0, life: { condition: 'none', savesOwed: 0 },
    });
    expect(outcome.steps.map(describeDamageStep)).toEqual([
      'Failed (from !defend): the hit lands',
      '200 x 80% soak = 160',
      '160 - 100 Physical = 60',
      '60 - 30 Defense = 30',
      'Vitality loss 30',
      'Physical 100 -> 60 (wears 25% of 160 = 40)',
      'Vitality 70 -> 40',
    ]);
  });
});

describe('describeDamageStep', () => {
  const cases: Array<[DamageStep, string]> = [
    [{ kind: 'defense-used', result: 'success', source: 'pending' }, 'Succeeded (from !defend): the hit is blocked, no damage'],
    [{ kind: 'defense-used', result: 'success', source: 'override' }, 'Succeeded (--defense): the hit is blocked, no damage'],
    [{ kind: 'defense-used', result: 'none', source: 'override' }, 'None (--defense): the hit lands'],
    [{ kind: 'defense-used', result: 'none', source: 'none' }, 'None: the hit lands'],
    [{ kind: 'pierce', amount: 100, piercePercent: 20, pierced: 20, rest: 80 }, 'Pierced 20% of 100 = 20 (skips armor), 80 left'],
    [{ kind: 'armor-absent', track: 'magical', reason: 'never-there', amount: 80 }, 'No armor (no Physical or Magical protection): 80 is not reduced'],
    [{ kind: 'armor-absent', track: 'physical', reason: 'worn-out', amount: 80 }, 'Armor destroyed (worn out): 80 is not reduced'],
    [{ kind: 'armor-absent', track: 'physical', reason: 'no-character', amount: 80 }, 'No character, so no armor: 80 is not reduced by armor'],
    [{ kind: 'protection', track: 'magical', protection: 30, before: 80, after: 50 }, '80 - 30 Magical = 50'],
    [{ kind: 'armor-reduction', track: 'magical', reduction: 15, before: 50, after: 35 }, '50 - 15 Spirit = 35'],
    [{ kind: 'natural-reduction', track: 'physical', reduction: 10, before: 50, after: 40 }, '50 - 10 natural Defense = 40'],
    [{ kind: 'natural-reduction', track: 'magical', reduction: 10, before: 50, after: 40 }, '50 - 10 natural Spirit = 40'],
    [{ kind: 'defensive-stance', reduction: 5, before: 30, after: 25 }, '30 - 5 defensive stance = 25'],
    [{ kind: 'vitality-loss', pierced: 20, throughArmor: 30, loss: 50 }, 'Vitality loss 20 pierced + 30 = 50'],
    [{ kind: 'direct-damage', bar: 'soul', amount: 50, before: 40, after: -10 }, '50 to Soul, no armor: Soul 40 -> -10'],
    [{ kind: 'bar-not-a-number', bar: 'power' }, 'Power is not a number: nothing taken'],
    [{ kind: 'instant-kill', applied: true, before: 70, after: 0 }, 'Instant kill: Vitality 70 -> 0'],
    [{ kind: 'instant-kill', applied: false, before: -3, after: -3 }, 'Instant kill: Vitality already -3 (at or below 0), unchanged'],
    [{ kind: 'dead-no-damage', vitality: -12 }, 'Dead: takes no damage (Vitality -12)'],
    [{ kind: 'set-back', attempted: -30, vitality: -12 }, 'Dead: takes no damage, Vitality set back from -30 to -12'],
    [{ kind: 'incapacitated', savesOwed: 1 }, 'Falls: incapacitated'],
    [{ kind: 'incapacitated', savesOwed: 0 }, 'Incapacitated: no save owed'],
    [{ kind: 'dying', savesOwed: 3 }, 'Falls: dying (-10 or below)'],
    [{ kind: 'dead', cause: 'reached-minus-10' }, 'Dead: reached -10 while incapacitated'],
    [{ kind: 'dead', cause: 'hit-while-dying' }, 'Dead: hit again while dying'],
    [{ kind: 'dead', cause: 'saves-failed' }, 'Dead: every save failed'],
    [{ kind: 'saves-lost', count: 1 }, 'The owed save is lost'],
    [{ kind: 'saves-lost', count: 2 }, 'The 2 owed saves are lost'],
    [{ kind: 'save-rolled', roll: 4, target: 50, success: true, critical: true, savesLeft: 0 }, 'Save d100 4 vs 50: critical success'],
    [{ kind: 'save-rolled', roll: 80, target: 50, success: false, critical: false, savesLeft: 2 }, 'Save d100 80 vs 50: failure, 2 saves left'],
    [{ kind: 'save-rolled', roll: 80, target: 50, success: false, critical: false, savesLeft: 0 }, 'Save d100 80 vs 50: failure, no save left'],
    [{ kind: 'stood-up', before: -4, vitality: 1 }, 'Stands back up: Vitality -4 -> 1'],
    [{ kind: 'saved-from-death', before: -25, vitality: -9 }, 'Saved from death: Vitality -25 -> -9, still incapacitated'],
    [{ kind: 'revived', before: -12, vitality: 5 }, 'Revived: raised above 0 by hand, no longer dead'],
    [{ kind: 'conditions-cleared' }, 'Above 0 again: conditions and owed saves cleared'],
  ];

  it.each(cases)('%o', (step, text) => {
    expect(describeDamageStep(step)).toBe(text);
  });

  it('is one line of plain text, never HTML', () => {
    for (const [step] of cases) {
      const text = describeDamageStep(step);
      expect(text).not.toMatch(/[<&\n]/); // '->' is the only '>' and is plain text
      expect(text.length).toBeLessThan(80);
    }
  });
});
