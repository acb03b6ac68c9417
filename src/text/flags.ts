// Typed flags as data and the one parser that reads them (issue 31): what a command's flags take,
// who may give them and which only go with which, declared once so the parser, the help and the
// fuzzer all read the same table. Pure: no Roll20, no edition names; refusals are UsageErrors in
// the words `checkFlags`, `integerArg` and `choiceArg` already say.
import { checkFlags, choiceArg, echo, integerArg, UsageError, type FlagSpec, type FlagTable, type ParsedLine } from './args';
import { MAX_DAMAGE, readInteger } from '../rules/values';

/**
 * Refuses the flag unless another flag's value is (`in`) or is not (`notIn`) one of these words;
 * with neither, unless the other flag is given at all. Compared with the other flag's value as
 * parsed (a choice's word in lower case), or its default when it is not given.
 */
export interface FlagCondition {
  flag: string;
  in?: readonly string[];
  notIn?: readonly string[];
  /** The whole refusal, said instead of the parser's own; `{value}` is the other flag's value. */
  why?: string;
}

interface FlagBase {
  /** It decides the defender's side: only the GM or the target's controller may give it; says what it does. */
  decides?: string;
  /** Another flag that must be given with this one (a plain name, or with the refusal to say). */
  needs?: string | { flag: string; why?: string };
  /** Refused unless each condition holds. */
  onlyWhen?: FlagCondition | readonly FlagCondition[];
  /** Must be given (always, or `when` another flag's value is one of `in`); `why` is the whole refusal (`{value}`: the other flag's value). */
  required?: true | { why?: string; when?: { flag: string; in: readonly string[] } };
  /** The value's name in the usage (`[--mod M]`); each kind has its own otherwise. */
  placeholder?: string;
  /** What the flag does, for the help. */
  help?: string;
  /** A flag kept only to refuse it, saying what replaced it (checked right after the flags' shape). */
  retired?: string;
}

export interface SwitchFlag extends FlagBase { kind: 'switch' }
/** Free words, joined by single spaces (a skill's name). */
export interface TextFlag extends FlagBase { kind: 'text'; default?: string }
/** Words, each maybe a comma-separated run (`--ids a b,c`). */
export interface ListFlag extends FlagBase { kind: 'list' }
/** Another token's id (the commands check it is on the table and not the target itself). */
export interface TokenFlag extends FlagBase { kind: 'token' }
/** One word, as given (a key, a name). */
export interface WordFlag extends FlagBase { kind: 'word' }
export interface IntegerFlag extends FlagBase { kind: 'integer'; min: number; max: number; default?: number }
/** A whole number 0 to `max`, or an inline roll's total; `example` shows the inline roll a bare expression should have been. */
export interface AmountFlag extends FlagBase { kind: 'amount'; max: number; example?: string; default?: number }
/** One of `choices`, any case; a `meaningless` word is refused with its own whole refusal. */
export interface ChoiceFlag extends FlagBase {
  kind: 'choice';
  choices: readonly string[];
  meaningless?: Readonly<Record<string, string>>;
  default?: string;
}
/** A named die's roll given in chat instead of rolled: 1 to `sides` (kind `die`: "roll" is a flag's name, kept in src/rules/). */
export interface DieFlag extends FlagBase { kind: 'die'; sides: number }

export type TypedFlag = SwitchFlag | TextFlag | ListFlag | TokenFlag | WordFlag | IntegerFlag | AmountFlag | ChoiceFlag | DieFlag;
export type TypedFlagTable = Readonly<Record<string, TypedFlag>>;

/** What one flag parses to. */
export type FlagValue<F> = F extends { kind: 'switch' } ? boolean
  : F extends { kind: 'choice'; choices: readonly (infer W extends string)[] } ? W
  : F extends { kind: 'integer' | 'amount' | 'die' } ? number
  : F extends { kind: 'list' } ? string[]
  : string;

// A switch is false when absent; a default or an unconditional `required` means a value is always there.
type AlwaysThere<F> = F extends { kind: 'switch' } ? true
  : F extends { default: unknown } ? true
  : F extends { required: { when: unknown } } ? false
  : F extends { required: unknown } ? true
  : false;

