// Sheet formulas as Roll20 works them out: an auto-calculated field holds its formula
// ("@{armor_base}+10"), and Roll20 puts each @{name} (or @{name|max}) in its place, then does the
// arithmetic of an inline roll: + - * / %, parentheses, floor() ceil() round() abs(). Anything
// else (dice, words, a missing attribute, a loop) cannot be worked out and is said so, never 0.
// Pure: the attribute look-up is given.

/** A referenced attribute's raw value (current or max), or undefined when the character has none. */
export type FormulaLookup = (name: string, which: 'current' | 'max') => unknown;

export type FormulaResult = { ok: true; value: number } | { ok: false; problem: string };

/** Attributes referring to attributes: deeper than this is a loop (Roll20 stops at 99 levels too). */
const MAX_DEPTH = 20;
const MAX_LENGTH = 2000;

const FUNCTIONS: Record<string, (x: number) => number> = { floor: Math.floor, ceil: Math.ceil, round: Math.round, abs: Math.abs };

/** Works out a formula's value; `depth` counts the attributes already being worked out. */
export function evaluateFormula(text: string, lookup: FormulaLookup, depth = 0): FormulaResult {
  if (depth > MAX_DEPTH) return { ok: false, problem: 'refers to itself through other attributes' };
  if (text.length > MAX_LENGTH) return { ok: false, problem: 'is too long to be a formula' };
  const substituted = substitute(text, lookup, depth);
  if (!substituted.ok) return substituted;
  // Inline-roll brackets count as parentheses: [[@{a}+1]] is (@{a}+1).
  const parser = new Parser(substituted.text.replace(/\[\[/g, '(').replace(/\]\]/g, ')'));
  const value = parser.parse();
  if (value === undefined || !Number.isFinite(value)) return { ok: false, problem: 'is not a number or a formula of numbers and attributes' };
  return { ok: true, value: value + 0 };
}

/** Each @{name} and @{name|max} replaced by its value, worked out first if it is a formula itself. */
function substitute(text: string, lookup: FormulaLookup, depth: number): { ok: true; text: string } | { ok: false; problem: string } {
  let out = '';
  let last = 0;
  const pattern = /@\{([^{}|]+)(?:\|(max|current))?\}/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) {
    const name = match[1]!.trim();
    const which = match[2] === 'max' ? 'max' : 'current';
    const raw = lookup(name, which);
    if (raw === undefined || raw === null) return { ok: false, problem: `refers to "${name}", which the character does not have` };
    const inner = typeof raw === 'number' ? String(raw) : String(raw).trim();
    let value: number;
    if (inner === '') value = 0; // an empty field adds nothing, as in Roll20's own roll
    else {
      const worked = evaluateFormula(inner, lookup, depth + 1);
      if (!worked.ok) return worked.problem.startsWith('refers to') ? worked : { ok: false, problem: `refers to "${name}", which ${worked.problem}` };
      value = worked.value;
    }
    out += `${text.slice(last, match.index)}(${value})`;
    last = match.index + match[0].length;
  }
  return { ok: true, text: out + text.slice(last) };
}

type Operator = (a: number, b: number) => number;
/** Operators by their character, in tables with no prototype (a character is looked up in them as typed). */
const operators = (ops: Record<string, Operator>): Record<string, Operator> => Object.assign(Object.create(null) as Record<string, Operator>, ops);
const SUMS = operators({ '+': (a, b) => a + b, '-': (a, b) => a - b });
const PRODUCTS = operators({ '*': (a, b) => a * b, '/': (a, b) => a / b, '%': (a, b) => a % b });

/** Arithmetic with the usual precedence; undefined for anything it does not understand. */
class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): number | undefined {
    const value = this.sum();
    this.space();
    return value !== undefined && this.at === this.text.length ? value : undefined;
  }

  private space(): void {
    while (this.at < this.text.length && /\s/.test(this.text[this.at]!)) this.at += 1;
  }

  private sum(): number | undefined {
    return this.chain(() => this.product(), SUMS);
  }

  private product(): number | undefined {
    return this.chain(() => this.unary(), PRODUCTS);
  }

  /** Operands joined by operators of one precedence, worked out left to right. */
  private chain(operand: () => number | undefined, ops: Record<string, Operator>): number | undefined {
    let value = operand();
    for (;;) {
      if (value === undefined) return undefined;
      this.space();
      const op = ops[this.text[this.at] ?? ''];
      if (op === undefined) return value;
      this.at += 1;
      const right = operand();
      if (right === undefined) return undefined;
      value = op(value, right);
    }
  }

  private unary(): number | undefined {
    this.space();
    const op = this.text[this.at];
    if (op === '-' || op === '+') {
      this.at += 1;
      const value = this.unary();
      return value === undefined ? undefined : op === '-' ? -value : value;
    }
    return this.atom();
  }

  private atom(): number | undefined {
    this.space();
    const rest = this.text.slice(this.at);
    const number = /^\d+(\.\d+)?/.exec(rest);
    if (number) {
      this.at += number[0].length;
      return Number(number[0]);
    }
    const call = /^([a-z]+)\s*\(/i.exec(rest);
    if (call) {
      const fn = FUNCTIONS[call[1]!.toLowerCase()];
      if (!fn) return undefined;
      this.at += call[0].length;
      const inner = this.sum();
      this.space();
      if (inner === undefined || this.text[this.at] !== ')') return undefined;
      this.at += 1;
      return fn(inner);
    }
    if (rest.startsWith('(')) {
      this.at += 1;
      const inner = this.sum();
      this.space();
      if (inner === undefined || this.text[this.at] !== ')') return undefined;
      this.at += 1;
      return inner;
    }
    return undefined;
  }
}
