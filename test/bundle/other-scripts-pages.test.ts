// Issue 30, items 4 and 6, on the bundle (node:vm): a token on a page no player is on, and Bump's
// stand-ins (its stand-in script loaded before the bundle, as Roll20 concatenates a game's
// scripts). Each failed on the bundle before its fix.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, publicFromScript, texts, whispered, type Table } from '../support/table';
import { BUMP_STAND_IN } from '../../mocks/other-scripts';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

const BUNDLE = readFileSync(process.env.DEFENSE_ROUND_BUNDLE ?? 'dist/defense-round.js', 'utf8');

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
    await t.passTurn(); // Goblin 1's turn: it attacks (rules.md, "Out of turn")
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

/** The demo table with Bump loaded before the bundle, Goblin 1 given a stand-in and pushed to the GM layer with Bump's own command. */
async function bumped(setup?: (mock: MockRoll20, scene: DemoScene) => void): Promise<{ t: Table; standIn: string }> {
  const t = await openTable('bundle', { bundleSource: [BUMP_STAND_IN, BUNDLE].join('\n'), ...(setup ? { setup } : {}) });
  const goblin = t.id('Goblin 1');
  await t.say('GM', '!bump-slave --push', ['Goblin 1']);
  const standIn = String(t.mock.state.Bump.mirrored[goblin]);
  expect(t.mock.globals.getObj('graphic', standIn)?.get('layer')).toBe('objects');
  expect(t.mock.globals.getObj('graphic', goblin)?.get('layer')).toBe('gmlayer');
  // Selected by this name in `say` (it bears Goblin 1's own name).
  (t.scene.tokens as Record<string, string>)['stand-in'] = standIn;
  return { t, standIn };
}

