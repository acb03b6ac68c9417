import { describe, it, expect } from 'vitest';
import { CLOCK_START, createRoll20, LINKED_BAR_DELAY_MS, type MockObject, type MockRoll20 } from '../mocks/roll20.js';
import { buildDemoScene } from '../mocks/scene.js';
import { BUMP_STAND_IN } from '../mocks/other-scripts.js';
import { evaluateIn, loadBundleSource } from '../mocks/vm.js';

function demo(seed = 1) {
  const mock = createRoll20({ seed });
  const scene = buildDemoScene(mock);
  return { mock, scene, g: mock.globals };
}

/** Records every event fired, in order, with the value of `prop` and prev[prop]. */
function recordEvents(mock: MockRoll20, events: string[], prop?: string) {
  const seen: Array<{ event: string; now?: unknown; prev?: unknown; id?: string }> = [];
  for (const event of events) {
    mock.globals.on(event, (obj: Roll20Object<any>, prev?: Record<string, unknown>) => {
      seen.push(prop ? { event, id: obj?.id, now: obj.get(prop as never), prev: prev?.[prop] } : { event, id: obj?.id });
    });
  }
  return seen;
}

describe('objects', () => {
  it('reads properties with or without the leading underscore', () => {
    const { mock, scene } = demo();
    const token = mock.token('Goblin 1');
    expect(token.get('represents')).toBe(scene.characters.Goblin);
    expect(token.get('_represents' as never)).toBe(scene.characters.Goblin);
    expect(token.get('id' as never)).toBe(token.id);
    expect(token.get('_type')).toBe('graphic');
    expect(token.get('_subtype')).toBe('token');
    expect(mock.attribute('Bob', 'vitality').get('characterid' as never)).toBe(scene.characters.Bob);
  });

  it('has Roll20 defaults and ids shaped like Roll20 ids, reproducible from the seed', () => {
    const { mock, g } = demo(4);
    const token = g.createObj('graphic', { name: 'Spare' })!;
    expect(token.get('bar1_value')).toBe('');
    expect(token.get('bar1_link')).toBe('');
    expect(token.get('statusmarkers')).toBe('');
    expect(token.get('layer')).toBe('objects');
    expect(token.id).toMatch(/^-N[-\w]{18}$/);
    expect(g.Campaign().get('turnorder')).not.toBe('');
    expect(createRoll20().globals.Campaign().get('turnorder')).toBe('');
    const again = demo(4);
    expect(again.g.createObj('graphic', { name: 'Spare' })!.id).toBe(token.id);
    expect(demo(5).g.createObj('graphic', { name: 'Spare' })!.id).not.toBe(token.id);
    expect(mock.attribute('Goblin', 'armor_soak').get('max')).toBe('');
  });

  it('lists Roll20\'s default token markers in the campaign, and the GM\'s custom sets beside them as Name::id', () => {
    const fresh = JSON.parse(String(createRoll20().globals.Campaign().get('token_markers'))) as Array<{ id: number; name: string; tag: string; url: string }>;
    // A default marker's tag is its name, without an id; the colour dots and dead are Roll20's own, not listed.
    expect(fresh.find((marker) => marker.name === 'skull')).toMatchObject({ tag: 'skull', url: expect.any(String) });
    expect(fresh.every((marker) => marker.tag === marker.name && !marker.tag.includes('::'))).toBe(true);
    expect(fresh.map((marker) => marker.tag)).not.toContain('dead');
    const { mock, g } = demo();
    const listed = JSON.parse(String(g.Campaign().get('token_markers'))) as typeof fresh;
    expect(listed.slice(0, fresh.length)).toEqual(fresh);
    expect(listed.slice(fresh.length).map(({ id, name, tag }) => ({ id, name, tag }))).toEqual([
      { id: 4567, name: 'Unconscious', tag: 'Unconscious::4567' },
      { id: 4568, name: 'Poisoned', tag: 'Poisoned::4568' },
      { id: 4569, name: 'Bleeding', tag: 'Bleeding::4569' },
      { id: 5120, name: 'Bleeding', tag: 'Bleeding::5120' },
    ]);
    expect(new Set(listed.map((marker) => marker.id)).size).toBe(listed.length);
    expect(() => mock.addTokenMarkers([{ name: 'Again', id: 4567 }])).toThrow(/taken/);
    // A token holds the tag (a custom one with its id), never the name the menu shows.
    const token = mock.token('Bob');
    token.set('statusmarkers', 'Unconscious::4567,skull');
    expect(token.get('statusmarkers')).toBe('Unconscious::4567,skull');
  });

  it('stores values exactly as given', () => {
    const { mock } = demo();
    const token = mock.token('Crate');
    for (const value of [12, '12', '', 'lots', -0]) {
      token.set('bar1_value', value);
      expect(token.get('bar1_value')).toBe(value);
    }
    token.set({ bar1_value: 3, bar1_max: '9' });
    expect([token.get('bar1_value'), token.get('bar1_max')]).toEqual([3, '9']);
  });

  it('removes objects, and a character takes its attributes with it', () => {
    const { mock, g, scene } = demo();
    mock.token('Crate').remove();
    expect(g.getObj('graphic', scene.tokens.Crate)).toBeUndefined();
    mock.character('Goblin').remove();
    expect(g.findObjs({ _type: 'attribute', _characterid: scene.characters.Goblin })).toEqual([]);
  });
});

