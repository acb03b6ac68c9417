import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { bobTwin, MODES, openTable, texts, type Table } from '../support/table';
import { SCHEMA_VERSION } from '../../src/state/store';

// `state` as the previous release (schema 1) left it after a short fight at the demo table: GM
// settings changed, Bob reactive with a reaction against Goblin 1 and a failed pending defense,
// an override on Goblin 1, a GM hit on both goblins, then Alice's hit on Bob (dying).
const SCHEMA1 = JSON.parse(readFileSync('test/fixtures/state-schema1.json', 'utf8'));

describe.each(MODES)('a state written by the previous release (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  async function open() {
    table = await openTable(mode, {
      setup: (mock) => {
        mock.state.DefenseRound = structuredClone(SCHEMA1);
      },
    });
    return table;
  }

  it('is migrated with nothing a GM set up lost, and no problem reported', async () => {
    await open();
    expect(table.stored().schemaVersion).toBe(SCHEMA_VERSION);
    expect(table.stored().settings.markers.dead).toBe('skull');
    expect(table.stored().settings.visibility.npc).toBe('public');
    expect(table.mock.logs.join('\n')).not.toMatch(/problems/);
    expect(table.memory('Bob')).toEqual({ stance: 'reactive', reactions: { [table.id('Goblin 1')]: true }, life: { condition: 'dying', savesOwed: 3 } });
    expect(table.memory('Goblin 1')).toEqual({ overrides: { armor_magical: 10 }, wear: { physical: 5 }, life: { condition: 'incapacitated', savesOwed: 1 } });
    expect(table.stored().tokens[table.id('Goblin 1')].edition.id).toBe('soak');
    expect(table.stored().history).toHaveLength(2);
  });

  it('undoes what the previous release recorded: Alice her hit, then the GM his', async () => {
    await open();
    // The table as the fixture's hits left it.
    table.mock.attribute('Bob', 'vitality').set('current', -120);
    table.mock.attribute('Bob', 'armor_physical').set('current', 20);
    table.mock.token('Bob').set('statusmarkers', 'fist,death-zone');
    for (const goblin of ['Goblin 1', 'Goblin 2']) table.mock.token(goblin).set({ bar1_value: -8, statusmarkers: 'sleepy' });

    await table.say('Alice', '!damage --undo');
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.attr('Bob', 'armor_physical')).toBe(100);
    expect(table.memory('Bob')).toEqual({ stance: 'reactive', reactions: { [table.id('Goblin 1')]: true }, pendingDefense: 'fail' });

    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.markers('Goblin 2')).toEqual([]);
    expect(table.memory('Goblin 2')).toEqual({ wear: { physical: 20 } });
    expect(table.stored().history).toHaveLength(0);
  });
});

describe.each(MODES)('an upgrade from the previous release (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('rebuilds the help handout with this version\'s rules (aid by a reacting ally, the acting token)', async () => {
    table = await openTable(mode, { setup: (mock) => void (mock.state.DefenseRound = structuredClone(SCHEMA1)) });
    const made = (table.mock.globals.findObjs({ _type: 'handout', name: 'Help: DefenseRound' }) as any[])[0];
    expect(made).toBeDefined();
    const notes = String(table.mock.peek(made, 'notes'));
    expect(notes).toContain('--aided-by');
    expect(notes).toContain('top of the Turn Tracker');
    expect(table.stored().scriptVersion).not.toBe('0.1.0');
  });
});

// `state` as the schema-2 release left it mid-fight (written by that release's bundle at the demo
// table, two turns in): in soak, Goblin 1's successful defense and Bob's failed evade waiting for
// their hits, Bob reactive with a reaction against Goblin 2, a hit on Goblin 2 in the undo history;
// in threshold, Goblin 1's guard leaving Bob a successful defense, and Goblin 1's own failed
// defense against an attack from behind (perceived).
const SCHEMA2_SOAK = JSON.parse(readFileSync('test/fixtures/state-schema2-soak.json', 'utf8'));
const SCHEMA2_THRESHOLD = JSON.parse(readFileSync('test/fixtures/state-schema2-threshold.json', 'utf8'));

