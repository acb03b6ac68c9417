// The stance limits of The Defensive Round as predicates (rules.md, "Stances").
import { describe, expect, it } from 'vitest';
import {
  canCounterAttack,
  canHelpAllies,
  canMakeReactionChecks,
  counterForbiddenByStance,
  hasReactedAgainst,
  isReactiveGuard,
  isSoakStance,
  reactionSucceededAgainst,
  skillsLimitedPerAttacker,
  skillsOnlyOnSelf,
  skillUsedAgainst,
  SOAK_STANCES,
} from '../../src/rules/soak/check';

describe('stances', () => {
  it('are defensive, reactive and none', () => {
    expect(SOAK_STANCES).toEqual(['defensive', 'reactive', 'none']);
    expect(isSoakStance('reactive')).toBe(true);
    expect(isSoakStance('passive')).toBe(false); // an opposed-edition stance
  });

  it('only the reactive stance makes reaction checks, counters and helps allies', () => {
    expect(SOAK_STANCES.filter(canMakeReactionChecks)).toEqual(['reactive']);
    expect(SOAK_STANCES.filter(canCounterAttack)).toEqual(['reactive']);
    expect(SOAK_STANCES.filter(canHelpAllies)).toEqual(['reactive']);
  });

  it('the defensive stance forbids counters, keeps skills on oneself, one per attacker', () => {
    expect(SOAK_STANCES.filter(counterForbiddenByStance)).toEqual(['defensive']);
    expect(SOAK_STANCES.filter(skillsOnlyOnSelf)).toEqual(['defensive']);
    expect(SOAK_STANCES.filter(skillsLimitedPerAttacker)).toEqual(['defensive']);
  });
});

describe('the round record', () => {
  const round = { reactions: { orc: true, goblin: false }, skillsVs: ['troll'] };

  it('one reaction per attacker, whatever its result', () => {
    expect(hasReactedAgainst(round, 'orc')).toBe(true);
    expect(hasReactedAgainst(round, 'goblin')).toBe(true);
    expect(hasReactedAgainst(round, 'troll')).toBe(false);
  });

  it('only a successful reaction counts for counters and skills on allies', () => {
    expect(reactionSucceededAgainst(round, 'orc')).toBe(true);
    expect(reactionSucceededAgainst(round, 'goblin')).toBe(false);
    expect(reactionSucceededAgainst(round, 'troll')).toBe(false);
  });

  it('ids that are names on Object are not found by accident', () => {
    for (const id of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(hasReactedAgainst(round, id)).toBe(false);
      expect(reactionSucceededAgainst(round, id)).toBe(false);
    }
  });

  it('the skill used against an attacker', () => {
    expect(skillUsedAgainst(round, 'troll')).toBe(true);
    expect(skillUsedAgainst(round, 'orc')).toBe(false);
  });
});

describe('Reactive Guard', () => {
  it('is recognised in any case and spacing', () => {
    expect(isReactiveGuard('Reactive Guard')).toBe(true);
    expect(isReactiveGuard('reactive guard')).toBe(true);
    expect(isReactiveGuard('  REACTIVE   guard ')).toBe(true);
  });
  it('nothing else is', () => {
    expect(isReactiveGuard(null)).toBe(false);
    expect(isReactiveGuard('')).toBe(false);
    expect(isReactiveGuard('Reactive')).toBe(false);
    expect(isReactiveGuard('Reactive Guardian')).toBe(false);
  });
});
