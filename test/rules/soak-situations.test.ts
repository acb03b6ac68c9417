// The Special Defense Situations table of The Defensive Round, row by row (rules.md, "Defensive actions").
import { describe, expect, it } from 'vitest';
import {
  isSoakSituation,
  penaltyAfterMentalCheck,
  situationPenalty,
  SOAK_SITUATION_RULES,
  SOAK_SITUATIONS,
  type SoakSituation,
} from '../../src/rules/soak/situations';

describe('the situations list', () => {
  it('names every row of the table once', () => {
    expect([...SOAK_SITUATIONS].sort()).toEqual(Object.keys(SOAK_SITUATION_RULES).sort());
    expect(new Set(SOAK_SITUATIONS).size).toBe(13);
  });

  it('parses only the listed names', () => {
    expect(isSoakSituation('behind')).toBe(true);
    expect(isSoakSituation('Behind')).toBe(false);
    expect(isSoakSituation('spell-fast')).toBe(false); // a threshold-edition name
    expect(isSoakSituation('constructor')).toBe(false);
  });
});

describe('each row: penalty to defend and to evade', () => {
  const rows: Array<[SoakSituation, number, number]> = [
    ['front', 0, 0],
    ['thrown-object', 0, 0],
    ['spell-seen', 0, 0],
    ['behind', -5, -5],
    ['distracted', -5, -5],
    ['side', -5, -5],
    ['projectile', 0, -20],
    ['gun', 0, -50],
    ['aoe', 0, 0],
    ['aoe-edge', 0, 0],
    ['spell-unseen', 0, -25],
    ['covert', 0, 0],
    ['spectator', 0, 0],
  ];
  it.each(rows)('%s: defend %i, evade %i', (situation, defend, evade) => {
    expect(situationPenalty(situation, 'defend')).toBe(defend);
    expect(situationPenalty(situation, 'evade')).toBe(evade);
  });
});

describe('each row: the perception gate and the special effects', () => {
  it('behind and distracted: a plain perception check', () => {
    expect(SOAK_SITUATION_RULES.behind.perceptionGate).toBe('plain');
    expect(SOAK_SITUATION_RULES.distracted.perceptionGate).toBe('plain');
  });
  it('covert and spectator: a perception check with the perception modifier', () => {
    expect(SOAK_SITUATION_RULES.covert.perceptionGate).toBe('with-perception-mod');
    expect(SOAK_SITUATION_RULES.spectator.perceptionGate).toBe('with-perception-mod');
  });
  it('no other row has a gate', () => {
    const gated = SOAK_SITUATIONS.filter((s) => SOAK_SITUATION_RULES[s].perceptionGate !== 'none');
    expect(gated.sort()).toEqual(['behind', 'covert', 'distracted', 'spectator']);
  });
  it('aoe alone makes evading impossible (aoe-edge does not)', () => {
    expect(SOAK_SITUATIONS.filter((s) => SOAK_SITUATION_RULES[s].evadeImpossible)).toEqual(['aoe']);
  });
  it('spell-unseen alone offers the mental check', () => {
    expect(SOAK_SITUATIONS.filter((s) => SOAK_SITUATION_RULES[s].mentalCheckEasesPenalty)).toEqual(['spell-unseen']);
  });
  it('spectator alone: failing the gate takes the damage; a counter draws it into battle', () => {
    expect(SOAK_SITUATIONS.filter((s) => SOAK_SITUATION_RULES[s].gateFailureTakesDamage)).toEqual(['spectator']);
    expect(SOAK_SITUATIONS.filter((s) => SOAK_SITUATION_RULES[s].counterDrawsIntoBattle)).toEqual(['spectator']);
  });
});

describe('the mental check on an unseen spell', () => {
  it('a success halves -25 to -12 (size rounded down)', () => {
    expect(penaltyAfterMentalCheck(-25, { success: true, critical: false })).toBe(-12);
  });
  it('a critical success removes the penalty', () => {
    expect(Object.is(penaltyAfterMentalCheck(-25, { success: true, critical: true }), 0)).toBe(true);
  });
  it('a failure keeps it', () => {
    expect(penaltyAfterMentalCheck(-25, { success: false, critical: false })).toBe(-25);
  });
  it('halving no penalty gives 0, not -0', () => {
    expect(Object.is(penaltyAfterMentalCheck(0, { success: true, critical: false }), 0)).toBe(true);
  });
});
