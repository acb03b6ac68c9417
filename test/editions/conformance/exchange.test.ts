// The edition conformance suite, the exchange (issue 32): over every registered edition, a defense
// made ahead in an attack's own situation always stands in for it (rules.md: a defense made ahead
// answers an attack where it fits its situation), and an attack meets each defender as the same
// order every time it is asked (the pipeline plans the hit once per order).
import { describe, expect, it } from 'vitest';
import { isRefusal, type AnyEdition, type Order, type ValueKey } from '../../../src/rules/edition';
import { plainAttack } from '../../../src/rules/editions';
import { RefusalError, UsageError } from '../../../src/text/args';
import { editionsUnderTest } from '../../support/conformance';
import { CONTEXT, factsOf, val } from '../../support/facts';

const EDITIONS = editionsUnderTest();
const NO_FLAGS: Order = { positionals: [] };

/** The situations an attack may declare in this edition (its `!attack` or `!damage` `--situation` choices), and none. */
function situationsOf(edition: AnyEdition): Array<string | null> {
  const flag = edition.check.answers.flags.situation ?? edition.hit.flags.situation;
  return [null, ...(flag?.kind === 'choice' ? flag.choices : [])];
}

/** The answers that may be filed: every choice but none. */
const answerWords = (edition: AnyEdition) => edition.check.answers.choices.filter((word) => word !== 'none');

describe.each(EDITIONS)('edition %s: the exchange', (_id, edition) => {
  const { answers } = edition.check;

  it('a defense made ahead in the attack\'s own situation stands in for it, whatever its result', () => {
    let filed = 0;
    for (const situation of situationsOf(edition)) {
      const attack = plainAttack(situation, 'attacker-1', 'bob-1');
      for (const word of answerWords(edition)) {
        let plan;
        try {
          plan = answers.planAnswer(word, attack, CONTEXT, NO_FLAGS);
        } catch (error) {
          if (error instanceof UsageError || error instanceof RefusalError) continue;
          throw error;
        }
        const values = Object.fromEntries(plan.values.map((key: ValueKey) => [key, val(50)]));
        const facts = factsOf(edition.life.enter(70, false), { values });
        // Its best and its worst roll: a success and a failure both stand in.
        for (const face of ['low', 'high'] as const) {
          const rolls = Object.fromEntries(plan.dice.map((die) => [die.name, face === 'low' ? 1 : die.sides]));
          const resolution = plan.resolve(facts, rolls);
          if (isRefusal(resolution) || resolution.answer === undefined || resolution.answer === null) continue;
          filed += 1;
          expect(answers.fits?.(resolution.answer, attack) ?? null, `${word} made ahead in ${situation ?? 'no situation'} (${face} roll)`).toBeNull();
        }
      }
    }
    // An edition whose `!defend` files answers files some here (the law is not empty for it).
    if (!edition.check.refused && answerWords(edition).length > 0) expect(filed).toBeGreaterThan(0);
  });

  it('an attack meets a defender as the same order each time it is asked', () => {
    for (const situation of situationsOf(edition)) {
      const order: Order = situation === null ? { positionals: [] } : { positionals: [], situation };
      expect(answers.forDefender(order, 'bob-1')).toBe(answers.forDefender(order, 'bob-1'));
    }
  });
});
