// The undo history keeps its size and each owner's count as running numbers (so a hit neither walks
// nor copies it): what it keeps must be exactly what walking it every time kept, whatever the
// mix of owners, sizes, undos and outside changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRoll20, type MockRoll20 } from '../../mocks/roll20';
import { HISTORY_BYTES, HISTORY_LIMIT, PER_PLAYER_LIMIT, recordApplication, removeEntry, sizeOf } from '../../src/commands/history';
import type { Application } from '../../src/state/history';
import type { App } from '../../src/commands/context';
import { loadState } from '../../src/state/store';

let mock: MockRoll20;
const owners: string[] = [];
beforeAll(() => {
  mock = createRoll20({ seed: 5 });
  mock.install(globalThis);
  const gm = mock.addPlayer({ displayname: 'GM', gm: true });
  owners.push(gm.id, 'API', 'hand-edit', mock.addPlayer({ displayname: 'Alice' }).id, mock.addPlayer({ displayname: 'Ben' }).id);
});
afterAll(() => mock.uninstall());

/** The history as it was kept before the running numbers: every limit checked by walking it all. */
function reference(history: Application[], entry: Application, quotaOwner: (a: Application) => boolean): boolean {
  history.push(entry);
  const player = quotaOwner(entry);
  const own = () => history.filter((item) => item !== entry && item.by === entry.by);
  if (player) {
    const mine = own();
    for (const old of mine.slice(0, Math.max(0, mine.length + 1 - PER_PLAYER_LIMIT))) history.splice(history.indexOf(old), 1);
  }
  let total = 0;
  for (const item of history) total += sizeOf(item);
  while ((history.length > HISTORY_LIMIT || total > HISTORY_BYTES) && history.length > 1) {
    const victim = player ? (own()[0] ?? entry) : history[0]!;
    history.splice(history.indexOf(victim), 1);
    total -= sizeOf(victim);
    if (victim === entry) return false;
  }
  return true;
}

function application(by: string, tokens: number): Application {
  return {
    by,
    kind: by === 'hand-edit' ? 'hand-edit' : 'damage',
    round: 1,
    tokens: Array.from({ length: tokens }, (_, i) => ({ tokenId: `-Ntok${String(i).padStart(15, '0')}`, name: `Goblin ${i}`, changes: [{ kind: 'bar' as const, resource: 'vitality' as const, bar: 'bar1' as const, from: 30, to: 20 }] })),
  };
}

describe('the undo history\'s running numbers', () => {
  it('keep what walking the whole history kept, entry for entry, with undos between', () => {
    const gmIds = () => new Set([owners[0]!, 'API']);
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.record({ op: fc.constant('add' as const), owner: fc.nat(4), tokens: fc.oneof({ weight: 30, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 20, max: 200 }) }) }), fc.record({ op: fc.constant('undo' as const), at: fc.nat() })), { minLength: 60, maxLength: 300, size: 'max' }),
        (ops) => {
          const app = { store: { history: [] as Application[], lastEntry: 0 } } as unknown as App;
          const model: Application[] = [];
          const quotaOwner = (a: Application) => a.by === 'hand-edit' || !gmIds().has(a.by);
          for (const op of ops) {
            if (op.op === 'add') {
              const entry = application(owners[op.owner]!, op.tokens);
              const key = recordApplication(app, entry);
              // The script's entry is a copy with its key: the model keeps the same copy.
              const kept = app.store.history.find((item) => item.key === key);
              const copy = kept ?? { ...entry, key: `U${app.store.lastEntry}` };
              expect(reference(model, copy, quotaOwner)).toBe(key !== undefined);
            } else if (model.length > 0) {
              const index = op.at % model.length;
              model.splice(index, 1);
              removeEntry(app, index);
            }
            expect(app.store.history.map((item) => item.key)).toEqual(model.map((item) => item.key));
          }
          // The limits hold, measured afresh.
          const history = app.store.history;
          expect(history.length).toBeLessThanOrEqual(HISTORY_LIMIT);
          for (const owner of owners.slice(2)) expect(history.filter((item) => item.by === owner).length).toBeLessThanOrEqual(PER_PLAYER_LIMIT);
          if (history.length > 1) expect(history.reduce((sum, item) => sum + sizeOf(item), 0)).toBeLessThanOrEqual(HISTORY_BYTES);
        },
      ),
      { numRuns: 100, seed: 23 },
    );
  });

  it('are worked out again when the history was changed elsewhere (a restart, a reset, an edit outside)', () => {
    const app = { store: { history: [] as Application[], lastEntry: 0 } } as unknown as App;
    for (let i = 0; i < 5; i += 1) recordApplication(app, application(owners[0]!, 100));
    // Something else empties the history in place: the next entry must not trim against stale numbers.
    app.store.history.length = 0;
    recordApplication(app, application(owners[0]!, 100));
    expect(app.store.history.length).toBe(1);
    // A new history (a reset): counted afresh.
    app.store.history = [];
    for (let i = 0; i < 3; i += 1) recordApplication(app, application(owners[3]!, 1));
    expect(app.store.history.length).toBe(3);
  });

  it('hand out no key an entry still holds: a stored counter lost or set back is raised to the highest key kept', () => {
    const entry = { ...application(owners[0]!, 1), key: 'U7' };
    expect(loadState({ schemaVersion: 3, history: [entry] }, '0.2.0').stored.lastEntry).toBe(7);
    expect(loadState({ schemaVersion: 3, history: [entry], lastEntry: 2 }, '0.2.0').stored.lastEntry).toBe(7);
    expect(loadState({ schemaVersion: 3, history: [entry], lastEntry: 12 }, '0.2.0').stored.lastEntry).toBe(12);
    expect(loadState({ schemaVersion: 3, history: [], lastEntry: -4 }, '0.2.0').stored.lastEntry).toBe(0);
  });
});