/** What a table parses to: each flag's value, `undefined` where it may be absent. */
export type FlagValues<T> = { -readonly [K in keyof T]: AlwaysThere<T[K]> extends true ? FlagValue<T[K]> : FlagValue<T[K]> | undefined };

/** Declares a table keeping its words as literal types (so a choice parses to its union of words). */
export function flagTable<const T extends TypedFlagTable>(table: T): T {
  return table;
}

const converted = new WeakMap<TypedFlagTable, FlagTable>();

/** The table `checkFlags` reads (kind one/switch/text/list, token, decides), made once per table. */
export function toFlagTable(table: TypedFlagTable): FlagTable {
  let old = converted.get(table);
  if (old) return old;
  old = {};
  converted.set(table, old);
  for (const [name, flag] of Object.entries(table)) {
    const spec: FlagSpec = { kind: flag.kind === 'switch' || flag.kind === 'text' || flag.kind === 'list' ? flag.kind : 'one' };
    if (flag.kind === 'token') spec.token = true;
    if (flag.decides !== undefined) spec.decides = flag.decides;
    old[name] = spec;
  }
  return old;
}

/** The conditions a flag is given under, `needs` included (a condition with no words). */
export function conditionsOf(flag: TypedFlag): FlagCondition[] {
  const list: FlagCondition[] = flag.onlyWhen === undefined ? [] : Array.isArray(flag.onlyWhen) ? [...flag.onlyWhen] : [flag.onlyWhen as FlagCondition];
  if (typeof flag.needs === 'string') list.push({ flag: flag.needs });
  else if (flag.needs) list.push(flag.needs.why === undefined ? { flag: flag.needs.flag } : { flag: flag.needs.flag, why: flag.needs.why });
  return list;
}

// Own keys only: a word or flag may be called "constructor".
function has(record: object, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(record, key);
}

/** The whole number an amount is (`what` names it in the refusal), as `amountArg` says it. */
export function amountValue(text: string, what: string, max: number, example?: string): number {
  // Dice typed bare ("2d6") are the likeliest slip: the example shows the inline roll.
  if (example && readInteger(text) === null) throw new UsageError(`${what} must be a whole number or an inline roll like ${example} (got "${echo(text)}")`);
  return integerArg(text, what, 0, max);
}

/** The value of one given flag, or a UsageError naming what was wrong with it. */
export function flagValueOf(name: string, flag: TypedFlag, words: readonly string[]): unknown {
  const text = words.join(' ');
  const what = `--${name}`;
  switch (flag.kind) {
    case 'switch':
      return true;
    case 'text':
    case 'token':
    case 'word':
      return text;
    case 'list':
      return words.flatMap((word) => word.split(',')).map((word) => word.trim()).filter((word) => word !== '');
    case 'integer':
      return integerArg(text, what, flag.min, flag.max);
    case 'amount':
      return amountValue(text, what, flag.max, flag.example);
    case 'die':
      return integerArg(text, what, 1, flag.sides);
    case 'choice': {
      const word = text.toLowerCase();
      const reason = flag.meaningless && has(flag.meaningless, word) ? flag.meaningless[word] : undefined;
      if (reason !== undefined) throw new UsageError(reason);
      return choiceArg(text, what, flag.choices);
    }
  }
}

/** Must it always be given? */
function alwaysRequired(flag: TypedFlag): boolean {
  return flag.required === true || (flag.required !== undefined && flag.required.when === undefined);
}

/** When it must be given, if only sometimes. */
function requiredWhen(flag: TypedFlag): { flag: string; in: readonly string[] } | undefined {
  return flag.required === undefined || flag.required === true ? undefined : flag.required.when;
}

function defaultOf(flag: TypedFlag): unknown {
  if (flag.kind === 'switch') return false;
  return 'default' in flag ? flag.default : undefined;
}