describe('events', () => {
  it('fires nothing for API set() or setWithWorker(), but records the worker write', () => {
    const { mock } = demo();
    const seen = recordEvents(mock, ['change:graphic', 'change:graphic:bar1_value', 'change:attribute', 'change:attribute:current']);
    mock.token('Goblin 1').set('bar1_value', 5);
    mock.token('Bob').set({ bar1_value: 50 });
    mock.attribute('Bob', 'soul').setWithWorker({ current: 3 });
    expect(seen).toEqual([]);
    expect(mock.workerWrites).toEqual([{ id: mock.attribute('Bob', 'soul').id, type: 'attribute', props: { current: 3 } }]);
  });

  it('fires change:graphic:bar1_value then change:graphic, with prev, for a user edit', () => {
    const { mock } = demo();
    const seen = recordEvents(mock, ['change:graphic', 'change:graphic:bar1_value', 'change:graphic:bar2_value'], 'bar1_value');
    let prevCopy: Record<string, unknown> = {};
    mock.globals.on('change:graphic', (_obj: Roll20Graphic, prev: Record<string, unknown>) => void (prevCopy = prev));
    const goblin = mock.token('Goblin 1');
    mock.userEdit(goblin, { bar1_value: 22 });
    expect(seen).toEqual([
      { event: 'change:graphic:bar1_value', id: goblin.id, now: 22, prev: 30 },
      { event: 'change:graphic', id: goblin.id, now: 22, prev: 30 },
    ]);
    expect(prevCopy).toMatchObject({ _id: goblin.id, _type: 'graphic', _subtype: 'token', bar1_value: 30, name: 'Goblin 1' });
    prevCopy.bar1_value = 'tampered';
    expect(goblin.get('bar1_value')).toBe(22);
  });

  it('fires nothing when a user edit changes nothing', () => {
    const { mock } = demo();
    const seen = recordEvents(mock, ['change:graphic']);
    mock.userEdit(mock.token('Goblin 1'), { bar1_value: 30 });
    expect(seen).toEqual([]);
  });

  it('fires add and destroy for user creations and deletions only', () => {
    const { mock, g } = demo();
    const seen = recordEvents(mock, ['add:graphic', 'destroy:graphic', 'add:attribute', 'destroy:attribute']);
    g.createObj('graphic', { name: 'API made' })!.remove();
    expect(seen).toEqual([]);
    const made = mock.userCreate('graphic', { name: 'Dropped' });
    mock.userRemove(made);
    const attr = mock.userCreate('attribute', { characterid: mock.character('Goblin').id, name: 'luck' });
    expect(seen).toEqual([
      { event: 'add:graphic', id: made.id },
      { event: 'destroy:graphic', id: made.id },
      { event: 'add:attribute', id: attr.id },
    ]);
  });

  it('drops a character from the journal as a token made from its default token: linked bars, on the page it is dropped on, with add:graphic', () => {
    const { mock, scene } = demo();
    const seen = recordEvents(mock, ['add:graphic']);
    const page = mock.addPage('Next map');
    mock.attribute('Bob', 'vitality').set('current', -15);
    const dropped = mock.dropCharacter('Bob', page.id);
    expect(seen).toEqual([{ event: 'add:graphic', id: dropped.id }]);
    expect(dropped.id).not.toBe(scene.tokens.Bob);
    expect(dropped.get('_pageid')).toBe(page.id);
    expect(dropped.get('represents')).toBe(scene.characters.Bob);
    expect(dropped.get('name')).toBe('Bob');
    expect(dropped.get('controlledby')).toBe(scene.players.Alice);
    expect(dropped.get('bar1_link')).toBe(scene.attributes.Bob.vitality);
    expect(dropped.get('bar2_link')).toBe(scene.attributes.Bob.soul);
    // A linked bar shows its attribute; the default token brings no markers.
    expect(dropped.get('bar1_value')).toBe(-15);
    expect(dropped.get('bar1_max')).toBe(70);
    expect(dropped.get('statusmarkers')).toBe('');
    // A character with no default token saved: a token that represents it, no bar linked.
    const goblin = mock.dropCharacter('Goblin', page.id, { name: 'Goblin 3' });
    expect(goblin.get('represents')).toBe(scene.characters.Goblin);
    expect(goblin.get('bar1_link')).toBe('');
    expect(goblin.get('name')).toBe('Goblin 3');
  });

  it('fires change:attribute:name for a user rename', () => {
    const { mock } = demo();
    const seen = recordEvents(mock, ['change:attribute:name'], 'name');
    mock.userEdit(mock.attribute('Goblin', 'fortitude'), { name: 'Fortitude' });
    expect(seen).toEqual([{ event: 'change:attribute:name', id: expect.any(String), now: 'Fortitude', prev: 'fortitude' }]);
  });

  it('warns about an event name Roll20 never fires', () => {
    const { mock, g } = demo();
    g.on('change:graphics', () => undefined);
    expect(mock.warnings.join('\n')).toMatch(/change:graphics/);
  });
});

