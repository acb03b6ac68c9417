// `!defend` in the `soak` edition: rules.md "Defensive actions" and "Clarifications (soak)", The Defensive Round.
import fc from 'fast-check';
import { numbersIn } from '../support/numbers';
import { describe, expect, it } from 'vitest';
import {
  resolveSoakDefend,
  SOAK_STANCES,
  type SoakDefendAction,
  type SoakDefendInput,
  type SoakDefendOutcome,
  type SoakDefendRefusal,
} from '../../src/rules/soak/check';
import { describeRefusal, type DefendStep } from '../../src/rules/soak/words';
import { SOAK_SITUATIONS } from '../../src/rules/soak/situations';

type Overrides = Omit<Partial<SoakDefendInput>, 'rolls' | 'checkTargets' | 'round'> & {
  rolls?: Partial<SoakDefendInput['rolls']>;
  checkTargets?: Partial<SoakDefendInput['checkTargets']>;
  round?: Partial<SoakDefendInput['round']>;
};

/** An ally in the reactive stance with an unused successful reaction against the attacker. */
const AID = { by: 'elf', stance: 'reactive' as const, reaction: true as const, condition: 'none' as const, acting: false };

function input(o: Overrides = {}): SoakDefendInput {
  return {
    action: 'defend',
    situation: 'front',
    stance: 'none',
    condition: 'none',
    mod: 0,
    perceptionMod: 0,
    aid: null,
    vs: null,
    ally: null,
    skillName: null,
    ...o,
    checkTargets: { defend: 55, evade: 45, reaction: 60, perception: 50, mental: 40, ...o.checkTargets },
    rolls: { action: 50, perception: 30, mental: null, ...o.rolls },
    round: { reactions: {}, skillsVs: [], ...o.round },
  };
}

type Resolved = Extract<SoakDefendOutcome, { kind: 'resolved' }>;

