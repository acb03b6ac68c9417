// Sheet formulas worked out as Roll20 would (src/text/formula.ts): what is a number, what is not.
import { describe, expect, it } from 'vitest';
import { evaluateFormula, FORMULA_BUDGET, FormulaSession, type FormulaLookup } from '../../src/text/formula';

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

describe('one read of a sheet (FormulaSession)', () => {
  it('looks each attribute up once, current and max apart, and finds a loop through the memo', () => {
    const asked: string[] = [];
    const fields: Record<string, unknown> = { a: '@{b}+@{b}+@{b|max}', b: '@{c}*@{c}', c: 3 };
    const session = new FormulaSession((name, which) => {
      asked.push(`${name}|${which}`);
      return which === 'max' ? 1 : fields[name];
    });
    expect(session.evaluate('@{a}+@{b}')).toEqual({ ok: true, value: 28 });
    expect(asked).toEqual(['a|current', 'b|current', 'c|current', 'b|max']);
    expect(session.evaluate('@{c}')).toEqual({ ok: true, value: 3 });
    expect(asked).toHaveLength(4);
    expect(evaluateFormula('@{x}', (name) => ({ x: '@{y}+@{y}', y: '@{x}' })[name])).toEqual({ ok: false, problem: 'refers to itself through other attributes' });
  });

  it('refuses a chain deeper than 20, even through an attribute met before higher up', () => {
    const chain = (depth: number): FormulaLookup => (name) => (Number(name.slice(1)) >= depth ? 0 : `@{l${Number(name.slice(1)) + 1}}`);
    expect(evaluateFormula('@{l1}', chain(20))).toEqual({ ok: true, value: 0 });
    expect(evaluateFormula('@{l1}', chain(21))).toEqual({ ok: false, problem: 'refers to attributes nested more than 20 deep' });
    // l5 is met first from the top (fine), then again at the bottom of a long chain (too deep from there).
    const fields = (bottom: number): FormulaLookup => (name) => (name === 'l5' ? 0 : name === 'top' ? '@{l5}+@{m1}' : Number(name.slice(1)) === bottom ? '@{l5}' : `@{m${Number(name.slice(1)) + 1}}`);
    expect(evaluateFormula('@{top}', fields(18))).toEqual({ ok: true, value: 0 });
    expect(evaluateFormula('@{top}', fields(19))).toEqual({ ok: false, problem: 'refers to attributes nested more than 20 deep' });
  });

  it('refuses a read past its budget, naming the work, not any one attribute', () => {
    const many = Array.from({ length: FORMULA_BUDGET.lookups + 1 }, (_, i) => `@{a${i}}`);
    const sum = (refs: string[]) => refs.join('+');
    const lookup: FormulaLookup = (name) => (name.startsWith('a') ? 1 : sum(many.slice(Number(name.slice(1)) * 100, Number(name.slice(1)) * 100 + 100)));
    const parts = Array.from({ length: Math.ceil(many.length / 100) }, (_, i) => `@{p${i}}`);
    expect(evaluateFormula(sum(parts), lookup)).toEqual({ ok: false, problem: `is too much work to work out (over ${FORMULA_BUDGET.lookups} attributes to look up)` });
    const long = `1${'+1'.repeat(999)}`;
    const wide: FormulaLookup = () => long;
    const refs = Array.from({ length: 20 }, (_, i) => `@{w${i}}`).join('+');
    expect(evaluateFormula(refs, wide)).toEqual({ ok: false, problem: `is too much work to work out (over ${FORMULA_BUDGET.chars} characters of formulas)` });
  });

  it('has no function but its four: a name from an object prototype is no function', () => {
    for (const text of ['constructor(7)+0', 'CONSTRUCTOR(7)', 'toString(1)', 'valueOf(1)', 'hasOwnProperty(1)', '__proto__(1)', 'isPrototypeOf(1)', 'toLocaleString(1)', 'propertyIsEnumerable(1)', '__defineGetter__(1)']) {
      expect(value(text), text).toEqual({ ok: false, problem: 'is not a number or a formula of numbers and attributes' });
    }
    expect(value('FLOOR(7/2) + Abs(-1)')).toEqual({ ok: true, value: 4 });
  });
});
