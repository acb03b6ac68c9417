// The companion sheet and the script share one list of values (issue 34): each edition's
// `table.reads` is what its rules read (checked against its source), the sheet has a field for each
// and none besides, and the committed sheet/ files are a fresh build of that declaration.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VALUE_KEYS, type ValueKey } from '../../src/rules/edition';
import { editionOf, playableEditions } from '../../src/rules/editions';
import { DEFAULT_ATTRIBUTES } from '../../src/state/settings';
import { BARS, DERIVED, EDITION_FIELD, MEANINGS } from '../../sheet/fields';
import { sheetFiles } from '../../sheet/render';

const html = readFileSync('sheet/defense-round.html', 'utf8');
/** The attribute fields of the sheet, each with its classes and tag. */
const fields = [...html.matchAll(/<div class="sheet-field([^"]*)"[^>]*>([\s\S]*?)<\/div>/g)].map((m) => ({ classes: m[1]!.trim().split(/\s+/), body: m[2]! }));
const attrNames = [...new Set([...html.matchAll(/name="attr_([^"]+)"/g)].map((m) => m[1]!))];
const quoted = new RegExp(`'(${VALUE_KEYS.join('|')})'`, 'g');

describe('one list of values for the script and its sheet', () => {
  it.each(playableEditions())("%s's table.reads is every value its rules name, and no other", (id) => {
    const folder = join('src/rules', id);
    const named = new Set<string>();
    for (const file of readdirSync(folder)) {
      // The list itself is left out: what is checked is what the rules name.
      const text = readFileSync(join(folder, file), 'utf8').replace(/^\s*reads: \[.*\],$/m, '');
      for (const m of text.matchAll(quoted)) named.add(m[1]!);
    }
    expect([...editionOf(id).table.reads].sort()).toEqual([...named].sort());
  });

  it('no shared rules module names a value (each is read by an edition, so listed in its reads)', () => {
    for (const file of readdirSync('src/rules').filter((f) => f.endsWith('.ts') && f !== 'edition.ts')) {
      expect([...readFileSync(join('src/rules', file), 'utf8').matchAll(quoted)].map((m) => m[1]), file).toEqual([]);
    }
  });

  it('every value an edition reads has its field, under its default attribute name, shown in that edition', () => {
    for (const id of playableEditions()) {
      for (const key of editionOf(id).table.reads) {
        const field = fields.find((f) => f.body.includes(`name="attr_${DEFAULT_ATTRIBUTES[key]}"`));
        expect(field, `${id} reads ${key}`).toBeDefined();
        expect(field!.classes, `${key} shows in ${id}`).toContain(`sheet-in-${id}`);
      }
    }
  });

  it('the sheet names no value no edition reads, and shows in each edition exactly the values it reads', () => {
    const read = new Set<string>(playableEditions().flatMap((id) => editionOf(id).table.reads));
    const own = new Set<string>([EDITION_FIELD, ...DERIVED.map((d) => d.name), ...BARS.flatMap((b) => [b.name, `${b.name}_max`])]);
    for (const name of attrNames) {
      if (own.has(name)) continue;
      const key = name.replace(/_max$/, '');
      expect(read.has(key), `attr_${name}`).toBe(true);
      if (name.endsWith('_max')) expect(MEANINGS[key as ValueKey].worn, `${name}: only worn armor has a max`).toBe(true);
    }
    for (const id of playableEditions()) {
      const shown = fields.filter((f) => f.classes.includes(`sheet-in-${id}`)).flatMap((f) => [...f.body.matchAll(/name="attr_([^"]+)"/g)].map((m) => m[1]!.replace(/_max$/, '')));
      const derived = DERIVED.filter((d) => d.edition === id).map((d) => d.name);
      expect([...new Set(shown)].sort()).toEqual([...editionOf(id).table.reads, ...derived].sort());
    }
  });

  it('has the bars with their maxima, as the default bar links expect (bar1 Vitality, bar2 Soul, bar3 Power)', () => {
    expect(BARS.map((b) => `${b.bar}:${b.name}`)).toEqual(['bar1:vitality', 'bar2:soul', 'bar3:power']);
    for (const bar of ['vitality', 'soul', 'power']) for (const name of [bar, `${bar}_max`]) expect(attrNames).toContain(name);
  });

  it('the committed sheet/ files are a fresh build (npx tsx sheet/build.ts)', () => {
    for (const [name, text] of Object.entries(sheetFiles())) expect(readFileSync(join('sheet', name), 'utf8'), `sheet/${name}`).toBe(text);
    const meta = JSON.parse(readFileSync('sheet/sheet.json', 'utf8'));
    for (const field of ['html', 'css', 'authors', 'roll20userid', 'preview', 'instructions', 'legacy']) expect(meta).toHaveProperty(field);
    const translation = JSON.parse(readFileSync('sheet/translation.json', 'utf8'));
    for (const m of html.matchAll(/data-i18n(?:-title)?="([^"]+)"/g)) expect(translation, m[1]).toHaveProperty(m[1]!);
  });
});

describe("the sheet keeps Roll20's rules for sheets", () => {
  it('one script, the sheet workers, at its end; no ids; every class sheet-; every name attr_ or roll_', () => {
    expect(html.match(/<script\b[^>]*>/g)).toEqual(['<script type="text/worker">']);
    expect(html.trimEnd().endsWith('</script>')).toBe(true);
    expect(html).not.toMatch(/\sid="/);
    for (const m of html.matchAll(/class="([^"]*)"/g)) for (const c of m[1]!.split(/\s+/)) expect(c).toMatch(/^sheet-/);
    for (const m of html.matchAll(/\bname="([^"]*)"/g)) expect(m[1]).toMatch(/^(attr|roll)_[a-z0-9_]+$/);
    const css = readFileSync('sheet/defense-round.css', 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    for (const m of css.matchAll(/\.([a-z][\w-]*)/g)) expect(m[1]).toMatch(/^sheet-/);
  });

  it('no auto-calc field: nothing holds a formula; what is derived is a span the workers fill', () => {
    expect(html).not.toMatch(/value="[^"]*@\{(?!target\||selected\|)/);
    expect(html).not.toMatch(/\bdisabled\b/);
    for (const d of DERIVED) expect(html).toMatch(new RegExp(`<span class="sheet-derived" name="attr_${d.name}"></span>`));
  });

  it("never writes what the script owns: worn armor's current value is read-only, its max (the undamaged value) is the field to edit", () => {
    for (const key of VALUE_KEYS.filter((k) => MEANINGS[k].worn)) {
      expect(html).toMatch(new RegExp(`<input type="number" name="attr_${key}" value="" readonly`));
      expect(html).toMatch(new RegExp(`<input type="number" name="attr_${key}_max" value=""(?! readonly)`));
    }
    // The workers set derived fields, and a worn armor's current only where it is empty (a new character: workers.test.ts).
    const worker = html.slice(html.indexOf('<script type="text/worker">'));
    const set = [...worker.matchAll(/setAttrs\(\{ '([^']+)'/g)].map((m) => m[1]);
    const worn = VALUE_KEYS.filter((k) => MEANINGS[k].worn);
    expect(set).toEqual([...DERIVED.map((d) => d.name), ...worn]);
    for (const key of worn) expect(worker).toContain(`if ((now === undefined || now === null || String(now).trim() === '') && undamaged !== null) setAttrs({ '${key}'`);
  });
});
