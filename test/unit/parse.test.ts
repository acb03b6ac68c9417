import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { checkFlags, idsArg, integerArg, isSpace, parseLine, substituteInlineRolls, tokenize, UsageError } from '../../src/text/args';

/** The splitting the hand tokenizer replaced (a regular expression): it must split every line the same way. */
function byPattern(text: string): string[] {
  const tokens: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) tokens.push(match[1] ?? match[2] ?? match[3] ?? '');
  return tokens;
}

describe('parsing chat commands', () => {
  it('splits positionals and flags, keeping quoted words together', () => {
    const parsed = parseLine('!defend --action counter --skill "Reactive Guard" --ally -Abc --aided');
    expect(parsed.command).toBe('!defend');
    expect(parsed.positionals).toEqual([]);
    expect(parsed.flags.get('action')).toEqual(['counter']);
    expect(parsed.flags.get('skill')).toEqual(['Reactive Guard']);
    expect(parsed.flags.get('ally')).toEqual(['-Abc']);
    expect(parsed.flags.get('aided')).toEqual([]);
  });

  it('keeps negative numbers as values, not flags', () => {
    const parsed = parseLine('!damage -5 --mod -10');
    expect(parsed.positionals).toEqual(['-5']);
    expect(parsed.flags.get('mod')).toEqual(['-10']);
  });

  it('refuses a flag given twice', () => {
    expect(() => parseLine('!damage 5 --type physical --type magical')).toThrow(/--type is given twice/);
  });

  it('substitutes inline roll totals for $[[n]]', () => {
    const text = substituteInlineRolls('!damage $[[0]] --pierce $[[1]]', [
      { expression: '2d6', results: { total: 9 } },
      { expression: '10', results: { total: 10 } },
    ]);
    expect(text).toBe('!damage 9 --pierce 10');
  });

  it('leaves an inline roll reference without a result as it was (then refused as not a number)', () => {
    expect(substituteInlineRolls('!damage $[[3]]', [])).toBe('!damage $[[3]]');
    expect(() => integerArg('$[[3]]', 'the damage amount', 0, 10)).toThrow(UsageError);
  });

  it('reads --ids separated by spaces or commas', () => {
    expect(idsArg(parseLine('!damage 3 --ids a b,c'))).toEqual(['a', 'b', 'c']);
    expect(idsArg(parseLine('!damage 3'))).toBeUndefined();
  });

  it('refuses unknown flags, flags of another edition, and values that do not fit the flag', () => {
    const spec = { type: { kind: 'one' as const }, x: { kind: 'switch' as const } };
    const elsewhere = (name: string) => (name === 'hit' ? 'soak' : undefined); // --hit belongs to another edition
    expect(() => checkFlags(parseLine('!damage 3 --fire'), spec, elsewhere)).toThrow(/unknown flag --fire/);
    expect(() => checkFlags(parseLine('!damage 3 --hit 12'), spec, elsewhere)).toThrow(/--hit means nothing in the soak edition/);
    expect(() => checkFlags(parseLine('!damage 3 --type'), spec, elsewhere)).toThrow(/--type needs a value/);
    expect(() => checkFlags(parseLine('!damage 3 --type a b'), spec, elsewhere)).toThrow(/takes one value/);
    expect(() => checkFlags(parseLine('!damage 3 --x yes'), spec, elsewhere)).toThrow(/takes no value/);
  });

  it('reads whole numbers only, within range', () => {
    expect(integerArg('12', 'n', 0, 100)).toBe(12);
    expect(() => integerArg('5.5', 'n', 0, 100)).toThrow(/whole number/);
    expect(() => integerArg('abc', 'n', 0, 100)).toThrow(/whole number/);
    expect(() => integerArg('101', 'n', 0, 100)).toThrow(/from 0 to 100/);
  });

  it('tokenizes single quotes too', () => {
    expect(tokenize("a 'b c' d")).toEqual(['a', 'b c', 'd']);
  });

  it('splits every line as the regular expression it replaced did (quotes, every kind of white space)', () => {
    const pieces = ['a', 'bc', '--ids', '"', "'", ' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2028', '\u3000', '\ufeff', '\u200b', 'x"y', '""', "''", '-5', 'é', '[[1d6]]'];
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 4 })), { maxLength: 30 }), (parts) => {
        const line = parts.join('');
        expect(tokenize(line)).toEqual(byPattern(line));
      }),
      { numRuns: 3000, seed: 23 },
    );
  });

  it('counts as white space exactly what \\s matches', () => {
    for (let code = 0; code <= 0xffff; code += 1) expect(isSpace(code)).toBe(/\s/.test(String.fromCharCode(code)));
  });
});