describe('linked bars', () => {
  it('writes the attribute when the API writes the token; a script\'s attribute write reaches the linked bars later, firing nothing', () => {
    const { mock, g, scene } = demo();
    const bob = mock.token('Bob');
    const twin = g.createObj('graphic', { name: 'Bob twin', represents: scene.characters.Bob, bar1_link: scene.attributes.Bob.vitality! })!;
    expect(twin.get('bar1_value')).toBe(70);
    const seen = recordEvents(mock, ['change:graphic:bar1_value', 'change:graphic', 'change:attribute:current'], 'current');
    bob.set('bar1_value', 55);
    expect(mock.attribute('Bob', 'vitality').get('current')).toBe(55);
    // Roll20 copies the sheet to the other linked tokens later, not in the same tick.
    expect(twin.get('bar1_value')).toBe(70);
    mock.advance(LINKED_BAR_DELAY_MS);
    expect(twin.get('bar1_value')).toBe(55);
    mock.attribute('Bob', 'vitality').set({ current: 40, max: 80 });
    expect([bob.get('bar1_value'), bob.get('bar1_max')]).toEqual([55, 70]);
    expect(g.getAttrByName(scene.characters.Bob, 'Vitality')).toBe(40);
    expect(g.getAttrByName(scene.characters.Bob, 'vitality', 'max')).toBe(80);
    mock.advance(LINKED_BAR_DELAY_MS - 1);
    expect(bob.get('bar1_value')).toBe(55);
    mock.advance(1);
    expect([bob.get('bar1_value'), bob.get('bar1_max')]).toEqual([40, 80]);
    expect(twin.get('bar1_max')).toBe(80);
    expect(seen).toEqual([]);
  });

  it('leaves unlinked tokens of the same character alone', () => {
    const { mock } = demo();
    mock.token('Goblin 1').set('bar1_value', 1);
    expect(mock.token('Goblin 2').get('bar1_value')).toBe(30);
  });

  it('a user edit of a linked bar writes the attribute and fires its events too', () => {
    const { mock } = demo();
    const seen = recordEvents(mock, ['change:graphic:bar1_value', 'change:graphic', 'change:attribute:current', 'change:attribute'], 'current');
    mock.userEdit(mock.token('Bob'), { bar1_value: 61 });
    expect(mock.attribute('Bob', 'vitality').get('current')).toBe(61);
    expect(seen.map((e) => e.event)).toEqual(['change:graphic:bar1_value', 'change:graphic', 'change:attribute:current', 'change:attribute']);
    expect(seen[2]).toMatchObject({ now: 61, prev: 70 });
  });

  it('a user edit of the attribute writes the token bar and fires the token events too', () => {
    const { mock } = demo();
    const seen = recordEvents(mock, ['change:attribute:current', 'change:graphic:bar1_value'], 'bar1_value');
    mock.userEdit(mock.attribute('Bob', 'vitality'), { current: 12 });
    expect(mock.token('Bob').get('bar1_value')).toBe(12);
    expect(seen.map((e) => e.event)).toEqual(['change:attribute:current', 'change:graphic:bar1_value']);
    expect(seen[1]).toMatchObject({ now: 12, prev: 70 });
  });
});

