// The companion sheet's workers under vitest, with the project's own small sheet-worker runtime
// (mocks/sheetWorkers.ts: dependency-free so the playground can bundle it; the K-scaffold's mock20
// is written for sheets built with the K-scaffold, and this sheet is not one).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fieldDefaults, runSheetWorkers, workerScriptOf } from '../../mocks/sheetWorkers';

const html = readFileSync('sheet/defense-round.html', 'utf8');

function sheetWith(values: Record<string, string>) {
  const attrs = new Map(Object.entries(values));
  const writes: string[] = [];
  const workers = runSheetWorkers(html, {
    get: (name) => attrs.get(name),
    set: (name, value) => {
      writes.push(name);
      attrs.set(name, value);
    },
  });
  return { attrs, writes, workers };
}

describe('the sheet workers', () => {
  it('the defensive stance\'s flat defense is 5% of Fortitude, rounded down, set when the sheet opens and when Fortitude changes', () => {
    const { attrs, workers } = sheetWith({ fortitude: '59' });
    workers.open();
    expect(attrs.get('defensive_flat')).toBe('2');
    attrs.set('fortitude', '100');
    workers.changed('fortitude', '59');
    expect(attrs.get('defensive_flat')).toBe('5');
    attrs.set('fortitude', '-19');
    workers.changed('fortitude', '100');
    expect(attrs.get('defensive_flat')).toBe('-1');
  });

  it('a Fortitude that is not a whole number shows nothing (as the script reads it: not a number, never 0 by accident)', () => {
    for (const typed of ['', '12.5', 'lots', '1e309']) {
      const { attrs, workers } = sheetWith({ fortitude: typed, defensive_flat: '3' });
      workers.open();
      expect(attrs.get('defensive_flat'), typed).toBe('');
    }
    const { attrs, workers } = sheetWith({ fortitude: ' 40 ' });
    workers.open();
    expect(attrs.get('defensive_flat')).toBe('2');
  });

  it('a new character\'s worn armor (its current empty) takes its undamaged max, once; a current the script wrote is never touched', () => {
    const fresh = sheetWith({ armor_physical_max: '100' });
    fresh.workers.open();
    expect(fresh.attrs.get('armor_physical')).toBe('100');
    const typed = sheetWith({ armor_magical: '' });
    typed.attrs.set('armor_magical_max', '40');
    typed.workers.changed('armor_magical_max');
    expect(typed.attrs.get('armor_magical')).toBe('40');
    // Worn down by the script, or anything written there: left as it is, whatever the max does.
    for (const now of ['60', '0', 'x']) {
      const worn = sheetWith({ armor_physical: now, armor_physical_max: '100' });
      worn.workers.open();
      worn.attrs.set('armor_physical_max', '120');
      worn.workers.changed('armor_physical_max');
      expect(worn.attrs.get('armor_physical'), now).toBe(now);
    }
    // No undamaged value: nothing to fill in.
    const none = sheetWith({ armor_physical_max: 'lots' });
    none.workers.open();
    expect(none.attrs.get('armor_physical')).toBeUndefined();
  });

  it('writes only the derived field, never a value the script reads or owns', () => {
    const { writes, workers, attrs } = sheetWith({ fortitude: '80', armor_physical: '60', armor_physical_max: '100' });
    workers.open();
    workers.changed('fortitude');
    attrs.set('armor_physical_max', '120');
    workers.changed('armor_physical_max');
    expect(new Set(writes)).toEqual(new Set(['defensive_flat']));
    expect(attrs.get('armor_physical')).toBe('60');
  });

  it('listens to sheet:opened and to the fields it derives from; the edition choice defaults to the script\'s first edition', () => {
    const { workers } = sheetWith({});
    expect(workers.events().sort()).toEqual(['change:armor_magical_max', 'change:armor_physical_max', 'change:fortitude', 'sheet:opened']);
    expect(fieldDefaults(html).sheet_edition).toBe('soak');
    expect(workerScriptOf(html)).toContain("on('sheet:opened change:fortitude'");
  });
});

describe('the sheet-worker runtime', () => {
  const sheet = (script: string) => `<input type="text" name="attr_a" value="1"><select name="attr_pick"><option value="x">x</option><option value="y" selected>y</option></select><script type="text/worker">${script}</script>`;

  it('setAttrs fires change events with eventInfo (sourceType sheetworker) unless silent, and calls back; getAttrs falls back on the sheet\'s defaults', () => {
    const attrs = new Map<string, string>();
    const script = `
      on('change:a', function () { getAttrs(['a', 'pick'], function (v) { setAttrs({ b: v.a + v.pick }, function () { setAttrs({ done: 'yes' }); }); }); });
      on('change:b', function (info) { setAttrs({ info: JSON.stringify(info) }); });
      on('change:done', function () { setAttrs({ heard: 'done' }); });
      on('sheet:opened', function () { setAttrs({ b: 'quiet' }, { silent: true }); });`;
    const workers = runSheetWorkers(sheet(script), { get: (n) => attrs.get(n), set: (n, v) => attrs.set(n, v) });
    workers.changed('A', '0');
    expect(attrs.get('b')).toBe('1y');
    expect(attrs.get('done')).toBe('yes');
    expect(attrs.get('heard')).toBe('done');
    expect(JSON.parse(attrs.get('info')!)).toMatchObject({ sourceAttribute: 'b', sourceType: 'sheetworker', newValue: '1y', previousValue: '' });
    attrs.delete('info');
    workers.open();
    expect(attrs.get('b')).toBe('quiet');
    expect(attrs.has('info')).toBe(false);
  });

  it('stops a worker that keeps changing what it listens to', () => {
    const attrs = new Map<string, string>();
    const workers = runSheetWorkers(sheet("on('change:a', function () { getAttrs(['a'], function (v) { setAttrs({ a: Number(v.a) + 1 }); }); });"), { get: (n) => attrs.get(n), set: (n, v) => attrs.set(n, v) });
    expect(() => workers.changed('a')).toThrow(/nested change events/);
  });
});
