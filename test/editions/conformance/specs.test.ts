// The edition conformance suite, its specs (issue 31): over every registered edition, each
// command's spec takes its own usage and examples, names only flags it has, and the contract an
// edition fills stays small.
import { editionsUnderTest } from '../../support/conformance';
import { orderOf } from '../../../src/commands/orders';
import { stancePlan } from '../../../src/rules/stance';
import { toFlagTable } from '../../../src/text/flags';
import { describe, expect, it } from 'vitest';
import { isRefusal, type Edition } from '../../../src/rules/edition';
import { wordsOf } from '../../../src/rules/sharedSteps';
import { factsOf } from '../../support/facts';
import { checkFlags, parseLine, UsageError } from '../../../src/text/args';
import { CONFORMANCE_CONTEXT, specLines, usageChoices, usageFlags, usageLine } from '../../support/conformance';

const EDITIONS = editionsUnderTest();

/** Flags every edition's commands take from the pipeline (src/commands: damage.ts, defend.ts, stance.ts). */
const PIPELINE_FLAGS = new Set(['ids', 'help', 'undo', 'force']);

describe('usageLine: the required form of a usage', () => {
  it('takes the first choice, the low end of a range and a number for a placeholder; drops the optional and the second form', () => {
    expect(usageLine('!damage N [--type physical|magical] [--ids ID ...] (N: a number); !damage --undo [--force]')).toBe('!damage 1');
    expect(usageLine('!damage B --attack A [--ap P]')).toBe('!damage 1 --attack 1');
    expect(usageLine('!defend --action defend|evade [--roll 1-100]')).toBe('!defend --action defend');
    expect(usageLine('!defend --level 2-5')).toBe('!defend --level 2');
  });
});

describe.each(EDITIONS)('edition %s: each command\'s spec parses its own usage and examples', (_id, edition) => {
  const specs = [
    ['!damage', edition.hit, (line: string) => edition.hit.plan(orderOf(parseLine(line), edition.hit.flags, edition.hit.amount), CONFORMANCE_CONTEXT)],
    ['!defend', edition.check, (line: string) => edition.check.plan(orderOf(parseLine(line), edition.check.flags))],
  ] as const;

  for (const [command, spec, plan] of specs) {
    if (spec.refused) {
      it(`${command} is refused whole, and its plan says so with a UsageError`, () => {
        expect(spec.refused).not.toBe('');
        expect(() => plan(usageLine(spec.usage))).toThrow(UsageError);
      });
      continue;
    }
    it(`${command}: its usage's required form and every example plan with no UsageError, with only its own flags`, () => {
      expect(spec.examples?.length ?? 0, 'a few real lines of the command').toBeGreaterThanOrEqual(2);
      for (const line of specLines(spec)) {
        expect(line.split(' ')[0], line).toBe(command);
        expect(() => checkFlags(parseLine(line), toFlagTable(spec.flags)), line).not.toThrow();
        expect(() => plan(line), line).not.toThrow();
      }
    });
    it(`${command}: its usage names only flags its spec or the pipeline has`, () => {
      const unknown = usageFlags(spec.usage).filter((flag) => !PIPELINE_FLAGS.has(flag) && !Object.prototype.hasOwnProperty.call(spec.flags, flag));
      expect(unknown).toEqual([]);
    });
  }

  it('!stance: its usage offers exactly its modes, and each mode plans', () => {
    const { stance } = edition;
    if (stance.modes.length === 0) {
      // No stances: `!stance` is refused naming the edition, and the usage offers none.
      expect(usageChoices(stance.usage)).toEqual([]);
      return;
    }
    expect([...usageChoices(stance.usage)].sort()).toEqual([...stance.modes].sort());
    for (const mode of stance.modes) {
      const resolution = stancePlan(stance, mode).resolve(factsOf({}, { stance: null }), {});
      expect(isRefusal(resolution), mode).toBe(false);
      if (isRefusal(resolution)) continue;
      for (const step of resolution.steps) expect(wordsOf(edition, (id) => id)(step), `${mode}: ${step.kind}`).not.toMatch(/undefined|^$/);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The contract's size (issue 31: "a contract of at most ten members")

type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
type LastOf<U> = UnionToIntersection<U extends unknown ? () => U : never> extends () => infer R ? R : never;
type UnionToTuple<U, Last = LastOf<U>> = [U] extends [never] ? [] : [...UnionToTuple<Exclude<U, Last>>, Last];
type MemberCount = UnionToTuple<keyof Edition<unknown, unknown>>['length'];
// Checked by the compiler (npx tsc): an eleventh member of `Edition` makes this line an error.
const AT_MOST_TEN: MemberCount extends 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10 ? true : never = true;

describe.each(EDITIONS)('edition %s: the contract', (_id, edition) => {
  it('has at most ten members', () => {
    // The type-level check above is the compiler's (`npm test` runs tsc first); this one counts what each edition declares.
    void AT_MOST_TEN;
    expect(Object.keys(edition).length).toBeLessThanOrEqual(10);
  });
});
