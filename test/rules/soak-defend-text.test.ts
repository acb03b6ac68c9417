// One plain line per `!defend` step (commands.md, "Output": each rule step with its numbers).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { soakWords, type DefendStep } from '../../src/rules/soak/words';
import { resolveSoakDefend, type SoakDefendInput } from '../../src/rules/soak/check';

const describeDefendStep = (step: DefendStep, nameOf?: (id: string) => string): string => soakWords(step, nameOf);
const describeDefendSteps = (steps: readonly DefendStep[], nameOf?: (id: string) => string): string[] => steps.map((step) => soakWords(step, nameOf));
import { SOAK_SITUATIONS } from '../../src/rules/soak/situations';

describe('describeDefendStep', () => {
  const cases: Array<[DefendStep, string]> = [
    [{ kind: 'perception-check', situation: 'behind', roll: 34, baseTarget: 50, mod: 0, target: 50, success: true, critical: false }, 'Perception d100 34 vs 50: success'],
    [{ kind: 'perception-check', situation: 'covert', roll: 41, baseTarget: 50, mod: -20, target: 30, success: false, critical: false }, 'Perception d100 41 vs 50 - 20 = 30: failure'],
    [{ kind: 'perception-check', situation: 'spectator', roll: 2, baseTarget: 50, mod: 10, target: 60, success: true, critical: true }, 'Perception d100 2 vs 50 + 10 = 60: success (critical)'],
    [{ kind: 'no-defensive-action', situation: 'behind', takesDamage: false }, 'Behind: attack not perceived, no defensive action'],
    [{ kind: 'no-defensive-action', situation: 'spectator', takesDamage: true }, 'Spectator not perceived: no defensive action, the attack hits'],
    [{ kind: 'mental-check', roll: 30, target: 40, success: true, critical: false, penaltyBefore: -25, penaltyAfter: -12 }, 'Mental d100 30 vs 40: success, penalty halved to -12'],
    [{ kind: 'mental-check', roll: 4, target: 40, success: true, critical: true, penaltyBefore: -25, penaltyAfter: 0 }, 'Mental d100 4 vs 40: success (critical), penalty removed'],
    [{ kind: 'mental-check', roll: 41, target: 40, success: false, critical: false, penaltyBefore: -25, penaltyAfter: -25 }, 'Mental d100 41 vs 40: failure, penalty stays -25'],
    [{ kind: 'situation-penalty', situation: 'behind', check: 'defend', penalty: -5 }, 'Behind: -5 to defend'],
    [{ kind: 'situation-penalty', situation: 'gun', check: 'evade', penalty: -50 }, 'Gun: -50 to evade'],
    [{ kind: 'situation-penalty', situation: 'spell-unseen', check: 'evade', penalty: -12 }, 'Unseen or very fast spell: -12 to evade'],
    [{ kind: 'situation-no-penalty', situation: 'aoe', check: 'defend' }, 'Area attack: no penalty to defend'],
    [{ kind: 'situation-no-penalty', situation: 'aoe-edge', check: 'evade' }, 'Edge of an area attack: no penalty to evade'],
    [{ kind: 'aided', bonus: 5 }, 'Aided by an ally: +5'],
    [{ kind: 'modifier', mod: -10 }, 'Modifier: -10'],
    [{ kind: 'modifier', mod: 15 }, 'Modifier: +15'],
    [{ kind: 'action-check', action: 'defend', roll: 40, baseTarget: 55, adjustments: [-5], target: 50, success: true, critical: false }, 'Defend d100 40 vs 55 - 5 = 50: success'],
    [{ kind: 'action-check', action: 'defend', roll: 5, baseTarget: 55, adjustments: [-5], target: 50, success: true, critical: true }, 'Defend d100 5 vs 55 - 5 = 50: success (critical)'],
    [{ kind: 'action-check', action: 'evade', roll: 1, baseTarget: 45, adjustments: [-50, 5, -10], target: -10, success: false, critical: false }, 'Evade d100 1 vs 45 - 50 + 5 - 10 = -10: failure'],
    [{ kind: 'action-check', action: 'react', roll: 61, baseTarget: 60, adjustments: [], target: 60, success: false, critical: false }, 'Reaction d100 61 vs 60: failure'],
    [{ kind: 'pending-defense', result: 'success' }, 'Kept for the next hit on this token: that hit is negated'],
    [{ kind: 'pending-defense', result: 'fail' }, 'Kept for the next hit on this token: that hit lands'],
    [{ kind: 'reaction-recorded', vs: 'orc', success: true }, 'Reaction against orc: success, kept for this round'],
    [{ kind: 'counter-announced', vs: 'orc', ally: null, skillName: null }, 'Counter attack against orc'],
    [{ kind: 'counter-announced', vs: 'orc', ally: null, skillName: 'Riposte' }, 'Counter attack against orc (Riposte)'],
    [{ kind: 'counter-announced', vs: 'orc', ally: 'elf', skillName: 'Reactive Guard' }, 'Counter attack for elf against orc (Reactive Guard)'],
    [{ kind: 'skill-announced', skillName: 'Iron Skin', vs: 'orc', ally: null }, 'Defensive skill "Iron Skin" against orc'],
    [{ kind: 'skill-announced', skillName: null, vs: null, ally: null }, 'Defensive skill'],
    [{ kind: 'skill-announced', skillName: 'Shield Other', vs: 'orc', ally: 'elf' }, 'Defensive skill "Shield Other" on elf against orc'],
    [{ kind: 'spectator-drawn', spectator: 'crowd1' }, 'crowd1 is drawn into the battle (Turn Tracker, initiative 0)'],
  ];
  it.each(cases)('%o', (step, line) => {
    expect(describeDefendStep(step)).toBe(line);
  });

  it('names ids through the given function', () => {
    const names: Record<string, string> = { orc: 'Grukk', elf: 'Lia' };
    const nameOf = (id: string) => names[id] ?? id;
    expect(describeDefendStep({ kind: 'counter-announced', vs: 'orc', ally: 'elf', skillName: 'Reactive Guard' }, nameOf)).toBe('Counter attack for Lia against Grukk (Reactive Guard)');
    expect(describeDefendSteps([{ kind: 'reaction-recorded', vs: 'orc', success: false }], nameOf)).toEqual(['Reaction against Grukk: failure, kept for this round']);
  });

  it('renders a whole outcome from the rules, line by line', () => {
    const out = resolveSoakDefend({
      action: 'defend', situation: 'behind', stance: 'none', condition: 'none',
      checkTargets: { defend: 55, evade: 45, reaction: 60, perception: 50, mental: 40 },
      rolls: { action: 40, perception: 34, mental: null },
      mod: 0, perceptionMod: 0, aid: null, vs: null, ally: null, skillName: null,
      round: { reactions: {}, skillsVs: [] },
    });
    if (out.kind !== 'resolved') throw new Error('expected resolved');
    expect(describeDefendSteps(out.steps)).toEqual([
      'Perception d100 34 vs 50: success',
      'Behind: -5 to defend',
      'Defend d100 40 vs 55 - 5 = 50: success',
      'Kept for the next hit on this token: that hit is negated',
    ]);
  });
});

