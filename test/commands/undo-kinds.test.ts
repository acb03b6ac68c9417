import { registered } from '../../src/rules/editions';
import { afterEach, describe, expect, it } from 'vitest';
import { bobTwin, MODES, openTable, publicFromScript, type Table } from '../support/table';
import { createRoll20, type MockRoll20 } from '../../mocks/roll20';
import { buildDemoScene, type DemoScene } from '../../mocks/scene';
import { defaultSettings } from '../../src/state/settings';
import type { TokenRecord } from '../../src/state/tokens';
import { AttributeIndex } from '../../src/roll20/attributes';
import { readFacts, readToken, characterOf } from '../../src/roll20/read';
import { applyOutcome, applyUndo } from '../../src/roll20/write';
import { readNow } from '../../src/roll20/now';
import { sameData, type AnswerBox } from '../../src/state/memory';
import { changedSince, mergeChanges } from '../../src/state/changes';
import { soak as declared_soak } from '../../src/rules/soak'
const soak = registered(declared_soak);
import type { Outcome } from '../../src/rules/edition';

describe.each(MODES)('undo of a linked attribute shared by two tokens hit by one command (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('puts the one value back to what it was before the command, with no "changed since"', async () => {
    table = await openTable(mode, { setup: bobTwin() });
    table.mock.attribute('Bob', 'vitality').set('current', 50);
    table.mock.attribute('Bob', 'armor_physical').set({ current: 10, max: 10 });
    table.mock.attribute('Bob', 'armor_soak').set('current', 0);
    table.mock.attribute('Bob', 'armor_defense').set('current', 0);
    await table.say('Alice', '!damage 20', ['Bob', 'Bob (mirror image)']);
    // 20 - 10 Physical = 10 (Physical wears to 5); then 20 - 5 = 15 (Physical wears to 0)
    expect(table.attr('Bob', 'vitality')).toBe(25);
    expect(table.attr('Bob', 'armor_physical')).toBe(0);
    const out = await table.say('Alice', '!damage --undo');
    // The shared attributes came back once (Vitality 25 -> 50, the sheet's Physical 0 -> 10): said on the first token that holds them.
    expect(publicFromScript(out)).toEqual(['Damage undone: Bob (Vitality 25 -> 50, Physical 0 -> 10), Bob (mirror image).']);
    expect(table.attr('Bob', 'vitality')).toBe(50);
    expect(table.attr('Bob', 'armor_physical')).toBe(10);
    expect(table.bar('Bob')).toBe(50);
    expect(table.bar('Bob (mirror image)')).toBe(50);
  });
});

describe('undo of initiative, a token joining the Turn Tracker and an ally\'s answer on file (the writer, both ways)', () => {
  let mock: MockRoll20;
  let scene: DemoScene;
  afterEach(() => mock?.uninstall());

  function setUp() {
    mock = createRoll20({ seed: 3 });
    scene = buildDemoScene(mock);
    mock.install(globalThis);
    const settings = defaultSettings();
    const tokens: Record<string, TokenRecord> = {};
    const waiting: Record<string, AnswerBox> = {};
    const context = { settings, edition: soak, memories: { tokens, exchange: { waiting } } };
    const token = mock.token('Goblin 1');
    const reading = readFacts(readToken(token, characterOf(token), settings), tokens[token.id], { values: [] }, {
      settings, attributes: new AttributeIndex(), edition: soak, tokens, waiting,
    });
    const outcome: Outcome<unknown> = {
      headline: 'acts', steps: [], detail: null,
      changes: [
        { kind: 'initiative', to: 2 },
        { kind: 'join-turn-order', tokenId: scene.tokens.Crate, initiative: 0 },
        { kind: 'ally-answer', tokenId: scene.tokens['Goblin 2'], answer: 'success' },
      ],
    };
    const written = applyOutcome(context, reading, outcome);
    const merged = mergeChanges([{ tokenId: token.id, name: 'Goblin 1', changes: written.changes }]);
    return { context, written, merged, tokens, waiting };
  }

  const pr = (id: string) => mock.turnOrder().find((entry) => entry.id === id)?.pr;

  it('records each as data, from -> to', () => {
    const { written, waiting } = setUp();
    expect(written.changes).toEqual([
      { kind: 'initiative', from: 12, to: 2 },
      { kind: 'turn-order', tokenId: scene.tokens.Crate },
      { kind: 'answer', tokenId: scene.tokens['Goblin 2'], from: null, to: { edition: 'soak', answer: 'success' } },
    ]);
    expect(written.notes).toEqual(['Crate is drawn into the battle: added to the Turn Tracker at initiative 0.']);
    expect(pr(scene.tokens['Goblin 1'])).toBe(2);
    expect(pr(scene.tokens.Crate)).toBe(0);
    expect(waiting[scene.tokens['Goblin 2']]).toEqual({ edition: 'soak', answer: 'success' });
  });

  it('puts each back when nothing changed since', () => {
    const { context, merged, tokens, waiting } = setUp();
    const now = readNow(context, merged);
    expect(changedSince(merged, now, sameData, () => 'changed')).toEqual([]);
    applyUndo(context, merged);
    expect(pr(scene.tokens['Goblin 1'])).toBe(12);
    expect(pr(scene.tokens.Crate)).toBeUndefined();
    expect(mock.turnOrder().map((entry) => entry.id)).toEqual([scene.tokens.Bob, scene.tokens['Goblin 1'], scene.tokens['Goblin 2']]);
    expect(tokens[scene.tokens['Goblin 2']]).toBeUndefined();
    expect(waiting[scene.tokens['Goblin 2']]).toBeUndefined();
  });

  it('names an initiative or an ally\'s answer changed since', () => {
    const { context, merged, waiting } = setUp();
    const order = mock.turnOrder().map((entry) => (entry.id === scene.tokens['Goblin 1'] ? { ...entry, pr: 7 } : entry));
    mock.setTurnOrder(order);
    waiting[scene.tokens['Goblin 2']] = { edition: 'soak', answer: 'fail' };
    const found = changedSince(merged, readNow(context, merged), sameData, () => 'changed');
    expect(found).toEqual(['Goblin 1: initiative is 7 (was left at 2)', 'Goblin 1 has a new pending defense']);
  });
});