/** "defend", "defend or guard", "defend, guard or save". */
function wordsOr(words: readonly string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words[words.length - 1]}`;
}

/** A `required` flag's own refusal, if it has one. */
function whyOf(flag: TypedFlag): string | undefined {
  return flag.required === undefined || flag.required === true ? undefined : flag.required.why;
}

/** The refusal a condition makes of flag `name`, or null when it holds. */
function conditionRefusal(name: string, condition: FlagCondition, given: ParsedLine, values: ReadonlyMap<string, unknown>): string | null {
  const other = condition.flag;
  const value = values.get(other);
  const word = value === undefined ? undefined : String(value);
  let holds: boolean;
  let said: string;
  if (condition.in) {
    holds = word !== undefined && condition.in.includes(word);
    said = `--${name} applies only to --${other} ${wordsOr(condition.in)}`;
  } else if (condition.notIn) {
    holds = word === undefined || !condition.notIn.includes(word);
    said = `--${name} does not apply to --${other} ${word}`;
  } else {
    holds = given.flags.has(other);
    said = `--${name} needs --${other}`;
  }
  if (holds) return null;
  return condition.why === undefined ? said : condition.why.split('{value}').join(word ?? '');
}

/** The flags whose values a flag's conditions compare. */
function dependsOn(flag: TypedFlag): string[] {
  // A `needs` looks only at whether the other flag is given, not at its value.
  const names = conditionsOf(flag).filter((condition) => condition.in !== undefined || condition.notIn !== undefined).map((condition) => condition.flag);
  const when = requiredWhen(flag);
  return when ? [...names, when.flag] : names;
}

/** What parsing reads of a table, worked out once per table: its names, each flag's conditions, and which flags others compare. */
interface TableShape {
  names: string[];
  conditions: Map<string, FlagCondition[]>;
  dependsOn: Map<string, string[]>;
  compared: Set<string>;
  /** The flags kept only to be refused, and those always required. */
  retired: string[];
  required: string[];
}
const shapes = new WeakMap<TypedFlagTable, TableShape>();
function shapeOf(table: TypedFlagTable): TableShape {
  let shape = shapes.get(table);
  if (!shape) {
    const names = Object.keys(table);
    const dependsOnName = new Map(names.map((name) => [name, dependsOn(table[name]!)] as const));
    shape = {
      names,
      conditions: new Map(names.map((name) => [name, conditionsOf(table[name]!)] as const)),
      dependsOn: dependsOnName,
      compared: new Set([...dependsOnName.values()].flat()),
      retired: names.filter((name) => table[name]!.retired !== undefined),
      required: names.filter((name) => alwaysRequired(table[name]!)),
    };
    shapes.set(table, shape);
  }
  return shape;
}

/**
 * The line's flags as typed values, or a UsageError. In order: the flags' shape (`checkFlags`:
 * unknown, another edition's, missing or extra values); required flags; the flags other flags'
 * conditions compare (each after what it depends on: whether it applies, then its value); whether
 * every other flag applies; then their values. Each step goes in the table's order, so a flag that
 * does not apply is refused for that before its value is looked at. `elsewhere` is `checkFlags`'s.
 */
export function parseFlags<const T extends TypedFlagTable>(line: ParsedLine, table: T, elsewhere?: (name: string) => string | undefined): FlagValues<T> {
  checkFlags(line, toFlagTable(table), elsewhere);
  return readFlags(line, table);
}

/** `parseFlags` after the flags' shape was checked (src/commands/orders.ts checks it before the amount). */
export function readFlags<const T extends TypedFlagTable>(line: ParsedLine, table: T): FlagValues<T> {
  const { names, conditions, dependsOn: dependsOnName, compared, retired, required } = shapeOf(table);
  for (const name of retired) if (line.flags.has(name)) throw new UsageError(table[name]!.retired!);
  for (const name of required) {
    if (line.flags.has(name)) continue;
    const flag = table[name]!;
    throw new UsageError(whyOf(flag) ?? `no ${name} given: add --${name} ${placeholderOf(flag)}`);
  }
  const values = new Map<string, unknown>();
  const read = (name: string) => {
    if (values.has(name)) return;
    const words = line.flags.get(name);
    values.set(name, words === undefined ? defaultOf(table[name]!) : flagValueOf(name, table[name]!, words));
  };
  const checked = new Set<string>();
  const check = (name: string) => {
    if (checked.has(name)) return;
    checked.add(name);
    const flag = table[name]!;
    const when = requiredWhen(flag);
    if (when && !line.flags.has(name)) {
      const word = values.get(when.flag);
      if (word !== undefined && when.in.includes(String(word))) throw new UsageError(whyOf(flag)?.split('{value}').join(String(word)) ?? `--${when.flag} ${String(word)} needs --${name}`);
    }
    if (!line.flags.has(name)) return;
    for (const condition of conditions.get(name)!) {
      const refusal = conditionRefusal(name, condition, line, values);
      if (refusal !== null) throw new UsageError(refusal);
    }
  };
  // A compared flag is settled before the flags that compare it (a cycle is cut where it closes).
  const settling = new Set<string>();
  const settle = (name: string) => {
    if (values.has(name) || settling.has(name) || !has(table, name)) return;
    settling.add(name);
    for (const other of dependsOnName.get(name) ?? []) settle(other);
    check(name);
    read(name);
  };
  for (const name of names) if (compared.has(name)) settle(name);
  for (const name of names) check(name);
  for (const name of names) read(name);
  // fromEntries defines own keys: a flag called "__proto__" stays a flag.
  return Object.fromEntries(values) as FlagValues<T>;
}

// ---- the positional amount (`!damage N`) ----

/** The command's one amount (`!damage N`): a whole number or an inline roll's total, with its own words for a refusal. */
export interface AmountSpec {
  /** Its name in a refusal ("the damage amount"). */
  what: string;
  /** The refusal when none is given (unless `optional`). */
  missing: string;
  /** An inline roll to show when an expression is typed bare ("[[2d6+3]]"). */
  example?: string;
  optional?: true;
  /** It may be left out when this switch is given (The Defensive Round: `--instant-kill` takes none). */
  optionalWith?: string;
  /** The largest amount; MAX_DAMAGE unless given. */
  max?: number;
}

/** The line's one positional amount: a whole number 0 to max, or an inline roll's total. */
export function parseAmount(line: ParsedLine, spec: AmountSpec & { optional: true }): number | undefined;
export function parseAmount(line: ParsedLine, spec: AmountSpec): number;
export function parseAmount(line: ParsedLine, spec: AmountSpec): number | undefined {
  const { positionals } = line;
  if (positionals.length > 1) {
    const hint = spec.example ? `; an expression must be an inline roll like ${spec.example}` : '';
    throw new UsageError(`one amount only (got "${echo(positionals.join(' '))}")${hint}`);
  }
  const text = positionals[0];
  if (text === undefined) {
    if (spec.optional) return undefined;
    throw new UsageError(spec.missing);
  }
  return amountValue(text, spec.what, spec.max ?? MAX_DAMAGE, spec.example);
}

// ---- what the help reads (and the tests' samples of each kind) ----

/** The value's name in the usage: the flag's own, a choice's words, a roll's range, or its kind's. */
export function placeholderOf(flag: TypedFlag): string {
  if (flag.placeholder !== undefined) return flag.placeholder;
  switch (flag.kind) {
    case 'switch':
      return '';
    case 'choice':
      return flag.choices.join('|');
    case 'die':
      return `1-${flag.sides}`;
    case 'token':
      return 'ID';
    case 'word':
      return 'WORD';
    case 'list':
      return 'ID ...';
    case 'text':
      return 'TEXT';
    case 'integer':
    case 'amount':
      return 'N';
  }
}

/** The usage fragment: `--action defend|guard [--type physical|magical] [--mod M] [--mental]`. */
export function usageOf(table: TypedFlagTable): string {
  return Object.entries(table).map(([name, flag]) => {
    const value = placeholderOf(flag);
    const written = value === '' ? `--${name}` : `--${name} ${value}`;
    return alwaysRequired(flag) ? written : `[${written}]`;
  }).join(' ');
}

/** What one flag takes, in words. */
function takes(flag: TypedFlag): string {
  switch (flag.kind) {
    case 'switch':
      return 'a switch, no value';
    case 'text':
      return 'words';
    case 'list':
      return 'one or more ids';
    case 'token':
      return "another token's id";
    case 'word':
      return 'one word';
    case 'integer':
      return `a whole number from ${flag.min} to ${flag.max}`;
    case 'amount':
      return `a whole number from 0 to ${flag.max} or an inline roll`;
    case 'die':
      return `a d${flag.sides} roll, 1 to ${flag.sides} (rolled when not given)`;
    case 'choice':
      return `one of ${flag.choices.join(', ')}`;
  }
}

/** One line per flag for the help: what it takes, what it does, and when it may be given. */
export function flagHelp(table: TypedFlagTable): string[] {
  // A retired flag is refused with its replacement's name: the help lists only the flags in use.
  return Object.entries(table).filter(([, flag]) => flag.retired === undefined).map(([name, flag]) => {
    const value = placeholderOf(flag);
    // A choice's words are in its placeholder already: they are not said twice.
    const parts = flag.kind === 'choice' && flag.placeholder === undefined ? [] : [takes(flag)];
    const fallback = defaultOf(flag);
    if (flag.kind !== 'switch' && fallback !== undefined) parts.push(`default ${String(fallback)}`);
    const when = requiredWhen(flag);
    if (alwaysRequired(flag)) parts.push('required');
    else if (when) parts.push(`required with --${when.flag} ${wordsOr(when.in)}`);
    for (const condition of conditionsOf(flag)) {
      // A condition on a switch compares "true" or "false": said as given or not.
      const other = has(table, condition.flag) ? table[condition.flag] : undefined;
      if (other?.kind === 'switch' && (condition.in || condition.notIn)) parts.push((condition.in ?? []).includes('true') || (condition.notIn ?? ['true']).includes('false') ? `needs --${condition.flag}` : `not with --${condition.flag}`);
      else if (condition.in) parts.push(`only with --${condition.flag} ${wordsOr(condition.in)}`);
      else if (condition.notIn) parts.push(`not with --${condition.flag} ${wordsOr(condition.notIn)}`);
      else parts.push(`needs --${condition.flag}`);
    }
    if (flag.decides !== undefined) parts.push('only the GM or the target\'s controller may give it');
    const help = flag.help === undefined ? '' : `. ${flag.help}`;
    return `--${name}${value === '' ? '' : ` ${value}`}${parts.length > 0 ? `: ${parts.join('; ')}` : ''}${help}`;
  });
}

/** Words given after a flag: some the flag takes, some it refuses (each alone, conditions aside), for property tests. */
export interface FlagSamples {
  valid: string[][];
  invalid: string[][];
}

/** A word that is none of `words` (any case). */
function notOneOf(words: readonly string[]): string {
  let word = 'nothing';
  while (words.includes(word)) word += '-else';
  return word;
}

export function sampleValues(flag: TypedFlag): FlagSamples {
  switch (flag.kind) {
    case 'switch':
      return { valid: [[]], invalid: [['yes']] };
    case 'text':
      return { valid: [['Dodge'], ['Sword', 'Parry']], invalid: [[]] };
    case 'list':
      return { valid: [['-Ma1'], ['-Ma1', '-Mb2'], ['-Ma1,-Mb2']], invalid: [[]] };
    case 'token':
      return { valid: [['-Ma1']], invalid: [[], ['-Ma1', '-Mb2']] };
    case 'word':
      return { valid: [['A1']], invalid: [[], ['A1', 'A2']] };
    case 'integer': {
      const middle = Math.min(flag.max, Math.max(flag.min, 0));
      return {
        valid: [[String(flag.min)], [String(flag.max)], [String(middle)], ...(flag.max >= 0 ? [[`+${flag.max}`]] : [])],
        invalid: [[String(flag.min - 1)], [String(flag.max + 1)], ['x'], ['1.5'], [], ['1', '2']],
      };
    }
    case 'amount':
      return { valid: [['0'], [String(flag.max)], [String(Math.floor(flag.max / 2))]], invalid: [['-1'], [String(flag.max + 1)], ['2d6'], ['$[[0]]'], []] };
    case 'die':
      return { valid: [['1'], [String(flag.sides)]], invalid: [['0'], [String(flag.sides + 1)], ['d20'], []] };
    case 'choice': {
      const meaningless = Object.keys(flag.meaningless ?? {});
      return {
        valid: [...flag.choices.map((word) => [word]), ...flag.choices.slice(0, 1).map((word) => [word.toUpperCase()])],
        invalid: [[notOneOf(flag.choices)], ...meaningless.map((word) => [word]), [], [flag.choices[0] ?? 'a', flag.choices[0] ?? 'a']],
      };
    }
  }
}
