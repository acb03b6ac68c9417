// The eleven attacks a player (and, twice, someone editing `state`) made on the bundle, each
// reproduced first and shown to fail now (commands.md, "Undo, hardened", "Ids in flags", "State
// from a newer version", "Numbers written", "Replies", "Rolls that come back late").
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, publicFromScript, readable, whispered, type Table } from '../support/table';
import { SCHEMA_VERSION } from '../../src/state/store';

describe('attacks on the bundle', () => {
  let table: Table;
  afterEach(() => table?.close());
  const open = async (setup?: Parameters<typeof openTable>[1]) => (table = await openTable('bundle', setup));
  const everything = () => table.mock.chatLog.map((r) => r.content).join('\n');

  it('1. a player\'s undo never overwrites the GM\'s later hit, forced or not', async () => {
    await open();
    table.mock.attribute('Bob', 'vitality').set('current', 5);
    await table.say('Alice', '!damage 5 --pierce 100', ['Bob']); // 5 -> 0
    await table.say('GM', '!damage 20 --pierce 100', ['Bob']); // 0 -> -20: dead
    expect(table.markers('Bob')).toEqual(['dead']);
    const forced = await table.say('Alice', '!damage --undo --force');
    expect(whispered(forced, 'Alice')).toEqual(["--force is the GM's: a player's undo never overwrites a later change. [Help](!damage --undo --help)"]);
    const plain = await table.say('Alice', '!damage --undo');
    expect(whispered(plain, 'Alice')[0]).toMatch(/^Nothing undone, changed since: Bob: Vitality is -20 \(was left at 0\);.* Only the GM can undo over later changes\. \[Help\]\(!damage --undo --help\)$/);
    expect(table.attr('Bob', 'vitality')).toBe(-20);
    expect(table.markers('Bob')).toEqual(['dead']);
  });

  it('1b. with players-target-any, a player cannot roll back the GM\'s later hit and wear on an NPC', async () => {
    await open();
    await table.say('GM', '!defense-round config players-target-any on');
    await table.say('Alice', '!damage 20', ['Goblin 1']); // 18 - 20 = 0 through; wear 20 -> 16
    await table.say('GM', '!damage 40', ['Goblin 1']);
    const bar = table.bar('Goblin 1');
    const worn = table.memory('Goblin 1').wear;
    await table.say('Alice', '!damage --undo');
    expect(table.bar('Goblin 1')).toBe(bar);
    expect(table.memory('Goblin 1').wear).toEqual(worn);
  });

  it('2. a forced undo leaves Vitality and condition together', async () => {
    await open();
    await table.say('GM', '!damage 1 --pierce 100', ['Goblin 1']); // 30 -> 29
    table.mock.userEdit(table.mock.token('Goblin 1'), { bar1_value: -20 }); // dying by hand
    await table.mock.settle();
    expect(table.markers('Goblin 1')).toEqual(['death-zone']);
    await table.say('GM', '!damage --undo --force');
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.markers('Goblin 1')).toEqual([]);
    expect(table.memory('Goblin 1')?.life).toBeUndefined();
    const save = await table.say('GM', '!defend --action save --roll 1', ['Goblin 1']);
    expect(whispered(save, 'gm').join()).toMatch(/no save is owed/);
  });

  it('4. --vs, --ally and --aided-by must name a token on the table; a hidden token is not confirmed to a player', async () => {
    await open();
    await table.passTurn();
    table.mock.token('Goblin 2').set('layer', 'gmlayer');
    await table.say('Alice', '!stance reactive', ['Bob']);
    const hidden = await table.say('Alice', `!defend --action react --vs ${table.id('Goblin 2')} --roll 5`, ['Bob']);
    const nowhere = await table.say('Alice', '!defend --action react --vs no-such-token --roll 5', ['Bob']);
    expect(whispered(hidden, 'Alice')).toEqual(['--vs: no token on the table has that id. [Help](!defend --help)']);
    expect(whispered(nowhere, 'Alice')).toEqual(whispered(hidden, 'Alice')); // the same answer: nothing confirmed
    expect(publicFromScript(hidden)).toEqual([]);
    expect(everything()).not.toContain('Goblin 2');
    const before = JSON.stringify(table.stored()).length;
    for (let i = 0; i < 5; i += 1) await table.say('Alice', `!defend --action react --vs ${'x'.repeat(20_000)}${i} --roll 5`, ['Bob']);
    expect(JSON.stringify(table.stored()).length).toBe(before); // nothing a player names is kept unless it succeeds
  });

  it('5. no NPC number reaches a player: not in an undo refusal, not a garbage bar echoed', async () => {
    await open();
    await table.say('GM', '!defense-round config players-target-any on');
    await table.say('Alice', '!damage 20', ['Goblin 1']);
    await table.say('GM', '!damage 40', ['Goblin 1']);
    const undo = await table.say('Alice', '!damage --undo');
    expect(whispered(undo, 'Alice').join().replace(/Goblin 1/g, '')).not.toMatch(/\d/);
    table.mock.token('Goblin 2').set('bar1_value', 'secret 77');
    const out = await table.say('Alice', '!damage 5', ['Goblin 2']);
    expect(whispered(out, 'Alice').join()).not.toMatch(/secret|77/);
    expect(whispered(out, 'Alice')).toEqual(['Not applied: Goblin 2: a bar it needs holds no whole number; left as it was. [Help](!damage --help)']);
  });

  it('6. a player cannot flush the GM\'s undo: no-ops are not kept, a player keeps at most 10', async () => {
    await open();
    await table.say('GM', '!damage 10', ['Goblin 1']);
    for (let i = 0; i < 50; i += 1) await table.say('Alice', '!damage 0', ['Bob']);
    for (let i = 0; i < 15; i += 1) {
      await table.say('Alice', '!damage 1 --pierce 100', ['Bob']);
      await table.say('Alice', '!heal 1', ['Bob']);
    }
    const history = table.stored().history as Array<{ by: string }>;
    expect(history.filter((entry) => entry.by === table.scene.players.Alice)).toHaveLength(10);
    expect(history.filter((entry) => entry.by === table.scene.players.GM)).toHaveLength(1);
    await table.say('GM', '!damage 5', ['Crate']);
    await table.say('GM', '!damage --undo');
    await table.say('GM', '!damage --undo'); // Alice's latest
    expect(table.bar('Crate')).toBe(20);
  });

  it('7. a state written by a newer version is left exactly as it is; commands answer so until reset-state', async () => {
    const newer = { schemaVersion: 99, settings: { edition: 'hexcrawl' }, future: { keep: [1, 2, 3] } };
    await open({ setup: (mock) => void (mock.state.DefenseRound = structuredClone(newer)) });
    expect(table.stored()).toEqual(newer);
    const out = await table.say('GM', '!damage 5', ['Goblin 1']);
    expect(whispered(out, 'gm')[0]).toMatch(/written by a newer version.*schema 99.*reset-state/);
    expect(table.bar('Goblin 1')).toBe(30);
    table.mock.userEdit(table.mock.token('Goblin 1'), { bar1_value: -3 });
    await table.mock.settle();
    expect(table.stored()).toEqual(newer);
    await table.restart();
    expect(table.stored()).toEqual(newer);
    await table.say('GM', '!defense-round reset-state');
    expect(table.stored().schemaVersion).toBe(SCHEMA_VERSION);
    await table.say('GM', '!damage 5 --pierce 100', ['Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(-8);
  });

  it('8. a roll that comes back after its token was deleted applies and keeps nothing', async () => {
    await open();
    await table.passTurn();
    // A listener registered after the script runs right after its handler, while its d100 is in flight.
    table.mock.globals.on('chat:message', (msg: Roll20ChatMessage) => {
      if (msg.type === 'api' && msg.content.startsWith('!defend')) table.mock.token('Bob').remove();
    });
    table.mock.newMessages();
    await table.mock.chat(table.scene.players.Alice, '!defend --action defend', { selected: [table.id('Bob')] });
    table.mock.assertNoCrash();
    const out = table.mock.newMessages();
    expect(publicFromScript(out)).toEqual([]);
    expect(whispered(out, 'Alice').join()).toMatch(/Bob is gone, has lost its character, or is no longer yours since the roll: nothing applied/);
    expect(table.memory('Bob')).toBeUndefined();
  });

  it('8b. revoking control while the roll is in flight stops it too', async () => {
    await open();
    await table.passTurn();
    table.mock.globals.on('chat:message', (msg: Roll20ChatMessage) => {
      if (msg.type !== 'api' || !msg.content.startsWith('!defend')) return;
      table.mock.token('Bob').set('controlledby', '');
      table.mock.character('Bob').set('controlledby', '');
    });
    await table.mock.chat(table.scene.players.Alice, '!defend --action defend', { selected: [table.id('Bob')] });
    expect(table.memory('Bob')).toBeUndefined();
  });

  it('8c. a command that rolls no dice runs to its end inside its own event: a token deleted by another script afterwards is forgotten', async () => {
    await open();
    table.mock.globals.on('chat:message', (msg: Roll20ChatMessage) => {
      if (msg.type === 'api' && msg.content.startsWith('!stance')) table.mock.userRemove(table.mock.token('Bob'));
    });
    await table.say('Alice', '!stance reactive', ['Bob']);
    table.mock.assertNoCrash();
    expect(table.mock.warnings.filter((w) => /write to removed/.test(w))).toEqual([]);
    expect(table.stored().tokens[table.scene.tokens.Bob]).toBeUndefined();
  });

  it('9. no unsafe integer is ever written', async () => {
    await open();
    table.mock.token('Crate').set({ bar1_value: 9007199254740991, bar1_max: '' });
    const heal = await table.say('GM', '!heal 1000000', ['Crate']);
    expect(table.bar('Crate')).toBe(9007199254740991);
    expect(whispered(heal, 'gm').join()).toMatch(/beyond the whole numbers the script writes safely/);
    table.mock.token('Goblin 1').set('bar2_value', -9007199254740991);
    await table.say('GM', '!damage 3 --to soul', ['Goblin 1']);
    expect(table.bar('Goblin 1', 'bar2')).toBe(-9007199254740991);
    table.mock.userEdit(table.mock.token('Goblin 2'), { bar1_value: -9007199254740991 });
    await table.mock.settle();
    expect(table.bar('Goblin 2')).toBe(-9007199254740991);
  });

  it('10. replies go only to a name that can be addressed exactly; otherwise to the GM, naming the player', async () => {
    await open({ setup: (mock) => void mock.addPlayer({ displayname: 'Ali"ce' }) });
    const quoted = table.mock.player('Ali"ce');
    table.mock.newMessages();
    await table.mock.chat(quoted.id, '!damage 5', { selected: [table.id('Goblin 1')] });
    const out = table.mock.newMessages();
    expect(out.filter((r) => r.whisperTo === 'Alice')).toEqual([]);
    expect(out.filter((r) => r.whisperTo === 'gm').map(readable)).toEqual(['For Ali"ce: You do not control Goblin 1. [Help](!damage --help)']);
    // Her --help goes to the GM too, saying for whom.
    await table.mock.chat(quoted.id, '!heal --help');
    expect(table.mock.newMessages().filter((r) => r.whisperTo === 'gm').map(readable)).toEqual([expect.stringMatching(/^Help: !heal \(for Ali"ce\) \| Usage: !heal/)]);
    const rolling = table.mock.addPlayer({ displayname: 'Eve [[1d20+100]]\nx' });
    await table.mock.chat(rolling.id, '!damage 5', { selected: [table.id('Goblin 1')] });
    const again = table.mock.newMessages().filter((r) => r.who === 'DefenseRound');
    expect(again.every((r) => r.whisperTo === 'gm' && !r.content.includes('[[') && !r.content.includes('\n'))).toBe(true);
  });

  it('11. a tampered history and override are dropped at start-up, named, never written', async () => {
    await open();
    await table.say('GM', '!damage 10', ['Goblin 1']);
    await table.say('GM', '!defense-round set defend_check 40', ['Goblin 2']);
    const stored = table.stored();
    stored.history[0].tokens[0].changes[0].from = 1e300;
    stored.tokens[table.id('Goblin 2')].overrides.defend_check = 1e300;
    await table.restart();
    expect(table.stored().history).toEqual([]);
    expect(table.memory('Goblin 2')?.overrides).toBeUndefined();
    expect(table.mock.logs.join('\n')).toMatch(/history\[0\]: not a valid undo entry; dropped/);
    await table.passTurn();
    const defend = await table.say('GM', '!defend --action defend --roll 5', ['Goblin 2']);
    table.mock.assertNoCrash();
    expect(readable(defend.find((r) => r.whisperTo === 'gm')!)).toMatch(/Defend d100 5 vs 40/);
  });

  it('11b. undo writes only to the armor of the token\'s own character', async () => {
    await open();
    await table.say('Alice', '!damage 50', ['Bob']); // wears Bob's armor_physical 100 -> 90
    const stored = table.stored();
    const wear = stored.history[0].tokens[0].changes.find((c: any) => c.kind === 'attribute');
    wear.attributeId = table.mock.attribute('Goblin', 'armor_physical').id; // points at another sheet
    await table.say('Alice', '!damage --undo');
    expect(table.attr('Goblin', 'armor_physical')).toBe(20);
  });

  it('11c. undo writes only the attribute the value is read from, not another of the same sheet', async () => {
    await open();
    await table.say('Alice', '!damage 50', ['Bob']); // wears Bob's armor_physical 100 -> 90
    const stored = table.stored();
    const wear = stored.history[0].tokens[0].changes.find((c: any) => c.kind === 'attribute');
    wear.attributeId = table.mock.attribute('Bob', 'fortitude').id; // Bob's own sheet, another attribute
    await table.say('GM', '!damage --undo --force'); // even forced
    expect(table.attr('Bob', 'fortitude')).toBe(60);
    expect(table.attr('Bob', 'vitality')).toBe(70); // the rest of the hit is undone
  });

  it('11d. a stored memory the script could not have written (a stance no edition has, an edition state its edition refuses) drops its entry at start-up', async () => {
    await open();
    await table.passTurn();
    await table.say('GM', '!defend --action defend --roll 99', ['Goblin 2']); // a pending failure, used up by the hit
    await table.say('GM', '!damage 10', ['Goblin 2']);
    const stored = table.stored();
    // The hit changed its answer on file, not its memory: a memory change is written in by hand.
    stored.history[0].tokens[0].changes.push({ kind: 'memory', from: { stance: 'zzz', edition: { id: 'soak', state: { pendingDefense: 'x'.repeat(30_000) } } }, to: {} });
    await table.restart();
    expect(table.stored().history).toEqual([]);
    expect(table.mock.logs.join('\n')).toMatch(/history\[0\]: not a valid undo entry; dropped/);
    await table.say('GM', '!damage --undo');
    expect(table.memory('Goblin 2')?.stance).toBeUndefined();
  });

  it('11d. a stored answer on file the script could not have written (one its edition refuses) drops its entry at start-up', async () => {
    await open();
    await table.passTurn();
    await table.say('GM', '!defend --action defend --roll 99', ['Goblin 2']); // a pending failure, used up by the hit
    await table.say('GM', '!damage 10', ['Goblin 2']);
    const answer = table.stored().history[0].tokens[0].changes.find((c: any) => c.kind === 'answer');
    expect(answer.from).toEqual({ edition: 'soak', answer: { result: 'fail', action: 'defend', situation: 'front' } });
    answer.from = { edition: 'soak', answer: 'x'.repeat(30_000) };
    await table.restart();
    expect(table.stored().history).toEqual([]);
    expect(table.mock.logs.join('\n')).toMatch(/history\[0\]: not a valid undo entry; dropped/);
    await table.say('GM', '!damage --undo');
    expect(table.stored().exchange.waiting).toEqual({});
  });

  it('fuzzer finds: a 201-character name keeps its undo entry across a restart', async () => {
    await open();
    table.mock.token('Crate').set('name', 'x'.repeat(201));
    await table.say('GM', '!damage 5', ['x'.repeat(201)]);
    await table.restart();
    expect(table.stored().history).toHaveLength(1);
  });

  it('fuzzer finds: under players-target-any a no-op hit on an NPC tells the player no number', async () => {
    await open();
    await table.say('GM', '!defense-round config players-target-any on');
    await table.say('GM', '!damage 100 --pierce 100', ['Goblin 1']); // dead at -70
    const out = await table.say('Alice', '!damage 5', ['Goblin 1']);
    expect(whispered(out, 'Alice').join().replace(/Goblin 1/g, '')).not.toMatch(/\d/);
  });

  it('fuzzer finds: a stored state over its limits as a whole is trimmed at start-up, named', async () => {
    await open();
    await table.say('GM', '!damage 5', ['Goblin 1']);
    const stored = table.stored();
    const entry = stored.history[0];
    for (let i = 0; i < 120; i += 1) stored.history.push(structuredClone(entry));
    stored.tokens['x'.repeat(120_000)] = { stance: 'defensive' };
    await table.restart();
    expect(table.stored().history.length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(table.stored()).length).toBeLessThan(100_000);
    expect(table.mock.logs.join('\n')).toMatch(/over its limits .* dropped/);
  });

  it('fuzzer finds: a stored round number that is not a safe integer is reset, and later undo entries survive restarts', async () => {
    await open();
    table.stored().round.number = 1e300;
    await table.restart();
    await table.say('GM', '!damage 5', ['Goblin 1']);
    await table.restart();
    expect(table.stored().history).toHaveLength(1);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 1')).toBe(30);
  });

  it('fuzzer finds: a stored undo entry holding a huge string is dropped at start-up', async () => {
    await open();
    await table.say('GM', '!damage 35 --pierce 100', ['Goblin 1']); // 30 -> -5: a markers change, '' -> 'sleepy'
    const markers = table.stored().history[0].tokens[0].changes.find((c: any) => c.kind === 'markers');
    markers.to = 'x'.repeat(150_000);
    await table.restart();
    expect(table.stored().history).toEqual([]);
    expect(JSON.stringify(table.stored()).length).toBeLessThan(100_000);
  });

  it('nothing about a token on the GM layer goes public, even from the GM\'s own hand edit', async () => {
    await open();
    table.mock.token('Goblin 2').set('layer', 'gmlayer');
    table.mock.userEdit(table.mock.token('Goblin 2'), { bar1_value: -3 });
    await table.mock.settle();
    const out = table.mock.newMessages();
    expect(publicFromScript(out)).toEqual([]);
    expect(whispered(out, 'gm').join()).toMatch(/Goblin 2/);
    const hit = await table.say('GM', '!damage 5', ['Goblin 1', 'Goblin 2']);
    expect(publicFromScript(hit).join()).not.toMatch(/Goblin 2/);
  });

  it('a guessed details key never shows a player the breakdown of a token on the GM layer, even with NPC breakdowns public', async () => {
    await open();
    await table.say('GM', '!defense-round config visibility.npc public');
    table.mock.token('Goblin 2').set('layer', 'gmlayer');
    const hit = await table.say('GM', '!damage 5', ['Goblin 1', 'Goblin 2']);
    const keys = hit.flatMap((r) => [...r.content.matchAll(/\((!defense-round details [0-9a-z.]+)\)/g)].map((m) => m[1]!));
    const unique = [...new Set(keys)];
    expect(unique).toHaveLength(2);
    const click = async () => {
      const lines: Array<string | undefined> = [];
      for (const key of unique) lines.push(whispered(await table.say('Ben', key), 'Ben')[0]);
      return lines;
    };
    const seen = await click();
    expect(seen.filter((line) => /^Goblin 1 takes no damage: the armor holds \(5 physical\) \| .*5 x 90% soak = 4/.test(line ?? ''))).toHaveLength(1);
    // A hidden token is answered as a key that holds nothing: the guess does not even learn its name.
    const nothing = 'That breakdown is no longer kept (the script keeps the last few hundred, until a restart). [Help](!defense-round details --help)';
    expect(seen).toContain(nothing);
    expect(seen.join('\n')).not.toMatch(/Goblin 2/);
    // Hidden after the hit: the public row's button no longer reads it either.
    table.mock.token('Goblin 1').set('layer', 'gmlayer');
    const later = await click();
    expect(later).toEqual([nothing, nothing]);
  });

  it('a public card counts only the tokens it shows: a hidden target is not hinted at by "2 tokens"', async () => {
    await open();
    table.mock.token('Goblin 2').set('layer', 'gmlayer');
    const out = await table.say('GM', '!stance defensive', ['Goblin 1', 'Goblin 2']);
    expect(publicFromScript(out)).toEqual([expect.stringMatching(/^Stance: 1 token \| Goblin 1: /)]);
    expect(whispered(out, 'gm')[0]).toMatch(/^Stance: 2 tokens \(GM\)/);
  });

  it('a player hitting an NPC cannot decide its defense: --defense and --defense-roll are the defender\'s side\'s', async () => {
    await open();
    await table.say('GM', '!defense-round config players-target-any on');
    await table.say('GM', '!defend --action defend --roll 1', ['Goblin 1']); // blocks its next hit
    const out = await table.say('Ben', '!damage 60 --defense fail', ['Goblin 1']);
    expect(whispered(out, 'Ben')).toEqual(['Not applied: Goblin 1: only the GM or its controller decides its defense (--defense). [Help](!damage --help)']);
    // Several targets: the reason once, before their names.
    const many = await table.say('Ben', '!damage 5 --defense success', ['Goblin 1', 'Goblin 2']);
    expect(whispered(many, 'Ben')).toEqual(['Not applied: Goblin 1, Goblin 2: only the GM or its controller decides its defense (--defense). [Help](!damage --help)']);
    expect(table.bar('Goblin 1')).toBe(30);
    // Without the override the pending success blocks Ben's hit, and is used up.
    await table.say('Ben', '!damage 60', ['Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(30);
    // Alice may decide for Bob, whom she controls.
    await table.say('Alice', '!damage 10 --defense success', ['Bob']);
    expect(table.bar('Bob')).toBe(70);
  });

  it('a 60,000-character custom row in the Turn Tracker does not grow state: rounds still end when the tracker wraps to it', async () => {
    await open();
    const long = 'x'.repeat(60_000);
    table.mock.setTurnOrder([{ id: '-1', custom: long, pr: 20 }, { id: table.id('Goblin 1'), pr: 12 }]);
    await table.mock.settle();
    expect(JSON.stringify(table.stored()).length).toBeLessThan(10_000);
    const round = table.stored().round.number;
    table.mock.nextTurn(); // Goblin 1 on top
    await table.mock.settle();
    table.mock.nextTurn(); // back to the long row: a new round
    await table.mock.settle();
    expect(table.stored().round.number).toBe(round + 1);
    await table.restart();
    expect(JSON.stringify(table.stored()).length).toBeLessThan(10_000);
  });

  it('control characters from names never reach chat', async () => {
    await open();
    table.mock.token('Goblin 1').set('name', 'Gob\u202Elin\r\u2028\u2029\u0085\u0000 1');
    const out = await table.say('GM', '!damage 5', ['Goblin 1']);
    for (const record of out) expect(record.content).not.toMatch(/[\r\n\u2028\u2029\u0085\u0000\u202E]/);
  });
});
