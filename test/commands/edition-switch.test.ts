// An edition switch reads every remembered token again in the new edition's terms (rules.md,
// "Switching editions"), and the GM's answer names each token whose condition that changed, and how.
import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, whispered, type Table } from '../support/table';

describe.each(MODES)('an edition switch names the conditions it changed (%s)', (mode) => {
  let table: Table | undefined;
  afterEach(() => table?.close());

  it('Goblin 2 dying in soak is dead in threshold: the GM reads it by name, with before and after', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 100', ['Goblin 2']); // 30 -> -35: dying
    expect(table.markers('Goblin 2')).toContain('death-zone');
    const out = await table.say('GM', '!defense-round config edition threshold');
    expect(whispered(out, 'gm')).toEqual(['Edition is now threshold. Conditions read again: Goblin 2 dying -> dead. Cleared: saves owed and reactions. Bars, worn armor and the Turn Tracker are kept, and sheet values are read as they are (not converted).']);
    expect(table.markers('Goblin 2')).toContain('dead');
  });

  it('a switch that changes no condition says so in one clause; one with nothing remembered says nothing of tokens', async () => {
    table = await openTable(mode);
    const none = await table.say('GM', '!defense-round config edition threshold');
    expect(whispered(none, 'gm')).toEqual(['Edition is now threshold. Bars, worn armor and the Turn Tracker are kept, and sheet values are read as they are (not converted).']);
    await table.say('GM', '!defense-round config edition soak');
    await table.say('GM', '!stance defensive', ['Goblin 1']); // remembered for its stance, standing
    const back = await table.say('GM', '!defense-round config edition threshold');
    expect(whispered(back, 'gm')).toEqual(['Edition is now threshold. One token the script remembers was read again in its terms: no condition changed. Cleared: the stances the threshold edition lacks (Goblin 1 defensive); saves owed and reactions. Bars, worn armor and the Turn Tracker are kept, and sheet values are read as they are (not converted).']);
  });

  it('dead at -10 in threshold is only marked incapacitated in opposed, which has no death rules: said so', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config edition threshold');
    await table.say('GM', '!damage 40 --hit 30', ['Goblin 2']); // dead at -10 in threshold
    const out = await table.say('GM', '!defense-round config edition opposed');
    expect(whispered(out, 'gm')).toEqual(['Edition is now opposed. Conditions read again: Goblin 2 dead -> incapacitated. Cleared: saves owed and reactions. Bars, worn armor and the Turn Tracker are kept, and sheet values are read as they are (not converted).']);
    expect(table.markers('Goblin 2')).toEqual(['sleepy']);
  });
});