describe.each(MODES)('a table saved mid-fight by the schema-2 release (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  // The Turn Tracker as it was when the state was saved: two turns in, so no round ends on loading.
  const open = (saved: unknown) =>
    openTable(mode, {
      setup: (mock) => {
        mock.state.DefenseRound = structuredClone(saved);
        mock.nextTurn();
        mock.nextTurn();
      },
    });

  it('soak: keeps every defense made ahead, now waiting in the exchange, and the hit uses it', async () => {
    table = await open(SCHEMA2_SOAK);
    expect(table.stored().schemaVersion).toBe(SCHEMA_VERSION);
    expect(table.mock.logs.join('\n')).not.toMatch(/problems/);
    const goblin = table.id('Goblin 1');
    const bob = table.id('Bob');
    expect(table.stored().exchange.waiting).toEqual({ [goblin]: { edition: 'soak', answer: 'success' }, [bob]: { edition: 'soak', answer: 'fail' } });
    // Nothing of the defense is left in the edition state.
    expect(table.stored().tokens[goblin]).toBeUndefined();
    // Bob's memory is his character's since schema 4 (his Vitality bar is linked).
    expect(table.stored().tokens[bob]).toBeUndefined();
    expect(table.stored().tokens[table.scene.characters.Bob].edition.state).toEqual({ reactions: { [table.id('Goblin 2')]: true } });
    expect(table.memory('Bob')).toEqual({ stance: 'reactive', reactions: { [table.id('Goblin 2')]: true }, pendingDefense: 'fail' });
    // The success blocks the next hit, and is used up by it.
    const out = await table.say('GM', '!damage 50', ['Goblin 1']);
    expect(texts(out).join('\n')).toMatch(/Defense: Succeeded \(from !defend\): the hit is blocked, no damage/);
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.stored().exchange.waiting[goblin]).toBeUndefined();
    // The failure lets the hit land; the undo of the saved history still works.
    await table.say('Alice', '!damage 10 --pierce 100', ['Bob']);
    expect(table.attr('Bob', 'vitality')).toBe(60);
    expect(table.memory('Bob')?.pendingDefense).toBeUndefined();
    await table.say('GM', '!damage --undo');
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.memory('Bob')?.pendingDefense).toBe('fail');
  });

  it('threshold: keeps the guard\'s defense on the ally and the perceived one, each answering its hit', async () => {
    table = await open(SCHEMA2_THRESHOLD);
    expect(table.mock.logs.join('\n')).not.toMatch(/problems/);
    const goblin = table.id('Goblin 1');
    const bob = table.id('Bob');
    expect(table.stored().exchange.waiting).toEqual({
      [bob]: { edition: 'threshold', answer: { result: 'success', situation: 'front', perceived: false } },
      [goblin]: { edition: 'threshold', answer: { result: 'fail', situation: 'behind', perceived: true } },
    });
    expect(table.stored().tokens[bob]).toBeUndefined();
    // Bob's success takes the armor's Defense (30) off: 40 - 30 = 10.
    await table.say('GM', '!damage 40 --hit 200', ['Bob']);
    expect(table.attr('Bob', 'vitality')).toBe(60);
    expect(table.stored().exchange.waiting[bob]).toBeUndefined();
    // Goblin 1's failed defense answers the attack from behind it was made for: the hit lands whole.
    const out = await table.say('GM', '!damage 12 --hit 90', ['Goblin 1']);
    expect(texts(out).join('\n')).toMatch(/Defense: Failed \(from !defend\): the armor's Defense does not apply/);
    expect(table.bar('Goblin 1')).toBe(18);
  });
});

// `state` as the schema-3 release left it (written by that release's bundle at the demo table with a
// second token of Bob): the mirror image took the defensive stance, the GM hit Goblin 1 and then
// Bob (70 -> -15, dying), and Bob failed two saves (one save left). Each token of Bob kept its own.
const SCHEMA3_LINKED = JSON.parse(readFileSync('test/fixtures/state-schema3-linked.json', 'utf8'));

