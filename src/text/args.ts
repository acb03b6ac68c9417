// Chat text -> command name, positional words and flags. Roll20 style:
// `!command positional --flag value --switch`, values may be inline rolls ($[[n]] in the text).
// Pure, below both the commands and the editions, which declare their own flags with it.
import { readInteger } from '../rules/values';
import { cutWhole } from './cut';

export interface ParsedLine {
  command: string;
  positionals: string[];
  flags: Map<string, string[]>;
}

/** Input said back in a reply: cut to `max` characters, so a megabyte typed is not a megabyte whispered. */
export function echo(text: string, max = 40): string {
  return text.length > max ? `${cutWhole(text, max - 3)}...` : text;
}

/** A malformed command: refused with the command's usage. */
export class UsageError extends Error {}

/** A well-formed command the game state or permissions refuse: said in one line, with no usage. */
export class RefusalError extends Error {}

/** Replaces each `$[[n]]` with the total Roll20 rolled for it. */
export function substituteInlineRolls(content: string, inlineRolls: Roll20InlineRoll[] | undefined): string {
  if (!content.includes('$[[')) return content;
  return content.replace(/\$\[\[(\d+)\]\]/g, (whole, index: string) => {
    const total = inlineRolls?.[Number(index)]?.results?.total;
    return typeof total === 'number' && Number.isFinite(total) ? String(total) : whole;
  });
}

/** White space as a regular expression's `\s` has it. */
export function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return code === 160 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 || code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff;
}

/** Where the word going on at `from` ends: the first white space at or after it, or the text's end. */
export function wordEnd(text: string, from: number): number {
  let end = from;
  while (end < text.length && !isSpace(text.charCodeAt(end))) end += 1;
  return end;
}

/**
 * Splits on white space, keeping "quoted words" together (quotes removed): a word that starts with a
 * quote runs to the next such quote, spaces and all, when there is one. One pass over the characters
 * (every command is split here).
 */
export function tokenize(text: string): string[] {
  const tokens: string[] = [];
  const length = text.length;
  let at = 0;
  while (at < length) {
    const code = text.charCodeAt(at);
    if (isSpace(code)) {
      at += 1;
      continue;
    }
    if (code === 34 || code === 39) {
      const close = text.indexOf(code === 34 ? '"' : "'", at + 1);
      if (close >= 0) {
        tokens.push(text.slice(at + 1, close));
        at = close + 1;
        continue;
      }
    }
    const end = wordEnd(text, at + 1);
    tokens.push(text.slice(at, end));
    at = end;
  }
  return tokens;
}

export function parseLine(content: string): ParsedLine {
  const tokens = tokenize(content.includes('<') ? content.replace(/<br\s*\/?>/gi, ' ') : content);
  const command = (tokens[0] ?? '').toLowerCase();
  const positionals: string[] = [];
  const flags = new Map<string, string[]>();
  let current: string[] | null = null;
  for (let i = 1; i < tokens.length; i += 1) {
    const token = tokens[i]!;
    if (token.length > 2 && token.charCodeAt(0) === 45 && token.charCodeAt(1) === 45) {
      const name = token.slice(2).toLowerCase();
      if (flags.has(name)) throw new UsageError(`--${echo(name)} is given twice`);
      current = [];
      flags.set(name, current);
    } else if (current) {
      current.push(token);
    } else {
      positionals.push(token);
    }
  }
  return { command, positionals, flags };
}

export type FlagKind = 'switch' | 'one' | 'text' | 'list';

export interface FlagSpec {
  kind: FlagKind;
  /** Its value names another token (checked to be on the table, and not the target itself). */
  token?: true;
  /** It decides the defender's side: only the GM or the target's controller may give it; says what it does. */
  decides?: string;
}

export type FlagTable = Record<string, FlagSpec>;