describe('finding objects', () => {
  it('matches with or without underscores, case-insensitively on request, and counts its cost', () => {
    const { mock, g, scene } = demo();
    mock.resetStats();
    expect(g.findObjs({ type: 'graphic', represents: scene.characters.Goblin })).toHaveLength(2);
    expect(g.findObjs({ _type: 'graphic', _represents: scene.characters.Goblin })).toHaveLength(2);
    expect(g.findObjs({ _type: 'character', name: 'bob' })).toHaveLength(0);
    expect(g.findObjs({ _type: 'character', name: 'bob' }, { caseInsensitive: true })).toHaveLength(1);
    const graphics = g.findObjs({ _type: 'graphic' }).length;
    const characters = Object.keys(scene.characters).length;
    expect(mock.stats.findObjsCalls).toBe(5);
    expect(mock.stats.objectsScanned).toBe(graphics * 3 + characters * 2);
    const all = g.getAllObjs().length;
    g.filterObjs((o) => o.get('_type') === 'player');
    expect(mock.stats).toMatchObject({ getAllObjsCalls: 1, filterObjsCalls: 1, objectsScanned: graphics * 3 + characters * 2 + all * 2 });
    mock.resetStats();
    expect(mock.stats.objectsScanned).toBe(0);
  });

  it('getObj checks the type, getAttrByName answers undefined for a missing attribute', () => {
    const { g, scene } = demo();
    expect(g.getObj('graphic', scene.tokens.Bob)?.get('name')).toBe('Bob');
    expect(g.getObj('character', scene.tokens.Bob)).toBeUndefined();
    expect(g.getAttrByName(scene.characters.Goblin, 'vitality')).toBeUndefined();
  });

  it('knows the GM, and looks things up by name for tests', () => {
    const { mock, g, scene } = demo();
    expect(g.playerIsGM(scene.players.GM)).toBe(true);
    expect(g.playerIsGM(scene.players.Alice)).toBe(false);
    expect(mock.player('alice').id).toBe(scene.players.Alice);
    expect(() => mock.token('Nobody')).toThrow(/no token named "Nobody"/);
    expect(mock.attribute('Bob', 'Soul').get('max')).toBe(40);
  });
});