describe.each(MODES)('a table saved by the schema-3 release, Bob with two tokens (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  const open = () => openTable(mode, { setup: (mock, scene) => {
    bobTwin()(mock, scene);
    mock.state.DefenseRound = structuredClone(SCHEMA3_LINKED);
    mock.attribute('Bob', 'vitality').set('current', -15);
  } });

  it('moves each linked token\'s memory to Bob\'s character: the worse condition kept, the other\'s stance added; a goblin keeps its own', async () => {
    table = await open();
    expect(table.stored().schemaVersion).toBe(SCHEMA_VERSION);
    expect(table.mock.logs.join('\n')).not.toMatch(/problems/);
    const tokens = table.stored().tokens;
    const twin = table.mock.token('Bob (mirror image)').id;
    expect(tokens[table.id('Bob')]).toBeUndefined();
    expect(tokens[twin]).toBeUndefined();
    expect(tokens[table.scene.characters.Bob]).toEqual({ edition: { id: 'soak', state: { life: { condition: 'dying', savesOwed: 1 } } }, stance: 'defensive' });
    expect(tokens[table.id('Goblin 1')]).toEqual({ worn: { physical: 11 } });
    // Both tokens of Bob owe the one save left.
    for (const token of ['Bob', 'Bob (mirror image)']) expect(table.memory(token)?.life).toEqual({ condition: 'dying', savesOwed: 1 });
    const out = await table.say('Alice', '!defend --action save --roll 10', ['Bob (mirror image)']);
    expect(texts(out).join('\n')).toMatch(/success/);
    expect(table.memory('Bob')?.life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
  });

  it('undoes the hit the schema-3 release recorded on Bob where his memory now lives', async () => {
    table = await open();
    await table.say('GM', '!damage --undo --force');
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.stored().tokens[table.scene.characters.Bob]).toEqual({ stance: 'defensive' });
    expect(table.stored().history.map((entry: { key: string }) => entry.key)).toEqual(['U1']);
  });
});

// `state` as the schema-4 release left it (written by that release's bundle at the demo table):
// soak: Goblin 2's failed defense made ahead, used up by the GM's hit (45: Vitality 30 -> 15), then
// attack A1 on Bob and Goblin 2, Bob's evade (30: success) kept; opposed: attack A1 on Bob and
// Goblin 2, Bob's active defense (d20 2) kept as the hit's flags.
const SCHEMA4_SOAK = JSON.parse(readFileSync('test/fixtures/state-schema4-soak.json', 'utf8'));
const SCHEMA4_OPPOSED = JSON.parse(readFileSync('test/fixtures/state-schema4-opposed.json', 'utf8'));

describe.each(MODES)('a table saved by the schema-4 release: answers as changes of their own, kept typed (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  const open = async (saved: unknown) => {
    table = await openTable(mode, { setup: (mock) => {
      // The table as the saved fight left it: Goblin 1's turn, Goblin 2 hit.
      mock.nextTurn();
      mock.state.DefenseRound = structuredClone(saved);
      mock.token('Goblin 2').set('bar1_value', 15);
    } });
    return table;
  };

  it('soak: the used-up defense is an answer change undo puts back; the kept evade is typed and answers its attack', async () => {
    await open(SCHEMA4_SOAK);
    expect(table.stored().schemaVersion).toBe(SCHEMA_VERSION);
    expect(table.mock.logs.join('\n')).not.toMatch(/problems/);
    const goblin = table.id('Goblin 2');
    expect(table.stored().history[0].tokens[0].changes.map((change: any) => change.kind)).toEqual(['bar', 'worn', 'answer']);
    expect(table.stored().exchange.attacks.A1.answers).toEqual({ [table.id('Bob')]: { word: 'evade', answer: 'success', roll: 30, success: true, typed: true } });
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 2')).toBe(30);
    expect(table.stored().exchange.waiting).toEqual({ [goblin]: { edition: 'soak', answer: 'fail' } });
    // Goblin 2's defense on file answers A1 (and is used up by its hit); Bob's kept evade blocks his.
    await table.say('GM', '!attack --resolve A1');
    expect(table.stored().exchange.attacks).toEqual({});
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.bar('Goblin 2')).toBe(19);
    expect(table.stored().exchange.waiting).toEqual({});
  });

  it('opposed: an answer kept as the hit\'s flags is forgotten and its defender answers again; the attack resolves', async () => {
    await open(SCHEMA4_OPPOSED);
    expect(table.mock.logs.join('\n')).not.toMatch(/problems/);
    expect(table.stored().exchange.attacks.A1.answers).toEqual({});
    const again = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --mode passive --roll 20`);
    expect(texts(again).join('\n')).toMatch(/Bob: Passive defense, d20 20\. Waiting for Goblin 2\./);
    expect(table.stored().exchange.attacks.A1.answers[table.id('Bob')]).toEqual({ word: 'passive', answer: { mode: 'passive', roll: 20 }, roll: 20, typed: true });
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --mode passive --roll 20`);
    expect(table.stored().exchange.attacks).toEqual({});
    expect(table.stored().history).toHaveLength(1);
  });
});
