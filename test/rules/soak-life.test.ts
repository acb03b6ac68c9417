import { describe, it, expect } from 'vitest';
import { percentileCheck } from '../../src/rules/check';
import {
  applyHandEdit, applyInstantKill, applyVitalityLoss, lifeFromVitality, resolveSave,
} from '../../src/rules/soak/life';
import type { Life } from '../../src/rules/soak/state';

const alive: Life = { condition: 'none', savesOwed: 0 };
const pass = percentileCheck(30, 50);
const fail = percentileCheck(80, 50);

describe('falling from above 0 to 0..-9: incapacitated with one save', () => {
  it('a hit to exactly 0 incapacitates and owes one save', () => {
    const result = applyVitalityLoss(10, 10, alive);
    expect(result).toEqual({
      applied: true, after: 0, life: { condition: 'incapacitated', savesOwed: 1 },
      steps: [{ kind: 'vitality-change', before: 10, after: 0 }, { kind: 'incapacitated', savesOwed: 1 }],
    });
  });

  it('a hit to -9 still owes only one save', () => {
    expect(applyVitalityLoss(10, 19, alive).life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
  });

  it('a successful save stands the character back up at 1 Vitality', () => {
    const result = resolveSave(-4, { condition: 'incapacitated', savesOwed: 1 }, pass);
    expect(result).toEqual({
      ok: true, vitality: 1, life: alive,
      steps: [
        { kind: 'save-rolled', roll: 30, target: 50, success: true, critical: false, savesLeft: 0 },
        { kind: 'stood-up', before: -4, vitality: 1 },
      ],
    });
  });

  it('a failed save leaves it incapacitated with no save left, and a second try is refused', () => {
    const result = resolveSave(-4, { condition: 'incapacitated', savesOwed: 1 }, fail);
    expect(result).toEqual({
      ok: true, vitality: -4, life: { condition: 'incapacitated', savesOwed: 0 },
      steps: [{ kind: 'save-rolled', roll: 80, target: 50, success: false, critical: false, savesLeft: 0 }],
    });
    if (!result.ok) throw new Error('unreachable');
    expect(resolveSave(result.vitality, result.life, pass)).toEqual({ ok: false, reason: 'no-save-owed' });
  });

  it('an incapacitated token keeps taking damage, keeping the save it is owed', () => {
    const result = applyVitalityLoss(-2, 5, { condition: 'incapacitated', savesOwed: 1 });
    expect(result.after).toBe(-7);
    expect(result.life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
  });
});

describe('falling from above 0 to -10 or below in one hit: dying with three saves', () => {
  it('a single hit to -10 makes the token dying with three saves', () => {
    const result = applyVitalityLoss(20, 30, alive);
    expect(result.after).toBe(-10);
    expect(result.life).toEqual({ condition: 'dying', savesOwed: 3 });
    expect(result.steps).toContainEqual({ kind: 'dying', savesOwed: 3 });
  });

  it('Ruling, revised: the first success leaves it alive, incapacitated at -9, owing the one save that stands it up', () => {
    const result = resolveSave(-25, { condition: 'dying', savesOwed: 3 }, pass);
    expect(result).toEqual({
      ok: true, vitality: -9, life: { condition: 'incapacitated', savesOwed: 1 },
      steps: [
        { kind: 'save-rolled', roll: 30, target: 50, success: true, critical: false, savesLeft: 1 },
        { kind: 'saved-from-death', before: -25, vitality: -9 },
      ],
    });
  });

  it('a success after one failure also saves it', () => {
    const first = resolveSave(-25, { condition: 'dying', savesOwed: 3 }, fail);
    if (!first.ok) throw new Error('refused');
    expect(first.life).toEqual({ condition: 'dying', savesOwed: 2 });
    const second = resolveSave(first.vitality, first.life, pass);
    expect(second).toMatchObject({ ok: true, vitality: -9, life: { condition: 'incapacitated', savesOwed: 1 } });
  });

  it('The Defensive Round: once saved, "0 or less" still gives the one save: a success stands it up at 1 Vitality', () => {
    const saved = resolveSave(-25, { condition: 'dying', savesOwed: 3 }, pass);
    if (!saved.ok) throw new Error('refused');
    const standing = resolveSave(saved.vitality, saved.life, pass);
    expect(standing).toMatchObject({ ok: true, vitality: 1, life: { condition: 'none', savesOwed: 0 } });
    const failed = resolveSave(saved.vitality, saved.life, fail);
    expect(failed).toMatchObject({ ok: true, vitality: -9, life: { condition: 'incapacitated', savesOwed: 0 } });
  });

  it('three failures: dead', () => {
    let life: Life = { condition: 'dying', savesOwed: 3 };
    const left: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const result = resolveSave(-25, life, fail);
      if (!result.ok) throw new Error('refused');
      expect(result.vitality).toBe(-25);
      life = result.life;
      left.push(life.savesOwed);
      if (i === 2) expect(result.steps).toContainEqual({ kind: 'dead', cause: 'saves-failed' });
    }
    expect(left).toEqual([2, 1, 0]);
    expect(life).toEqual({ condition: 'dead', savesOwed: 0 });
    expect(resolveSave(-25, life, pass)).toEqual({ ok: false, reason: 'no-save-owed' });
  });

  it('a dying token that loses any more Vitality is dead', () => {
    const result = applyVitalityLoss(-12, 1, { condition: 'dying', savesOwed: 2 });
    expect(result).toEqual({
      applied: true, after: -13, life: { condition: 'dead', savesOwed: 0 },
      steps: [
        { kind: 'vitality-change', before: -12, after: -13 },
        { kind: 'saves-lost', count: 2 },
        { kind: 'dead', cause: 'hit-while-dying' },
      ],
    });
  });

  it('a loss of 0 changes nothing, even while dying', () => {
    const result = applyVitalityLoss(-12, 0, { condition: 'dying', savesOwed: 3 });
    expect(result.after).toBe(-12);
    expect(result.life).toEqual({ condition: 'dying', savesOwed: 3 });
  });
});

describe('an incapacitated character pushed to -10 or below: dead at once', () => {
  it('dies without saves, and the save still owed is lost', () => {
    const result = applyVitalityLoss(-3, 7, { condition: 'incapacitated', savesOwed: 1 });
    expect(result).toEqual({
      applied: true, after: -10, life: { condition: 'dead', savesOwed: 0 },
      steps: [
        { kind: 'vitality-change', before: -3, after: -10 },
        { kind: 'saves-lost', count: 1 },
        { kind: 'dead', cause: 'reached-minus-10' },
      ],
    });
  });

  it('a hit from exactly 0 to -10 is from an incapacitated token: dead, not dying', () => {
    expect(applyVitalityLoss(0, 10, { condition: 'incapacitated', savesOwed: 0 }).life).toEqual({ condition: 'dead', savesOwed: 0 });
  });
});

describe('the dead', () => {
  const dead: Life = { condition: 'dead', savesOwed: 0 };

  it('take no damage', () => {
    expect(applyVitalityLoss(-15, 20, dead)).toEqual({
      applied: false, after: -15, life: dead, steps: [{ kind: 'dead-no-damage', vitality: -15 }],
    });
  });

  it('are not instantly killed again', () => {
    expect(applyInstantKill(-15, dead)).toMatchObject({ applied: false, after: -15, life: dead });
  });

  it('owe no save', () => {
    expect(resolveSave(-15, dead, pass)).toEqual({ ok: false, reason: 'no-save-owed' });
  });
});

describe('saves not owed are refused', () => {
  it('a healthy token owes no save', () => {
    expect(resolveSave(30, alive, pass)).toEqual({ ok: false, reason: 'no-save-owed' });
  });

  it('an incapacitated token with its save spent owes none', () => {
    expect(resolveSave(-3, { condition: 'incapacitated', savesOwed: 0 }, pass)).toEqual({ ok: false, reason: 'no-save-owed' });
  });
});

describe('instant kill (The Defensive Round: "only drop your character\'s Vitality to 0")', () => {
  it('from above 0: Vitality 0, incapacitated with one save', () => {
    expect(applyInstantKill(70, alive)).toEqual({
      applied: true, after: 0, life: { condition: 'incapacitated', savesOwed: 1 },
      steps: [{ kind: 'instant-kill', applied: true, before: 70, after: 0 }, { kind: 'incapacitated', savesOwed: 1 }],
    });
  });

  it('at or below 0: unchanged', () => {
    const life: Life = { condition: 'incapacitated', savesOwed: 1 };
    expect(applyInstantKill(0, life)).toEqual({
      applied: false, after: 0, life, steps: [{ kind: 'instant-kill', applied: false, before: 0, after: 0 }],
    });
    expect(applyInstantKill(-12, { condition: 'dying', savesOwed: 3 })).toMatchObject({
      applied: false, after: -12, life: { condition: 'dying', savesOwed: 3 },
    });
  });
});

describe('hand edits of the Vitality bar', () => {
  it('a decrease behaves as a loss of the difference', () => {
    expect(applyHandEdit(10, -3, alive)).toEqual({
      after: -3, life: { condition: 'incapacitated', savesOwed: 1 },
      steps: [{ kind: 'vitality-change', before: 10, after: -3 }, { kind: 'incapacitated', savesOwed: 1 }],
    });
    expect(applyHandEdit(10, -20, alive).life).toEqual({ condition: 'dying', savesOwed: 3 });
  });

  it("a dead token's decrease is set back", () => {
    expect(applyHandEdit(-12, -30, { condition: 'dead', savesOwed: 0 })).toEqual({
      after: -12, life: { condition: 'dead', savesOwed: 0 }, steps: [{ kind: 'set-back', attempted: -30, vitality: -12 }],
    });
  });

  it('raising a dead token above 0 revives it', () => {
    const result = applyHandEdit(-12, 5, { condition: 'dead', savesOwed: 0 });
    expect(result.after).toBe(5);
    expect(result.life).toEqual(alive);
    expect(result.steps).toContainEqual({ kind: 'revived', before: -12, vitality: 5 });
  });

  it('Ruling: raising a dead token but not above 0 keeps it dead, at the value typed', () => {
    expect(applyHandEdit(-12, -2, { condition: 'dead', savesOwed: 0 })).toMatchObject({
      after: -2, life: { condition: 'dead', savesOwed: 0 },
    });
  });

  it('raising anyone above 0 clears conditions and saves', () => {
    expect(applyHandEdit(-4, 3, { condition: 'incapacitated', savesOwed: 1 })).toMatchObject({ after: 3, life: alive });
    const dying = applyHandEdit(-20, 1, { condition: 'dying', savesOwed: 2 });
    expect(dying.life).toEqual(alive);
    expect(dying.steps).toContainEqual({ kind: 'conditions-cleared' });
  });

  it('raising a dying token to -9..0 makes it incapacitated with no save', () => {
    const result = applyHandEdit(-20, -9, { condition: 'dying', savesOwed: 3 });
    expect(result.life).toEqual({ condition: 'incapacitated', savesOwed: 0 });
    expect(result.steps).toContainEqual({ kind: 'saves-lost', count: 3 });
    expect(applyHandEdit(-20, 0, { condition: 'dying', savesOwed: 3 }).life).toEqual({ condition: 'incapacitated', savesOwed: 0 });
  });

  it('Ruling: raising a dying token but still to -10 or below keeps it dying with its saves', () => {
    expect(applyHandEdit(-20, -10, { condition: 'dying', savesOwed: 2 }).life).toEqual({ condition: 'dying', savesOwed: 2 });
  });

  it('Ruling: raising an incapacitated token but not above 0 keeps its owed save', () => {
    expect(applyHandEdit(-8, -1, { condition: 'incapacitated', savesOwed: 1 }).life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
  });

  it('no change, no steps', () => {
    expect(applyHandEdit(7, 7, alive)).toEqual({ after: 7, life: alive, steps: [] });
  });
});

describe('lifeFromVitality (switching editions, first sight of a token)', () => {
  it('reads conditions from Vitality alone, with no saves owed', () => {
    expect(lifeFromVitality(1)).toEqual({ condition: 'none', savesOwed: 0 });
    expect(lifeFromVitality(0)).toEqual({ condition: 'incapacitated', savesOwed: 0 });
    expect(lifeFromVitality(-9)).toEqual({ condition: 'incapacitated', savesOwed: 0 });
    expect(lifeFromVitality(-10)).toEqual({ condition: 'dead', savesOwed: 0 });
  });
});
