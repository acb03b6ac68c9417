import { describe, expect, expectTypeOf, it } from 'vitest';
import fc from 'fast-check';
import { parseLine, UsageError, type ParsedLine } from '../../src/text/args';
import {
  flagHelp, flagTable, parseAmount, parseFlags, sampleValues, toFlagTable, usageOf,
  type TypedFlag, type TypedFlagTable,
} from '../../src/text/flags';

/** The refusal a line gets, or null when it is taken. */
function refusal(run: () => unknown): string | null {
  try {
    run();
    return null;
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return error.message;
  }
}

const HIT = flagTable({
  type: { kind: 'choice', choices: ['physical', 'magical'], default: 'physical' },
  hit: { kind: 'amount', max: 1000, example: '[[1d100]]', placeholder: 'H' },
  mod: { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', needs: { flag: 'hit', why: '--mod adds to the hit chance and needs --hit' } },
  defense: { kind: 'choice', choices: ['success', 'fail', 'none'], decides: 'decides its defense (--defense)' },
  'instant-kill': { kind: 'switch' },
  skill: { kind: 'text', placeholder: 'NAME' },
  ally: { kind: 'token' },
  ids: { kind: 'list' },
  roll: { kind: 'die', sides: 100 },
});

const hit = (text: string) => parseFlags(parseLine(`!damage ${text}`), HIT);

describe('parseFlags: every kind', () => {
  it('reads each kind to its typed value, absent flags undefined or their default', () => {
    expect(hit('--type MAGICAL --hit 55 --mod -3 --defense fail --instant-kill --skill Sword Parry --ally -Mb2 --ids a b,c --roll 100')).toEqual({
      type: 'magical', hit: 55, mod: -3, defense: 'fail', 'instant-kill': true, skill: 'Sword Parry', ally: '-Mb2', ids: ['a', 'b', 'c'], roll: 100,
    });
    expect(hit('')).toEqual({
      type: 'physical', hit: undefined, mod: undefined, defense: undefined, 'instant-kill': false, skill: undefined, ally: undefined, ids: undefined, roll: undefined,
    });
  });

  it('types the result from the table', () => {
    const values = hit('');
    expectTypeOf(values.type).toEqualTypeOf<'physical' | 'magical'>();
    expectTypeOf(values.defense).toEqualTypeOf<'success' | 'fail' | 'none' | undefined>();
    expectTypeOf(values.mod).toEqualTypeOf<number | undefined>();
    expectTypeOf(values.hit).toEqualTypeOf<number | undefined>();
    expectTypeOf(values['instant-kill']).toEqualTypeOf<boolean>();
    expectTypeOf(values.skill).toEqualTypeOf<string | undefined>();
    expectTypeOf(values.ids).toEqualTypeOf<string[] | undefined>();
    expectTypeOf(values.roll).toEqualTypeOf<number | undefined>();
    const required = parseFlags(parseLine('!defend --action defend'), flagTable({
      action: { kind: 'choice', choices: ['defend', 'guard'], required: true },
      ally: { kind: 'token', required: { when: { flag: 'action', in: ['guard'] } } },
    }), () => undefined);
    expectTypeOf(required.action).toEqualTypeOf<'defend' | 'guard'>();
    expectTypeOf(required.ally).toEqualTypeOf<string | undefined>();
  });
});

describe('parseFlags: the refusals, in the words of today', () => {
  it('says the shape of the flags as checkFlags does, with elsewhere', () => {
    const elsewhere = (name: string) => (name === 'pierce' ? 'soak' : undefined);
    const say = (text: string) => refusal(() => parseFlags(parseLine(`!damage 3 ${text}`), HIT, elsewhere));
    expect(say('--tyep physical')).toBe('unknown flag --tyep: did you mean --type?');
    expect(say('--fire')).toBe('unknown flag --fire: Help lists the flags');
    expect(say('--pierce 3')).toBe('--pierce means nothing in the soak edition');
    expect(say('--instant-kill yes')).toBe('--instant-kill takes no value');
    expect(say('--type')).toBe('--type needs a value');
    expect(say('--skill')).toBe('--skill needs a value');
    expect(say('--type a b')).toBe('--type takes one value (got "a b")');
    expect(say('--ally a b')).toBe('--ally takes one value (got "a b")');
  });

  it('says integers, amounts and rolls as integerArg and amountArg do', () => {
    expect(refusal(() => hit('--hit 5 --mod x'))).toBe('--mod must be a whole number (got "x")');
    expect(refusal(() => hit('--hit 5 --mod 5000'))).toBe('--mod must be from -1000 to 1000 (got 5000)');
    expect(refusal(() => hit('--hit 2d6'))).toBe('--hit must be a whole number or an inline roll like [[1d100]] (got "2d6")');
    expect(refusal(() => hit('--hit -1'))).toBe('--hit must be from 0 to 1000 (got -1)');
    expect(refusal(() => parseFlags(parseLine('!x --n 2d6'), flagTable({ n: { kind: 'amount', max: 9 } })))).toBe('--n must be a whole number (got "2d6")');
    expect(refusal(() => hit('--roll 0'))).toBe('--roll must be from 1 to 100 (got 0)');
    expect(refusal(() => hit('--roll d100'))).toBe('--roll must be a whole number (got "d100")');
  });

  it('says choices as choiceArg does, and a meaningless word with its own reason', () => {
    expect(refusal(() => hit('--type fire'))).toBe('--type must be one of physical, magical (got "fire")');
    const table = flagTable({ action: { kind: 'choice', choices: ['defend'], meaningless: { evade: '--action evade means nothing here: use --action defend' } } });
    expect(refusal(() => parseFlags(parseLine('!defend --action EVADE'), table))).toBe('--action evade means nothing here: use --action defend');
  });

  it('says what a flag needs, when it applies and when it is required, or the given why', () => {
    expect(refusal(() => hit('--mod 3'))).toBe('--mod adds to the hit chance and needs --hit');
    const table = flagTable({
      action: { kind: 'choice', choices: ['defend', 'guard', 'save'], required: true },
      ally: { kind: 'token', required: { when: { flag: 'action', in: ['guard'] } }, onlyWhen: { flag: 'action', in: ['guard'] } },
      mod: { kind: 'integer', min: -9, max: 9, onlyWhen: { flag: 'action', in: ['defend', 'guard'], why: '--mod changes a check, and --action {value} is not rolled' } },
      vs: { kind: 'token', onlyWhen: [{ flag: 'action', notIn: ['save'] }] },
      hit: { kind: 'integer', min: 0, max: 9 },
      bonus: { kind: 'integer', min: 0, max: 9, needs: 'hit' },
    });
    const say = (text: string) => refusal(() => parseFlags(parseLine(`!defend ${text}`), table));
    expect(say('')).toBe('no action given: add --action defend|guard|save');
    expect(say('--action guard')).toBe('--action guard needs --ally');
    expect(say('--action defend --ally x')).toBe('--ally applies only to --action guard');
    expect(say('--action save --mod 1')).toBe('--mod changes a check, and --action save is not rolled');
    expect(say('--action save --vs x')).toBe('--vs does not apply to --action save');
    expect(say('--action defend --bonus 1')).toBe('--bonus needs --hit');
    expect(say('--action guard --ally x --mod 1 --vs y --hit 1 --bonus 2')).toBeNull();
    const why = flagTable({
      action: { kind: 'choice', choices: ['a', 'b'], required: { why: 'no action: add --action a|b' } },
      x: { kind: 'switch', required: { when: { flag: 'action', in: ['b'] }, why: '--action b needs --x, always' } },
      y: { kind: 'switch', onlyWhen: { flag: 'action', in: ['a', 'b', 'c'] } },
    });
    expect(refusal(() => parseFlags(parseLine('!d'), why))).toBe('no action: add --action a|b');
    expect(refusal(() => parseFlags(parseLine('!d --action b'), why))).toBe('--action b needs --x, always');
    const noAction = flagTable({ action: { kind: 'choice', choices: ['a', 'b'] }, y: { kind: 'switch', onlyWhen: { flag: 'action', in: ['a', 'b', 'c'] } } });
    expect(refusal(() => parseFlags(parseLine('!d --y'), noAction))).toBe('--y applies only to --action a, b or c');
  });

  it('reads a flag named like an object member', () => {
    const table = flagTable({ constructor: { kind: 'integer', min: 0, max: 9 }, x: { kind: 'switch', onlyWhen: { flag: 'constructor', in: ['3'] } } });
    expect(parseFlags(parseLine('!x --constructor 3 --x'), table)).toEqual({ constructor: 3, x: true });
    expect(refusal(() => parseFlags(parseLine('!x --x'), table))).toBe('--x applies only to --constructor 3');
  });

  it('looks at whether flags go together before any value', () => {
    expect(refusal(() => hit('--mod x'))).toBe('--mod adds to the hit chance and needs --hit');
    expect(refusal(() => hit('--type fire --mod 1'))).toBe('--mod adds to the hit chance and needs --hit');
  });
});

describe('toFlagTable', () => {
  it('gives checkFlags the table it reads today: one/switch/text/list, token and decides', () => {
    expect(toFlagTable(HIT)).toEqual({
      type: { kind: 'one' },
      hit: { kind: 'one' },
      mod: { kind: 'one' },
      defense: { kind: 'one', decides: 'decides its defense (--defense)' },
      'instant-kill': { kind: 'switch' },
      skill: { kind: 'text' },
      ally: { kind: 'one', token: true },
      ids: { kind: 'list' },
      roll: { kind: 'one' },
    });
  });
});

describe('parseAmount', () => {
  const WORDS = { what: 'the damage amount', missing: 'no damage amount given', example: '[[2d6+3]]' };
  it('says what is wrong with the amount: none, more than one, a bare expression, out of range', () => {
    const say = (text: string, words: Parameters<typeof parseAmount>[1] = WORDS) => refusal(() => parseAmount(parseLine(`!damage ${text}`), words));
    expect(say('12')).toBeNull();
    expect(parseAmount(parseLine('!damage +7'), WORDS)).toBe(7);
    expect(say('')).toBe('no damage amount given');
    expect(parseAmount(parseLine('!damage'), { ...WORDS, optional: true })).toBeUndefined();
    expect(say('3 4')).toBe('one amount only (got "3 4"); an expression must be an inline roll like [[2d6+3]]');
    expect(say('3 4', { what: 'the damage', missing: 'none' })).toBe('one amount only (got "3 4")');
    expect(say('2d6')).toBe('the damage amount must be a whole number or an inline roll like [[2d6+3]] (got "2d6")');
    expect(say('2d6', { what: 'the damage', missing: 'none' })).toBe('the damage must be a whole number (got "2d6")');
    expect(say('-1')).toBe('the damage amount must be from 0 to 1000000 (got -1)');
    expect(say('1.5')).toBe('the damage amount must be a whole number or an inline roll like [[2d6+3]] (got "1.5")');
    expectTypeOf(parseAmount(parseLine('!damage 3'), WORDS)).toEqualTypeOf<number>();
    expectTypeOf(parseAmount(parseLine('!damage 3'), { ...WORDS, optional: true })).toEqualTypeOf<number | undefined>();
    expect(refusal(() => parseAmount(parseLine('!heal 11'), { what: 'the amount', missing: 'none', max: 10 }))).toBe('the amount must be from 0 to 10 (got 11)');
  });
});

describe('flagHelp of a condition on a switch', () => {
  it('says "not with --x" and "needs --x", not the words true or false', () => {
    const table = flagTable({
      brutal: { kind: 'switch' },
      pierce: { kind: 'integer', min: 0, max: 9, onlyWhen: { flag: 'brutal', in: ['false'] } },
      cleave: { kind: 'switch', onlyWhen: { flag: 'brutal', in: ['true'] } },
      // The same said the other way round (notIn).
      feint: { kind: 'switch', onlyWhen: { flag: 'brutal', notIn: ['true'] } },
      rush: { kind: 'switch', onlyWhen: { flag: 'brutal', notIn: ['false'] } },
    });
    expect(flagHelp(table)).toEqual([
      '--brutal: a switch, no value', '--pierce N: a whole number from 0 to 9; not with --brutal', '--cleave: a switch, no value; needs --brutal',
      '--feint: a switch, no value; not with --brutal', '--rush: a switch, no value; needs --brutal',
    ]);
  });
});

describe('usageOf and flagHelp', () => {
  it('writes the usage fragment, required flags unbracketed', () => {
    expect(usageOf(HIT)).toBe('[--type physical|magical] [--hit H] [--mod M] [--defense success|fail|none] [--instant-kill] [--skill NAME] [--ally ID] [--ids ID ...] [--roll 1-100]');
    expect(usageOf({ action: { kind: 'choice', choices: ['a', 'b'], required: true }, n: { kind: 'integer', min: 0, max: 3 } })).toBe('--action a|b [--n N]');
  });

  it('writes one line a flag', () => {
    expect(flagHelp(HIT)).toEqual([
      '--type physical|magical: default physical',
      '--hit H: a whole number from 0 to 1000 or an inline roll',
      '--mod M: a whole number from -1000 to 1000; needs --hit',
      "--defense success|fail|none: only the GM or the target's controller may give it",
      '--instant-kill: a switch, no value',
      '--skill NAME: words',
      "--ally ID: another token's id",
      '--ids ID ...: one or more ids',
      '--roll 1-100: a d100 roll, 1 to 100 (rolled when not given)',
    ]);
    expect(flagHelp({
      action: { kind: 'choice', choices: ['defend', 'guard'], required: true, help: 'What the defender does' },
      ally: { kind: 'token', required: { when: { flag: 'action', in: ['guard'] } }, onlyWhen: { flag: 'action', in: ['guard'] } },
      vs: { kind: 'token', onlyWhen: { flag: 'action', notIn: ['defend'] } },
    })).toEqual([
      '--action defend|guard: required. What the defender does',
      "--ally ID: another token's id; required with --action guard; only with --action guard",
      "--vs ID: another token's id; not with --action defend",
    ]);
  });
});

// ---- the fuzzer's samples ----

const flagArb: fc.Arbitrary<TypedFlag> = fc.oneof(
  fc.constant<TypedFlag>({ kind: 'switch' }),
  fc.constant<TypedFlag>({ kind: 'text' }),
  fc.constant<TypedFlag>({ kind: 'list' }),
  fc.constant<TypedFlag>({ kind: 'token' }),
  fc.tuple(fc.integer({ min: -2000, max: 2000 }), fc.nat(3000)).map(([min, span]): TypedFlag => ({ kind: 'integer', min, max: min + span })),
  fc.record({ max: fc.integer({ min: 1, max: 1_000_000 }), example: fc.constantFrom('[[2d6]]', undefined) }).map(({ max, example }): TypedFlag => (example ? { kind: 'amount', max, example } : { kind: 'amount', max })),
  fc.integer({ min: 2, max: 100 }).map((sides): TypedFlag => ({ kind: 'die', sides })),
  fc.uniqueArray(fc.stringMatching(/^[a-z][a-z-]{0,8}$/), { minLength: 1, maxLength: 5 }).chain((choices) =>
    fc.subarray(choices.map((word) => `${word}x`).filter((word) => !choices.includes(word))).map((words): TypedFlag => ({ kind: 'choice', choices, meaningless: Object.fromEntries(words.map((word) => [word, `--flag ${word} means nothing`])) }))),
);

const tableArb: fc.Arbitrary<Record<string, TypedFlag>> = fc.dictionary(fc.stringMatching(/^[a-z][a-z-]{1,10}$/), flagArb, { minKeys: 1, maxKeys: 6 });

/** A line giving these flags these words. */
function lineOf(given: Record<string, string[]>): ParsedLine {
  return { command: '!x', positionals: [], flags: new Map(Object.entries(given)) };
}

describe('sampleValues', () => {
  it('takes every valid sample of every flag of any table', () => {
    fc.assert(fc.property(tableArb.chain((table) => fc.tuple(fc.constant(table), fc.record(
      Object.fromEntries(Object.entries(table).map(([name, flag]) => [name, fc.constantFrom(...sampleValues(flag).valid)])),
      { requiredKeys: [] },
    ))), ([table, given]) => {
      expect(refusal(() => parseFlags(lineOf(given as Record<string, string[]>), table))).toBeNull();
    }));
  });

  it('refuses any invalid sample with a UsageError, nothing else', () => {
    fc.assert(fc.property(tableArb.chain((table) => {
      const names = Object.keys(table);
      return fc.tuple(fc.constant(table), fc.constantFrom(...names)).chain(([, bad]) => fc.tuple(
        fc.constant(table),
        fc.constant(bad),
        fc.constantFrom(...sampleValues(table[bad]!).invalid),
        fc.record(Object.fromEntries(names.filter((name) => name !== bad).map((name) => [name, fc.constantFrom(...sampleValues(table[name]!).valid)])), { requiredKeys: [] }),
      ));
    }), ([table, bad, words, others]) => {
      const line = lineOf({ ...(others as Record<string, string[]>), [bad]: words });
      expect(() => parseFlags(line, table)).toThrow(UsageError);
    }));
  });

  it('throws nothing but UsageError for any words under any conditions', () => {
    const table: TypedFlagTable = flagTable({
      action: { kind: 'choice', choices: ['a', 'b', 'c'], required: true, meaningless: { z: 'no z' } },
      n: { kind: 'integer', min: -5, max: 5, onlyWhen: { flag: 'action', in: ['a', 'b'] } },
      m: { kind: 'amount', max: 9, needs: 'n' },
      t: { kind: 'token', required: { when: { flag: 'action', in: ['c'] } }, onlyWhen: [{ flag: 'action', notIn: ['a'] }, { flag: 'n', in: ['1', '2'], why: '--t with --n {value}' }] },
      s: { kind: 'switch' },
    });
    const words = fc.array(fc.oneof(fc.constantFrom('a', 'b', 'c', 'z', '1', '2', '-7', '$[[0]]', 'x'), fc.string()), { maxLength: 3 });
    fc.assert(fc.property(fc.dictionary(fc.constantFrom('action', 'n', 'm', 't', 's', 'q', '__proto__', 'constructor'), words), (given) => {
      try {
        parseFlags(lineOf(given), table, (name) => (name === 'q' ? 'other' : undefined));
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
      }
    }));
  });
});