describe('chat', () => {
  it('answers a sendChat callback asynchronously, with inline roll totals, and posts nothing', async () => {
    const { mock, g } = demo();
    mock.dice.force(4, 6);
    let answered: Roll20ChatMessage[] | undefined;
    const done = new Promise<void>((resolve) =>
      g.sendChat('Tester', 'Hit for [[2d6+3]] and [[7]]', (ops) => {
        answered = ops;
        resolve();
      }),
    );
    expect(answered).toBeUndefined();
    await done;
    const msg = answered![0]!;
    expect(msg).toMatchObject({ type: 'general', who: 'Tester', playerid: 'API', content: 'Hit for $[[0]] and $[[1]]' });
    expect(msg.inlinerolls!.map((r) => [r.expression, r.results.total])).toEqual([['2d6+3', 13], ['7', 7]]);
    expect(mock.chatLog).toEqual([]);
  });

  it('gives /roll a rollresult and /w a whisper through the callback', async () => {
    const { mock, g } = demo();
    mock.dice.force(12);
    const got: Roll20ChatMessage[] = [];
    g.sendChat('player|' + mock.player('Ben').id, '/roll 1d20', (ops) => got.push(...ops));
    g.sendChat('', '/w gm secret', (ops) => got.push(...ops));
    await mock.settle();
    expect(got[0]).toMatchObject({ type: 'rollresult', who: 'Ben', origRoll: '1d20' });
    expect(JSON.parse(got[0]!.content).total).toBe(12);
    expect(got[1]).toMatchObject({ type: 'whisper', content: 'secret' });
  });

  it('records whispers with their target and delivers every posted message to chat:message', async () => {
    const { mock, g } = demo();
    const delivered: Roll20ChatMessage[] = [];
    g.on('chat:message', (msg: Roll20ChatMessage) => delivered.push(msg));
    g.sendChat('DefenseRound', '/w "Alice" You are hit');
    g.sendChat('DefenseRound', '/w Ben psst');
    g.sendChat('DefenseRound', '/w gm GM eyes only');
    g.sendChat('DefenseRound', '&{template:default} {{name=Bob}} {{Vitality=[[1d1]]}}');
    g.sendChat('DefenseRound', '/em ducks');
    g.sendChat('DefenseRound', '/direct <b>bold</b>');
    expect(delivered).toEqual([]);
    await mock.settle();
    expect(delivered).toHaveLength(6);
    expect(mock.whispersTo('Alice').map((m) => m.content)).toEqual(['You are hit']);
    expect(mock.whispersTo('ben').map((m) => m.content)).toEqual(['psst']);
    expect(mock.whispersTo('gm')[0]).toMatchObject({ type: 'whisper', whisperTo: 'gm', raw: '/w gm GM eyes only' });
    expect(mock.publicMessages().map((m) => [m.type, m.rolltemplate, m.content])).toEqual([
      ['general', 'default', ' {{name=Bob}} {{Vitality=$[[0]]}}'],
      ['emote', undefined, 'ducks'],
      ['general', undefined, '<b>bold</b>'],
    ]);
    expect(mock.warnings).toEqual([]);
    g.sendChat('X', '/w "Nobody Here" hi');
    expect(mock.warnings.join()).toMatch(/Nobody Here/);
  });

  it('brings a ! message back to the scripts as an api message', async () => {
    const { mock, g } = demo();
    const delivered: Roll20ChatMessage[] = [];
    g.on('chat:message', (msg: Roll20ChatMessage) => delivered.push(msg));
    g.sendChat('OtherScript', '!damage [[5]] --ids X');
    await mock.settle();
    expect(delivered).toEqual([expect.objectContaining({ type: 'api', playerid: 'API', content: '!damage $[[0]] --ids X' })]);
    expect(delivered[0]!.inlinerolls![0]!.results.total).toBe(5);
  });

  it('builds a player line as Roll20 does, with selection, and waits for what it set off', async () => {
    const { mock, g, scene } = demo();
    const replies: string[] = [];
    g.on('chat:message', (msg: Roll20ChatMessage) => {
      if (msg.type !== 'api') return;
      replies.push(`${msg.who}|${msg.playerid}|${JSON.stringify(msg.selected)}|${msg.inlinerolls?.[0]?.results.total}`);
      g.setTimeout(() => g.sendChat('Bot', 'later'), 50);
      g.sendChat('Bot', 'echo', () => g.sendChat('Bot', 'from callback'));
    });
    mock.dice.force(3);
    await mock.chat(scene.players.GM, '!defend [[1d6]]', { selected: [scene.tokens.Bob] });
    expect(replies).toEqual([`GM (GM)|${scene.players.GM}|[{"_id":"${scene.tokens.Bob}","_type":"graphic"}]|3`]);
    expect(mock.chatLog.map((m) => m.content)).toEqual(['!defend $[[0]]', 'from callback', 'later']);
    await mock.chat(scene.players.Alice, 'hello all');
    expect(mock.chatLog.at(-1)).toMatchObject({ who: 'Alice', type: 'general', playerid: scene.players.Alice });
  });

  it('newMessages reads the log like a cursor', async () => {
    const { mock, g } = demo();
    g.sendChat('A', 'one');
    expect(mock.newMessages().map((m) => m.content)).toEqual(['one']);
    g.sendChat('A', 'two');
    g.sendChat('A', 'three');
    expect(mock.newMessages().map((m) => m.content)).toEqual(['two', 'three']);
    expect(mock.newMessages()).toEqual([]);
  });
});

