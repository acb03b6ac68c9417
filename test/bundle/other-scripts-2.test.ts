// Issue 30, with other scripts (second part): ChatSetAttr's writes fire no Roll20 event, so its
// observers are how its edits reach markers, saves, undo and the attribute index; and a name the
// game's sheet lacks is asked of getAttrByName once per game (Roll20 logs an error line for each ask).
// The built bundle is loaded after the stand-ins, concatenated as Roll20 loads a game's scripts.
import { describe, expect, it } from 'vitest';
import { MISSING_FIELD_LOG, type MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';
import { CHATSETATTR_STAND_IN } from '../../mocks/other-scripts';
import { bobTwin } from '../support/table';

import { game, type Game } from '../support/scripts';

/** Bob at 20 Vitality, his sheet and his token agreeing (an API write before the session: no events). */
const bobAt = (vitality: number) => (mock: MockRoll20) => {
  mock.token('Bob').set('bar1_value', vitality);
};

describe('30.1 ChatSetAttr\'s edits of a linked Vitality are hand edits', () => {
  it('30.1 !modattr --sel --vitality|-25 drops a PC from 20 to -5: marked incapacitated, the save owed, the token in step', async () => {
    const g = await game([CHATSETATTR_STAND_IN], bobAt(20));
    const bob = g.scene.tokens.Bob;
    await g.say('GM', '!modattr --sel --silent --vitality|-25', [bob]);
    expect(Number(g.mock.attribute('Bob', 'vitality').get('current'))).toBe(-5);
    expect(g.markers('Bob')).toContain('sleepy');
    expect(g.memory('Bob').life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
    expect(g.mock.token('Bob').get('bar1_value')).toBe(-5);
    const save = await g.say('Alice', '!defend --action save --roll 10', [bob]);
    expect(save.join('\n')).not.toMatch(/no save is owed/i);
    expect(g.memory('Bob')?.life?.savesOwed ?? 0).toBe(0);
  });

  it('30.1 a dying PC healed by !setattr loses its dying marker, and the next 5-point hit does not kill it', async () => {
    const g = await game([CHATSETATTR_STAND_IN]);
    const bob = g.scene.tokens.Bob;
    g.mock.userEdit(g.mock.token('Bob'), { bar1_value: -12 });
    await g.mock.settle();
    expect(g.markers('Bob')).toContain('death-zone');
    await g.say('GM', '!setattr --sel --silent --vitality|18', [bob]);
    expect(g.markers('Bob')).not.toContain('death-zone');
    expect(g.memory('Bob')?.life?.condition ?? 'standing').not.toBe('dying');
    await g.say('GM', '!damage 5', [bob]);
    expect(g.markers('Bob')).not.toContain('dead');
    expect(Number(g.mock.attribute('Bob', 'vitality').get('current'))).toBeGreaterThan(0);
  });

  it('30.1 with armor on hand edits, a decrease is read through armor once for two tokens of the sheet, and the GM can undo it', async () => {
    const g = await game([CHATSETATTR_STAND_IN], bobTwin());
    const bob = g.scene.tokens.Bob;
    await g.say('GM', '!defense-round config armor-on-manual-edits on');
    const out = await g.say('GM', '!modattr --sel --silent --vitality|-200', [bob]);
    const after = Number(g.mock.attribute('Bob', 'vitality').get('current'));
    // As !damage 200 leaves him (40), read through armor once for both tokens, not twice, nor the -130 typed.
    expect(after).toBe(40);
    expect(out.filter((line) => /read through armor/.test(line))).toHaveLength(1);
    await g.mock.settle();
    expect(g.mock.token('Bob (mirror image)').get('bar1_value')).toBe(after);
    await g.say('GM', '!damage --undo');
    expect(Number(g.mock.attribute('Bob', 'vitality').get('current'))).toBe(70);
  });
});

describe('30.2 attributes ChatSetAttr creates or deletes are found as Roll20\'s own are', () => {
  /** Bob's hit of 200 after his armor_physical comes or goes between two hits, by `change`. */
  async function secondHit(scripts: string[], setup: (mock: MockRoll20, scene: DemoScene) => void, change: (g: Game) => Promise<void>) {
    const g = await game(scripts, setup);
    await g.say('GM', '!damage 10', [g.scene.tokens.Bob]);
    await change(g);
    const card = await g.say('GM', '!damage 200', [g.scene.tokens.Bob]);
    return { vitality: g.mock.attribute('Bob', 'vitality').get('current'), card: card.join('\n'), warnings: g.mock.warnings.join('\n') };
  }
  const noArmor = (mock: MockRoll20) => mock.attribute('Bob', 'armor_physical').remove();

  it('30.2 armor_physical created by !setattr is read at the next hit, exactly as one a user adds', async () => {
    const byUser = await secondHit([], noArmor, async (g) => {
      g.mock.userCreate('attribute', { characterid: g.scene.characters.Bob, name: 'armor_physical', current: 100, max: 100 });
    });
    const byScript = await secondHit([CHATSETATTR_STAND_IN], noArmor, async (g) => {
      await g.say('GM', '!setattr --sel --silent --armor_physical|100|100', [g.scene.tokens.Bob]);
    });
    expect(byScript.card).not.toMatch(/No armor/);
    expect(byScript.vitality).toBe(byUser.vitality);
  });

  it('30.2 armor_physical deleted by !delattr is gone at the next hit, exactly as one a user deletes', async () => {
    const byUser = await secondHit([], () => undefined, async (g) => g.mock.userRemove(g.mock.attribute('Bob', 'armor_physical')));
    const byScript = await secondHit([CHATSETATTR_STAND_IN], () => undefined, async (g) => {
      await g.say('GM', '!delattr --sel --silent --armor_physical', [g.scene.tokens.Bob]);
    });
    expect(byScript.vitality).toBe(byUser.vitality);
    // Nothing was read from, or worn into, the attribute removed.
    expect(byScript.warnings).not.toMatch(/removed/);
    expect(byScript.card).toBe(byUser.card);
  });
});

describe('30.7 a name the sheet lacks is asked of Roll20 once per game', () => {
  /** Twelve NPCs of twelve sheets, each without the optional values (no Spirit, no natural defense...). */
  const twelveNpcs = (mock: MockRoll20, scene: DemoScene) => {
    for (let i = 1; i <= 12; i += 1) {
      const sheet = mock.create('character', { name: `Bandit ${i}` });
      for (const [name, current, max] of [['armor_soak', 10], ['armor_physical', 20, 20], ['armor_defense', 5], ['fortitude', 20], ['save_check', 45]] as const) {
        mock.create('attribute', { characterid: sheet.id, name, current, max: max ?? '' });
      }
      mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: `Bandit ${i}`, represents: sheet.id, bar1_value: 30, bar1_max: 30 });
    }
  };
  const bandits = (g: Game) => Array.from({ length: 12 }, (_, i) => g.mock.token(`Bandit ${i + 1}`).id);
  const asked = (g: Game) => {
    const count = new Map<string, number>();
    for (const line of g.mock.logs) {
      if (!line.startsWith(MISSING_FIELD_LOG)) continue;
      const name = line.slice(line.lastIndexOf(' named ') + 7);
      count.set(name, (count.get(name) ?? 0) + 1);
    }
    return count;
  };

  it('30.7 twelve NPC sheets without the optional values, each hit twice around a restart: each missing name is asked at most once', async () => {
    const g = await game([], twelveNpcs);
    // A magical hit reads the Magical protection and Spirit, which these sheets lack.
    for (const id of bandits(g)) await g.say('GM', '!damage 8 --type magical', [id]);
    await g.restart();
    for (const id of bandits(g)) await g.say('GM', '!damage 8 --type magical', [id]);
    const count = asked(g);
    expect(count.size).toBeGreaterThan(0);
    for (const [name, times] of count) expect(times, name).toBe(1);
    expect([...count.keys()].every((name) => g.stored().sheetLacks.includes(name))).toBe(true);
    // The status card tells the GM which names read as nothing, and why.
    const status = (await g.say('GM', '!defense-round')).join('\n');
    const [first] = [...count.keys()];
    expect(status).toMatch(new RegExp(`Not on the sheet.*${first}.*read as nothing`, 's'));
  });

  it('30.7 a name is asked again once an attribute of it appears, by a user or by ChatSetAttr; refresh forgets them all', async () => {
    const g = await game([CHATSETATTR_STAND_IN], twelveNpcs);
    const ids = bandits(g);
    await g.say('GM', '!damage 8 --type magical', [ids[0]!]);
    const [name] = [...asked(g).keys()];
    expect(name).toBeDefined();
    expect(g.stored().sheetLacks).toContain(name);
    g.mock.userCreate('attribute', { characterid: g.mock.token('Bandit 2').get('represents'), name: name!, current: 0 });
    expect(g.stored().sheetLacks).not.toContain(name);
    await g.say('GM', '!damage 8 --type magical', [ids[2]!]);
    expect(g.stored().sheetLacks).toContain(name);
    await g.say('GM', `!setattr --charid ${g.mock.token('Bandit 4').get('represents')} --silent --${name}|0`);
    expect(g.stored().sheetLacks).not.toContain(name);
    await g.say('GM', '!damage 8 --type magical', [ids[4]!]);
    expect(g.stored().sheetLacks.length).toBeGreaterThan(0);
    await g.say('GM', '!defense-round refresh');
    expect(g.stored().sheetLacks).toEqual([]);
  });

  it('30.7 the stored names are checked on load: only short lower-case names, at most 50, are kept', async () => {
    const g = await game([], (mock) => {
      mock.state.DefenseRound = { schemaVersion: 3, scriptVersion: '0.0.0', sheetLacks: ['natural_defense', 42, 'x'.repeat(500), 'Upper', 'natural_defense'] };
    });
    expect(g.stored().sheetLacks).toEqual(['natural_defense']);
    expect(g.mock.logs.join('\n')).toMatch(/sheetLacks: 4 bad or extra names dropped/);
  });
});
