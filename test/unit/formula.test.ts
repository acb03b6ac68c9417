// Sheet formulas worked out as Roll20 would (src/text/formula.ts): what is a number, what is not.
import { describe, expect, it } from 'vitest';
import { evaluateFormula, type FormulaLookup } from '../../src/text/formula';

const sheet: Record<string, { current: unknown; max?: unknown }> = {
  armor_base: { current: 10, max: 12 },
  dex: { current: '15' },
  bonus: { current: '@{armor_base}+@{dex}' },
  empty: { current: '' },
  loop_a: { current: '@{loop_b}' },
  loop_b: { current: '@{loop_a}' },
  words: { current: 'lots' },
};
const lookup: FormulaLookup = (name, which) => (name in sheet ? (which === 'max' ? sheet[name]!.max : sheet[name]!.current) : undefined);
const value = (text: string) => evaluateFormula(text, lookup);

describe('evaluateFormula', () => {
  it('does arithmetic with the usual precedence, left to right', () => {
    expect(value('2+3*4')).toEqual({ ok: true, value: 14 });
    expect(value('(2+3)*4')).toEqual({ ok: true, value: 20 });
    expect(value('20-5-5')).toEqual({ ok: true, value: 10 });
    expect(value('20/2/5')).toEqual({ ok: true, value: 2 });
    expect(value('17 % 5')).toEqual({ ok: true, value: 2 });
    expect(value('-3 + +5')).toEqual({ ok: true, value: 2 });
  });

  it('puts in attributes (current or max), formulas inside formulas, inline-roll brackets as parentheses', () => {
    expect(value('@{armor_base}+10')).toEqual({ ok: true, value: 20 });
    expect(value('@{armor_base|max}*2')).toEqual({ ok: true, value: 24 });
    expect(value('@{bonus}')).toEqual({ ok: true, value: 25 });
    expect(value('[[@{dex} + 1]] * 2')).toEqual({ ok: true, value: 32 });
    expect(value('@{empty}+5')).toEqual({ ok: true, value: 5 });
  });

  it('knows floor, ceil, round and abs', () => {
    expect(value('floor(@{dex}/2)')).toEqual({ ok: true, value: 7 });
    expect(value('ceil(7/2)')).toEqual({ ok: true, value: 4 });
    expect(value('round(7/2)')).toEqual({ ok: true, value: 4 });
    expect(value('abs(3-10)')).toEqual({ ok: true, value: 7 });
  });

  it('works out a fraction as a fraction (the reader refuses it as not whole)', () => {
    expect(value('@{dex}/2')).toEqual({ ok: true, value: 7.5 });
  });

  it('says why what it cannot work out, never 0', () => {
    expect(value('@{shield}+1')).toEqual({ ok: false, problem: 'refers to "shield", which the character does not have' });
    expect(value('@{loop_a}')).toEqual({ ok: false, problem: 'refers to itself through other attributes' });
    expect(value('@{words}+1')).toEqual({ ok: false, problem: 'refers to "words", which is not a number or a formula of numbers and attributes' });
    for (const text of ['1d20', 'lots', '2+', 'sqrt(4)', '(1', '1e3', '']) expect(value(text).ok).toBe(false);
    expect(value('x'.repeat(2001)).ok).toBe(false);
  });
});