describe('crashes', () => {
  it('records an exception escaping a handler, and assertNoCrash throws with it', async () => {
    const { mock, g, scene } = demo();
    g.on('chat:message', () => {
      throw new Error('boom in handler');
    });
    await expect(mock.chat(scene.players.GM, '!x')).rejects.toThrow(/boom in handler/);
    expect(mock.crashes).toMatchObject([{ event: 'chat:message', message: 'Error: boom in handler' }]);
    expect(() => mock.assertNoCrash()).toThrow(/sandbox would have crashed.*\n#1 in chat:message: Error: boom in handler/);
    expect(mock.takeCrashes()).toHaveLength(1);
    expect(() => mock.assertNoCrash()).not.toThrow();
  });

  it('records crashes in sendChat callbacks and timers', async () => {
    const { mock, g } = demo();
    g.sendChat('A', 'x', () => {
      throw new Error('in callback');
    });
    g.setTimeout(() => {
      throw new Error('in timer');
    }, 10);
    await expect(mock.settle()).rejects.toThrow(/in callback/);
    expect(mock.crashes.map((c) => c.event)).toEqual(['sendChat callback', 'setTimeout callback']);
  });

  it('throws from userEdit when a change handler crashes', () => {
    const { mock, g } = demo();
    g.on('change:graphic', () => {
      throw new TypeError('bad');
    });
    expect(() => mock.userEdit(mock.token('Crate'), { bar1_value: 2 })).toThrow(/TypeError: bad/);
  });
});

describe('timers', () => {
  it('runs timers in due order on a virtual clock, and cleared ones never', async () => {
    const { mock, g } = demo();
    const order: string[] = [];
    g.setTimeout(() => order.push('short'), 90);
    g.setTimeout((a: string) => order.push(a), 10, 'early');
    const cancelled = g.setTimeout(() => order.push('cancelled'), 5);
    g.clearTimeout(cancelled);
    let ticks = 0;
    const interval = g.setInterval(() => {
      if (++ticks === 3) g.clearInterval(interval);
    }, 30);
    await mock.settle();
    expect(order).toEqual(['early', 'short']);
    expect(ticks).toBe(3);
    expect(mock.now()).toBe(90);
  });

  it('settle() leaves a timer longer than its short work (a time limit) to advance(), which runs it on time; Date reads the clock', async () => {
    const { mock, g } = demo();
    const Clock = (g as unknown as { Date: DateConstructor }).Date;
    const start = Clock.now();
    expect(start).toBe(CLOCK_START);
    const order: string[] = [];
    g.setTimeout(() => order.push(`late at ${Clock.now() - start}`), 60_000);
    await mock.settle();
    expect(order).toEqual([]);
    mock.advance(59_999);
    expect(order).toEqual([]);
    mock.advance(1);
    expect(order).toEqual(['late at 60000']);
    expect(new Clock().getTime()).toBe(start + 60_000);
    expect(new Clock(0).getTime()).toBe(0);
    // Node (Roll20's sandbox) runs a timer longer than 2^31 - 1 ms after 1 ms, and says so.
    g.setTimeout(() => order.push('overflow'), 2 ** 31);
    await mock.settle();
    expect(order.at(-1)).toBe('overflow');
    expect(mock.warnings.some((w) => /longer than Node/.test(w))).toBe(true);
  });

  it('a restart drops the timers and moves the clock by the time the sandbox was down', async () => {
    const { mock, g } = demo();
    const order: string[] = [];
    g.setTimeout(() => order.push('lost'), 5_000);
    await mock.restart(() => undefined, 30_000);
    mock.advance(60_000);
    expect(order).toEqual([]);
    expect(mock.now()).toBe(90_000);
  });

  it('settle() terminates with an interval that is never cleared', async () => {
    const { mock, g } = demo();
    let ticks = 0;
    g.setInterval(() => ticks++, 100);
    await mock.settle();
    mock.advance(1000);
    expect(ticks).toBe(10);
  });
});

describe('turn order', () => {
  it('keeps the Turn Tracker as JSON in the campaign, and next turn rotates it with events', () => {
    const { mock, g, scene } = demo();
    const seen = recordEvents(mock, ['change:campaign:turnorder', 'change:campaign'], 'turnorder');
    mock.setTurnOrder([{ id: scene.tokens.Crate, pr: 3 }, { id: scene.tokens.Bob, pr: '20' }]);
    expect(JSON.parse(g.Campaign().get('turnorder'))).toEqual([
      { id: scene.tokens.Crate, pr: 3, custom: '', _pageid: scene.pageId },
      { id: scene.tokens.Bob, pr: '20', custom: '', _pageid: scene.pageId },
    ]);
    mock.nextTurn();
    expect(mock.turnOrder().map((t) => t.id)).toEqual([scene.tokens.Bob, scene.tokens.Crate]);
    expect(seen.map((e) => e.event)).toEqual(['change:campaign:turnorder', 'change:campaign', 'change:campaign:turnorder', 'change:campaign']);
    expect(JSON.parse(String(seen[2]!.prev))[0].id).toBe(scene.tokens.Crate);
    expect(seen[0]!.id).toBe('root');
  });

  it('the demo scene starts with Bob, Goblin 1, Goblin 2 in the tracker', () => {
    const { mock, scene } = demo();
    expect(mock.turnOrder().map((t) => t.id)).toEqual([scene.tokens.Bob, scene.tokens['Goblin 1'], scene.tokens['Goblin 2']]);
  });
});

describe('pages', () => {
  it('puts tokens on the player page unless told another; the split party is an object of player id -> page id, false when none', () => {
    const { mock, scene, g } = demo();
    const campaign = g.Campaign();
    expect(mock.token('Bob').get('_pageid')).toBe(scene.pageId);
    expect(campaign.get('playerpageid')).toBe(scene.pageId);
    expect(campaign.get('playerspecificpages')).toBe(false);
    const lair = mock.create('page', { name: 'Lair' });
    const dragon = mock.create('graphic', { subtype: 'token', pageid: lair.id, layer: 'objects', name: 'Ancient Dragon' });
    expect(dragon.get('pageid')).toBe(lair.id);
    expect(g.findObjs({ _type: 'graphic', _pageid: lair.id }).map((t) => t.id)).toEqual([dragon.id]);
    const seen = recordEvents(mock, ['change:campaign:playerspecificpages']);
    mock.movePlayer(scene.players.Alice, lair.id);
    expect(campaign.get('playerspecificpages')).toEqual({ [scene.players.Alice]: lair.id });
    mock.movePlayer(scene.players.Alice, undefined);
    expect(campaign.get('playerspecificpages')).toBe(false);
    expect(seen.map((e) => e.event)).toEqual(['change:campaign:playerspecificpages', 'change:campaign:playerspecificpages']);
  });
});

describe('Bump stand-in', () => {
  it('keeps { original: stand-in } in state and copies between them only on a user edit, never on a script write', () => {
    const { mock, scene } = demo();
    const context = loadBundleSource(mock, BUMP_STAND_IN);
    mock.fireReady();
    const goblin = mock.token('Goblin 1');
    evaluateIn(context, `Bump.Slave(['${goblin.id}'], true)`);
    const standInId = mock.state.Bump.mirrored[goblin.id];
    const standIn = mock.globals.getObj('graphic', standInId) as unknown as MockObject;
    expect([goblin.get('layer'), standIn.get('layer')]).toEqual(['gmlayer', 'objects']);
    expect([standIn.get('name'), standIn.get('bar1_value'), standIn.get('showplayers_name')]).toEqual(['Goblin 1', 30, false]);
    // A script's write is not copied; a user's move of the stand-in copies its (older) bars onto the original.
    standIn.set('bar1_value', 12);
    expect(goblin.get('bar1_value')).toBe(30);
    goblin.set('bar1_value', 20);
    mock.userEdit(standIn, { left: 500 });
    expect([goblin.get('left'), goblin.get('bar1_value')]).toEqual([500, 12]);
    mock.userEdit(goblin, { top: 10 });
    expect(standIn.get('top')).toBe(10);
    // !bump swaps the layers; deleting the original takes its stand-in.
    mock.userEdit(goblin, {});
    void mock.chat(scene.players.GM, '!bump', { selected: [goblin.id] });
    return mock.settle().then(() => {
      expect([goblin.get('layer'), standIn.get('layer')]).toEqual(['objects', 'gmlayer']);
      mock.userRemove(goblin);
      expect(standIn.removed).toBe(true);
      expect(mock.state.Bump.mirrored).toEqual({});
    });
  });
});

describe('ready and restart', () => {
  it('fires ready once', () => {
    const { mock, g } = demo();
    let readies = 0;
    g.on('ready', () => readies++);
    mock.fireReady();
    expect(readies).toBe(1);
    expect(() => mock.fireReady()).toThrow(/once/);
  });

  it('keeps state and objects across a restart, and drops the old handlers', async () => {
    const { mock, g, scene } = demo();
    let oldCalls = 0;
    const load = () => {
      mock.globals.on('chat:message', () => oldCalls++);
      mock.globals.on('ready', () => {
        mock.state.Demo = mock.state.Demo ?? { count: 0, when: new Date(0) };
        mock.state.Demo.count++;
      });
    };
    load();
    mock.fireReady();
    const before = mock.state;
    mock.token('Goblin 1').set('bar1_value', 4);
    await mock.restart(load);
    expect(mock.state).not.toBe(before);
    expect(mock.state.Demo).toEqual({ count: 2, when: '1970-01-01T00:00:00.000Z' });
    expect(g.state).toBe(mock.state);
    expect(mock.token('Goblin 1').get('bar1_value')).toBe(4);
    await mock.chat(scene.players.GM, '!ping');
    expect(oldCalls).toBe(1);
  });
});

describe('globals', () => {
  it('holds exactly the Roll20 sandbox globals', () => {
    const { g } = demo();
    expect(Object.keys(g).sort()).toEqual(
      ['Campaign', 'Date', 'clearInterval', 'clearTimeout', 'createObj', 'filterObjs', 'findObjs', 'getAllObjs', 'getAttrByName',
        'getObj', 'log', 'on', 'playerIsGM', 'randomInteger', 'sendChat', 'sendPing', 'setInterval', 'setTimeout', 'state'].sort(),
    );
  });

  it('sendPing records who sees the ping: one id, an array or a comma-separated list (Roll20\'s docs); none given: everyone', () => {
    const { mock, g, scene } = demo();
    const { Alice, Ben } = scene.players;
    g.sendPing(10, 20, scene.pageId, null, false, Alice);
    g.sendPing(10, 20, scene.pageId, Alice, true, [Alice, Ben]);
    g.sendPing(10, 20, scene.pageId, undefined, false, `${Alice}, ${Ben}`);
    g.sendPing(10, 20, scene.pageId);
    expect(mock.pings.map((ping) => ping.visibleTo)).toEqual([[Alice], [Alice, Ben], [Alice, Ben], null]);
    expect(mock.pings[1]).toEqual({ left: 10, top: 20, pageId: scene.pageId, playerId: Alice, moveAll: true, visibleTo: [Alice, Ben] });
    expect(mock.warnings).toEqual([]);
    g.sendPing(10, 20, 'nowhere', null, false, 'nobody');
    expect(mock.warnings).toEqual(['sendPing on nowhere: no such page', 'sendPing visibleTo nobody: no such player']);
  });

  it('install() puts them on a target and uninstall() restores what was there', () => {
    const { mock } = demo();
    const target: Record<string, unknown> = { log: 'original log' };
    mock.install(target);
    (target.log as (m: unknown) => void)({ a: 1 });
    expect(mock.logs).toEqual(['{"a":1}']);
    expect(target.state).toBe(mock.state);
    mock.state = { swapped: true };
    expect(target.state).toEqual({ swapped: true });
    mock.uninstall();
    expect(target).toEqual({ log: 'original log' });
  });

  it('randomInteger comes from the seeded dice', () => {
    const { mock, g } = demo();
    mock.dice.force(17);
    expect(g.randomInteger(20)).toBe(17);
    const a = createRoll20({ seed: 8 }).globals;
    const b = createRoll20({ seed: 8 }).globals;
    expect([1, 2, 3].map(() => a.randomInteger(1000))).toEqual([1, 2, 3].map(() => b.randomInteger(1000)));
  });

  it('reads handout notes only through a callback, as Roll20 does', async () => {
    const { mock, g } = demo();
    const handout = g.createObj('handout', { name: 'Help' })!;
    handout.set('notes', '<p>Hi</p>');
    expect(handout.get('notes')).toBe('');
    expect(mock.warnings.join()).toMatch(/asynchronously/);
    const read = await new Promise((resolve) => (handout as any).get('notes', resolve));
    expect(read).toBe('<p>Hi</p>');
    expect(mock.peek(handout, 'notes')).toBe('<p>Hi</p>');
  });
});
