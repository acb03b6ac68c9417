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
});
