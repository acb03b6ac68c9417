// The stand-ins of other scripts and the sandbox's own log lines, checked against what the real
// ones do (ChatSetAttr's README; Roll20's API console) before any fix leans on them.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRoll20, MISSING_FIELD_LOG } from '../mocks/roll20';
import { buildDemoScene } from '../mocks/scene';
import { evaluateIn, loadBundleSource } from '../mocks/vm';
import { CHATSETATTR_STAND_IN } from '../mocks/other-scripts';

const BUNDLE = readFileSync(process.env.DEFENSE_ROUND_BUNDLE ?? 'dist/defense-round.js', 'utf8');

/** Another script after ChatSetAttr that records what its observers hear (attribute name, current, prev current). */
const LISTENER = `
var heard = [];
['add', 'change', 'destroy'].forEach((event) => ChatSetAttr.registerObserver(event, (attr, prev) => {
  heard.push([event, attr.get('name'), attr.get('current'), prev === undefined ? null : prev.current]);
}));
`;

async function withChatSetAttr() {
  const mock = createRoll20({ seed: 3 });
  const scene = buildDemoScene(mock);
  const context = loadBundleSource(mock, [CHATSETATTR_STAND_IN, LISTENER, BUNDLE].join('\n'));
  mock.fireReady();
  await mock.settle();
  const events: string[] = [];
  for (const event of ['change:attribute', 'change:attribute:current', 'add:attribute', 'destroy:attribute', 'change:graphic', 'change:graphic:bar1_value']) {
    mock.globals.on(event, () => void events.push(event));
  }
  return { mock, scene, context, events };
}

describe('the ChatSetAttr stand-in, loaded before the bundle as Roll20 concatenates scripts', () => {
  it('is a bare name, not a property of the global object (its top-level const)', async () => {
    const { context } = await withChatSetAttr();
    expect(evaluateIn(context, 'typeof ChatSetAttr.registerObserver')).toBe('function');
    expect(evaluateIn(context, 'globalThis.ChatSetAttr')).toBeUndefined();
  });

  it('!modattr --sel adds to the attribute through the API: no Roll20 event, the linked bar later, observers told with prev', async () => {
    const { mock, scene, context, events } = await withChatSetAttr();
    await mock.chat(scene.players.GM, '!modattr --sel --vitality|-25 --silent', { selected: [scene.tokens.Bob] });
    // Its own write, as text; what the bundle makes of it afterwards is the bundle's tests' business.
    expect(mock.workerWrites[0]).toEqual({ id: scene.attributes.Bob.vitality, type: 'attribute', props: { current: '45' } });
    expect(events).toEqual([]);
    expect(evaluateIn(context, 'heard')).toEqual([['change', 'vitality', '45', 70]]);
    expect(Number(mock.token('Bob').get('bar1_value'))).toBe(45);
  });

  it('!setattr --charid creates a missing attribute (add, then change from empty), for each character in turn', async () => {
    const { mock, scene, context, events } = await withChatSetAttr();
    await mock.chat(scene.players.GM, `!setattr --charid ${scene.characters.Goblin},${scene.characters.Bob} --luck|3|5`);
    expect(mock.attribute('Goblin', 'luck').get('max')).toBe('5');
    expect(mock.attribute('Bob', 'luck').get('current')).toBe('3');
    expect(events).toEqual([]);
    expect(evaluateIn(context, 'heard')).toEqual([
      ['add', 'luck', '', null], ['change', 'luck', '3', ''],
      ['add', 'luck', '', null], ['change', 'luck', '3', ''],
    ]);
  });

  it('!delattr removes the attribute and tells destroy; a player may not touch a character they do not control', async () => {
    const { mock, scene, context, events } = await withChatSetAttr();
    await mock.chat(scene.players.Ben, '!delattr --sel --armor_physical', { selected: [scene.tokens.Bob] });
    expect(mock.attribute('Bob', 'armor_physical').get('current')).toBe(100);
    await mock.chat(scene.players.Alice, '!delattr --sel --armor_physical', { selected: [scene.tokens.Bob] });
    expect(() => mock.attribute('Bob', 'armor_physical')).toThrow(/no attribute/);
    expect(events).toEqual([]);
    expect(evaluateIn(context, 'heard')).toEqual([['destroy', 'armor_physical', 100, null]]);
  });
});

describe('getAttrByName as Roll20 answers it', () => {
  it('logs the sandbox\'s own line for a name with neither an attribute nor a sheet field, and nothing otherwise', () => {
    const mock = createRoll20();
    const scene = buildDemoScene(mock);
    const g = mock.globals;
    mock.sheetDefault('armor_spirit', 0);
    expect(g.getAttrByName(scene.characters.Goblin, 'fortitude')).toBe(20);
    expect(g.getAttrByName(scene.characters.Goblin, 'armor_spirit')).toBe(0);
    expect(mock.logs).toEqual([]);
    expect(g.getAttrByName(scene.characters.Goblin, 'natural_defense')).toBeUndefined();
    expect(g.getAttrByName(scene.characters.Goblin, 'natural_defense', 'max')).toBeUndefined();
    expect(mock.logs).toEqual([
      `${MISSING_FIELD_LOG} ${scene.characters.Goblin} named natural_defense`,
      `${MISSING_FIELD_LOG} ${scene.characters.Goblin} named natural_defense`,
    ]);
  });
});
