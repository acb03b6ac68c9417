// The edition conformance suite, its words (issue 31): over every registered edition, every step
// its rules emit (hits, checks, stances, hand edits, each answer to an attack, setVitality) is said
// in words a card can print, and every card it makes has its title and its one public line.
import { editionsUnderTest } from '../../support/conformance';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SUMMARY, TITLE, type Step } from '../../../src/rules/edition';
import { wordsOf } from '../../../src/rules/sharedSteps';
import { play, walkArb } from '../../support/conformance';

const EDITIONS = editionsUnderTest();
const nameOf = (id: string) => `Name(${id})`;

/** What a card must never print: a value that was missing, or one that is no number or text. */
const BROKEN = /\bundefined\b|\bNaN\b|\[object|\bnull\b/;

describe.each(EDITIONS)('edition %s: every step kind it emits has words', (_id, edition) => {
  const say = wordsOf(edition, nameOf);

  it('each step is said in words without a missing value, each kind in some words, and no plan lets an exception escape', () => {
    const said = new Set<string>();
    const emitted = new Map<string, string>();
    fc.assert(
      fc.property(walkArb, (walk) => {
        const played = play(edition, walk);
        expect(played.errors.map(({ from, value }) => `${from}: ${String(value)}`)).toEqual([]);
        for (const { value: step, from } of played.steps) {
          const words: unknown = say(step);
          const where = `${from}: ${JSON.stringify(step)}`;
          expect(typeof words, where).toBe('string');
          expect(words as string, where).not.toMatch(BROKEN);
          if (!emitted.has(step.kind)) emitted.set(step.kind, where);
          // A step may say nothing where nothing changed ("Vitality 70 -> 70" is not printed), but its kind has words.
          if (words !== '') said.add(step.kind);
        }
      }),
      { numRuns: 300 },
    );
    const silent = [...emitted].filter(([kind]) => !said.has(kind)).map(([, where]) => where);
    expect(silent, 'step kinds never said in words').toEqual([]);
    // The walks reached its rules: an edition whose plans all refused would pass on nothing.
    expect(emitted.size).toBeGreaterThan(3);
  });

  it('every card of its hit, check and stance has a title and a summary step, each said in words', () => {
    fc.assert(
      fc.property(walkArb, (walk) => {
        for (const { value: outcome, from } of play(edition, walk).cards) {
          const title = outcome.steps.find((step: Step) => step.section === TITLE);
          const summary = outcome.steps.find((step: Step) => step.section === SUMMARY);
          // Without them the renderer falls back to the token's bare name, silently.
          expect(title, `${from}: no title step`).toBeDefined();
          expect(summary, `${from}: no summary step`).toBeDefined();
          expect(say(title!), from).not.toBe('');
          expect(say(summary!), from).not.toBe('');
        }
      }),
      { numRuns: 200 },
    );
  });
});
