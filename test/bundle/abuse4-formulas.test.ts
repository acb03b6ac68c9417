// Proof under abuse, fourth round (issue 29), the sheet formulas: a formula a player writes on her
// own sheet is worked out on the bundle (node:vm) in a moment, or refused naming the attribute,
// never read as 0; and a word that is no function of a formula is not one.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, type Table } from '../support/table';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

const MODE = (process.env.DEFENSE_ROUND_MODE as 'bundle' | 'src' | undefined) ?? 'bundle';
const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');

/** A sheet's fields by name: current, or [current, max]. */
type Sheet = Record<string, string | number | [string | number, string | number]>;

/** The longest field the formula reader works out (longer is refused as too long). */
const FIELD = 2000;
/** The longest chain of attributes referring to attributes that is worked out. */
const DEPTH = 20;

/** Bob's sheet as the player left it: existing fields set, the others created (she may add any). */
function bobsSheet(sheet: Sheet): (mock: MockRoll20, scene: DemoScene) => void {
  return (mock, scene) => {
    for (const [name, value] of Object.entries(sheet)) {
      const [current, max] = Array.isArray(value) ? value : [value, ''];
      const existing = mock.globals.findObjs({ _type: 'attribute', _characterid: scene.characters.Bob, name })[0];
      if (existing) existing.set({ current, max });
      else mock.create('attribute', { characterid: scene.characters.Bob, name, current, max });
    }
  };
}

/** `@{name}` joined by "+" as many times as fit in `chars` characters (at least once). */
function fanOut(refs: readonly string[], chars = FIELD): string {
  let text = refs[0]!;
  for (let i = 1; text.length + refs[i % refs.length]!.length + 1 <= chars; i += 1) text += `+${refs[i % refs.length]}`;
  return text;
}

/** armor_defense refers `width` times (or as many as fit in a field) to l1, l1 to l2 ... down to l`depth` = `bottom`. */
function chain(depth: number, width: number | 'full', bottom: string | number, ref = (level: number) => `@{l${level}}`): Sheet {
  const field = (level: number) => (width === 'full' ? fanOut([ref(level)]) : Array.from({ length: width }, () => ref(level)).join('+'));
  const sheet: Sheet = { armor_defense: field(1) };
  for (let level = 1; level < depth; level += 1) sheet[`l${level}`] = field(level + 1);
  sheet[`l${depth}`] = bottom;
  return sheet;
}

/** What `!damage 200` on Bob comes to: his Vitality, physical armor, and what chat said; and how long the command took. */
async function hitBob(sheet: Sheet): Promise<{ vitality: unknown; armor: unknown; said: string; ms: number; table: Table }> {
  const table = await openTable(MODE, { setup: bobsSheet(sheet) });
  // Warm: the first command's one-off costs (compiling the script's code) are not the formula's; the
  // timed read below works the formula out again from nothing (one read's memo ends with it).
  await table.say('GM', '!damage 1', ['Bob']);
  const started = performance.now();
  const out = await table.say('GM', '!damage 200', ['Bob']);
  const ms = performance.now() - started;
  return { vitality: table.attr('Bob', 'vitality'), armor: table.attr('Bob', 'armor_physical'), said: all(out), ms, table };
}

/** The same hit with armor_defense a plain number: what a formula worth `value` must come to. */
async function hitBobWithDefense(value: number): Promise<{ vitality: unknown; armor: unknown }> {
  const { vitality, armor, table } = await hitBob({ armor_defense: value });
  table.close();
  return { vitality, armor };
}

/**
 * Read within 50 ms, and either valued as `value` (the hit as with that number) or refused naming
 * armor_defense (with `refusal`'s words); `value` and `refusal` both: either will do.
 */
async function readsQuickly(sheet: Sheet, value: number | 'refused', refusal?: RegExp): Promise<void> {
  const hit = await hitBob(sheet);
  hit.table.close();
  expect(hit.ms, `the read took ${hit.ms.toFixed(1)} ms`).toBeLessThan(50);
  if (value === 'refused' || (refusal !== undefined && /put a number there/.test(hit.said))) {
    expect(hit.said).toMatch(/Bob: "armor_defense" .*; put a number there, or !defense-round set armor_defense N; nothing changed/);
    if (refusal) expect(hit.said).toMatch(refusal);
    expect(hit.vitality).toBe(70);
    expect(hit.armor).toBe(100);
  } else {
    expect(hit.said).not.toMatch(/put a number there/);
    if (value > 0) expect(hit.said).toContain(`60 - ${value} Defense`); // the breakdown, past the 100 Physical
    expect({ vitality: hit.vitality, armor: hit.armor }).toEqual(await hitBobWithDefense(value));
  }
}

