// Proof under abuse, fourth round (issue 29): the undo history and the details kept for the GM,
// against a player who fills them, and the undo line's names. Each replays the attack on the
// bundle (node:vm) and fails on the bundle before its fix.
import { afterEach, describe, expect, it } from 'vitest';
import { bobTwin, openTable, publicFromScript, texts, whispered, type Table } from '../support/table';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

const MODE = (process.env.DEFENSE_ROUND_MODE as 'bundle' | 'src' | undefined) ?? 'bundle';
const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');

/** Twenty familiars for each of Alice and Ben, each under a 200-character name, and the GM's training dummy. */
function familiars(mock: MockRoll20, scene: DemoScene): void {
  for (const player of ['Alice', 'Ben'] as const) {
    for (let i = 0; i < 20; i += 1) {
      const name = `${player}'s familiar ${i} `.padEnd(200, 'x');
      mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name, controlledby: scene.players[player], bar1_value: 1000, bar1_max: 1000 });
    }
  }
  mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Training Dummy', bar1_value: 100_000, bar1_max: 100_000 });
}

describe(`the fourth round of attacks: history, details, names (${MODE})`, () => {
  let table: Table;
  afterEach(() => table?.close());

  it('7. a player\'s large entries never flush the GM\'s undo, and state stays under 100 KB', async () => {
    table = await openTable(MODE, { setup: familiars });
    const players = table.scene.players;
    const stateSize = () => JSON.stringify(table.mock.state.DefenseRound).length;
    const history = () => table.stored().history as Array<{ by: string; key: string }>;
    await table.say('GM', '!damage 40', ['Goblin 1']);
    const first = history()[0]!.key;
    const mine = (player: 'Alice' | 'Ben') => table.mock.globals.findObjs({ _type: 'graphic', controlledby: players[player] }).map((token) => token.id);
    for (const player of ['Alice', 'Ben'] as const) {
      for (let hit = 0; hit < 10; hit += 1) await table.mock.chat(players[player], '!damage 1', { selected: mine(player) });
    }
    const playersEntries = history().filter((entry) => entry.by === players.Alice || entry.by === players.Ben);
    expect(playersEntries.length).toBeGreaterThan(0);
    // The players together hold at most half the history's bytes (30,000), each at most 15,000.
    expect(JSON.stringify(playersEntries).length).toBeLessThanOrEqual(30_000);
    for (const player of [players.Alice, players.Ben]) expect(JSON.stringify(history().filter((entry) => entry.by === player)).length).toBeLessThanOrEqual(15_000);
    // The GM side has room for 24 more: the GM's first hit stays.
    for (let hit = 0; hit < 24; hit += 1) {
      await table.say('GM', '!damage 1', ['Training Dummy']);
      expect(history().some((entry) => entry.key === first)).toBe(true);
    }
    expect(history().filter((entry) => entry.by === players.GM)).toHaveLength(25);
    expect(stateSize()).toBeLessThan(100_000);
    // The GM's later hits push out only the GM's own oldest, the players' entries stay.
    for (let hit = 0; hit < 40; hit += 1) await table.say('GM', '!damage 1', ['Training Dummy']);
    expect(history().filter((entry) => entry.by !== players.GM).map((entry) => entry.key)).toEqual(playersEntries.map((entry) => entry.key));
    expect(history().length).toBeLessThanOrEqual(50);
    expect(stateSize()).toBeLessThan(100_000);
    // A restart's trim keeps the same entries.
    const keys = () => history().map((entry) => entry.key);
    const before = keys();
    await table.restart();
    expect(keys()).toEqual(before);
  });

  it('7. the GM\'s first hit is undoable after a player\'s ten large entries and many GM hits', async () => {
    table = await openTable(MODE, { setup: familiars });
    const players = table.scene.players;
    await table.say('GM', '!damage 40', ['Goblin 1']);
    const first = (table.stored().history as Array<{ key: string }>)[0]!.key;
    const alices = table.mock.globals.findObjs({ _type: 'graphic', controlledby: players.Alice }).map((token) => token.id);
    for (let hit = 0; hit < 10; hit += 1) await table.mock.chat(players.Alice, '!damage 1', { selected: alices });
    for (let hit = 0; hit < 20; hit += 1) await table.say('GM', '!damage 1', ['Training Dummy']);
    const out = await table.say('GM', `!damage --undo --entry ${first}`);
    expect(all(out)).toMatch(/Damage undone/);
    expect(table.bar('Goblin 1')).toBe(30);
  });

  it('7. a stored history that breaks the owners\' quotas is trimmed at start-up by the same rules', async () => {
    table = await openTable(MODE, { setup: familiars });
    const players = table.scene.players;
    await table.say('GM', '!damage 40', ['Goblin 1']);
    const alices = table.mock.globals.findObjs({ _type: 'graphic', controlledby: players.Alice }).map((token) => token.id);
    await table.mock.chat(players.Alice, '!damage 1', { selected: alices });
    const stored = table.stored();
    const [gm, alice] = stored.history;
    expect(alice.by).toBe(players.Alice);
    // Tampered: ten of Alice's large entries after the GM's, over her bytes and the players' half.
    stored.history = [gm, ...Array.from({ length: 10 }, (_, i) => ({ ...alice, key: `U${100 + i}` }))];
    await table.restart();
    const kept = table.stored().history as Array<{ by: string; key: string }>;
    expect(kept[0]!.key).toBe(gm.key);
    expect(kept.filter((entry) => entry.by === players.Alice).length).toBeLessThan(10);
    // The newest of hers are the ones kept.
    expect(kept.at(-1)!.key).toBe('U109');
    expect(JSON.stringify(kept.filter((entry) => entry.by === players.Alice)).length).toBeLessThanOrEqual(15_000);
  });

  it('11. the rows of the GM\'s attack stay the GM\'s when a player\'s answer settles it', async () => {
    table = await openTable(MODE, { setup: bobTwin() });
    await table.passTurn(); // Goblin 1's turn: Bob and Goblin 2 defend
    await table.say('GM', `!attack 30 --unseen --ids ${table.id('Bob')} ${table.id('Goblin 2')}`);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action defend --roll 50`);
    const out = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action defend --roll 50`);
    expect(table.stored().exchange.attacks).toEqual({});
    // Bob's row on the public card, Goblin 2's on the GM's.
    const keys = [...new Set(out.flatMap((record) => [...record.content.matchAll(/!defense-round details (\w+)/g)].map((match) => match[1]!)))];
    expect(keys).toHaveLength(2);
    // Alice's own commands that keep rows: 51 heals of nothing on her two tokens (102 rows, over her 100).
    for (let i = 0; i < 51; i += 1) await table.say('Alice', '!heal 0', ['Bob', 'Bob (mirror image)']);
    for (const key of keys) {
      const detail = await table.say('GM', `!defense-round details ${key}`);
      expect(all(detail)).not.toMatch(/no longer kept/);
      expect(whispered(detail, 'gm').join('\n')).toMatch(/Bob|Goblin 2/);
    }
  });

  it('16. the public undo line names a token as the players see it now, not by its name at hit time', async () => {
    table = await openTable(MODE);
    const goblin = table.mock.token('Goblin 2');
    // Hit while hidden under its secret name; revealed since under another.
    goblin.set({ name: 'Duke Varn, the traitor', layer: 'gmlayer' });
    await table.say('GM', '!damage 40', ['Goblin 2']);
    goblin.set({ name: 'Hooded Figure', layer: 'objects' });
    const out = await table.say('GM', '!damage --undo');
    expect(publicFromScript(out).join('\n')).toMatch(/Damage undone: Hooded Figure\./);
    expect(all(out)).not.toMatch(/Duke Varn/);
    // The reverse: hit under its public name, renamed since; the public line says what the table shows now.
    await table.say('GM', '!damage 40', ['Goblin 2']);
    goblin.set({ name: 'Duke Varn, the traitor' });
    const renamed = await table.say('GM', '!damage --undo');
    expect(publicFromScript(renamed).join('\n')).toMatch(/Damage undone: Duke Varn, the traitor\./);
    expect(all(renamed)).not.toMatch(/Hooded Figure/);
    // Now on the GM layer: not named in public at all.
    await table.say('GM', '!damage 40', ['Goblin 2']);
    goblin.set({ name: 'Goblin 2', layer: 'gmlayer' });
    const hidden = await table.say('GM', '!damage --undo');
    expect(publicFromScript(hidden)).toEqual([]);
    expect(whispered(hidden, 'gm').join('\n')).toMatch(/Goblin 2.*\(hidden\)/);
  });

  it('16. a player\'s undo names no token by its stored name: a deleted one is counted, a renamed one named as now', async () => {
    table = await openTable(MODE, {
      setup: (mock, scene) => {
        mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Whisper', controlledby: scene.players.Alice, bar1_value: 50, bar1_max: 50 });
      },
    });
    await table.say('Alice', '!damage 5 --pierce 100', ['Bob', 'Whisper']);
    table.mock.token('Bob').set('name', 'Sir Robert');
    table.mock.userRemove(table.mock.token('Whisper'));
    const out = await table.say('Alice', '!damage --undo');
    expect(publicFromScript(out).join('\n')).toMatch(/Damage undone: Sir Robert/);
    expect(all(out)).not.toMatch(/Whisper|Bob\b/);
    expect(whispered(out, 'Alice').join('\n')).toMatch(/Skipped 1 token no longer on the table\./);
    // The GM's own line may name a gone token by the name the entry keeps.
    await table.say('GM', '!damage 5 --pierce 100', ['Goblin 1', 'Goblin 2']);
    table.mock.userRemove(table.mock.token('Goblin 2'));
    const gm = await table.say('GM', '!damage --undo');
    expect(whispered(gm, 'gm').join('\n')).toMatch(/Skipped token no longer on the table: Goblin 2\./);
  });
});
