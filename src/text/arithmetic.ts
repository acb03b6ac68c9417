// The arithmetic of an inline roll, once a formula's attributes are put in: + - * / %, parentheses
// and floor() ceil() round() abs(), with the usual precedence. Pure; linear in the text.

type Operator = (a: number, b: number) => number;

/** A table looked up by what the player typed: no prototype, so "constructor" or "__proto__" is in it only if put there. */
function typedTable<T>(entries: Record<string, T>): Record<string, T> {
  return Object.assign(Object.create(null) as Record<string, T>, entries);
}

const SUMS = typedTable<Operator>({ '+': (a, b) => a + b, '-': (a, b) => a - b });
const PRODUCTS = typedTable<Operator>({ '*': (a, b) => a * b, '/': (a, b) => a / b, '%': (a, b) => a % b });
const FUNCTIONS = typedTable<(x: number) => number>({ floor: Math.floor, ceil: Math.ceil, round: Math.round, abs: Math.abs });

/** The text's value, or undefined for anything it does not understand. */
export function arithmetic(text: string): number | undefined {
  return new Parser(text).parse();
}

const isDigit = (code: number) => code >= 48 && code <= 57;
const isLetter = (code: number) => (code | 32) >= 97 && (code | 32) <= 122;
/** Whitespace as /\s/ has it, the common ASCII kinds without a regular expression. */
const isSpace = (text: string, at: number) => {
  const code = text.charCodeAt(at);
  return code === 32 || (code >= 9 && code <= 13) || (code > 127 && /\s/.test(text[at]!));
};

/** Character by character, with no copies of the text: a long formula costs its length. */
class Parser {
  private at = 0;

  constructor(private readonly text: string) {}

  parse(): number | undefined {
    const value = this.sum();
    this.space();
    return value !== undefined && this.at === this.text.length ? value : undefined;
  }

  private space(): void {
    while (this.at < this.text.length && isSpace(this.text, this.at)) this.at += 1;
  }

  /** The operator of `ops` where the parser stands (stepping past it), or undefined. */
  private operator(ops: Record<string, Operator>): Operator | undefined {
    this.space();
    const op = ops[this.text[this.at] ?? ''];
    if (op !== undefined) this.at += 1;
    return op;
  }

  /** Terms joined by + and -, worked out left to right. */
  private sum(): number | undefined {
    return this.chain(SUMS, () => this.product());
  }

  /** Factors joined by *, / and %, worked out left to right. */
  private product(): number | undefined {
    return this.chain(PRODUCTS, () => this.unary());
  }

  /** Operands joined by the operators of one precedence (`ops`), worked out left to right. */
  private chain(ops: Record<string, Operator>, operand: () => number | undefined): number | undefined {
    let value = operand();
    for (let op; value !== undefined && (op = this.operator(ops)) !== undefined; ) {
      const right = operand();
      value = right === undefined ? undefined : op(value, right);
    }
    return value;
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
    const text = this.text;
    const start = this.at;
    if (isDigit(text.charCodeAt(start))) {
      let end = start + 1;
      while (isDigit(text.charCodeAt(end))) end += 1;
      if (text[end] === '.' && isDigit(text.charCodeAt(end + 1))) for (end += 2; isDigit(text.charCodeAt(end)); ) end += 1;
      this.at = end;
      return Number(text.slice(start, end));
    }
    if (isLetter(text.charCodeAt(start))) {
      let end = start + 1;
      while (isLetter(text.charCodeAt(end))) end += 1;
      const fn = FUNCTIONS[text.slice(start, end).toLowerCase()];
      this.at = end;
      this.space();
      if (fn === undefined || text[this.at] !== '(') return undefined;
      this.at += 1;
      const inner = this.closing();
      return inner === undefined ? undefined : fn(inner);
    }
    if (text[start] === '(') {
      this.at += 1;
      return this.closing();
    }
    return undefined;
  }

  /** A sum and the ")" that closes it (the "(" already taken). */
  private closing(): number | undefined {
    const inner = this.sum();
    this.space();
    if (inner === undefined || this.text[this.at] !== ')') return undefined;
    this.at += 1;
    return inner;
  }
}
