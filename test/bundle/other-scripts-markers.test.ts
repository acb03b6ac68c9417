// Issue 30, items 3 and 8, on the bundle (node:vm): a custom token marker named as Roll20's marker
// menu shows it, and no "N -> N" (a value that did not change) in a line the table reads.
// Each numbered test fails on the bundle before the fix.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { bobTwin, openTable, publicFromScript, texts, whispered, type Table } from '../support/table';

const MODE = (process.env.DEFENSE_ROUND_MODE as 'bundle' | 'src' | undefined) ?? 'bundle';
const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');
/** "70 -> 70": a number said to become itself. */
const SAME = /(?<![\w.-])(-?\d+) -> \1(?![\w.])/;

describe(`issue 30: other scripts' markers, unchanged values (${MODE})`, () => {
  let table: Table;
  afterEach(() => table?.close());

  it('30.8 the undo of a hand edit read through armor does not say "Vitality 70 -> 70"', async () => {
    table = await openTable(MODE);
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    // The cause: the armor holds all of a typed 30, so the bar is set back to 70; the entry keeps
    // Vitality from 70 to 70 (undo checks nothing changed it since), and the undo line said it.
    table.mock.newMessages();
    table.mock.userEdit(table.mock.attribute('Bob', 'vitality'), { current: 40 });
    await table.mock.settle();
    expect(all(table.mock.newMessages())).toMatch(/No Vitality lost/);
    expect(table.attr('Bob', 'vitality')).toBe(70);
    const out = await table.say('GM', '!damage --undo');
    expect(publicFromScript(out)).toEqual(['Damage undone: Bob (Physical 94 -> 100).']);
    expect(table.attr('Bob', 'armor_physical')).toBe(100);
  });

  it('30.8 a linked hand edit read through armor, seen through two tokens, says no "70 -> 70" on its card or its undo', async () => {
    table = await openTable(MODE, { setup: bobTwin() });
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    table.mock.newMessages();
    table.mock.userEdit(table.mock.attribute('Bob', 'vitality'), { current: 40 });
    await table.mock.settle();
    const card = all(table.mock.newMessages());
    expect(card).toMatch(/Physical/);
    expect(card).not.toMatch(SAME);
    const undo = all(await table.say('GM', '!damage --undo'));
    expect(undo).toMatch(/Damage undone/);
    expect(undo).not.toMatch(SAME);
  });

  it('30.8 armor that wears by 0 is said to stay, not "Physical 20 -> 20"', async () => {
    table = await openTable(MODE);
    const out = all(await table.say('GM', '!damage 1', ['Goblin 1']));
    expect(out).toMatch(/Physical stays 20 \(wears 25% of \d+ = 0\)/);
    expect(out).not.toMatch(SAME);
  });

  it('30.8 threshold: a hit of 0 says no "Vitality 20 -> 20"', async () => {
    table = await openTable(MODE);
    await table.say('GM', '!defense-round config edition threshold');
    const out = all(await table.say('GM', '!damage 0', ['Crate']));
    expect(out).toMatch(/takes no damage/);
    expect(out).not.toMatch(SAME);
  });

  it('30.8 property: no line of hits, hand edits and undos in any edition says a value became itself', async () => {
    const step = fc.oneof(
      fc.integer({ min: 0, max: 40 }).map((n) => ({ kind: 'damage' as const, n })),
      fc.integer({ min: 0, max: 40 }).map((n) => ({ kind: 'edit' as const, n })),
      fc.constant({ kind: 'undo' as const, n: 0 }),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('soak', 'threshold', 'opposed'), fc.constantFrom('Bob', 'Goblin 1', 'Crate'), fc.array(step, { minLength: 1, maxLength: 6 }), async (edition, token, steps) => {
        table = await openTable(MODE);
        try {
          await table.say('GM', `!defense-round config edition ${edition}`);
          await table.say('GM', '!defense-round config armor-on-manual-edits on');
          const said: string[] = [];
          for (const { kind, n } of steps) {
            if (kind === 'damage') said.push(...texts(await table.say('GM', `!damage ${n}${edition === 'opposed' ? ' --attack 15' : ''}`, [token])));
            else if (kind === 'undo') said.push(...texts(await table.say('GM', '!damage --undo --force')));
            else {
              const vitality = Number(token === 'Bob' ? table.attr('Bob', 'vitality') : table.bar(token));
              const target = token === 'Bob' ? table.mock.attribute('Bob', 'vitality') : table.mock.token(token);
              table.mock.newMessages();
              table.mock.userEdit(target, token === 'Bob' ? { current: vitality - n } : { bar1_value: vitality - n });
              await table.mock.settle();
              said.push(...texts(table.mock.newMessages()));
            }
          }
          for (const line of said) expect(line).not.toMatch(SAME);
        } finally {
          table.close();
        }
      }),
      { numRuns: 40, seed: 30 },
    );
  }, 60_000);
});

