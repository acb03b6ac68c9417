// The companion character sheet (issue 34) from one declaration (sheet/fields.ts, which reads the
// script's own list of values): sheet.json, defense-round.html (its sheet workers in one
// <script type="text/worker"> at its end), defense-round.css and translation.json, in the layout of
// Roll20's character-sheet repository. sheet/build.ts writes them.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BARS, DERIVED, EDITION_FIELD, MEANINGS, attributeOf, sheetEditions } from './fields';
import { DEFAULT_EDITION } from '../src/rules/editions';
import { VALUE_KEYS } from '../src/rules/edition';

const here = dirname(fileURLToPath(import.meta.url));
const esc = (text: string): string => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const slug = (text: string): string => text.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');

/** The sheet's words, by translation key (translation.json; the HTML carries them as data-i18n). */
function words(): Record<string, string> {
  const out: Record<string, string> = { title: 'DefenseRound', edition: 'Edition', bars: 'Bars (link to bars 1-3)', values: 'Values', derived: 'For reading', commands: 'Commands (select your token first)', now: 'now', max: 'max' };
  for (const bar of BARS) out[bar.name] = bar.label;
  for (const key of VALUE_KEYS) {
    out[key] = MEANINGS[key].label;
    out[`${key}-meaning`] = MEANINGS[key].meaning;
  }
  for (const field of DERIVED) {
    out[field.name] = field.label;
    out[`${field.name}-meaning`] = field.meaning;
  }
  for (const edition of sheetEditions()) for (const macro of edition.macros) out[`button-${slug(macro.name)}`] = macro.name.replace(/^DR-/, '').replace(/-/g, ' ') + (macro.gm ? ' (GM)' : '');
  out['button-repair'] = 'Repair armor (GM)';
  return out;
}

const label = (key: string, text: string): string => `<span data-i18n="${key}">${esc(text)}</span>`;

function html(): string {
  const w = words();
  const editions = sheetEditions();
  const inClasses = (key: string): string => editions.filter((e) => (e.reads as readonly string[]).includes(key)).map((e) => `sheet-in-${e.id}`).join(' ');
  const lines: string[] = [];
  lines.push('<div class="sheet-dr">');
  // The hidden copy of the edition choice drives which fields show (Roll20's CSS show/hide, no worker needed).
  lines.push(`  <input type="hidden" class="sheet-edition" name="attr_${EDITION_FIELD}" value="${DEFAULT_EDITION}">`);
  lines.push('  <div class="sheet-body">');
  lines.push(`    <div class="sheet-head"><span class="sheet-title">${label('title', w.title!)}</span><label class="sheet-choice">${label('edition', w.edition!)} <select name="attr_${EDITION_FIELD}">`);
  for (const e of editions) lines.push(`      <option value="${e.id}"${e.id === DEFAULT_EDITION ? ' selected' : ''}>${e.id}</option>`);
  lines.push('    </select></label></div>');
  lines.push(`    <h3 data-i18n="bars">${esc(w.bars!)}</h3>`);
  lines.push('    <div class="sheet-grid">');
  for (const bar of BARS) lines.push(`      <div class="sheet-field" title="${bar.bar}"><span class="sheet-label">${label(bar.name, bar.label)}</span><input type="number" name="attr_${bar.name}" value=""> / <input type="number" name="attr_${bar.name}_max" value=""></div>`);
  lines.push('    </div>');
  lines.push(`    <h3 data-i18n="values">${esc(w.values!)}</h3>`);
  lines.push('    <div class="sheet-grid">');
  for (const key of VALUE_KEYS) {
    const classes = inClasses(key);
    if (classes === '') continue;
    const name = attributeOf(key);
    const meaning = MEANINGS[key];
    const input = meaning.worn
      ? `<input type="number" name="attr_${name}" value="" readonly title="${esc(w.now!)}"> / <input type="number" name="attr_${name}_max" value="" title="${esc(w.max!)}">`
      : `<input type="number" name="attr_${name}" value="">`;
    lines.push(`      <div class="sheet-field sheet-ed ${classes}" data-i18n-title="${key}-meaning" title="${esc(meaning.meaning)}"><span class="sheet-label">${label(key, meaning.label)}</span>${input}</div>`);
  }
  lines.push('    </div>');
  lines.push(`    <h3 data-i18n="derived">${esc(w.derived!)}</h3>`);
  lines.push('    <div class="sheet-grid">');
  for (const field of DERIVED) lines.push(`      <div class="sheet-field sheet-ed sheet-in-${field.edition}" data-i18n-title="${field.name}-meaning" title="${esc(field.meaning)}"><span class="sheet-label">${label(field.name, field.label)}</span><span class="sheet-derived" name="attr_${field.name}"></span></div>`);
  lines.push('    </div>');
  lines.push(`    <h3 data-i18n="commands">${esc(w.commands!)}</h3>`);
  for (const e of editions) {
    lines.push(`    <div class="sheet-buttons sheet-ed sheet-in-${e.id}">`);
    for (const macro of e.macros) lines.push(`      <button type="roll" name="roll_${e.id}_${slug(macro.name)}" value="${esc(macro.action)}">${label(`button-${slug(macro.name)}`, w[`button-${slug(macro.name)}`]!)}</button>`);
    if (e.reads.some((key) => MEANINGS[key].worn)) lines.push(`      <button type="roll" name="roll_${e.id}_repair" value="!defense-round repair">${label('button-repair', w['button-repair']!)}</button>`);
    lines.push('    </div>');
  }
  lines.push('  </div>');
  lines.push('</div>');
  lines.push('<script type="text/worker">');
  lines.push(worker().trim());
  lines.push('</script>');
  return `${lines.join('\n')}\n`;
}

