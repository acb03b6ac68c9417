// The count the current turn began at (state/turnStart.ts): kept while its row stays on top, taken
// anew from a new top row or a re-sorted tracker, none for an empty one; checked on load.
import { describe, expect, it } from 'vitest';
import { checkTurnStart, nextTurnStart, turnStartOf } from '../../src/state/turnStart';
import { freshState, loadState } from '../../src/state/store';

const BOB = 'b0b0b0b0';
const GOBLIN = '90b11a00';

describe('the count the current turn began at', () => {
  it('is kept while the same row stays on top, whatever that row pays since (20 kept at 10, 0, -10)', () => {
    const kept = { row: BOB, initiative: 20 };
    for (const now of [10, 0, -10, null]) expect(nextTurnStart(kept, { row: BOB, initiative: now }, false)).toBe(kept);
  });

  it('is taken anew from a new top row: a turn passed', () => {
    expect(nextTurnStart({ row: BOB, initiative: 20 }, { row: GOBLIN, initiative: 12 }, false)).toEqual({ row: GOBLIN, initiative: 12 });
  });

  it('is taken anew from the top row of a re-sorted or new tracker, even the same row (its initiative now)', () => {
    expect(nextTurnStart({ row: BOB, initiative: 20 }, { row: BOB, initiative: 7 }, true)).toEqual({ row: BOB, initiative: 7 });
  });

  it('is first taken when none was kept (a first look, an upgrade)', () => {
    expect(nextTurnStart(undefined, { row: BOB, initiative: 15 }, false)).toEqual({ row: BOB, initiative: 15 });
  });

  it('is none for an empty tracker, or a new top row whose initiative is not a number', () => {
    expect(nextTurnStart({ row: BOB, initiative: 20 }, undefined, false)).toBeUndefined();
    expect(nextTurnStart({ row: BOB, initiative: 20 }, { row: GOBLIN, initiative: null }, false)).toBeUndefined();
  });

  it('is read only for the row it was kept for', () => {
    expect(turnStartOf({ row: BOB, initiative: 20 }, BOB)).toBe(20);
    expect(turnStartOf({ row: BOB, initiative: 20 }, GOBLIN)).toBeUndefined();
    expect(turnStartOf(undefined, BOB)).toBeUndefined();
  });
});

describe('the kept count in state', () => {
  it('is checked on load: a row hash and a finite number, else none', () => {
    expect(checkTurnStart({ row: BOB, initiative: 12.5 })).toEqual({ row: BOB, initiative: 12.5 });
    for (const bad of [undefined, null, 'x', { row: 'Bob', initiative: 1 }, { row: BOB, initiative: '20' }, { row: BOB, initiative: Number.NaN }, { row: BOB, initiative: 1e12 }]) {
      expect(checkTurnStart(bad)).toBeUndefined();
    }
  });

  it('survives a load; a bad one is dropped, the round kept', () => {
    const fresh = freshState('1.0.0');
    const round = { number: 3, seen: [BOB, GOBLIN], turned: 1 };
    expect(loadState({ ...fresh, round: { ...round, start: { row: BOB, initiative: 20 } } }, '1.0.0').stored.round).toEqual({ ...round, start: { row: BOB, initiative: 20 } });
    expect(loadState({ ...fresh, round: { ...round, start: { row: BOB } } }, '1.0.0').stored.round).toEqual(round);
  });
});
