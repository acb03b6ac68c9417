// The undo history keeps its size and each owner's count and bytes as running numbers (so a hit
// neither walks nor copies it): what it keeps must be exactly what walking it every time keeps,
// whatever the mix of owners, sizes, undos and outside changes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { createRoll20, type MockRoll20 } from '../../mocks/roll20';
import { HISTORY_BYTES, HISTORY_LIMIT, PER_PLAYER_BYTES, PER_PLAYER_LIMIT, PLAYERS_BYTES, PLAYERS_LIMIT, recordApplication, removeEntry, sizeOf, trimHistory } from '../../src/commands/history';
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

/**
 * The history's rules, checked by walking it all (commands.md, "Undo, hardened"): a quota owner's
 * entry makes room from that owner's oldest only, or is not kept (nothing of theirs dropped) when
 * all of them going would not make it; a GM-side entry makes room from the GM side's oldest, a
 * player's only when the GM side has nothing older.
 */
function reference(history: Application[], entry: Application, quotaOwner: (a: Application) => boolean): boolean {
  const bytes = (items: readonly Application[]) => items.reduce((sum, item) => sum + sizeOf(item), 0);
  const size = sizeOf(entry);
  if (quotaOwner(entry)) {
    const fits = (items: Application[]) => {
      const mine = items.filter((item) => item.by === entry.by);
      const players = items.filter(quotaOwner);
      return mine.length < PER_PLAYER_LIMIT && bytes(mine) + size <= PER_PLAYER_BYTES && players.length < PLAYERS_LIMIT && bytes(players) + size <= PLAYERS_BYTES && items.length < HISTORY_LIMIT && bytes(items) + size <= HISTORY_BYTES;
    };
    if (!fits(history.filter((item) => item.by !== entry.by))) return false;
    while (!fits(history)) history.splice(history.findIndex((item) => item.by === entry.by), 1);
    history.push(entry);
    return true;
  }
  history.push(entry);
  while ((history.length > HISTORY_LIMIT || bytes(history) > HISTORY_BYTES) && history.length > 1) {
    const gmSide = history.findIndex((item) => item !== entry && !quotaOwner(item));
    history.splice(gmSide >= 0 ? gmSide : 0, 1);
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
          const bytes = (items: readonly Application[]) => items.reduce((sum, item) => sum + sizeOf(item), 0);
          for (const owner of owners.slice(2)) {
            const mine = history.filter((item) => item.by === owner);
            expect(mine.length).toBeLessThanOrEqual(PER_PLAYER_LIMIT);
            expect(bytes(mine)).toBeLessThanOrEqual(PER_PLAYER_BYTES);
          }
          const players = history.filter((item) => owners.slice(2).includes(item.by));
          expect(players.length).toBeLessThanOrEqual(PLAYERS_LIMIT);
          expect(bytes(players)).toBeLessThanOrEqual(PLAYERS_BYTES);
          if (history.length > 1) expect(bytes(history)).toBeLessThanOrEqual(HISTORY_BYTES);
        },
      ),
      { numRuns: 100, seed: 23 },
    );
  });

  it('trim a stored history at start-up to what keeping its entries in play, oldest first, would have kept', () => {
    const quotaOwner = (a: Application) => a.by === 'hand-edit' || (a.by !== owners[0] && a.by !== 'API');
    fc.assert(
      fc.property(fc.array(fc.record({ owner: fc.nat(4), tokens: fc.oneof({ weight: 10, arbitrary: fc.integer({ min: 1, max: 3 }) }, { weight: 1, arbitrary: fc.integer({ min: 20, max: 120 }) }) }), { minLength: 1, maxLength: 150 }), (items) => {
        const stored = items.map(({ owner, tokens }, i) => ({ ...application(owners[owner]!, tokens), key: `U${i + 1}` }));
        const app = { store: { history: [...stored], lastEntry: stored.length } } as unknown as App;
        const dropped = trimHistory(app);
        // The trim measured each entry exactly: the model keeps them by the same sizes.
        const model: Application[] = [];
        for (const entry of stored) reference(model, entry, quotaOwner);
        expect(app.store.history.map((item) => item.key)).toEqual(model.map((item) => item.key));
        expect(dropped).toBe(stored.length - model.length);
      }),
      { numRuns: 100, seed: 29 },
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