/** The name a typo most likely meant (a flag, a setting): one edit away (two for long names), or a name it starts. */
export function nearestName(typed: string, known: readonly string[]): string | undefined {
  if (typed.length > 40) return undefined;
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of known) {
    const distance = name.startsWith(typed) && typed.length >= 2 ? 1 : editDistance(typed, name);
    if (distance < bestDistance) {
      best = name;
      bestDistance = distance;
    }
  }
  return bestDistance <= (typed.length > 5 ? 2 : 1) ? best : undefined;
}

/**
 * What a refusal of an unknown name suggests: the name it was likely meant to be (`prefix` as it is
 * typed: "--" for a flag), or where the names are listed.
 */
export function suggest(typed: string, known: readonly string[], what: string, prefix = ''): string {
  const near = nearestName(typed.toLowerCase(), known);
  return near ? `did you mean ${prefix}${near}?` : `Help lists the ${what}`;
}

/** Edit distance of two short words (flag names), two swapped letters counting as one edit. */
function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i += 1) {
    const next = [i];
    for (let j = 1; j <= b.length; j += 1) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) next[j] = Math.min(next[j]!, before[j - 2]! + 1);
    }
    before = row;
    row = next;
  }
  return row[b.length]!;
}

/**
 * Checks the flags against the command's table: unknown flags, flags of another edition, and
 * values that are missing or too many are all refused by name. `elsewhere(name)` names the
 * active edition when the flag belongs to another one (commands.md: never silently ignored).
 */
export function checkFlags(parsed: ParsedLine, spec: FlagTable, elsewhere?: (name: string) => string | undefined): void {
  parsed.flags.forEach((values, name) => {
    const flag = Object.prototype.hasOwnProperty.call(spec, name) ? spec[name] : undefined;
    if (!flag) {
      const edition = elsewhere?.(name);
      if (edition) throw new UsageError(`--${echo(name)} means nothing in the ${edition} edition`);
      throw new UsageError(`unknown flag --${echo(name)}: ${suggest(name, Object.keys(spec), 'flags', '--')}`);
    }
    if (flag.kind === 'switch' && values.length > 0) throw new UsageError(`--${name} takes no value`);
    if (flag.kind !== 'switch' && values.length === 0) throw new UsageError(`--${name} needs a value`);
    if (flag.kind === 'one' && values.length > 1) {
      throw new UsageError(`--${name} takes one value (got "${echo(values.join(' '))}")`);
    }
  });
}

export function flagValue(parsed: ParsedLine, name: string): string | undefined {
  const values = parsed.flags.get(name);
  return values && values.length > 0 ? values.join(' ') : undefined;
}

export function hasFlag(parsed: ParsedLine, name: string): boolean {
  return parsed.flags.has(name);
}

/** A whole number within [min, max], or a UsageError naming what was wrong. */
export function integerArg(text: string, what: string, min: number, max: number): number {
  const value = readInteger(text);
  if (value === null) throw new UsageError(`${what} must be a whole number (got "${echo(text)}")`);
  if (value < min || value > max) throw new UsageError(`${what} must be from ${min} to ${max} (got ${value})`);
  return value;
}

export function optionalInteger(parsed: ParsedLine, name: string, min: number, max: number): number | undefined {
  const text = flagValue(parsed, name);
  return text === undefined ? undefined : integerArg(text, `--${name}`, min, max);
}

/** One of the listed words (case-insensitive), or a UsageError listing them. */
export function choiceArg<T extends string>(text: string, what: string, choices: readonly T[]): T {
  const word = text.toLowerCase();
  const found = choices[choices.indexOf(word as T)];
  if (!found) throw new UsageError(`${what} must be one of ${choices.join(', ')} (got "${echo(text)}")`);
  return found;
}

/** Token ids from `--ids a b c` or `--ids a,b,c`. */
export function idsArg(parsed: ParsedLine): string[] | undefined {
  const values = parsed.flags.get('ids');
  if (!values) return undefined;
  return values.flatMap((value) => value.split(',')).map((id) => id.trim()).filter((id) => id !== '');
}
