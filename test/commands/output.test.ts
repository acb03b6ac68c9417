// What chat shows at a full table (commands.md, "Output"): one message per audience per command,
// rows with details buttons, names not ids, usage only for malformed commands, the record kept.
import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, readable, whispered, type Table } from '../support/table';
import type { ChatRecord } from '../../mocks/roll20';

const fromScript = (records: ChatRecord[]) => records.filter((r) => r.who === 'DefenseRound');

/** The command of the details button in a card row, e.g. `!defense-round details 3`. */
function detailsButtons(record: ChatRecord): string[] {
  return [...record.content.matchAll(/\((!defense-round details [0-9a-z.]+)\)/g)].map((m) => m[1]!);
}

describe.each(MODES)('one message per audience (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('a hit on three tokens: one public card with a row each, one GM card with the NPCs\' numbers', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!damage 70', ['Bob', 'Goblin 1', 'Goblin 2']);
    const sent = fromScript(out);
    expect(sent).toHaveLength(2);
    const [publicCard, gmCard] = sent;
    expect(publicCard!.whisperTo).toBeUndefined();
    const shown = readable(publicCard!);
    expect(shown).toMatch(/^Damage: 3 tokens/);
    // Bob is a PC, his breakdown public: numbers (70 x 80% = 56 - 100 = 0: the armor holds).
    expect(shown).toMatch(/Bob: is hit, but the armor holds\./);
    // The goblins are NPCs: no numbers in public.
    expect(shown).toMatch(/Goblin 1: is hit and falls, incapacitated\. \|/); // no details button a player could not use
    expect(shown).not.toMatch(/Vitality 30 -> -8/);
    expect(gmCard!.whisperTo).toBe('gm');
    expect(gmCard!.noarchive).toBeFalsy(); // the GM's record stays
    expect(readable(gmCard!)).toMatch(/Goblin 1: is hit and falls, incapacitated\. Vitality 30 -> -8/);
    expect(readable(gmCard!)).toMatch(/Goblin 2: .* Vitality 30 -> -8/);
    expect(detailsButtons(publicCard!)).toHaveLength(1); // Bob's: his breakdown is public
    expect(detailsButtons(gmCard!)).toHaveLength(2); // the goblins', on the GM's card
  });

  it('a details button whispers the full breakdown to whoever may see it, and a one-line refusal to anyone else', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!damage 70', ['Bob', 'Goblin 1']);
    const [bobDetails] = detailsButtons(fromScript(out)[0]!);
    const [goblinDetails] = detailsButtons(fromScript(out)[1]!); // from the GM's card
    const bob = await table.say('Ben', bobDetails!); // Bob's breakdowns are public (a PC)
    expect(whispered(bob, 'Ben')).toEqual([expect.stringMatching(/^Bob takes no damage: the armor holds \(70 physical\) \| .*70 x 80% soak = 56/)]);
    const goblin = await table.say('Ben', goblinDetails!);
    expect(whispered(goblin, 'Ben')).toEqual(["Goblin 1's breakdown is for the GM. [Help](!defense-round details --help)"]);
    const gm = await table.say('GM', goblinDetails!);
    expect(whispered(gm, 'gm')[0]).toMatch(/^Goblin 1 loses 38 Vitality and falls, incapacitated \(70 physical\) \| .*70 x 90% soak = 63/);
  });

  it('a hit on 50 tokens posts at most three messages, and one whisper names every refused target', async () => {
    const names: string[] = [];
    table = await openTable(mode, {
      setup: (mock, scene) => {
        for (let i = 1; i <= 48; i += 1) {
          const name = `Raider ${i}`;
          names.push(name);
          mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name, represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
        }
        mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Broken', bar1_value: 'lots', bar1_max: 30 });
      },
    });
    const out = await table.say('GM', '!damage 70', [...names, 'Goblin 1', 'Broken']);
    const sent = fromScript(out);
    expect(sent.length).toBeLessThanOrEqual(3);
    expect(whispered(out, 'gm').filter((text) => /Not applied/.test(text))).toEqual([
      'Not applied to every target: Broken: its Vitality bar (bar1) holds "lots", not a whole number; left as it was. [Help](!damage --help)',
    ]);
    expect(table.bar('Raider 48')).toBe(-8);
  });

  it('a heal that changes nothing posts nothing public: the sender hears it', async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!heal 5', ['Bob']); // Bob is at his max
    expect(publicFromScript(out)).toEqual([]);
    expect(whispered(out, 'Alice')).toEqual([expect.stringMatching(/^Bob is not healed: Vitality already at its max \|$/)]);
  });

  it('a heal on several tokens at their max says so on each row, not "is healed"', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!heal 5', ['Goblin 1', 'Goblin 2']);
    expect(publicFromScript(out)).toEqual([]);
    const card = whispered(out, 'gm').join('\n');
    expect(card).toMatch(/Goblin 1: is not healed: already at its max\./);
    expect(card).toMatch(/Goblin 2: is not healed: already at its max\./);
    expect(card).not.toMatch(/is healed\./);
  });

  it('the same stance again posts nothing public and says it is already taken, not "defensive -> defensive"', async () => {
    table = await openTable(mode);
    const first = await table.say('Alice', '!stance defensive', ['Bob']);
    expect(publicFromScript(first)).toEqual([expect.stringMatching(/^Bob takes the defensive stance \| Stance: none -> defensive/)]);
    const again = await table.say('Alice', '!stance defensive', ['Bob']);
    expect(publicFromScript(again)).toEqual([]);
    expect(whispered(again, 'Alice')).toEqual([expect.stringMatching(/^Bob is already in the defensive stance \| Stance: defensive, unchanged/)]);
    expect(table.markers('Bob')).toContain('bolt-shield');
    await table.say('Alice', '!stance none', ['Bob']);
    const none = await table.say('Alice', '!stance none', ['Bob']);
    expect(publicFromScript(none)).toEqual([]);
    expect(whispered(none, 'Alice')).toEqual([expect.stringMatching(/^Bob already has no stance \| Stance: none, unchanged/)]);
  });

  it('refusals for several targets read as one sentence: each reason once, with its count', async () => {
    table = await openTable(mode, {
      setup: (mock, scene) => {
        for (let i = 0; i < 3; i += 1) mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Raider', represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
      },
    });
    const raiders = table.mock.globals.findObjs({ _type: 'graphic', name: 'Raider' }).map((token) => token.id);
    const out = await table.say('Ben', `!stance defensive --ids ${raiders.join(' ')}`);
    expect(whispered(out, 'Ben')).toEqual(['You do not control Raider (3 tokens). [Help](!stance --help)']);
    const mixed = await table.say('Ben', `!stance defensive --ids ${table.id('Goblin 1')} ${table.id('Goblin 2')} ${raiders.join(' ')}`);
    expect(whispered(mixed, 'Ben')).toEqual(['You do not control Goblin 1, Goblin 2, Raider (3 tokens). [Help](!stance --help)']);
    // A rule's reason shared by several targets is said once, before their names.
    const saves = await table.say('GM', '!defend --action save --roll 5', ['Goblin 1', 'Goblin 2']);
    expect(whispered(saves, 'gm')).toEqual([expect.stringMatching(/^Goblin 1, Goblin 2: /)]);
    const bogus = await table.say('GM', '!damage 5 --ids nobody');
    expect(whispered(bogus, 'gm')).toEqual(['No token to act on (--ids: no token on the table has the id "nobody"). [Help](!damage --help)']);
  });

  it('names tokens, never ids, in refusals', async () => {
    table = await openTable(mode);
    await table.passTurn();
    await table.say('Alice', '!stance reactive', ['Bob']);
    const out = await table.say('Alice', `!defend --action counter --vs ${table.id('Goblin 1')}`, ['Bob']);
    const said = whispered(out, 'Alice').join('\n');
    expect(said).toMatch(/against Goblin 1 you need a successful reaction check/);
    expect(said.replace(/--vs \S+/g, '')).not.toContain(table.id('Goblin 1'));
  });

  it('a permission refusal is one line with no usage; a malformed command too, with the help', async () => {
    table = await openTable(mode);
    const refused = await table.say('Ben', '!damage 5', ['Goblin 1']);
    expect(whispered(refused, 'Ben')).toEqual(['You do not control Goblin 1. [Help](!damage --help)']);
    const malformed = await table.say('Ben', '!damage five', ['Goblin 1']);
    expect(whispered(malformed, 'Ben')[0]).toMatch(/^The damage amount must be a whole number or an inline roll like \[\[2d6\+3\]\] \(got "five"\)\. \[Help\]\(!damage --help\)$/);
    expect(whispered(malformed, 'Ben')).toHaveLength(1);
  });
});