describe(`issue 30: a custom marker named as Roll20's marker menu shows it (${MODE})`, () => {
  let table: Table;
  afterEach(() => table?.close());
  const markers = (t: Table) => t.stored().settings.markers;

  it('30.3 "Unconscious" (tag Unconscious::4567) is taken, its tag stored, and the tag placed on a token that falls', async () => {
    table = await openTable(MODE);
    const said = await table.say('GM', '!defense-round config marker.incapacitated Unconscious');
    expect(whispered(said, 'gm')).toEqual(['The incapacitated marker is now Unconscious (Unconscious::4567).']);
    expect(markers(table).incapacitated).toBe('Unconscious::4567');
    await table.say('GM', '!damage 35 --pierce 100', ['Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(-5);
    expect(table.markers('Goblin 1')).toEqual(['Unconscious::4567']);
    // It survives a restart: the stored tag passes the settings' check.
    await table.restart();
    expect(markers(table).incapacitated).toBe('Unconscious::4567');
  });

  it('30.3 a name two custom markers share is refused naming both tags, and changes nothing', async () => {
    table = await openTable(MODE);
    const before = JSON.stringify(table.stored());
    const said = await table.say('GM', '!defense-round config marker.dead Bleeding');
    const lines = whispered(said, 'gm');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/2 of this campaign's token markers are named "Bleeding": give the tag of one \(Bleeding::4569, Bleeding::5120\)/);
    expect(lines[0]).toMatch(/\[Help\]|Help/);
    expect(said.map((record) => record.raw).join('\n')).toMatch(/--help\)/);
    expect(publicFromScript(said)).toEqual([]);
    expect(JSON.stringify(table.stored())).toBe(before);
    // The GM picks one by its tag.
    await table.say('GM', '!defense-round config marker.dead Bleeding::5120');
    expect(markers(table).dead).toBe('Bleeding::5120');
  });

  it('30.3 a default marker\'s name keeps working, a name in any case is taken, an unknown one is refused', async () => {
    table = await openTable(MODE);
    expect(whispered(await table.say('GM', '!defense-round config marker.dead skull'), 'gm')).toEqual(['The dead marker is now skull.']);
    expect(markers(table).dead).toBe('skull');
    await table.say('GM', '!defense-round config marker.dying poisoned');
    expect(markers(table).dying).toBe('Poisoned::4568');
    const said = whispered(await table.say('GM', '!defense-round config marker.dying Unconsciou'), 'gm');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(/"Unconsciou" is neither a Roll20 status marker nor the name or tag of one of this campaign's token markers/);
    expect(markers(table).dying).toBe('Poisoned::4568');
  });

  it('30.3 a hostile marker name shared by two markers reaches chat escaped', async () => {
    table = await openTable(MODE, { setup: (mock) => mock.addTokenMarkers([{ name: 'Evil<b>X</b>{{y}}', id: 7001 }, { name: 'Evil<b>X</b>{{y}}', id: 7002 }]) });
    const said = await table.say('GM', '!defense-round config marker.dead Evil<b>X</b>{{y}}');
    const raw = said.filter((record) => record.who === 'DefenseRound').map((record) => record.raw).join('\n');
    expect(raw).toMatch(/7001/);
    expect(raw).not.toMatch(/<b>|\{\{y/);
    expect(markers(table).dead).toBe('dead');
  });
});