describe(`the fourth round of attacks: sheet formulas (${MODE})`, () => {
  let table: Table | undefined;
  afterEach(() => table?.close());

  it("1. the attacker's formula (six look-ups a field of 41 characters at most, twelve deep) reads in a moment, as Roll20 would", async () => {
    // Small to big, so that a reader that works each look-up out again fails on a small one first.
    for (const depth of [3, 5, 7, 9, 12]) {
      const sheet = chain(depth, 6, 0);
      expect(Object.values(sheet).every((field) => String(field).length <= 41)).toBe(true);
      await readsQuickly(sheet, 0);
    }
    // l12 = 1: 6^12 = 2,176,782,336 look-ups' worth, worked out once each.
    await readsQuickly(chain(12, 6, 1), 6 ** 12);
  });

  it('1. the widest fields (2,000 characters of look-ups) down to the deepest chain are read in a moment, or refused as too much work; one deeper is refused', async () => {
    for (const depth of [2, 3, 5, DEPTH]) await readsQuickly(chain(depth, 'full', 0), 0, /"armor_defense" is too much work to work out/);
    await readsQuickly(chain(DEPTH + 1, 'full', 0), 'refused');
    // Narrow fields: the deepest chain is worked out, one deeper is refused as such.
    await readsQuickly(chain(DEPTH, 6, 0), 0);
    await readsQuickly(chain(DEPTH + 1, 6, 0), 'refused', /refers to attributes nested more than 20 deep/);
    // Current and max, each its own look-up: every other level is read through its max (its current holds "x", never read).
    const both = (level: number) => (level % 2 === 0 ? `@{l${level}|max}` : `@{l${level}}`);
    const mixed = chain(DEPTH, 3, 0, both);
    for (let level = 2; level <= DEPTH; level += 2) mixed[`l${level}`] = ['x', mixed[`l${level}`] as string | number];
    await readsQuickly(mixed, 0);
    // 6^20 is worked out; 8^20, past the whole numbers a number holds exactly, is refused, never read as 0.
    await readsQuickly(chain(DEPTH, 6, 1), 6 ** 20);
    await readsQuickly(chain(DEPTH, 8, 1), 'refused', /works out to 1152921504606847000, too big a number to count exactly/);
  });

  it('1. many distinct attributes, each field referring to all of the next layer, are refused as too much work, naming the attribute', async () => {
    // Layers of 150 distinct attributes, each field referring to all 150 of the next: 3,000 attributes.
    const layer = (n: number) => Array.from({ length: 150 }, (_, i) => `@{a${n}_${i}}`);
    const sheet: Sheet = { armor_defense: fanOut(layer(1)) };
    for (let n = 1; n < DEPTH; n += 1) for (let i = 0; i < 150; i += 1) sheet[`a${n}_${i}`] = fanOut(layer(n + 1));
    for (let i = 0; i < 150; i += 1) sheet[`a${DEPTH}_${i}`] = 0;
    await readsQuickly(sheet, 'refused', /"armor_defense" is too much work to work out/);
    // A tree with no attribute met twice: 1 + 6 + 36 + 216 + 1,296 distinct attributes (worked out, or refused as too much work).
    const tree: Sheet = { armor_defense: fanOut(['@{t}'], 4) };
    const grow = (name: string, depth: number): void => {
      if (depth === 4) {
        tree[name] = 1;
        return;
      }
      const children = Array.from({ length: 6 }, (_, i) => `${name}${i}`);
      tree[name] = children.map((child) => `@{${child}}`).join('+');
      for (const child of children) grow(child, depth + 1);
    };
    grow('t', 0);
    await readsQuickly(tree, 1296, /"armor_defense" is too much work to work out/);
  });

  it('1. a loop is still a loop, and an attribute met twice is no loop', async () => {
    await readsQuickly({ armor_defense: '@{a}+@{b}', a: '@{c}*2', b: '@{c}+@{c}', c: 3 }, 12);
    await readsQuickly({ armor_defense: '@{armor_defense}+1' }, 'refused', /refers to itself through other attributes/);
    await readsQuickly({ armor_defense: '@{a}', a: ['@{b|max}', 0], b: [1, '@{a}'] }, 'refused', /refers to itself through other attributes/);
    // The loop at the bottom of the attacker's graph is found without going through the fan-out again and again.
    await readsQuickly(chain(12, 6, '@{l1}'), 'refused', /refers to itself through other attributes/);
    await readsQuickly(chain(12, 6, '@{shield}'), 'refused', /refers to "shield", which the character does not have/);
  });

  it('1. a sheet default that fans out is read in a moment too', async () => {
    table = await openTable(MODE, {
      setup: (mock, scene) => {
        mock.globals.findObjs({ _type: 'attribute', _characterid: scene.characters.Bob, name: 'armor_defense' })[0]!.remove();
        mock.sheetDefault('armor_defense', fanOut(['@{d1}'], 41));
        for (let level = 1; level < 12; level += 1) mock.sheetDefault(`d${level}`, fanOut([`@{d${level + 1}}`], 41));
        mock.sheetDefault('d12', 0);
      },
    });
    await table.say('GM', '!damage 1', ['Bob']); // warm, as in hitBob
    const started = performance.now();
    const out = await table.say('GM', '!damage 200', ['Bob']);
    expect(performance.now() - started).toBeLessThan(50);
    expect(all(out)).not.toMatch(/put a number there/);
    expect(table.attr('Bob', 'vitality')).toEqual((await hitBobWithDefense(0)).vitality);
  });

  it('20. a word that is no function of a formula (constructor, toString, __proto__, hasOwnProperty ...) is refused, not read as a number', async () => {
    const words = ['constructor(7)+0', 'toString(1)', '__proto__(1)', 'hasOwnProperty(1)', 'valueOf(1)', 'isPrototypeOf(1)', 'propertyIsEnumerable(1)', 'toLocaleString(1)', '__defineGetter__(1)', 'CONSTRUCTOR(7)'];
    for (const word of words) {
      table = await openTable(MODE, { setup: bobsSheet({ armor_defense: word }) });
      const out = await table.say('GM', '!damage 200', ['Bob']);
      expect(all(out), word).toMatch(/Bob: "armor_defense" is not a number or a formula of numbers and attributes; put a number there, or !defense-round set armor_defense N; nothing changed/);
      expect(table.attr('Bob', 'vitality')).toBe(70);
      expect(table.mock.logs.join('\n'), word).not.toMatch(/error/i);
      table.close();
      table = undefined;
    }
    // floor(), ceil(), round() and abs() still are functions, in any case.
    await readsQuickly({ armor_defense: 'FLOOR(@{a}/2)+abs(-1)', a: 7 }, 4);
  });
});
