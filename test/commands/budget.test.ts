// Counts at a full table, on the built bundle (commands.md, "Output"; issue: quiet and fast):
// messages per command, Roll20 writes per command, and `state` after an evening. Times are the
// benchmark's (`npm run bench`), not a test's.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, type Table } from '../support/table';

const RAIDERS = 48;

describe('an evening with 50 goblins, on the bundle', () => {
  let table: Table;
  afterEach(() => table?.close());

  it('each hit posts at most 3 messages and writes each token once; state stays under 100 KB with the last hit undoable', async () => {
    const names: string[] = ['Goblin 1', 'Goblin 2'];
    table = await openTable('bundle', {
      setup: (mock, scene) => {
        for (let i = 1; i <= RAIDERS; i += 1) {
          names.push(`Raider ${i}`);
          mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: `Raider ${i}`, represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
        }
      },
    });
    let mostMessages = 0;
    let mostWrites = 0;
    for (let hit = 0; hit < 100; hit += 1) {
      table.mock.resetStats();
      const out = await table.say('GM', '!damage 12', names);
      mostMessages = Math.max(mostMessages, out.filter((r) => r.who === 'DefenseRound').length);
      mostWrites = Math.max(mostWrites, ...Object.values(table.mock.stats.setsByObject));
      // Keep them standing so every hit changes something: a heal is not recorded for undo.
      await table.say('GM', '!heal 30', names);
    }
    expect(mostMessages).toBeLessThanOrEqual(3);
    expect(mostWrites).toBe(1); // one set per touched object per command
    const bytes = JSON.stringify(table.stored()).length;
    expect(bytes).toBeLessThan(100_000);
    const before = table.bar('Raider 7');
    await table.say('GM', '!damage 12', names);
    const hitTo = table.bar('Raider 7');
    expect(hitTo).not.toBe(before);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Raider 7')).toBe(before);
  }, 120_000);

  // The bench's long evening (docs/performance.md), counted: hits never undone, so the undo history
  // fills and trims; armor wears to nothing and tokens fall; heals, defenses, stances and hand edits
  // between. The counts hold at every command, not only on a fresh table.
  it('a long evening of hits never undone: at most 2 messages for one token, at most 3 for 50, one write per object, no campaign scans, state and history within their limits', async () => {
    const raiders: string[] = [];
    table = await openTable('bundle', {
      setup: (mock, scene) => {
        for (let i = 0; i <= 50; i += 1) {
          const character = mock.create('character', { name: `Raider sheet ${i}` });
          for (const [name, value] of [['armor_soak', 10], ['armor_physical', 15], ['armor_magical', 10], ['armor_defense', 5]] as const) mock.create('attribute', { characterid: character.id, name, current: value, max: value });
          mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: `Raider ${i}`, represents: character.id, bar1_value: 40, bar1_max: 40 });
          raiders.push(`Raider ${i}`);
        }
      },
    });
    const fifty = raiders.slice(0, 50);
    const lone = [raiders[50]!];
    const graphic = (name: string) => table.mock.globals.getObj('graphic', table.id(name))!;
    const counts = { fifty: { messages: 0, writes: 0, scanned: 0 }, one: { messages: new Set<number>(), writes: 0, scanned: 0 } };
    for (let round = 0; round < 120; round += 1) {
      if (round % 3 === 0) await table.say('GM', `!heal ${10 + (round % 30)}`, fifty.slice(round % 40));
      if (round % 4 === 1) await table.say('GM', `!defend --action defend --roll ${1 + ((round * 37) % 100)}`, [fifty[round % 50]!]);
      if (round % 10 === 2) await table.say('GM', `!stance ${round % 20 === 2 ? 'defensive' : 'reactive'}`, [fifty[(round * 7) % 50]!]);
      if (round % 5 === 4) {
        // The GM raises ten fallen tokens by hand (a hand edit revives the dead), so hits keep landing.
        for (let i = 0; i < 10; i += 1) table.mock.userEdit(graphic(fifty[(round * 7 + i * 5) % 50]!), { bar1_value: 40 });
        table.mock.userEdit(graphic(lone[0]!), { bar1_value: 40 });
        await table.mock.settle();
      }
      table.mock.resetStats();
      const many = await table.say('GM', '!damage 30', fifty);
      // The first hit reads each sheet once (one search per character); after that, none.
      if (round > 0) counts.fifty.scanned = Math.max(counts.fifty.scanned, table.mock.stats.objectsScanned);
      counts.fifty.messages = Math.max(counts.fifty.messages, many.filter((r) => r.who === 'DefenseRound').length);
      counts.fifty.writes = Math.max(counts.fifty.writes, ...Object.values(table.mock.stats.setsByObject));
      table.mock.resetStats();
      const one = await table.say('GM', '!damage 30', lone);
      if (round > 0) counts.one.scanned = Math.max(counts.one.scanned, table.mock.stats.objectsScanned);
      counts.one.messages.add(one.filter((r) => r.who === 'DefenseRound').length);
      counts.one.writes = Math.max(counts.one.writes, ...Object.values(table.mock.stats.setsByObject));
    }
    // One token hit by the GM: the GM's card and the public line; a hit on the dead changes nothing,
    // so the GM alone hears it (nothing public for a no-op). Both happen over the evening.
    expect([...counts.one.messages].sort()).toEqual([1, 2]);
    expect(counts.fifty.messages).toBeLessThanOrEqual(3);
    expect(counts.fifty.writes).toBe(1);
    expect(counts.one.writes).toBe(1);
    expect(counts.fifty.scanned).toBe(0);
    expect(counts.one.scanned).toBe(0);
    const stored = table.stored();
    expect(JSON.stringify(stored).length).toBeLessThan(100_000);
    // The history full and trimmed to its limits (commands.md, "Undo, hardened"): at most 50 entries, 60,000 characters.
    expect(stored.history.length).toBeGreaterThan(10);
    expect(stored.history.length).toBeLessThanOrEqual(50);
    expect(JSON.stringify(stored.history).length).toBeLessThanOrEqual(60_000);
    // The last hit is still undoable after all that trimming.
    const before = table.bar(lone[0]!);
    await table.say('GM', '!damage 30', lone);
    await table.say('GM', '!damage --undo');
    expect(table.bar(lone[0]!)).toBe(before);
  }, 120_000);
});

