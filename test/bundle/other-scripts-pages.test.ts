// Issue 30, items 4 and 6, on the bundle (node:vm): a token on a page no player is on, and Bump's
// stand-ins (its stand-in script loaded before the bundle, as Roll20 concatenates a game's
// scripts). Each failed on the bundle before its fix.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, publicFromScript, whispered, type Table } from '../support/table';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

/** The Lair, a page of its own, with the Ancient Dragon (an NPC on the objects layer) on it. */
function lair(mock: MockRoll20, scene: DemoScene): void {
  const page = mock.create('page', { name: 'Lair' });
  mock.create('graphic', {
    subtype: 'token', pageid: page.id, layer: 'objects', name: 'Ancient Dragon', represents: scene.characters.Goblin,
    bar1_value: 300, bar1_max: 300, bar2_value: 10, bar2_max: 10, bar3_value: 10, bar3_max: 10, imgsrc: String(mock.token('Goblin 1').get('imgsrc')),
  });
}

const lairId = (t: Table) => String(t.mock.token('Ancient Dragon').get('_pageid'));

describe('30.4 a token on a page no player is on (bundle)', () => {
  let t: Table;
  afterEach(() => t?.close());

  it('30.4 a hit on a token on a page no player is on is named to the GM only; one on a page a player was moved to is public', async () => {
    t = await openTable('bundle', { setup: lair });
    const dragon = t.id('Ancient Dragon');
    const hit = await t.say('GM', `!damage 60 --ids ${dragon} ${t.id('Goblin 1')}`);
    expect(t.bar('Ancient Dragon')).toBeLessThan(300);
    expect(publicFromScript(hit).join('\n')).not.toMatch(/Dragon/);
    expect(publicFromScript(hit).join('\n')).toMatch(/Goblin 1/);
    expect(whispered(hit, 'gm').join('\n')).toMatch(/Ancient Dragon/);
    // Undo's public line names only what the players can see.
    const undone = await t.say('GM', '!damage --undo');
    expect(t.bar('Ancient Dragon')).toBe(300);
    expect(publicFromScript(undone).join('\n')).toMatch(/Damage undone: Goblin 1/);
    expect(publicFromScript(undone).join('\n')).not.toMatch(/Dragon/);
    // Alice is moved to the Lair: a player sees it now.
    t.mock.movePlayer(t.scene.players.Alice, lairId(t));
    const seen = await t.say('GM', `!damage 60 --ids ${dragon}`);
    expect(publicFromScript(seen).join('\n')).toMatch(/Ancient Dragon/);
  });

  it('30.4 playerspecificpages as a JSON string (some API versions) counts the same; a GM on the page does not make it public', async () => {
    t = await openTable('bundle', { setup: lair });
    const campaign = t.mock.globals.Campaign();
    campaign.set('playerspecificpages', JSON.stringify({ [t.scene.players.GM]: lairId(t) }) as never);
    const gmThere = await t.say('GM', `!damage 60 --ids ${t.id('Ancient Dragon')}`);
    expect(publicFromScript(gmThere).join('\n')).not.toMatch(/Dragon/);
    campaign.set('playerspecificpages', JSON.stringify({ [t.scene.players.Ben]: lairId(t) }) as never);
    const benThere = await t.say('GM', `!damage 60 --ids ${t.id('Ancient Dragon')}`);
    expect(publicFromScript(benThere).join('\n')).toMatch(/Ancient Dragon/);
  });

  it('30.4 a player naming a token on another page is answered as for one that does not exist; an attack on it is not announced', async () => {
    t = await openTable('bundle', { setup: lair });
    await t.say('GM', '!defense-round config players-target-any on');
    const named = whispered(await t.say('Ben', `!damage 5 --ids ${t.id('Ancient Dragon')}`), 'Ben').join('\n');
    const bogus = whispered(await t.say('Ben', '!damage 5 --ids -NoSuchToken000000000'), 'Ben').join('\n');
    expect(named.replace(t.id('Ancient Dragon'), 'ID')).toBe(bogus.replace('-NoSuchToken000000000', 'ID'));
    expect(t.bar('Ancient Dragon')).toBe(300);
    const attack = await t.say('GM', `!attack 30 --ids ${t.id('Ancient Dragon')}`, ['Goblin 1']);
    expect(publicFromScript(attack).join('\n')).not.toMatch(/Dragon|A1/);
    expect(Object.keys(t.stored().exchange.attacks)).toEqual(['G1']);
  });

  it('30.4 the Campaign is read once per command, not once per token', async () => {
    let reads = 0;
    t = await openTable('bundle', {
      setup: (mock, scene) => {
        lair(mock, scene);
        for (let i = 0; i < 20; i += 1) mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: `Raider ${i}`, represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
        const campaign = mock.globals.Campaign();
        const get = campaign.get.bind(campaign);
        campaign.get = ((key: Parameters<typeof get>[0]) => {
          if (key === 'playerspecificpages') reads += 1;
          return get(key);
        }) as typeof campaign.get;
      },
    });
    const raiders = Array.from({ length: 20 }, (_, i) => t.id(`Raider ${i}`));
    reads = 0;
    const hit = await t.say('GM', `!damage 5 --ids ${raiders.join(' ')} ${t.id('Ancient Dragon')}`);
    expect(publicFromScript(hit).join('\n')).toMatch(/20 tokens/);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThanOrEqual(3);
  });
});
