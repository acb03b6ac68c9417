// Real Roll20 beside the scripts GMs already run (issue: what real Roll20 does that the mock did
// not). The built bundle is loaded after stand-ins of TokenMod, ScriptCards, SelectManager,
// TurnMarker1, GroupInitiative and HealthColors, concatenated as Roll20 loads a game's scripts,
// in a mock whose script writes fire no events and reach linked bars later.
import { describe, expect, it } from 'vitest';
import { evaluateIn } from '../../mocks/vm';
import {
  GROUPINITIATIVE_STAND_IN,
  HEALTHCOLORS_STAND_IN,
  SCRIPTCARDS_STAND_IN,
  SELECTMANAGER_STAND_IN,
  TOKENMOD_STAND_IN,
  TURNMARKER_STAND_IN,
} from '../../mocks/other-scripts';

import { game, type Game } from '../support/scripts';

describe('TokenMod edits a linked bar through its attribute only', () => {
  it('a PC dropped to -3 is marked and owes its save, and the token is kept in step', async () => {
    const g = await game([TOKENMOD_STAND_IN]);
    const bob = g.mock.token('Bob');
    await g.say('GM', `!token-mod --set bar1_value|-3 --ids ${g.scene.tokens.Bob}`);
    expect(g.mock.attribute('Bob', 'vitality').get('current')).toBe(-3);
    expect(bob.get('bar1_value')).toBe(-3);
    expect(String(bob.get('statusmarkers')).split(',')).toContain('sleepy');
    // Bob's memory is his character's (his Vitality bar is linked).
    expect(g.stored().tokens[g.scene.characters.Bob].edition.state.life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
  });

  it('an unlinked token edited the same way is followed too', async () => {
    const g = await game([TOKENMOD_STAND_IN]);
    await g.say('GM', `!token-mod --set bar1_value|-3 --ids ${g.scene.tokens['Goblin 1']}`);
    expect(String(g.mock.token('Goblin 1').get('statusmarkers'))).toBe('sleepy');
  });
});

describe('commands relayed by other scripts (playerid "API")', () => {
  const card = (line: string) => `!scriptcard {{ --#title|Attack ${line} }}`;

  it('a player who controls nothing damages no NPC through ScriptCards, and the GM is told in one line', async () => {
    const g = await game([SCRIPTCARDS_STAND_IN]);
    const out = await g.say('Ben', card(`--@damage|30 _ids ${g.scene.tokens['Goblin 1']}`));
    expect(g.mock.token('Goblin 1').get('bar1_value')).toBe(30);
    const refusals = out.filter((line) => line.startsWith('->gm: '));
    expect(refusals).toEqual(['->gm: Another script relayed !damage, and a relay names no player it can vouch for: refused, nothing changed. To allow relays: !defense-round config api-commands gm (they act as the GM), or !defense-round config api-commands api-as (--api-as PLAYERID acts as that player; only if no player can make a script relay text).']);
  });

  it('a player changes no setting through ScriptCards', async () => {
    const g = await game([SCRIPTCARDS_STAND_IN]);
    await g.say('Ben', card('--@defense-round|config edition threshold'));
    await g.say('Ben', card('--@defense-round|config players-target-any on'));
    expect(g.stored().settings.edition).toBe('soak');
    expect(g.stored().settings.playersTargetAny).toBe(false);
  });

  it('under api-commands api-as, --api-as PLAYERID acts with that player\'s rights only, and naming a GM counts as no player', async () => {
    const g = await game([SCRIPTCARDS_STAND_IN]);
    const { players, tokens } = g.scene;
    // A relay can carry any player's text: --api-as is honoured only where the GM says so.
    await g.say('GM', '!defense-round config api-commands api-as');
    const asBen = await g.say('Ben', card(`--@damage|30 _ids ${tokens['Goblin 1']} _api-as ${players.Ben}`));
    expect(g.mock.token('Goblin 1').get('bar1_value')).toBe(30);
    expect(asBen.join('\n')).toMatch(/->Ben: You do not control Goblin 1/);
    const asGm = await g.say('Ben', card(`--@damage|30 _ids ${tokens['Goblin 1']} _api-as ${players.GM}`));
    expect(g.mock.token('Goblin 1').get('bar1_value')).toBe(30);
    expect(asGm.join('\n')).toMatch(/->gm: Another script relayed !damage without --api-as naming a player/);
    await g.say('Alice', card(`--@damage|200 _ids ${tokens.Bob} _api-as ${players.Alice}`));
    expect(g.mock.attribute('Bob', 'vitality').get('current')).toBe(40);
  });

  it('with api-commands gm the GM\'s own ScriptCards macro applies damage; the setting shows on the status card', async () => {
    const g = await game([SCRIPTCARDS_STAND_IN]);
    expect((await g.say('GM', '!defense-round')).join('\n')).toMatch(/Relayed commands: refuse \(--api-as or not\)/);
    await g.say('GM', '!defense-round config api-commands gm');
    await g.say('GM', card(`--@damage|30 _ids ${g.scene.tokens['Goblin 1']}`));
    expect(g.mock.token('Goblin 1').get('bar1_value')).toBeLessThan(30);
    expect((await g.say('GM', '!defense-round')).join('\n')).toMatch(/Relayed commands: gm \(act as the GM; --api-as ignored\)/);
  });

  it('typed in chat, --api-as is refused as malformed', async () => {
    const g = await game([]);
    const out = await g.say('Ben', `!damage 5 --api-as ${g.scene.players.GM}`, [g.scene.tokens['Goblin 1']]);
    expect(out.join('\n')).toMatch(/--api-as is read only on a command another script relays/);
    expect(g.mock.token('Goblin 1').get('bar1_value')).toBe(30);
  });

  it('SelectManager giving back the real playerid: the relayed line is that player\'s, with that player\'s rights', async () => {
    const g = await game([SELECTMANAGER_STAND_IN, SCRIPTCARDS_STAND_IN]);
    await g.say('GM', '!smconfig +playerid');
    await g.say('Ben', card(`--@damage|30 _ids ${g.scene.tokens['Goblin 1']}`));
    expect(g.mock.token('Goblin 1').get('bar1_value')).toBe(30);
    await g.say('Alice', card('--@stance|defensive'), [g.scene.tokens.Bob]);
    expect(g.stored().tokens[g.scene.characters.Bob].stance).toBe('defensive');
  });

  it('SelectManager as installed (selection only): the relayed line still names no player and is refused', async () => {
    const g = await game([SELECTMANAGER_STAND_IN, SCRIPTCARDS_STAND_IN]);
    await g.say('Alice', card('--@stance|defensive'), [g.scene.tokens.Bob]);
    expect(g.stored().tokens[g.scene.characters.Bob]?.stance).toBeUndefined();
  });
});

describe('rounds end whoever turns the Turn Tracker', () => {
  /** Goblin 1 defends successfully (a pending defense that lasts until the round ends). */
  async function goblinDefends(g: Game): Promise<void> {
    await g.say('GM', '!defend --action defend --roll 1', [g.scene.tokens['Goblin 1']]);
    expect(g.stored().exchange.waiting[g.scene.tokens['Goblin 1']].answer).toEqual({ result: 'success', action: 'defend', situation: 'front' });
  }

  it('TurnMarker1\'s !eot: once every row has had its turn, the round ends and the pending defense with it', async () => {
    const g = await game([TURNMARKER_STAND_IN]);
    await g.say('GM', '!tm start');
    await goblinDefends(g);
    await g.say('GM', '!eot');
    await g.say('GM', '!eot');
    expect(g.stored().round.number).toBe(1);
    const third = await g.say('GM', '!eot');
    expect(third).toContain('->gm: Round 2 begins: pending defenses and per-round limits are cleared.');
    expect(g.stored().round.number).toBe(2);
    expect(g.stored().exchange.waiting[g.scene.tokens['Goblin 1']]).toBeUndefined();
    expect(g.stored().tokens[g.scene.tokens['Goblin 1']]).toBeUndefined();
  });

  it('TurnMarker1\'s row on top between fights: clicking the tracker by hand ends the round too', async () => {
    const g = await game([TURNMARKER_STAND_IN], (mock, scene) => {
      const marker = mock.create('graphic', { pageid: scene.pageId, layer: 'gmlayer', name: 'Round 0', imgsrc: 'https://s3.amazonaws.com/files.d20.io/images/0/marker/thumb.png' });
      const rows = [marker.id, scene.tokens.Bob, scene.tokens['Goblin 1'], scene.tokens['Goblin 2']];
      mock.globals.Campaign().set('turnorder', JSON.stringify(rows.map((id, i) => ({ id, pr: i === 0 ? -1 : 20 - i, custom: '', _pageid: scene.pageId }))));
    });
    for (let turn = 0; turn < 3; turn += 1) {
      g.mock.nextTurn();
      await g.mock.settle();
    }
    expect(g.stored().round.number).toBe(1);
    g.mock.nextTurn(); // the marker comes to the top; TurnMarker1 counts its round and turns past it
    await g.mock.settle();
    expect(g.stored().round.number).toBe(2);
    expect(g.mock.token('Round 1')).toBeDefined();
  });

  it('TurnMarker1\'s row is known by its image from TurnMarker1\'s own settings in state, on whatever layer and under its own word for a round', async () => {
    const image = 'https://s3.amazonaws.com/files.d20.io/images/4095816/marker/thumb.png';
    const g = await game([], (mock, scene) => {
      mock.state.TurnMarker = { tokenURL: image, tokenName: 'Runde' };
      const marker = mock.create('graphic', { pageid: scene.pageId, layer: 'objects', name: 'Runde 4', imgsrc: image });
      const rows = [scene.tokens.Bob, scene.tokens['Goblin 1'], scene.tokens['Goblin 2'], marker.id];
      mock.globals.Campaign().set('turnorder', JSON.stringify(rows.map((id, i) => ({ id, pr: i === 3 ? -1 : 20 - i, custom: '', _pageid: scene.pageId }))));
    });
    for (let turn = 0; turn < 3; turn += 1) {
      g.mock.nextTurn();
      await g.mock.settle();
    }
    // Bob, the goblins had their turns; the marker's row is on top: no token's turn, and the round has ended.
    expect(g.stored().round.number).toBe(2);
  });

  it('a change another script made is noticed at the start of the next command', async () => {
    const g = await game([]);
    await goblinDefends(g);
    // A script turns the tracker two rows, then one more: no event either time.
    const turn = (rows: number) => {
      const order = g.mock.turnOrder();
      for (let i = 0; i < rows; i += 1) order.push(order.shift()!);
      g.mock.globals.Campaign().set('turnorder', JSON.stringify(order));
    };
    turn(2);
    expect(await g.say('GM', '!defense-round')).not.toContain('->gm: Round 2 begins: pending defenses and per-round limits are cleared.');
    expect(g.stored().round.number).toBe(1);
    turn(1);
    const out = await g.say('GM', '!damage 30', [g.scene.tokens['Goblin 1']]);
    expect(out).toContain('->gm: Round 2 begins: pending defenses and per-round limits are cleared.');
    expect(g.mock.token('Goblin 1').get('bar1_value')).toBeLessThan(30);
  });

  it('GroupInitiative\'s new order is seen through its observers: the round ends after each row had its turn, not before', async () => {
    const g = await game([GROUPINITIATIVE_STAND_IN], (mock) => {
      mock.globals.Campaign().set('turnorder', '');
    });
    const { tokens } = g.scene;
    await g.say('GM', '!group-init', [tokens.Bob, tokens['Goblin 1'], tokens['Goblin 2']]);
    expect(g.mock.turnOrder()).toHaveLength(3);
    expect(g.stored().round.seen).toHaveLength(3);
    for (let turn = 0; turn < 2; turn += 1) {
      g.mock.nextTurn();
      await g.mock.settle();
    }
    expect(g.stored().round.number).toBe(1);
    g.mock.nextTurn();
    await g.mock.settle();
    expect(g.stored().round.number).toBe(2);
  });
});

describe('armor from a sheet formula or a sheet default', () => {
  it('a formula is worked out as Roll20 would: Soak "@{armor_base}+10" with armor_base 10 soaks as 20', async () => {
    const g = await game([], (mock, scene) => {
      mock.create('attribute', { characterid: scene.characters.Bob, name: 'armor_base', current: 10 });
      mock.attribute('Bob', 'armor_soak').set('current', '@{armor_base}+10');
    });
    await g.say('GM', '!damage 200', [g.scene.tokens.Bob]);
    expect(g.mock.attribute('Bob', 'vitality').get('current')).toBe(40);
    expect(g.mock.attribute('Bob', 'armor_soak').get('current')).toBe('@{armor_base}+10');
  });

  it('a value that is neither a number nor a formula Roll20 could work out refuses the token by name, changing nothing', async () => {
    const g = await game([], (mock) => {
      mock.attribute('Bob', 'armor_defense').set('current', '@{shield_bonus}*2');
    });
    const out = await g.say('GM', '!damage 200', [g.scene.tokens.Bob]);
    expect(g.mock.attribute('Bob', 'vitality').get('current')).toBe(70);
    expect(g.mock.attribute('Bob', 'armor_physical').get('current')).toBe(100);
    expect(out.join('\n')).toMatch(/Bob: "armor_defense" refers to "shield_bonus", which the character does not have; put a number there, or !defense-round set armor_defense N; nothing changed/);
  });

  it('an attribute never edited on the sheet reads as the sheet\'s default', async () => {
    const g = await game([], (mock) => {
      mock.attribute('Goblin', 'armor_soak').remove();
      mock.sheetDefault('armor_soak', 10);
    });
    await g.say('GM', '!damage 40', [g.scene.tokens['Goblin 1']]);
    // 40 x 90% = 36 - 20 Physical = 16 - 5 Defense = 11: as with the attribute there.
    expect(g.mock.token('Goblin 1').get('bar1_value')).toBe(19);
  });

  it('a PC\'s protection that is a formula wears per token: the formula on the sheet is never overwritten', async () => {
    const g = await game([], (mock, scene) => {
      mock.create('attribute', { characterid: scene.characters.Bob, name: 'armor_base', current: 10 });
      mock.attribute('Bob', 'armor_physical').set({ current: '@{armor_base}*10', max: '' });
    });
    await g.say('GM', '!damage 200', [g.scene.tokens.Bob]);
    expect(g.mock.attribute('Bob', 'vitality').get('current')).toBe(40);
    expect(g.mock.attribute('Bob', 'armor_physical').get('current')).toBe('@{armor_base}*10');
    expect(g.stored().tokens[g.scene.tokens.Bob].worn).toEqual({ physical: 60 });
    await g.say('GM', '!defense-round repair', [g.scene.tokens.Bob]);
    expect(g.stored().tokens[g.scene.tokens.Bob].worn).toEqual({ physical: 100 });
  });
});

describe('the smaller ones', () => {
  it('the bundle loads and plays whatever another script put on Object.prototype', async () => {
    const g = await game(['Object.prototype.tainted = 1; Array.prototype.extra = function () {};']);
    await g.say('GM', '!damage 200', [g.scene.tokens.Bob]);
    expect(g.mock.attribute('Bob', 'vitality').get('current')).toBe(40);
    expect(g.mock.peek(g.mock.token('Bob'), 'tainted')).toBeUndefined();
    evaluateIn(g.context, 'delete Object.prototype.tainted; delete Array.prototype.extra;');
  });

  it('HealthColors gets the token\'s whole prev: a blocked hit on a hidden-named NPC does not look like a resize', async () => {
    const g = await game([HEALTHCOLORS_STAND_IN], (mock) => {
      mock.token('Goblin 1').set({ showname: false, showplayers_name: false });
    });
    await g.say('GM', '!damage 30 --defense success', [g.scene.tokens['Goblin 1']]);
    expect(evaluateIn(g.context, 'HealthColors.calls')).toBe(1);
    expect(evaluateIn(g.context, 'HealthColors.resized')).toBe(0);
    expect(g.mock.token('Goblin 1').get('showplayers_name')).toBe(false);
  });
});
