import { describe, it, expect } from 'vitest';
import { loadState, freshState, SCHEMA_VERSION } from '../../src/state/store';
import { checkSettings, defaultSettings } from '../../src/state/settings';
import { memoryView } from '../support/table';
import { checkTokenRecords, isEmptyRecord, TOKEN_RECORD_FIELDS } from '../../src/state/tokens';

describe('stored state', () => {
  it('starts from defaults when nothing is stored, without problems', () => {
    const { stored, problems } = loadState(undefined, '1.0.0');
    expect(problems).toEqual([]);
    expect(stored).toEqual(freshState('1.0.0'));
    expect(stored.schemaVersion).toBe(SCHEMA_VERSION);
    expect(stored.settings.edition).toBe('soak');
  });

  it('migrates a version-0 state (flat settings, no schemaVersion) keeping its values', () => {
    const old = {
      edition: 'soak',
      vitalityBar: 'bar2',
      soulBar: 'bar1',
      playersTargetAny: true,
      tokens: { tok1: { stance: 'defensive', pendingDefense: 'success' } },
    };
    const { stored, problems } = loadState(old, '1.0.0');
    expect(problems).toEqual([]);
    expect(stored.schemaVersion).toBe(SCHEMA_VERSION);
    expect(stored.settings.bars).toEqual({ vitality: 'bar2', soul: 'bar1', power: 'bar3', stamina: 'power' });
    expect(stored.settings.playersTargetAny).toBe(true);
    expect(memoryView(stored.tokens.tok1, stored.exchange.waiting.tok1)).toEqual({ stance: 'defensive', pendingDefense: 'success' });
  });

  it.each([
    ['a string', 'garbage'],
    ['a number', 42],
    ['an array', [1, 2]],
    ['null', null],
  ])('replaces %s in state by defaults and reports it, without throwing', (_label, raw) => {
    const { stored, problems } = loadState(raw, '1.0.0');
    expect(stored.settings).toEqual(defaultSettings());
    expect(problems.length).toBeGreaterThan(0);
  });

  it('reports an unknown future schema version and starts from defaults', () => {
    const { stored, problems } = loadState({ schemaVersion: 99, settings: { edition: 'opposed' } }, '1.0.0');
    expect(stored.settings.edition).toBe('soak');
    expect(problems[0]).toMatch(/schema version 99/);
  });

  it('replaces only the settings that fail their check, naming each', () => {
    const stored = { ...defaultSettings(), edition: 'chess', overwhelmLimit: -3, visibility: { npc: 'public', pc: 7 } };
    const { settings, problems } = checkSettings(stored);
    expect(settings.edition).toBe('soak');
    expect(settings.overwhelmLimit).toBe(20);
    expect(settings.visibility).toEqual({ npc: 'public', pc: 'public' });
    expect(problems.join('\n')).toMatch(/edition/);
    expect(problems.join('\n')).toMatch(/overwhelmLimit/);
    expect(problems.join('\n')).toMatch(/visibility\.pc/);
  });

  it('resets a bar mapping where two resources share a bar', () => {
    const { settings, problems } = checkSettings({ bars: { vitality: 'bar1', soul: 'bar1', power: 'bar3', stamina: 'power' } });
    expect(settings.bars).toEqual(defaultSettings().bars);
    expect(problems.join()).toMatch(/share one bar/);
  });

  it('forgets a malformed token record but keeps the good ones', () => {
    const { stored, problems } = loadState(
      { schemaVersion: 1, settings: defaultSettings(), tokens: { good: { stance: 'reactive' }, bad: { life: { condition: 'zombie', savesOwed: 1 } } } },
      '1.0.0',
    );
    expect(memoryView(stored.tokens.good)).toEqual({ stance: 'reactive' });
    expect(stored.tokens.bad).toBeUndefined();
    expect(problems.join()).toMatch(/tokens\.bad/);
  });

  it('survives a JSON round trip unchanged (Roll20 keeps state as JSON)', () => {
    const { stored } = loadState({ schemaVersion: 1, settings: defaultSettings(), tokens: { a: { wear: { physical: 60 } } } }, '1.0.0');
    const again = loadState(JSON.parse(JSON.stringify(stored)), '1.0.0');
    expect(again.problems).toEqual([]);
    expect(again.stored).toEqual(stored);
  });
});

describe('a token record with nothing worth remembering', () => {
  it('is empty only when every one of its fields is absent', () => {
    expect(isEmptyRecord({})).toBe(true);
    expect(isEmptyRecord({ stance: undefined, worn: undefined })).toBe(true);
    // One record per field the schema knows: each alone makes the record worth keeping.
    const full = checkTokenRecords({
      t: { overrides: { exp: 1 }, worn: { physical: 3 }, stance: 'defensive', deadForGood: true, edition: { id: 'soak', state: {} } },
    }).tokens.t!;
    expect(Object.keys(full).sort()).toEqual([...TOKEN_RECORD_FIELDS].sort());
    for (const [field, value] of Object.entries(full)) expect(isEmptyRecord({ [field]: value })).toBe(false);
  });
});

describe('the edition left at the last switch', () => {
  it('is kept when it names an edition, and dropped otherwise', () => {
    const fresh = freshState('1.0.0');
    expect(loadState({ ...fresh, editionLeft: 'soak' }, '1.0.0').stored.editionLeft).toBe('soak');
    expect(loadState({ ...fresh, editionLeft: 'bogus' }, '1.0.0').stored.editionLeft).toBeUndefined();
    expect(loadState({ ...fresh, editionLeft: 7 }, '1.0.0').stored.editionLeft).toBeUndefined();
  });
});