function resolvedOf(o: Overrides): Resolved {
  const outcome = resolveSoakDefend(input(o));
  if (outcome.kind !== 'resolved') throw new Error(`expected resolved, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function refusalOf(o: Overrides): SoakDefendRefusal {
  const outcome = resolveSoakDefend(input(o));
  if (outcome.kind !== 'refused') throw new Error(`expected refused, got ${JSON.stringify(outcome)}`);
  return outcome.reason;
}

function stepOf<K extends DefendStep['kind']>(outcome: Resolved, kind: K): Extract<DefendStep, { kind: K }> | undefined {
  return outcome.steps.find((s): s is Extract<DefendStep, { kind: K }> => s.kind === kind);
}

function actionCheck(outcome: Resolved) {
  const step = stepOf(outcome, 'action-check');
  if (!step) throw new Error('no action check');
  return step;
}

describe('defend and evade: targets and the pending defense', () => {
  it('defend rolls against defend_check; a success sets the pending defense to success', () => {
    const out = resolvedOf({ action: 'defend', rolls: { action: 55 } });
    expect(actionCheck(out)).toMatchObject({ action: 'defend', roll: 55, baseTarget: 55, adjustments: [], target: 55, success: true, critical: false });
    expect(out.pendingDefense).toBe('success');
    expect(out.offerDamageButton).toBe(false);
    expect(out.steps.at(-1)).toEqual({ kind: 'pending-defense', result: 'success' });
  });

  it('evade rolls against evade_check; a failure sets the pending defense to fail and offers the damage button', () => {
    const out = resolvedOf({ action: 'evade', rolls: { action: 46 } });
    expect(actionCheck(out)).toMatchObject({ action: 'evade', roll: 46, baseTarget: 45, target: 45, success: false });
    expect(out.pendingDefense).toBe('fail');
    expect(out.offerDamageButton).toBe(true);
  });

  it('a roll of 100 always fails, even against a target over 100', () => {
    expect(resolvedOf({ rolls: { action: 100 }, checkTargets: { defend: 150 } }).pendingDefense).toBe('fail');
  });

  it('defend and evade touch no round record and draw nobody', () => {
    const out = resolvedOf({ action: 'defend', vs: 'orc' });
    expect(out.roundUpdate).toEqual({});
    expect(out.drawSpectator).toBe(false);
  });
});

describe('each row of the situations table, on defend and on evade', () => {
  it('front: no steps beyond the check (defend 55, evade 45)', () => {
    const d = resolvedOf({ situation: 'front', action: 'defend' });
    expect(d.steps.map((s) => s.kind)).toEqual(['action-check', 'pending-defense']);
    expect(actionCheck(d).target).toBe(55);
    expect(actionCheck(resolvedOf({ situation: 'front', action: 'evade' })).target).toBe(45);
  });

  it.each(['thrown-object', 'spell-seen'] as const)('%s: no penalty to defend (55) nor to evade (45)', (situation) => {
    const d = resolvedOf({ situation, action: 'defend' });
    const e = resolvedOf({ situation, action: 'evade' });
    expect(actionCheck(d).target).toBe(55);
    expect(actionCheck(e).target).toBe(45);
    expect(stepOf(d, 'situation-no-penalty')).toEqual({ kind: 'situation-no-penalty', situation, check: 'defend' });
    expect(stepOf(d, 'perception-check')).toBeUndefined();
  });

  it.each(['behind', 'distracted'] as const)('%s: perception 30 vs 50 first, then -5 to defend (50) and to evade (40)', (situation) => {
    const d = resolvedOf({ situation, action: 'defend', rolls: { action: 50 } });
    expect(d.steps[0]).toEqual({ kind: 'perception-check', situation, roll: 30, baseTarget: 50, mod: 0, target: 50, success: true, critical: false });
    expect(stepOf(d, 'situation-penalty')).toEqual({ kind: 'situation-penalty', situation, check: 'defend', penalty: -5 });
    expect(actionCheck(d)).toMatchObject({ baseTarget: 55, adjustments: [-5], target: 50, success: true });
    expect(resolvedOf({ situation, action: 'defend', rolls: { action: 51 } }).pendingDefense).toBe('fail');
    const e = resolvedOf({ situation, action: 'evade', rolls: { action: 40 } });
    expect(actionCheck(e)).toMatchObject({ baseTarget: 45, adjustments: [-5], target: 40, success: true });
  });

  it.each(['behind', 'distracted'] as const)('%s: a failed perception check means no defensive action, pending fail, damage button', (situation) => {
    for (const action of ['defend', 'evade'] as const) {
      const out = resolvedOf({ situation, action, rolls: { perception: 51, action: 1 } });
      expect(out.steps).toEqual([
        { kind: 'perception-check', situation, roll: 51, baseTarget: 50, mod: 0, target: 50, success: false, critical: false },
        { kind: 'no-defensive-action', situation, takesDamage: false },
        { kind: 'pending-defense', result: 'fail' },
      ]);
      expect(out.pendingDefense).toBe('fail');
      expect(out.offerDamageButton).toBe(true);
    }
  });

  it('side: -5 to defend (50) and to evade (40), no perception check', () => {
    const d = resolvedOf({ situation: 'side', action: 'defend', rolls: { perception: 100 } });
    expect(stepOf(d, 'perception-check')).toBeUndefined();
    expect(actionCheck(d)).toMatchObject({ adjustments: [-5], target: 50 });
    expect(actionCheck(resolvedOf({ situation: 'side', action: 'evade' }))).toMatchObject({ adjustments: [-5], target: 40 });
  });

  it('projectile: defend unchanged (55), -20 to evade (25)', () => {
    const d = resolvedOf({ situation: 'projectile', action: 'defend' });
    expect(actionCheck(d)).toMatchObject({ adjustments: [], target: 55 });
    expect(stepOf(d, 'situation-no-penalty')).toEqual({ kind: 'situation-no-penalty', situation: 'projectile', check: 'defend' });
    const e = resolvedOf({ situation: 'projectile', action: 'evade', rolls: { action: 26 } });
    expect(actionCheck(e)).toMatchObject({ adjustments: [-20], target: 25, success: false });
  });

  it('gun: defend unchanged (55), -50 to evade (45 - 50 = -5: cannot succeed, even on a 1)', () => {
    expect(actionCheck(resolvedOf({ situation: 'gun', action: 'defend' })).target).toBe(55);
    const e = resolvedOf({ situation: 'gun', action: 'evade', rolls: { action: 1 } });
    expect(actionCheck(e)).toMatchObject({ adjustments: [-50], target: -5, success: false, critical: false });
    expect(e.pendingDefense).toBe('fail');
  });

  it('aoe: evade is refused (the message says defend is still possible)', () => {
    const reason = refusalOf({ situation: 'aoe', action: 'evade' });
    expect(reason).toEqual({ code: 'evade-impossible-aoe' });
    expect(describeRefusal(reason)).toMatch(/--action defend/);
    expect(describeRefusal(reason)).toMatch(/pending defense is unchanged/);
  });

  it('aoe: Ruling: defend is still allowed, with no penalty (55)', () => {
    const d = resolvedOf({ situation: 'aoe', action: 'defend', rolls: { action: 55 } });
    expect(actionCheck(d)).toMatchObject({ adjustments: [], target: 55, success: true });
    expect(d.pendingDefense).toBe('success');
  });

  it('aoe-edge: evade with no penalty (45); defend unchanged (55)', () => {
    expect(actionCheck(resolvedOf({ situation: 'aoe-edge', action: 'evade' }))).toMatchObject({ adjustments: [], target: 45 });
    expect(actionCheck(resolvedOf({ situation: 'aoe-edge', action: 'defend' }))).toMatchObject({ adjustments: [], target: 55 });
  });

  it('spell-unseen: defend unchanged (55), -25 to evade (20) without a mental check', () => {
    expect(actionCheck(resolvedOf({ situation: 'spell-unseen', action: 'defend' })).target).toBe(55);
    const e = resolvedOf({ situation: 'spell-unseen', action: 'evade', rolls: { action: 20 } });
    expect(stepOf(e, 'mental-check')).toBeUndefined();
    expect(actionCheck(e)).toMatchObject({ adjustments: [-25], target: 20, success: true });
  });

  it('spell-unseen: a successful mental check (30 vs 40) halves the penalty: -12, evade 33', () => {
    const e = resolvedOf({ situation: 'spell-unseen', action: 'evade', rolls: { mental: 30, action: 33 } });
    expect(stepOf(e, 'mental-check')).toEqual({ kind: 'mental-check', roll: 30, target: 40, success: true, critical: false, penaltyBefore: -25, penaltyAfter: -12 });
    expect(stepOf(e, 'situation-penalty')).toEqual({ kind: 'situation-penalty', situation: 'spell-unseen', check: 'evade', penalty: -12 });
    expect(actionCheck(e)).toMatchObject({ adjustments: [-12], target: 33, success: true });
    expect(resolvedOf({ situation: 'spell-unseen', action: 'evade', rolls: { mental: 30, action: 34 } }).pendingDefense).toBe('fail');
  });

  it('spell-unseen: a critical mental check (4 vs 40) removes the penalty: evade 45', () => {
    const e = resolvedOf({ situation: 'spell-unseen', action: 'evade', rolls: { mental: 4, action: 45 } });
    expect(stepOf(e, 'mental-check')).toMatchObject({ success: true, critical: true, penaltyBefore: -25, penaltyAfter: 0 });
    expect(stepOf(e, 'situation-penalty')).toBeUndefined();
    expect(actionCheck(e)).toMatchObject({ adjustments: [], target: 45, success: true });
  });

  it('spell-unseen: a failed mental check (41 vs 40) keeps -25', () => {
    const e = resolvedOf({ situation: 'spell-unseen', action: 'evade', rolls: { mental: 41, action: 21 } });
    expect(stepOf(e, 'mental-check')).toMatchObject({ success: false, penaltyAfter: -25 });
    expect(actionCheck(e)).toMatchObject({ adjustments: [-25], target: 20, success: false });
  });

  it('covert: perception with the skill penalty (50 - 20 = 30); no penalty to defend (55) or evade (45)', () => {
    const d = resolvedOf({ situation: 'covert', action: 'defend', perceptionMod: -20, rolls: { perception: 30 } });
    expect(d.steps[0]).toEqual({ kind: 'perception-check', situation: 'covert', roll: 30, baseTarget: 50, mod: -20, target: 30, success: true, critical: false });
    expect(actionCheck(d)).toMatchObject({ adjustments: [], target: 55 });
    expect(actionCheck(resolvedOf({ situation: 'covert', action: 'evade' }))).toMatchObject({ adjustments: [], target: 45 });
  });

  it('covert: perception 31 vs 30 fails: no defensive action, pending fail', () => {
    const d = resolvedOf({ situation: 'covert', action: 'evade', perceptionMod: -20, rolls: { perception: 31, action: 1 } });
    expect(d.steps.map((s) => s.kind)).toEqual(['perception-check', 'no-defensive-action', 'pending-defense']);
    expect(d.pendingDefense).toBe('fail');
    expect(d.offerDamageButton).toBe(true);
  });

  it('spectator: perception with the hidden-spectator penalty; failure = takes the damage', () => {
    const ok = resolvedOf({ situation: 'spectator', action: 'defend', perceptionMod: -10, rolls: { perception: 40, action: 55 } });
    expect(ok.steps[0]).toMatchObject({ kind: 'perception-check', target: 40, success: true });
    expect(actionCheck(ok)).toMatchObject({ target: 55, success: true });
    expect(ok.drawSpectator).toBe(false); // defending does not draw a spectator into battle
    const hit = resolvedOf({ situation: 'spectator', action: 'defend', perceptionMod: -10, rolls: { perception: 41 } });
    expect(stepOf(hit, 'no-defensive-action')).toEqual({ kind: 'no-defensive-action', situation: 'spectator', takesDamage: true });
    expect(hit.pendingDefense).toBe('fail');
    expect(hit.offerDamageButton).toBe(true);
  });
});

describe('modifiers and criticals', () => {
  it('--mod and --aided-by change the action check, in order: penalty, aid, mod', () => {
    const d = resolvedOf({ situation: 'side', mod: 10, vs: 'orc', aid: AID, rolls: { action: 65 } });
    expect(d.steps.map((s) => s.kind)).toEqual(['situation-penalty', 'aided', 'modifier', 'action-check', 'pending-defense']);
    expect(actionCheck(d)).toMatchObject({ baseTarget: 55, adjustments: [-5, 5, 10], target: 65, success: true });
  });

  it('--aided-by is +5: 60 succeeds against 55 + 5', () => {
    expect(resolvedOf({ vs: 'orc', aid: AID, rolls: { action: 60 } }).pendingDefense).toBe('success');
    expect(resolvedOf({ vs: 'orc', aid: null, rolls: { action: 60 } }).pendingDefense).toBe('fail');
  });

  it('--mod does not touch the perception gate, --perception-mod does not touch the action', () => {
    const d = resolvedOf({ situation: 'covert', mod: -30, perceptionMod: 10, rolls: { perception: 60, action: 25 } });
    expect(d.steps[0]).toMatchObject({ kind: 'perception-check', target: 60, success: true });
    expect(actionCheck(d)).toMatchObject({ adjustments: [-30], target: 25, success: true });
  });

  it('the critical is judged on the modified target: 5 vs 55 is critical, 5 vs 55 - 10 = 45 is not', () => {
    expect(actionCheck(resolvedOf({ rolls: { action: 5 } }))).toMatchObject({ target: 55, critical: true });
    expect(actionCheck(resolvedOf({ mod: -10, rolls: { action: 5 } }))).toMatchObject({ target: 45, success: true, critical: false });
    expect(actionCheck(resolvedOf({ mod: 15, rolls: { action: 7 } }))).toMatchObject({ target: 70, critical: true });
  });

  it('the perception critical is judged on the modified target too', () => {
    const d = resolvedOf({ situation: 'covert', perceptionMod: -20, rolls: { perception: 4 } });
    expect(d.steps[0]).toMatchObject({ target: 30, success: true, critical: false });
  });

  it('a positive modifier can lift a target of 0 into reach', () => {
    expect(resolvedOf({ checkTargets: { defend: 0 }, mod: 10, rolls: { action: 10 } }).pendingDefense).toBe('success');
    expect(resolvedOf({ checkTargets: { defend: 0 }, rolls: { action: 1 } }).pendingDefense).toBe('fail');
  });
});

describe('react', () => {
  it('rolls against reaction_check and records the result against that attacker', () => {
    const out = resolvedOf({ action: 'react', stance: 'reactive', vs: 'orc', rolls: { action: 60 } });
    expect(actionCheck(out)).toMatchObject({ action: 'react', baseTarget: 60, target: 60, success: true });
    expect(stepOf(out, 'reaction-recorded')).toEqual({ kind: 'reaction-recorded', vs: 'orc', success: true });
    expect(out.roundUpdate).toEqual({ reaction: { vs: 'orc', success: true } });
    expect(out.pendingDefense).toBeNull();
    expect(out.offerDamageButton).toBe(false);
  });

  it('a failed reaction is recorded too, and leaves the pending defense alone', () => {
    const out = resolvedOf({ action: 'react', stance: 'reactive', vs: 'orc', rolls: { action: 61 } });
    expect(out.roundUpdate).toEqual({ reaction: { vs: 'orc', success: false } });
    expect(out.pendingDefense).toBeNull();
  });

  it('takes --aided-by and --mod', () => {
    const out = resolvedOf({ action: 'react', stance: 'reactive', vs: 'orc', aid: AID, mod: -20, rolls: { action: 45 } });
    expect(actionCheck(out)).toMatchObject({ adjustments: [5, -20], target: 45, success: true });
  });

  it('needs the reactive stance', () => {
    expect(refusalOf({ action: 'react', stance: 'defensive', vs: 'orc' })).toEqual({ code: 'needs-reactive-stance', action: 'react', stance: 'defensive' });
    expect(refusalOf({ action: 'react', stance: 'none', vs: 'orc' })).toEqual({ code: 'needs-reactive-stance', action: 'react', stance: 'none' });
  });

  it('needs --vs', () => {
    expect(refusalOf({ action: 'react', stance: 'reactive' })).toEqual({ code: 'needs-vs', action: 'react' });
    expect(refusalOf({ action: 'react', stance: 'reactive', vs: '' })).toEqual({ code: 'needs-vs', action: 'react' });
  });

  it('one reaction check per attacker per round, whether the first succeeded or failed', () => {
    expect(refusalOf({ action: 'react', stance: 'reactive', vs: 'orc', round: { reactions: { orc: true } } })).toEqual({ code: 'already-reacted', vs: 'orc' });
    expect(refusalOf({ action: 'react', stance: 'reactive', vs: 'orc', round: { reactions: { orc: false } } })).toEqual({ code: 'already-reacted', vs: 'orc' });
    expect(resolvedOf({ action: 'react', stance: 'reactive', vs: 'goblin', round: { reactions: { orc: true } } }).kind).toBe('resolved');
  });

  it('refuses any situation other than front', () => {
    for (const situation of SOAK_SITUATIONS.filter((s) => s !== 'front')) {
      expect(refusalOf({ action: 'react', stance: 'reactive', vs: 'orc', situation })).toEqual({ code: 'situation-not-allowed', action: 'react', situation });
    }
  });
});

describe('counter', () => {
  const reacted = { reactions: { orc: true } };

  it('is announced, not rolled, and spends the reaction that allowed it (one reaction per success)', () => {
    const out = resolvedOf({ action: 'counter', stance: 'reactive', vs: 'orc', round: reacted });
    expect(out.steps).toEqual([{ kind: 'counter-announced', vs: 'orc', ally: null, skillName: null }]);
    expect(out.pendingDefense).toBeNull();
    expect(out.roundUpdate).toEqual({ reactionUsed: 'orc' });
    expect(out.offerDamageButton).toBe(false);
    expect(out.drawSpectator).toBe(false);
  });

  it('is refused in the defensive stance', () => {
    expect(refusalOf({ action: 'counter', stance: 'defensive', vs: 'orc', round: reacted })).toEqual({ code: 'counter-in-defensive-stance' });
  });

  it('needs the reactive stance (no stance is refused)', () => {
    expect(refusalOf({ action: 'counter', stance: 'none', vs: 'orc', round: reacted })).toEqual({ code: 'needs-reactive-stance', action: 'counter', stance: 'none' });
  });

  it('needs --vs', () => {
    expect(refusalOf({ action: 'counter', stance: 'reactive', round: reacted })).toEqual({ code: 'needs-vs', action: 'counter' });
  });

  it('needs a successful reaction against that attacker this round', () => {
    expect(refusalOf({ action: 'counter', stance: 'reactive', vs: 'goblin', round: reacted })).toEqual({ code: 'no-reaction-success', vs: 'goblin', action: 'counter', used: false });
    expect(refusalOf({ action: 'counter', stance: 'reactive', vs: 'orc', round: { reactions: { orc: false } } })).toEqual({ code: 'no-reaction-success', vs: 'orc', action: 'counter', used: false });
  });

  it('for an ally needs Reactive Guard (any case), and announces it', () => {
    expect(refusalOf({ action: 'counter', stance: 'reactive', vs: 'orc', ally: 'elf', round: reacted })).toEqual({ code: 'needs-reactive-guard' });
    expect(refusalOf({ action: 'counter', stance: 'reactive', vs: 'orc', ally: 'elf', skillName: 'Parry', round: reacted })).toEqual({ code: 'needs-reactive-guard' });
    const out = resolvedOf({ action: 'counter', stance: 'reactive', vs: 'orc', ally: 'elf', skillName: 'reactive GUARD', round: reacted });
    expect(out.steps).toEqual([{ kind: 'counter-announced', vs: 'orc', ally: 'elf', skillName: 'reactive GUARD' }]);
  });

  it('against a spectator draws it into the battle', () => {
    const out = resolvedOf({ action: 'counter', stance: 'reactive', vs: 'crowd1', situation: 'spectator', round: { reactions: { crowd1: true } } });
    expect(out.steps.map((s) => s.kind)).toEqual(['perception-check', 'counter-announced', 'spectator-drawn']);
    expect(stepOf(out, 'spectator-drawn')).toEqual({ kind: 'spectator-drawn', spectator: 'crowd1' });
    expect(out.drawSpectator).toBe(true);
  });

  it('is gated by perception: a failed gate is no counter, no drawing, pending untouched', () => {
    const out = resolvedOf({ action: 'counter', stance: 'reactive', vs: 'crowd1', situation: 'spectator', round: { reactions: { crowd1: true } }, rolls: { perception: 90 } });
    expect(out.steps.map((s) => s.kind)).toEqual(['perception-check', 'no-defensive-action']);
    expect(out.drawSpectator).toBe(false);
    expect(out.pendingDefense).toBeNull();
    expect(out.offerDamageButton).toBe(false);
  });

  it('takes no situation penalty (side, gun)', () => {
    for (const situation of ['side', 'gun'] as const) {
      const out = resolvedOf({ action: 'counter', stance: 'reactive', vs: 'orc', situation, round: reacted });
      expect(out.steps.map((s) => s.kind)).toEqual(['counter-announced']);
    }
  });
});

describe('skill', () => {
  it('on oneself with no stance: announced, no limit, nothing recorded', () => {
    const out = resolvedOf({ action: 'skill', stance: 'none', skillName: 'Iron Skin' });
    expect(out.steps).toEqual([{ kind: 'skill-announced', skillName: 'Iron Skin', vs: null, ally: null }]);
    expect(out.roundUpdate).toEqual({});
    expect(out.pendingDefense).toBeNull();
  });

  it('in the defensive stance: needs --vs, counts one per attacker per round', () => {
    expect(refusalOf({ action: 'skill', stance: 'defensive', skillName: 'Iron Skin' })).toEqual({ code: 'needs-vs', action: 'skill' });
    const out = resolvedOf({ action: 'skill', stance: 'defensive', vs: 'orc', skillName: 'Iron Skin' });
    expect(out.roundUpdate).toEqual({ skillVs: 'orc' });
    expect(refusalOf({ action: 'skill', stance: 'defensive', vs: 'orc', round: { skillsVs: ['orc'] } })).toEqual({ code: 'skill-limit', vs: 'orc' });
    expect(resolvedOf({ action: 'skill', stance: 'defensive', vs: 'goblin', round: { skillsVs: ['orc'] } }).roundUpdate).toEqual({ skillVs: 'goblin' });
  });

  it('in the defensive stance: only on oneself', () => {
    expect(refusalOf({ action: 'skill', stance: 'defensive', vs: 'orc', ally: 'elf' })).toEqual({ code: 'defensive-skill-on-ally' });
  });

  it('on an ally needs the reactive stance with a successful reaction against that attacker', () => {
    expect(refusalOf({ action: 'skill', stance: 'none', vs: 'orc', ally: 'elf', round: { reactions: { orc: true } } })).toEqual({ code: 'needs-reactive-stance', action: 'skill', stance: 'none' });
    expect(refusalOf({ action: 'skill', stance: 'reactive', ally: 'elf' })).toEqual({ code: 'needs-vs', action: 'skill' });
    expect(refusalOf({ action: 'skill', stance: 'reactive', vs: 'orc', ally: 'elf' })).toEqual({ code: 'no-reaction-success', vs: 'orc', action: 'skill', used: false });
    expect(refusalOf({ action: 'skill', stance: 'reactive', vs: 'orc', ally: 'elf', round: { reactions: { orc: false } } })).toEqual({ code: 'no-reaction-success', vs: 'orc', action: 'skill', used: false });
    const out = resolvedOf({ action: 'skill', stance: 'reactive', vs: 'orc', ally: 'elf', skillName: 'Shield Other', round: { reactions: { orc: true } } });
    expect(out.steps).toEqual([{ kind: 'skill-announced', skillName: 'Shield Other', vs: 'orc', ally: 'elf' }]);
    expect(out.roundUpdate).toEqual({ reactionUsed: 'orc' }); // one reaction per success
  });

  it('is gated by perception; a failed gate uses up no skill', () => {
    const out = resolvedOf({ action: 'skill', stance: 'defensive', vs: 'orc', situation: 'behind', rolls: { perception: 51 } });
    expect(out.steps.map((s) => s.kind)).toEqual(['perception-check', 'no-defensive-action']);
    expect(out.roundUpdate).toEqual({});
    expect(out.pendingDefense).toBeNull();
    const ok = resolvedOf({ action: 'skill', stance: 'defensive', vs: 'orc', situation: 'behind', rolls: { perception: 50 } });
    expect(ok.steps.map((s) => s.kind)).toEqual(['perception-check', 'skill-announced']);
    expect(ok.roundUpdate).toEqual({ skillVs: 'orc' });
  });
});

describe('who may act', () => {
  it.each(['incapacitated', 'dying', 'dead'] as const)('a %s token makes no defensive action', (condition) => {
    for (const action of ['defend', 'evade', 'react', 'counter', 'skill'] as const) {
      expect(refusalOf({ action, condition, stance: 'reactive', vs: 'orc', round: { reactions: {} } })).toEqual({ code: 'cannot-act', condition });
    }
  });

  it('the condition is checked before anything else, even a missing target', () => {
    expect(refusalOf({ condition: 'dying', checkTargets: { defend: null } })).toEqual({ code: 'cannot-act', condition: 'dying' });
  });
});

describe('missing check targets', () => {
  it('defend, evade and react need their own target', () => {
    expect(resolveSoakDefend(input({ action: 'defend', checkTargets: { defend: null } }))).toEqual({ kind: 'missing-target', check: 'defend' });
    expect(resolveSoakDefend(input({ action: 'evade', checkTargets: { evade: null } }))).toEqual({ kind: 'missing-target', check: 'evade' });
    expect(resolveSoakDefend(input({ action: 'react', stance: 'reactive', vs: 'orc', checkTargets: { reaction: null } }))).toEqual({ kind: 'missing-target', check: 'reaction' });
  });

  it('a target that is not needed may be missing', () => {
    const none = { defend: null, evade: null, reaction: null, perception: null, mental: null };
    expect(resolveSoakDefend(input({ action: 'defend', checkTargets: { ...none, defend: 55 } })).kind).toBe('resolved');
    expect(resolveSoakDefend(input({ action: 'skill', checkTargets: none })).kind).toBe('resolved');
    expect(resolveSoakDefend(input({ action: 'counter', stance: 'reactive', vs: 'orc', round: { reactions: { orc: true } }, checkTargets: none })).kind).toBe('resolved');
    expect(resolveSoakDefend(input({ action: 'evade', situation: 'spell-unseen', checkTargets: { ...none, evade: 45 } })).kind).toBe('resolved');
  });

  it('perception is needed only when the situation gates, also for counter and skill', () => {
    expect(resolveSoakDefend(input({ situation: 'behind', checkTargets: { perception: null } }))).toEqual({ kind: 'missing-target', check: 'perception' });
    expect(resolveSoakDefend(input({ situation: 'side', checkTargets: { perception: null } })).kind).toBe('resolved');
    expect(resolveSoakDefend(input({ action: 'skill', situation: 'covert', checkTargets: { perception: null } }))).toEqual({ kind: 'missing-target', check: 'perception' });
  });

  it('mental is needed only when the mental check is asked', () => {
    expect(resolveSoakDefend(input({ action: 'evade', situation: 'spell-unseen', rolls: { mental: 30 }, checkTargets: { mental: null } }))).toEqual({ kind: 'missing-target', check: 'mental' });
  });

  it('reports the first one in the order the checks are rolled: perception before the action', () => {
    expect(resolveSoakDefend(input({ situation: 'behind', checkTargets: { perception: null, defend: null } }))).toEqual({ kind: 'missing-target', check: 'perception' });
  });

  it('a refusal comes before a missing target (nothing could be rolled anyway)', () => {
    expect(refusalOf({ action: 'evade', situation: 'aoe', checkTargets: { evade: null } })).toEqual({ code: 'evade-impossible-aoe' });
  });
});

describe('flags that would change nothing are refused', () => {
  const cases: Array<[string, Overrides, string]> = [
    ['mental outside spell-unseen', { action: 'evade', situation: 'front', rolls: { mental: 30 } }, 'mental'],
    ['mental on defend against an unseen spell', { action: 'defend', situation: 'spell-unseen', rolls: { mental: 30 } }, 'mental'],
    ['perception-mod without a gate', { situation: 'side', perceptionMod: -10 }, 'perception-mod'],
    ['perception-mod on a plain gate (behind)', { situation: 'behind', perceptionMod: -10 }, 'perception-mod'],
    ['mod on a counter', { action: 'counter', stance: 'reactive', vs: 'orc', mod: 5, round: { reactions: { orc: true } } }, 'mod'],
    ['aided-by on a skill', { action: 'skill', vs: 'orc', aid: AID }, 'aided'],
    ['ally on defend', { action: 'defend', ally: 'elf' }, 'ally'],
    ['skill name on evade', { action: 'evade', skillName: 'Dodge' }, 'skill'],
  ];
  it.each(cases)('%s', (_name, o, flag) => {
    const reason = refusalOf(o);
    expect(reason).toMatchObject({ code: 'flag-not-applicable', flag });
    expect(describeRefusal(reason).length).toBeGreaterThan(20);
  });
});

describe('describeRefusal', () => {
  const all: SoakDefendRefusal[] = [
    { code: 'cannot-act', condition: 'incapacitated' },
    { code: 'cannot-act', condition: 'dead' },
    { code: 'situation-not-allowed', action: 'react', situation: 'side' },
    { code: 'flag-not-applicable', flag: 'mod', action: 'counter', situation: 'front' },
    { code: 'evade-impossible-aoe' },
    { code: 'needs-reactive-stance', action: 'react', stance: 'defensive' },
    { code: 'counter-in-defensive-stance' },
    { code: 'needs-vs', action: 'counter' },
    { code: 'already-reacted', vs: 'orc' },
    { code: 'no-reaction-success', vs: 'orc', action: 'counter', used: false },
    { code: 'no-reaction-success', vs: 'orc', action: 'counter', used: true },
    { code: 'acting-turn' },
    { code: 'aid-not-reactive', by: 'Elf' },
    { code: 'aid-no-reaction', by: 'Elf', vs: 'orc', used: false },
    { code: 'aid-no-reaction', by: 'Elf', vs: 'orc', used: true },
    { code: 'needs-reactive-guard' },
    { code: 'defensive-skill-on-ally' },
    { code: 'skill-limit', vs: 'orc' },
  ];
  it.each(all)('$code is a sentence', (reason) => {
    const text = describeRefusal(reason);
    expect(text).toMatch(/^[A-Z-].*\.$/);
    expect(text).not.toMatch(/undefined|null|\[object/);
  });
  it('names the attacker and the fix', () => {
    expect(describeRefusal({ code: 'no-reaction-success', vs: 'orc', action: 'counter', used: false })).toContain("!defend --action react --vs with orc's token id");
    expect(describeRefusal({ code: 'needs-reactive-guard' })).toContain('--skill "Reactive Guard"');
    expect(describeRefusal({ code: 'needs-reactive-stance', action: 'react', stance: 'none' })).toContain('!stance reactive');
    expect(describeRefusal({ code: 'cannot-act', condition: 'dead' })).not.toContain('save');
  });
});

describe('inputs the command layer must never pass', () => {
  it('throws on a roll outside 1..100 or a non-integer number', () => {
    expect(() => resolveSoakDefend(input({ rolls: { action: 0 } }))).toThrow(RangeError);
    expect(() => resolveSoakDefend(input({ rolls: { action: 101 } }))).toThrow(RangeError);
    expect(() => resolveSoakDefend(input({ rolls: { mental: 2.5 } }))).toThrow(RangeError);
    expect(() => resolveSoakDefend(input({ mod: Number.NaN }))).toThrow(RangeError);
    expect(() => resolveSoakDefend(input({ checkTargets: { defend: Infinity } }))).toThrow(RangeError);
  });
});

// ---- properties ----

const d100 = fc.integer({ min: 1, max: 100 });
const target = fc.option(fc.integer({ min: -50, max: 200 }), { nil: null, freq: 8 });
const id = fc.constantFrom('orc', 'goblin', 'crowd1', 'constructor');
const arbInput: fc.Arbitrary<SoakDefendInput> = fc.record({
  action: fc.constantFrom<SoakDefendAction>('defend', 'evade', 'react', 'counter', 'skill'),
  situation: fc.constantFrom(...SOAK_SITUATIONS),
  stance: fc.constantFrom(...SOAK_STANCES),
  condition: fc.constantFrom('none', 'none', 'none', 'incapacitated', 'dying', 'dead') as fc.Arbitrary<SoakDefendInput['condition']>,
  checkTargets: fc.record({ defend: target, evade: target, reaction: target, perception: target, mental: target }),
  rolls: fc.record({ action: d100, perception: d100, mental: fc.option(d100, { nil: null }) }),
  mod: fc.oneof(fc.constant(0), fc.integer({ min: -1000, max: 1000 })),
  perceptionMod: fc.oneof(fc.constant(0), fc.integer({ min: -100, max: 100 })),
  aid: fc.option(fc.record({ by: fc.constant('elf'), stance: fc.constantFrom(...SOAK_STANCES), reaction: fc.constantFrom(true, false, 'used' as const, undefined), condition: fc.constantFrom('none' as const, 'none' as const, 'incapacitated' as const, 'dying' as const), acting: fc.boolean() }), { nil: null, freq: 3 }),
  acting: fc.boolean(),
  vs: fc.option(id, { nil: null }),
  ally: fc.option(fc.constant('elf'), { nil: null, freq: 3 }),
  skillName: fc.option(fc.constantFrom('Reactive Guard', 'Iron Skin'), { nil: null, freq: 3 }),
  round: fc.record({
    reactions: fc.dictionary(id, fc.constantFrom(true, false, 'used' as const)),
    skillsVs: fc.uniqueArray(id),
  }),
});

/** The success the outcome reports for the roll being varied: the action check, or the gate when it stops everything. */
function succeeded(outcome: SoakDefendOutcome): boolean | null {
  if (outcome.kind !== 'resolved') return null;
  const check = outcome.steps.find((s) => s.kind === 'action-check');
  return check && check.kind === 'action-check' ? check.success : null;
}

describe('properties', () => {
  it('a higher action roll never turns a failure into a success', () => {
    fc.assert(
      fc.property(arbInput, d100, (i, higher) => {
        fc.pre(higher > i.rolls.action);
        const low = succeeded(resolveSoakDefend(i));
        const high = succeeded(resolveSoakDefend({ ...i, rolls: { ...i.rolls, action: higher } }));
        if (low === false) expect(high).not.toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('a higher perception roll never opens a gate that a lower one closed', () => {
    fc.assert(
      fc.property(arbInput, d100, (i, higher) => {
        fc.pre(higher > i.rolls.perception);
        const low = resolveSoakDefend(i);
        const high = resolveSoakDefend({ ...i, rolls: { ...i.rolls, perception: higher } });
        if (low.kind === 'resolved' && low.steps.some((s) => s.kind === 'no-defensive-action')) {
          expect(high.kind === 'resolved' && high.steps.some((s) => s.kind === 'no-defensive-action')).toBe(true);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a higher --mod never turns a success into a failure', () => {
    fc.assert(
      fc.property(arbInput, fc.integer({ min: 1, max: 200 }), (i, more) => {
        fc.pre(i.action === 'defend' || i.action === 'evade' || i.action === 'react');
        const base = succeeded(resolveSoakDefend(i));
        const better = succeeded(resolveSoakDefend({ ...i, mod: i.mod + more }));
        if (base === true) expect(better).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it("every outcome's numbers are finite integers", () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        for (const n of numbersIn(resolveSoakDefend(i))) expect(Number.isSafeInteger(n)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('the action check adds up: target = base + adjustments', () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const out = resolveSoakDefend(i);
        if (out.kind !== 'resolved') return;
        for (const s of out.steps) {
          if (s.kind === 'action-check') expect(s.target).toBe(s.adjustments.reduce((a, b) => a + b, s.baseTarget));
          if (s.kind === 'perception-check') expect(s.target).toBe(s.baseTarget + s.mod);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('only defend and evade set the pending defense; a failure (and only that) offers the damage button', () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const out = resolveSoakDefend(i);
        if (out.kind !== 'resolved') return;
        expect(out.pendingDefense !== null).toBe(i.action === 'defend' || i.action === 'evade');
        expect(out.offerDamageButton).toBe(out.pendingDefense === 'fail');
        expect(out.drawSpectator).toBe(i.action === 'counter' && i.situation === 'spectator');
      }),
      { numRuns: 1000 },
    );
  });

  it('the round is updated only by react (always) and by a defensive-stance skill', () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const out = resolveSoakDefend(i);
        if (out.kind !== 'resolved') return;
        expect(out.roundUpdate.reaction !== undefined).toBe(i.action === 'react');
        if (out.roundUpdate.skillVs !== undefined) expect([i.action, i.stance, i.vs]).toEqual(['skill', 'defensive', out.roundUpdate.skillVs]);
      }),
      { numRuns: 1000 },
    );
  });

  it('never mutates its input and gives the same answer twice', () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const copy = structuredClone(i);
        const first = resolveSoakDefend(i);
        expect(i).toEqual(copy);
        expect(resolveSoakDefend(i)).toEqual(first);
      }),
      { numRuns: 500 },
    );
  });

  it('an incapacitated, dying or dead token is always refused', () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        fc.pre(i.condition !== 'none');
        expect(resolveSoakDefend(i)).toEqual({ kind: 'refused', reason: { code: 'cannot-act', condition: i.condition } });
      }),
      { numRuns: 300 },
    );
  });

  it('every refusal reads as a sentence', () => {
    fc.assert(
      fc.property(arbInput, (i) => {
        const out = resolveSoakDefend(i);
        if (out.kind === 'refused') expect(describeRefusal(out.reason)).toMatch(/^[A-Z-].*\.$/);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('revised rulings (issue: soak closer to its seed)', () => {
  it('one success buys one reaction: a spent success refuses a second counter, saying why', () => {
    const spent = { reactions: { orc: 'used' as const } };
    expect(refusalOf({ action: 'counter', stance: 'reactive', vs: 'orc', round: spent })).toEqual({ code: 'no-reaction-success', vs: 'orc', action: 'counter', used: true });
    expect(describeRefusal({ code: 'no-reaction-success', vs: 'orc', action: 'counter', used: true })).toMatch(/already spent/);
  });

  it('a skill on an ally spends the reaction too; a skill on oneself does not', () => {
    const reacted = { reactions: { orc: true } };
    expect(resolvedOf({ action: 'skill', stance: 'reactive', vs: 'orc', ally: 'elf', round: reacted }).roundUpdate).toEqual({ reactionUsed: 'orc' });
    expect(resolvedOf({ action: 'skill', stance: 'reactive', vs: 'orc', round: reacted }).roundUpdate).toEqual({});
  });

  it('aid needs --vs, the ally in reactive stance and its unused success against that attacker; a rolled check spends it', () => {
    expect(refusalOf({ vs: null, aid: AID })).toEqual({ code: 'needs-vs', action: 'defend' });
    expect(refusalOf({ vs: 'orc', aid: { ...AID, stance: 'defensive' } })).toEqual({ code: 'aid-not-reactive', by: 'elf' });
    expect(refusalOf({ vs: 'orc', aid: { ...AID, reaction: undefined } })).toEqual({ code: 'aid-no-reaction', by: 'elf', vs: 'orc', used: false });
    expect(refusalOf({ vs: 'orc', aid: { ...AID, reaction: false } })).toEqual({ code: 'aid-no-reaction', by: 'elf', vs: 'orc', used: false });
    expect(refusalOf({ vs: 'orc', aid: { ...AID, reaction: 'used' } })).toEqual({ code: 'aid-no-reaction', by: 'elf', vs: 'orc', used: true });
    expect(resolvedOf({ vs: 'orc', aid: AID, rolls: { action: 99 } }).roundUpdate).toEqual({ aidUsed: { by: 'elf', vs: 'orc' } });
  });

  it('the acting token (top of the Turn Tracker) takes no defensive action', () => {
    for (const action of ['defend', 'evade', 'react', 'counter', 'skill'] as const) {
      expect(refusalOf({ action, stance: 'reactive', vs: 'orc', acting: true, round: { reactions: { orc: true } } })).toEqual({ code: 'acting-turn' });
    }
    expect(resolvedOf({ acting: false }).kind).toBe('resolved');
  });
});