describe('every step the rules produce renders as one clean line', () => {
  const d100 = fc.integer({ min: 1, max: 100 });
  const arbInput: fc.Arbitrary<SoakDefendInput> = fc.record({
    action: fc.constantFrom('defend', 'evade', 'react', 'counter', 'skill'),
    situation: fc.constantFrom(...SOAK_SITUATIONS),
    stance: fc.constantFrom('defensive', 'reactive', 'none'),
    condition: fc.constant('none'),
    checkTargets: fc.record({
      defend: fc.integer({ min: -20, max: 150 }), evade: fc.integer({ min: -20, max: 150 }),
      reaction: fc.integer({ min: -20, max: 150 }), perception: fc.integer({ min: -20, max: 150 }),
      mental: fc.integer({ min: -20, max: 150 }),
    }),
    rolls: fc.record({ action: d100, perception: d100, mental: fc.option(d100, { nil: null }) }),
    mod: fc.integer({ min: -100, max: 100 }),
    perceptionMod: fc.constant(0),
    aid: fc.option(fc.record({ by: fc.constant('elf'), stance: fc.constant('reactive' as const), reaction: fc.constant(true as const) }), { nil: null }),
    vs: fc.option(fc.constant('orc'), { nil: null }),
    ally: fc.constant(null),
    skillName: fc.constant(null),
    round: fc.record({ reactions: fc.constantFrom({}, { orc: true }), skillsVs: fc.constant([]) }),
  }) as fc.Arbitrary<SoakDefendInput>;

  it('no empty line, no line break, no undefined/NaN/[object', () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const out = resolveSoakDefend(i);
        if (out.kind !== 'resolved') return;
        for (const line of describeDefendSteps(out.steps)) {
          expect(line.length).toBeGreaterThan(0);
          expect(line).not.toMatch(/\n|undefined|null|NaN|\[object|--/);
        }
      }),
      { numRuns: 1000 },
    );
  });
});
