// Filing an answer is a change the writer applies and records, from -> to (issue 31, "The exchange
// is the pipeline's"): undo takes it back exactly, the pure changed-since check covers it as it
// covers bars, and an attack's answer, read by its hit and never filed, leaves none to bring back.
import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, whispered, type Table } from '../support/table';
import { changedSince, mergeChanges, shiftMerged } from '../../src/state/changes';
import { sameData } from '../../src/state/memory';
import { loadState, SCHEMA_VERSION } from '../../src/state/store';
import { editionOf } from '../../src/rules/editions';

// A defense made ahead is filed with the action and situation it was made for (rules.md: it answers only an attack it fits).
const FAIL = { edition: 'soak', answer: { result: 'fail', action: 'defend', situation: 'front' } };
const SUCCESS = { edition: 'soak', answer: { result: 'success', action: 'defend', situation: 'front' } };

/** Every recorded change of a kind, over the whole undo history. */
function recorded(table: Table, kind: string): any[] {
  return table.stored().history.flatMap((entry: any) => entry.tokens.flatMap((token: any) => token.changes.filter((change: any) => change.kind === kind)));
}

describe.each(MODES)('an answer on file, undone exactly (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('!defend files an answer; the hit that used it records it from -> to; undo puts exactly that answer back, and undoing nothing more leaves it as !defend left it', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Goblin 2 may defend
    await table.say('GM', '!defend --action defend --roll 99', ['Goblin 2']); // a pending failure
    expect(table.stored().exchange.waiting).toEqual({ [table.id('Goblin 2')]: FAIL });
    await table.say('GM', '!damage 45', ['Goblin 2']);
    expect(table.bar('Goblin 2')).toBe(15);
    expect(table.stored().exchange.waiting).toEqual({});
    expect(recorded(table, 'answer')).toEqual([{ kind: 'answer', from: FAIL, to: null }]);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 2')).toBe(30);
    expect(table.stored().exchange.waiting).toEqual({ [table.id('Goblin 2')]: FAIL });
    expect(table.stored().history).toEqual([]);
  });

  it('!defend --answer that settles an attack, then undo: no answer on file, the bars restored, and the record holds no answer', async () => {
    table = await openTable(mode);
    await table.passTurn();
    await table.say('GM', `!attack 40 --ids ${table.id('Goblin 2')}`, ['Goblin 1']);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action defend --roll 99`); // fails: the hit lands
    expect(table.stored().exchange.attacks).toEqual({});
    expect(table.bar('Goblin 2')).toBe(19);
    expect(table.stored().exchange.waiting).toEqual({});
    expect(recorded(table, 'answer')).toEqual([]);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 2')).toBe(30);
    expect(table.stored().exchange.waiting).toEqual({});
  });

  it('an attack answered and resolved, then undone, takes back its hit and leaves the !defend made after the answer on file as it was', async () => {
    table = await openTable(mode);
    await table.passTurn();
    await table.say('GM', `!attack 40 --ids ${table.id('Goblin 2')} ${table.id('Bob')}`, ['Goblin 1']);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action defend --roll 99`);
    // A defense made after the answer waits for the next hit: the attack reads its own answer.
    await table.say('GM', '!defend --action defend --roll 1', ['Goblin 2']);
    const later = table.stored().exchange.waiting[table.id('Goblin 2')];
    expect(later).toEqual(SUCCESS);
    await table.say('GM', '!attack --resolve A1');
    expect(table.bar('Goblin 2')).toBe(19);
    expect(table.stored().exchange.waiting).toEqual({ [table.id('Goblin 2')]: later });
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 2')).toBe(30);
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.stored().exchange.waiting).toEqual({ [table.id('Goblin 2')]: later });
  });

  it('an answer changed since by a later !defend refuses the undo, as a bar changed since does; --force puts back the one the hit used', async () => {
    table = await openTable(mode);
    await table.passTurn();
    await table.say('GM', '!defend --action defend --roll 99', ['Goblin 2']);
    await table.say('GM', '!damage 45', ['Goblin 2']); // 45 x 90% soak = 40, - 20 Physical = 20, - 5 Defense = 15: Vitality 30 -> 15
    await table.say('GM', '!defend --action defend --roll 1', ['Goblin 2']); // a new pending success
    const refused = await table.say('GM', '!damage --undo');
    expect(whispered(refused, 'gm')[0]).toMatch(/^Nothing undone, changed since: Goblin 2 has a new pending defense\. \[Undo anyway\]/);
    expect(table.bar('Goblin 2')).toBe(15);
    expect(table.stored().exchange.waiting[table.id('Goblin 2')]).toEqual(SUCCESS);
    await table.say('GM', '!damage --undo --force');
    expect(table.bar('Goblin 2')).toBe(30);
    expect(table.stored().exchange.waiting[table.id('Goblin 2')]).toEqual(FAIL);
  });

  it('opposed: an answered attack records no answer and leaves none; undo puts back the bars and the initiative the mode cost', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config edition opposed');
    await table.passTurn();
    const before = table.mock.turnOrder().find((entry) => entry.id === table.id('Goblin 2'))?.pr;
    await table.say('GM', `!attack 8 --attack 30 --ids ${table.id('Goblin 2')}`, ['Goblin 1']);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --mode active --roll 2`);
    expect(table.stored().exchange.attacks).toEqual({});
    expect(table.mock.turnOrder().find((entry) => entry.id === table.id('Goblin 2'))?.pr).toBe(Number(before) - 5);
    expect(recorded(table, 'answer')).toEqual([]);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 2')).toBe(30);
    expect(table.mock.turnOrder().find((entry) => entry.id === table.id('Goblin 2'))?.pr).toBe(before);
    expect(table.stored().exchange.waiting).toEqual({});
  });
});

describe('the pure changed-since check covers an answer on file', () => {
  const box = (answer: string) => ({ edition: 'soak', answer });
  const merged = (from: unknown, to: unknown) => mergeChanges([{ tokenId: 't1', name: 'Bob', changes: [{ kind: 'answer', from, to } as any] }]);

  it('an answer as the command left it is no change; a new one or one gone since is named', () => {
    const used = merged(box('fail'), null);
    expect(changedSince(used, new Map([['answer:t1', null]]), sameData, () => 'x')).toEqual([]);
    expect(changedSince(used, new Map([['answer:t1', box('success')]]), sameData, () => 'x')).toEqual(['Bob has a new pending defense']);
    const filed = merged(null, box('fail'));
    expect(changedSince(filed, new Map([['answer:t1', null]]), sameData, () => 'x')).toEqual(['Bob no longer has the pending defense it had']);
  });

  it('two changes of one token\'s answer merge into one: the first from, the last to', () => {
    const both = mergeChanges([{ tokenId: 't1', name: 'Bob', changes: [{ kind: 'answer', from: null, to: box('fail') }, { kind: 'answer', from: box('fail'), to: null }] }]);
    expect(both.map((entry) => entry.change)).toEqual([{ kind: 'answer', from: null, to: null }]);
  });

  it('a round ended since: neither side of the answer is on file any more', () => {
    const shifted = shiftMerged(merged(box('fail'), null), editionOf('soak'), 1);
    expect(shifted[0]!.change).toEqual({ kind: 'answer', from: null, to: null });
    expect(shiftMerged(merged(box('fail'), null), editionOf('soak'), 0)[0]!.change).toEqual({ kind: 'answer', from: box('fail'), to: null });
  });
});

describe('schema 4 -> 5: answers as changes of their own, and kept typed', () => {
  it('a memory change holding an answer is split in two; an open attack\'s answer is kept as `answer`, one kept as the hit\'s flags is forgotten', () => {
    const attack = (answers: Record<string, unknown>) => ({
      key: 'A1', by: 'p1', gm: true, attacker: null, edition: 'soak', positionals: ['40'], flags: [], situation: null, round: 1, defenders: ['t1', 't2'], answers,
    });
    const old = {
      schemaVersion: 4,
      settings: { edition: 'soak' },
      history: [{
        by: 'p1', kind: 'damage', round: 1, key: 'U1',
        tokens: [{ tokenId: 't1', name: 'Bob', changes: [
          { kind: 'memory', from: { stance: 'defensive', answer: box4('fail') }, to: { stance: 'defensive' } },
          { kind: 'memory', tokenId: 't2', from: {}, to: { answer: box4('success') } },
          { kind: 'memory', from: {}, to: { stance: 'reactive' } },
        ] }],
      }],
      exchange: { waiting: {}, attacks: { A1: attack({ t1: { word: 'defend', file: 'fail', roll: 90, success: false }, t2: { word: 'active', flags: { mode: 'active' } } }) }, lastAttack: 1, lastHiddenAttack: 0 },
    };
    const { stored, problems } = loadState(old, 'test');
    expect(problems).toEqual([]);
    expect(stored.schemaVersion).toBe(SCHEMA_VERSION);
    expect(stored.history[0]!.tokens[0]!.changes).toEqual([
      { kind: 'answer', from: box4('fail'), to: null },
      { kind: 'answer', tokenId: 't2', from: null, to: box4('success') },
      { kind: 'memory', from: {}, to: { stance: 'reactive' } },
    ]);
    expect(stored.exchange.attacks.A1!.answers).toEqual({ t1: { word: 'defend', answer: 'fail', roll: 90, success: false } });
  });
});

function box4(answer: string) {
  return { edition: 'soak', answer };
}
