// Proof under abuse, fourth round (issue 29): holes an outside attacker found on the shipped bundle,
// replayed on the bundle (node:vm) beside stand-ins of the scripts that relay commands. Each fails
// on the bundle before its fix. Mallory is the demo table's Ben: a player who controls nothing.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';
import type { ChatRecord } from '../../mocks/roll20';
import { SCRIPTCARDS_STAND_IN, SELECTMANAGER_STAND_IN } from '../../mocks/other-scripts';

const BUNDLE = process.env.DEFENSE_ROUND_BUNDLE ?? 'dist/defense-round.js';
const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');

/** The bundle loaded after other scripts, as Roll20 concatenates a game's scripts. */
function tableWith(...scripts: string[]): Promise<Table> {
  return openTable('bundle', { bundleSource: [...scripts, readFileSync(BUNDLE, 'utf8')].join('\n') });
}

/** A ScriptCards card whose `--@` line is relayed as `!COMMAND ...` (a leading `_` becomes `--`). */
const card = (line: string) => `!scriptcard {{ --#title|Relay ${line} }}`;

describe('the fourth round of attacks: relays (bundle)', () => {
  let table: Table;
  afterEach(() => table?.close());

  /**
   * Alice hits her own Bob; Mallory (Ben) then relays three lines naming Alice with --api-as: an
   * undo, a hit on Bob and a stance for Bob. Answers Bob's Vitality after each step, and the chat.
   */
  async function malloryActsAsAlice(t: Table): Promise<{ vitality: unknown[]; out: string }> {
    const { players } = t.scene;
    const vitality: unknown[] = [];
    const out = [];
    await t.say('Alice', '!damage 200', ['Bob']);
    vitality.push(t.attr('Bob', 'vitality'));
    out.push(...(await t.say('Ben', card(`--@damage|_undo _api-as ${players.Alice}`))));
    vitality.push(t.attr('Bob', 'vitality'));
    out.push(...(await t.say('Ben', card(`--@damage|200 _ids ${t.id('Bob')} _api-as ${players.Alice}`))));
    vitality.push(t.attr('Bob', 'vitality'));
    out.push(...(await t.say('Ben', card(`--@stance|defensive _ids ${t.id('Bob')} _api-as ${players.Alice}`))));
    return { vitality, out: all(out) };
  }

  it('3. by default, Mallory naming Alice with --api-as through ScriptCards cannot undo her hit, hit Bob or change his stance', async () => {
    table = await tableWith(SCRIPTCARDS_STAND_IN);
    const { vitality, out } = await malloryActsAsAlice(table);
    expect(vitality[0]).toBeLessThan(70);
    expect(vitality).toEqual([vitality[0], vitality[0], vitality[0]]);
    expect(table.memory('Bob')?.stance).toBeUndefined();
    // Each relayed line is refused with one line to the GM, saying both ways to allow relays.
    const refusals = whispered(await table.say('Ben', card(`--@damage|5 _ids ${table.id('Bob')} _api-as ${table.scene.players.Alice}`)), 'gm');
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toMatch(/config api-commands gm/);
    expect(refusals[0]).toMatch(/config api-commands api-as/);
    expect(out).not.toMatch(/undone/i);
    // Alice's hit is still hers to undo.
    await table.say('Alice', '!damage --undo');
    expect(table.attr('Bob', 'vitality')).toBe(70);
  });

  it('3. under api-commands gm a relay acts as the GM (the GM\'s choice), never as the player --api-as names', async () => {
    table = await tableWith(SCRIPTCARDS_STAND_IN);
    const { players } = table.scene;
    await table.say('GM', '!defense-round config api-commands gm');
    await table.say('Alice', '!damage 200', ['Bob']);
    const hit = table.attr('Bob', 'vitality');
    // As Alice this hit on Goblin 1 would be refused (she does not control it); as the GM it lands, and is the GM's relay's, not Alice's.
    await table.say('Ben', card(`--@damage|40 _ids ${table.id('Goblin 1')} _api-as ${players.Alice}`));
    expect(table.bar('Goblin 1')).toBeLessThan(30);
    expect(table.stored().history.at(-1).by).toBe('API');
    // As Alice, the relayed undo would take back Alice's hit on Bob; as the GM it takes back the latest, the goblin's.
    await table.say('Ben', card(`--@damage|_undo _api-as ${players.Alice}`));
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.attr('Bob', 'vitality')).toBe(hit);
  });

  it('3. under api-commands api-as, --api-as acts as that player only: never a GM, and a relay naming nobody is refused', async () => {
    table = await tableWith(SCRIPTCARDS_STAND_IN);
    const { players } = table.scene;
    const status = all(await table.say('GM', '!defense-round config api-commands api-as'));
    expect(status).toMatch(/--api-as/);
    expect(table.stored().settings.apiCommands).toBe('api-as');
    const menu = all(await table.say('GM', '!defense-round'));
    expect(menu).toMatch(/Relayed commands: api-as/);
    // The menu button offers the three values, the current one first (accepting the query changes nothing).
    expect(menu).toContain('(!defense-round config api-commands ?{Relayed commands|api-as|refuse|gm})');
    // A new picklist value: kept across a restart, no migration.
    await table.restart();
    expect(table.stored().settings.apiCommands).toBe('api-as');
    const { vitality } = await malloryActsAsAlice(table);
    // Acting as Alice: her undo took back her hit, then the hit and the stance on her Bob landed.
    expect(vitality[1]).toBe(70);
    expect(vitality[2]).toBeLessThan(70);
    expect(table.memory('Bob')?.stance).toBe('defensive');
    // With Alice's rights only: Goblin 1 is not hers.
    const goblin = await table.say('Ben', card(`--@damage|40 _ids ${table.id('Goblin 1')} _api-as ${players.Alice}`));
    expect(table.bar('Goblin 1')).toBe(30);
    expect(all(goblin)).toMatch(/You do not control Goblin 1/);
    // A GM's id, an unknown id, or no --api-as names nobody: refused to the GM.
    for (const named of [` _api-as ${players.GM}`, ' _api-as -Nobody', '']) {
      const out = await table.say('Ben', card(`--@damage|40 _ids ${table.id('Goblin 1')}${named}`));
      expect(table.bar('Goblin 1')).toBe(30);
      expect(whispered(out, 'gm').join('\n')).toMatch(/Another script relayed !damage/);
    }
    // Typed straight into chat, --api-as stays refused.
    const typed = await table.say('Ben', `!stance none --api-as ${players.Alice}`, ['Bob']);
    expect(all(typed)).toMatch(/--api-as is read only on a command another script relays/);
    expect(table.memory('Bob')?.stance).toBe('defensive');
  });

  it('3. SelectManager\'s restored sender is no relay: the line is that player\'s own, under the default setting', async () => {
    table = await tableWith(SELECTMANAGER_STAND_IN, SCRIPTCARDS_STAND_IN);
    await table.say('GM', '!smconfig +playerid');
    await table.say('Alice', card('--@stance|defensive'), ['Bob']);
    expect(table.memory('Bob')?.stance).toBe('defensive');
    // Ben's own line naming Alice: SelectManager restores Ben, and --api-as on a player's line is refused.
    await table.say('Ben', card(`--@stance|none _api-as ${table.scene.players.Alice}`), ['Bob']);
    expect(table.memory('Bob')?.stance).toBe('defensive');
  });

  /** Every chat message's text, with any half of a surrogate pair standing alone in it (there should be none). */
  const halves = (records: ChatRecord[]) =>
    records.map((record) => String(record.content)).filter((content) => /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(content));
  /** A token of nobody's named by the test (Ben controls nothing). */
  const named = (name: string) => ({
    setup: (mock: Table['mock'], scene: Table['scene']) => {
      mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name, bar1_value: 10, bar1_max: 10, imgsrc: String(mock.token('Goblin 1').get('imgsrc')) });
    },
  });

  it('19. the 40-character echo of typed text keeps an emoji whole at the cut', async () => {
    table = await openTable('bundle');
    // 36 letters, then an emoji across the 37th and 38th units: the echo keeps 37.
    const out = await table.say('GM', `!defense-round config ${'a'.repeat(36)}😀zzzz on`);
    expect(all(out)).toMatch(/Unknown setting "a{36}\.\.\."/);
    expect(halves(out)).toEqual([]);
  });

  it('19. the 200-character cut of a refusal keeps an emoji whole', async () => {
    // A name of emoji refused by name: whatever the words before it, one of the two names puts an emoji across the cut.
    for (const name of ['😀'.repeat(150), `a${'😀'.repeat(150)}`]) {
      table = await openTable('bundle', named(name));
      const out = await table.say('Ben', '!stance defensive', [name]);
      expect(all(out)).toMatch(/You do not control a?(?:😀)+\.\.\. \(cut\)/);
      expect(halves(out)).toEqual([]);
      table.close();
    }
  });

  it('19. the echo of an undo\'s entry key keeps an emoji whole', async () => {
    table = await openTable('bundle');
    const out = await table.say('Ben', `!damage --undo --entry ${'a'.repeat(8)}😀zzz`);
    expect(all(out)).toMatch(/That damage \(a{8}\.\.\.\) is no longer in the undo history/);
    expect(halves(out)).toEqual([]);
  });

  it('19. a long name kept for undo is cut on a whole emoji: the undo naming it shows no half', async () => {
    const name = `a${'😀'.repeat(150)}`;
    table = await openTable('bundle', named(name));
    await table.say('GM', '!damage 5', [name]);
    table.mock.userRemove(table.mock.token(name));
    const out = await table.say('GM', '!damage --undo');
    expect(all(out)).toMatch(/no longer on the table: a😀/);
    expect(halves(out)).toEqual([]);
  });
});
