// Sheet formulas as Roll20 works them out: an auto-calculated field holds its formula
// ("@{armor_base}+10"), and Roll20 puts each @{name} (or @{name|max}) in its place, then does the
// arithmetic of an inline roll (src/text/arithmetic.ts). Anything else (dice, words, a missing
// attribute, a loop) cannot be worked out and is said so, never 0.
// A player writes these formulas: one read works each attribute out once, within a budget of work,
// so no sheet can hold the game up (issue 29: 6^12 look-ups from twelve fields of 41 characters).
// Pure: the attribute look-up is given.
import { arithmetic } from './arithmetic';

/** A referenced attribute's raw value (current or max), or undefined when the character has none. */
export type FormulaLookup = (name: string, which: 'current' | 'max') => unknown;

export type FormulaResult = { ok: true; value: number } | { ok: false; problem: string };

/** Attributes referring to attributes: a chain longer than this is refused (Roll20 stops at 99 levels). */
const MAX_DEPTH = 20;
const MAX_LENGTH = 2000;

/**
 * The work one read may do, far more than a real sheet asks and done in a few milliseconds: the
 * attributes looked up, and the characters of formula read and written out with their values.
 */
export const FORMULA_BUDGET = { lookups: 300, chars: 30_000 } as const;

const LOOP = 'refers to itself through other attributes';
const TOO_DEEP = `refers to attributes nested more than ${MAX_DEPTH} deep`;
const TOO_MANY = `is too much work to work out (over ${FORMULA_BUDGET.lookups} attributes to look up)`;
const TOO_LONG = `is too much work to work out (over ${FORMULA_BUDGET.chars} characters of formulas)`;
const NOT_A_NUMBER = 'is not a number or a formula of numbers and attributes';

/**
 * One attribute worked out: its value and `height`, the longest chain of references below it; or why
 * not. A problem is the attribute's `own` (said after "refers to NAME, which"), the `whole` formula's
 * (said as it is), or this `read`'s (too deep from here, or the budget spent: said as it is, and not
 * remembered, since the attribute may be fine from elsewhere).
 */
type Worked = { ok: true; value: number; height: number } | { ok: false; problem: string; kind: 'own' | 'whole' | 'read' };

/** Met again while being worked out: a loop. */
const WORKING = 'working';

/**
 * One read's formulas (one token's values in one command): each attribute, by name and current or
 * max, is worked out once and remembered for this read only, and all of it counts against one budget.
 */
export class FormulaSession {
  private readonly memo = new Map<string, Worked | typeof WORKING>();
  private lookups = 0;
  private chars = 0;

  constructor(private readonly lookup: FormulaLookup) {}

  /** A formula's value, or why it cannot be worked out. */
  evaluate(text: string): FormulaResult {
    const worked = this.work(text, 0);
    return worked.ok ? { ok: true, value: worked.value + 0 } : { ok: false, problem: worked.problem };
  }

  /** A formula's value; `depth` counts the attributes already being worked out above it. */
  private work(text: string, depth: number): Worked {
    if (depth > MAX_DEPTH) return problem(TOO_DEEP, 'read');
    if (text.length > MAX_LENGTH) return problem('is too long to be a formula');
    if (!this.spend(text.length)) return problem(TOO_LONG, 'read');
    let out = '';
    let last = 0;
    let height = 0;
    const pattern = /@\{([^{}|]+)(?:\|(max|current))?\}/g;
    let match: RegExpExecArray | null;
    while ((match = pattern.exec(text)) !== null) {
      const name = match[1]!.trim();
      const worked = this.attribute(name, match[2] === 'max' ? 'max' : 'current', depth + 1);
      if (!worked.ok) return worked.kind === 'own' ? problem(`refers to "${name}", which ${worked.problem}`, 'whole') : worked;
      // Met before at a shallower depth: the chain through it may still be too long from here.
      if (depth + 1 + worked.height > MAX_DEPTH) return problem(TOO_DEEP, 'read');
      height = Math.max(height, worked.height + 1);
      out += `${text.slice(last, match.index)}(${worked.value})`;
      last = match.index + match[0].length;
    }
    if (last > 0) {
      out += text.slice(last);
      if (!this.spend(out.length)) return problem(TOO_LONG, 'read');
    } else out = text;
    // Inline-roll brackets count as parentheses: [[@{a}+1]] is (@{a}+1).
    const value = arithmetic(out.replace(/\[\[/g, '(').replace(/\]\]/g, ')'));
    if (value === undefined || !Number.isFinite(value)) return problem(NOT_A_NUMBER);
    return { ok: true, value, height };
  }

  /** A referenced attribute, worked out on first meeting and remembered for the rest of the read. */
  private attribute(name: string, which: 'current' | 'max', depth: number): Worked {
    const key = `${which}|${name}`;
    const known = this.memo.get(key);
    if (known === WORKING) return problem(LOOP, 'whole');
    if (known !== undefined) return known;
    if (this.lookups >= FORMULA_BUDGET.lookups) return problem(TOO_MANY, 'read');
    this.lookups += 1;
    const raw = this.lookup(name, which);
    this.memo.set(key, WORKING);
    const worked = this.workRaw(raw, depth);
    if (worked.ok || worked.kind !== 'read') this.memo.set(key, worked);
    else this.memo.delete(key);
    return worked;
  }

  /** A looked-up value: nothing is a missing attribute, empty adds nothing (as in Roll20's own roll). */
  private workRaw(raw: unknown, depth: number): Worked {
    if (raw === undefined || raw === null) return problem('the character does not have');
    const inner = typeof raw === 'number' ? String(raw) : String(raw).trim();
    // No text worked out: it takes no depth, so -1.
    if (inner === '') return { ok: true, value: 0, height: -1 };
    return this.work(inner, depth);
  }

  /** Counts characters of work; false once the read's budget is spent. */
  private spend(chars: number): boolean {
    this.chars += chars;
    return this.chars <= FORMULA_BUDGET.chars;
  }
}

function problem(text: string, kind: 'own' | 'whole' | 'read' = 'own'): Worked {
  return { ok: false, problem: text, kind };
}

/** Works out one formula on its own (a read of its own). */
export function evaluateFormula(text: string, lookup: FormulaLookup): FormulaResult {
  return new FormulaSession(lookup).evaluate(text);
}
