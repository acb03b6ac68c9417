// The edition conformance suite, its life group (issue 31): over every registered edition, the
// laws the pipeline counts on when it enters a token, reads its condition, settles a hand edit and
// keeps its state and answers in `state` across restarts.
import { editionsUnderTest } from '../../support/conformance';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { sameData } from '../../../src/state/memory';
import { play, walkArb } from '../../support/conformance';

const EDITIONS = editionsUnderTest();
const vitalityArb = fc.integer({ min: -60, max: 150 });

/** What a stored value becomes across a restart: Roll20 keeps `state` as JSON. */
const restarted = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));

/** Values that are no record, as a corrupt or hand-edited `state` may hold them (an unknown key of a record may be dropped). */
const GARBAGE: unknown[] = [null, undefined, 0, 42, NaN, -1, '', 'garbage', true, false, [], [1, 2], ['success'], [{}], () => 1, Symbol('x')];

describe.each(EDITIONS)('edition %s: enter and condition agree', (_id, edition) => {
  const { life } = edition;

  it('a token entered at a Vitality shows the condition the edition reads from that Vitality alone', () => {
    // rules.md, "Switching editions": conditions are read again from Vitality in the new edition's terms.
    const fresh = life.enter(null, false);
    fc.assert(
      fc.property(fc.option(vitalityArb, { nil: null }), (vitality) => {
        expect(life.condition(life.enter(vitality, false), vitality)).toBe(life.condition(fresh, vitality));
      }),
    );
  });

  it('a token entered dead for good reads dead, and dead for good', () => {
    // rules.md, "Switching editions": a token dead for good stays dead. Every edition's dead lie at
    // or below 0 (a bar raised above 0 by hand brings a token back), so that is where they enter.
    fc.assert(
      fc.property(fc.integer({ min: -60, max: 0 }), (vitality) => {
        const state = life.enter(vitality, true);
        expect(life.condition(state, vitality)).toBe('dead');
        expect(life.deadForGood(state, vitality)).toBe(true);
      }),
    );
  });
});

describe.each(EDITIONS)('edition %s: setVitality(v, v) changes nothing', (_id, edition) => {
  it('the same Vitality, no condition step, the state as it was, for every state its rules make', () => {
    fc.assert(
      fc.property(walkArb, (walk) => {
        for (const { value, from } of play(edition, walk).states) {
          if (value.vitality === null) continue;
          const set = edition.life.setVitality(value.vitality, value.vitality, value.state);
          const where = `${from}, then setVitality(${value.vitality}, ${value.vitality})`;
          expect(set.vitality, where).toBe(value.vitality);
          expect(set.conditions, where).toEqual([]);
          expect(sameData(set.state, value.state), `${where}: ${JSON.stringify(value.state)} became ${JSON.stringify(set.state)}`).toBe(true);
          expect(set.dropsAnswer, where).toBeUndefined();
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe.each(EDITIONS)('edition %s: state and answer schemas round-trip', (_id, edition) => {
  const { life } = edition;

  it('every state its rules make reads back as itself after a restart', () => {
    fc.assert(
      fc.property(walkArb, (walk) => {
        for (const { value, from } of play(edition, walk).states) {
          expect(life.parseState(restarted(value.state)), `${from}: ${JSON.stringify(value.state)}`).toEqual(value.state);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('every answer its checks file reads back as itself after a restart', () => {
    let filed = 0;
    fc.assert(
      fc.property(walkArb, (walk) => {
        for (const { value, from } of play(edition, walk).answers) {
          filed += 1;
          expect(life.parseAnswer(restarted(value)), `${from}: ${JSON.stringify(value)}`).toEqual(value);
        }
      }),
      { numRuns: 200 },
    );
    // A law over no answer proves nothing: an edition whose `!defend` is played files some.
    if (!edition.check.refused && edition.check.answers.choices.some((choice) => choice !== 'none')) expect(filed).toBeGreaterThan(0);
  });

  it('garbage reads as no state and no answer, and nothing read throws', () => {
    for (const raw of GARBAGE) {
      const what = typeof raw === 'symbol' || typeof raw === 'function' ? typeof raw : JSON.stringify(raw);
      expect(life.parseState(raw), what).toBeNull();
      expect(life.parseAnswer(raw), what).toBeNull();
    }
    fc.assert(
      fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (raw) => {
        // Whatever it makes of the value, it reads its own result back unchanged.
        const state = life.parseState(raw);
        if (state !== null) expect(life.parseState(restarted(state))).toEqual(state);
        const answer = life.parseAnswer(raw);
        if (answer !== null) expect(life.parseAnswer(restarted(answer))).toEqual(answer);
      }),
      { numRuns: 300 },
    );
  });
});