describe('30.6 Bump stand-ins (bundle, Bump loaded first)', () => {
  let t: Table;
  afterEach(() => t?.close());

  it("30.6 a hit on a Bump stand-in applies to the token it stands for, and survives Bump's copying either way", async () => {
    const game = await bumped();
    t = game.t;
    const goblin = t.mock.globals.getObj('graphic', t.id('Goblin 1'))!;
    const standIn = t.mock.globals.getObj('graphic', game.standIn)!;
    await t.say('GM', '!damage 40', ['stand-in']);
    const hit = goblin.get('bar1_value');
    expect(hit).toBeLessThan(30);
    expect(t.stored().tokens[goblin.id]).toBeDefined();
    expect(t.stored().tokens['stand-in']).toBeUndefined();
    // The stand-in is moved by hand: Bump copies its bars onto the original; then the original is moved.
    t.mock.userEdit(standIn, { left: 640 });
    expect(goblin.get('bar1_value')).toBe(hit);
    t.mock.userEdit(goblin, { top: 80 });
    expect(standIn.get('bar1_value')).toBe(hit);
    // A hit on the original itself is kept in step with its stand-in too.
    await t.say('GM', `!damage 40 --ids ${goblin.id}`);
    const again = goblin.get('bar1_value');
    expect(again).toBeLessThan(hit as number);
    t.mock.userEdit(standIn, { left: 700 });
    expect(goblin.get('bar1_value')).toBe(again);
    // Undo puts both back.
    await t.say('GM', '!damage --undo');
    t.mock.userEdit(standIn, { left: 720 });
    expect(goblin.get('bar1_value')).toBe(hit);
  });

  it('30.6 a hit typed into a stand-in\'s bar is its original\'s: read through armor, remembered and undone there', async () => {
    const game = await bumped();
    t = game.t;
    await t.say('GM', '!defense-round config armor-on-manual-edits on');
    const goblin = t.mock.globals.getObj('graphic', t.id('Goblin 1'))!;
    const standIn = t.mock.globals.getObj('graphic', game.standIn)!;
    t.mock.userEdit(standIn, { bar1_value: 5 });
    await t.mock.settle();
    // 25 typed: 25 x 90% soak = 22, - 20 Physical = 2, - 5 Defense: nothing gets through; the armor wears.
    expect(goblin.get('bar1_value')).toBe(30);
    expect(standIn.get('bar1_value')).toBe(30);
    expect(t.stored().tokens[goblin.id]?.worn?.physical).toBe(15);
    expect(t.stored().tokens[game.standIn]).toBeUndefined();
    await t.say('GM', '!damage --undo');
    expect(t.stored().tokens[goblin.id]?.worn?.physical ?? null).toBeNull();
  });

  it('30.6 a stand-in named by --vs, or attacking, is the token it stands for', async () => {
    const game = await bumped();
    t = game.t;
    const goblin = t.id('Goblin 1');
    await t.passTurn();
    await t.passTurn(); // Goblin 2's turn: Bob may react
    await t.say('Alice', '!stance reactive', ['Bob']);
    const reacted = await t.say('GM', `!defend --action react --vs ${game.standIn} --roll 5`, ['Bob']);
    expect(texts(reacted).join('\n')).toMatch(/React/);
    const memory = JSON.stringify(t.memory('Bob'));
    expect(memory).toContain(goblin);
    expect(memory).not.toContain(game.standIn);
    await t.passTurn();
    await t.passTurn(); // Goblin 1's turn again: it attacks (rules.md, "Out of turn")
    await t.say('GM', `!attack 10 --ids ${t.id('Bob')}`, ['stand-in']);
    expect(t.stored().exchange.attacks).not.toEqual({});
    expect(Object.values<any>(t.stored().exchange.attacks)[0].attacker).toBe(goblin);
  });

  it('30.6 the stand-in of a creature on the GM layer is never named in public, nor confirmed to a player', async () => {
    const game = await bumped();
    t = game.t;
    const hit = await t.say('GM', '!damage 40', ['stand-in']);
    expect(publicFromScript(hit).join('\n')).not.toMatch(/Goblin 1/);
    expect(whispered(hit, 'gm').join('\n')).toMatch(/Goblin 1/);
    await t.say('GM', '!defense-round config players-target-any on');
    const named = whispered(await t.say('Ben', `!damage 5 --ids ${game.standIn}`), 'Ben').join('\n');
    const bogus = whispered(await t.say('Ben', '!damage 5 --ids -NoSuchToken000000000'), 'Ben').join('\n');
    expect(named.replace(game.standIn, 'ID')).toBe(bogus.replace('-NoSuchToken000000000', 'ID'));
    // Bumped back to the objects layer, the creature is public again.
    await t.say('GM', '!bump', ['Goblin 1']);
    const seen = await t.say('GM', '!damage 5', ['Goblin 1']);
    expect(publicFromScript(seen).join('\n')).toMatch(/Goblin 1/);
  });

  it("30.6 Bump's state is read defensively: garbage beside a real pair changes nothing, and the real pair still works", async () => {
    const game = await bumped();
    t = game.t;
    const mirrored = t.mock.state.Bump.mirrored;
    Object.assign(mirrored, { [t.id('Goblin 2')]: 42, '-Nowhere': t.id('Bob'), constructor: t.id('Crate'), [t.id('Crate')]: { id: 'x' } });
    Object.defineProperty(mirrored, '__proto__', { value: t.id('Bob'), enumerable: true });
    // Each token named by garbage is hit as itself.
    for (const name of ['Goblin 2', 'Bob', 'Crate'] as const) {
      const out = await t.say('GM', `!damage 60 --ids ${t.id(name)}`);
      expect(texts(out).join('\n')).toMatch(new RegExp(name));
    }
    expect(t.bar('Goblin 2') as number).toBeLessThan(30);
    expect(t.bar('Crate') as number).toBeLessThan(20);
    await t.say('GM', '!damage 40', ['stand-in']);
    expect(t.mock.globals.getObj('graphic', t.id('Goblin 1'))!.get('bar1_value')).toBeLessThan(30);
    for (const junk of ['junk', null, [t.id('Goblin 1')], { mirrored: 'junk' }]) {
      t.mock.state.Bump = junk;
      const out = await t.say('GM', '!damage 40', ['stand-in']);
      expect(texts(out).join('\n')).toMatch(/Goblin 1/);
    }
  });
});