/** The sheet workers: derived values (never auto-calc fields), read as the script reads a value, and a new character's worn armor filled in once. */
function worker(): string {
  const blocks = DERIVED.map(
    (field) => `
on('sheet:opened change:${attributeOf(field.from)}', function () {
  getAttrs(['${attributeOf(field.from)}', '${field.name}'], function (values) {
    var base = whole(values['${attributeOf(field.from)}']);
    var shown = base === null ? '' : String(Math.floor((base * ${field.percent}) / 100));
    if (values['${field.name}'] !== shown) setAttrs({ '${field.name}': shown });
  });
});`,
  );
  // A new character's worn armor: its current value is empty until the script first writes it, and an
  // empty value reads as no armor at all (rules.md, "Reading values"); the undamaged value typed in the
  // max stands in for it then, once. A current the script wrote (any text at all) is never touched.
  for (const key of VALUE_KEYS.filter((one) => MEANINGS[one].worn)) {
    const name = attributeOf(key);
    blocks.push(`
on('sheet:opened change:${name}_max', function () {
  getAttrs(['${name}', '${name}_max'], function (values) {
    var now = values['${name}'];
    var undamaged = whole(values['${name}_max']);
    if ((now === undefined || now === null || String(now).trim() === '') && undamaged !== null) setAttrs({ '${name}': String(undamaged) });
  });
});`);
  }
  return `
// DefenseRound's companion sheet: generated by sheet/render.ts (node sheet/build.mjs); edit that, not this.
// A value is a number when it holds a whole number, as the script reads it (rules.md, "Reading values").
function whole(text) {
  var t = String(text === undefined || text === null ? '' : text).trim();
  if (!/^[+-]?\\d+$/.test(t)) return null;
  var n = Number(t);
  return Number.isSafeInteger(n) ? n + 0 : null;
}
${blocks.join('\n')}
`;
}

function css(): string {
  const editions = sheetEditions();
  const shows = editions.map((e) => `.sheet-edition[value="${e.id}"] ~ .sheet-body .sheet-in-${e.id}`).join(',\n');
  return `/* DefenseRound's companion sheet: generated by sheet/render.ts (node sheet/build.mjs). */
.sheet-dr { box-sizing: border-box; max-width: 860px; font-family: sans-serif; font-size: 13px; color: #222; }
.sheet-dr * { box-sizing: border-box; }
.sheet-head { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 8px; border-bottom: 2px solid #633; padding-bottom: 4px; }
.sheet-title { font-size: 18px; font-weight: bold; color: #633; }
.sheet-dr h3 { font-size: 14px; margin: 10px 0 4px; color: #633; }
.sheet-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(250px, 1fr)); gap: 4px 12px; }
.sheet-field { display: flex; align-items: center; gap: 4px; min-width: 0; }
.sheet-label { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
.sheet-field input { width: 64px; flex: 0 0 auto; }
.sheet-field input[readonly] { background: #eee; color: #555; }
.sheet-derived { display: inline-block; min-width: 64px; padding: 2px 4px; background: #eee; text-align: right; }
.sheet-buttons { display: flex; flex-wrap: wrap; gap: 4px; }
.sheet-buttons button { white-space: normal; }
.sheet-ed { display: none; }
${shows} { display: flex; }
`;
}

function sheetJson(): string {
  const meta = JSON.parse(readFileSync(join(here, '..', 'script.json'), 'utf8')) as { authors: string; roll20userid: string };
  return `${JSON.stringify(
    {
      html: 'defense-round.html',
      css: 'defense-round.css',
      authors: meta.authors,
      roll20userid: meta.roll20userid,
      preview: 'preview.png',
      instructions:
        "The companion sheet of the DefenseRound API script. Pick the edition your game plays (the GM's `!defense-round config edition`) at the top: its fields show. Link bars 1-3 to Vitality, Soul and Power. Armor protection's current value is the script's (it wears it down): type the undamaged value in the max, and a new character's current takes it; Repair (GM) puts it back whole. Select your token before clicking a command button.",
      legacy: true,
    },
    null,
    2,
  )}\n`;
}

/** The generated files, by name in sheet/. */
export function sheetFiles(): Record<string, string> {
  return {
    'sheet.json': sheetJson(),
    'defense-round.html': html(),
    'defense-round.css': css(),
    'translation.json': `${JSON.stringify(words(), null, 2)}\n`,
  };
}

