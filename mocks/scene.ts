// The demo table used by the local sandbox and by command tests: a PC (Bob, linked bars), two
// unlinked goblins sharing one sheet, a crate that represents no character, and Ben's PC (Cleo,
// lightly armored: the docs' default attack gets through her armor in every edition). Cleo is made
// last, so every other object keeps the id it always had.
import type { MockObject, MockRoll20 } from './roll20.js';
import { createIdSource } from './random.js';

type Values = Record<string, readonly [current: number | string, max?: number | string]>;

const BOB_ATTRIBUTES = {
  vitality: [70, 70],
  soul: [40, 40],
  power: [30, 30],
  armor_soak: [20],
  armor_physical: [100, 100],
  armor_magical: [40, 40],
  armor_defense: [30],
  armor_spirit: [10],
  natural_defense: [0],
  fortitude: [60],
  defend_check: [55],
  evade_check: [45],
  reaction_check: [50],
  perception_check: [50],
  mental_check: [40],
  save_check: [50],
} as const satisfies Values;

const GOBLIN_ATTRIBUTES = {
  armor_soak: [10],
  armor_physical: [20, 20],
  armor_magical: [0, 0],
  armor_defense: [5],
  fortitude: [20],
  defend_check: [40],
  evade_check: [35],
  reaction_check: [30],
  perception_check: [35],
  mental_check: [20],
  save_check: [45],
} as const satisfies Values;

// Ben's PC in a leather jerkin: Physical 1 and Defense 1 stand in soak (a default 1d8+2 hit still
// takes 1 or more), and on threshold's d20 scale a hit chance above 1 hits; an opposed armor score
// and passive defense too, so an attack in any edition can be tried on her.
const CLEO_ATTRIBUTES = {
  vitality: [50, 50],
  soul: [30, 30],
  power: [30, 30],
  armor_soak: [0],
  armor_physical: [1, 1],
  armor_magical: [0, 0],
  armor_defense: [1],
  armor_spirit: [0],
  natural_defense: [0],
  fortitude: [40],
  defend_check: [50],
  evade_check: [60],
  reaction_check: [55],
  perception_check: [55],
  mental_check: [45],
  save_check: [50],
  passive_defense: [8],
  active_defense: [3],
  full_defense: [2],
  armor_score: [3],
} as const satisfies Values;

export interface DemoScene {
  pageId: string;
  players: { GM: string; Alice: string; Ben: string };
  characters: { Bob: string; Goblin: string; Cleo: string };
  tokens: { Bob: string; 'Goblin 1': string; 'Goblin 2': string; Crate: string; Cleo: string };
  /** Attribute ids by character name, then attribute name. */
  attributes: {
    Bob: Record<keyof typeof BOB_ATTRIBUTES, string>;
    Goblin: Record<keyof typeof GOBLIN_ATTRIBUTES, string>;
    Cleo: Record<keyof typeof CLEO_ATTRIBUTES, string>;
  };
}

export function buildDemoScene(mock: MockRoll20): DemoScene {
  const pageId = String(mock.globals.Campaign().get('playerpageid'));
  const gm = mock.addPlayer({ displayname: 'GM', gm: true });
  const alice = mock.addPlayer({ displayname: 'Alice' });
  const ben = mock.addPlayer({ displayname: 'Ben' });

  const bob = mock.create('character', { name: 'Bob', controlledby: alice.id, inplayerjournals: alice.id });
  const bobAttributes = createAttributes(mock, bob, BOB_ATTRIBUTES);
  const goblin = mock.create('character', { name: 'Goblin' });
  const goblinAttributes = createAttributes(mock, goblin, GOBLIN_ATTRIBUTES);

  const bobToken = createToken(mock, pageId, 'Bob', bob.id, alice.id, 100, {
    bar1_link: bobAttributes.vitality,
    bar2_link: bobAttributes.soul,
    bar3_link: bobAttributes.power,
  });
  // Bob's default token, as the GM saved it from his token: dropping Bob from the journal makes a token like it.
  bob.props._defaulttoken = JSON.stringify(defaultToken(bobToken));
  const unlinkedGoblin = { bar1_value: 30, bar1_max: 30, bar2_value: 10, bar2_max: 10, bar3_value: 10, bar3_max: 10 };
  const goblin1 = createToken(mock, pageId, 'Goblin 1', goblin.id, '', 200, unlinkedGoblin);
  const goblin2 = createToken(mock, pageId, 'Goblin 2', goblin.id, '', 300, unlinkedGoblin);
  const crate = createToken(mock, pageId, 'Crate', '', '', 400, { bar1_value: 20, bar1_max: 20 });

  // Set up as the GM did before the session: an API write, so no change events.
  const turns = [
    { id: bobToken.id, pr: 15 },
    { id: goblin1.id, pr: 12 },
    { id: goblin2.id, pr: 8 },
  ].map((t) => ({ id: t.id, pr: t.pr, custom: '', _pageid: pageId }));
  mock.globals.Campaign().set('turnorder', JSON.stringify(turns));
  // The GM's custom marker sets, beside Roll20's defaults: two sets each have a "Bleeding".
  mock.addTokenMarkers([
    { name: 'Unconscious', id: 4567 },
    { name: 'Poisoned', id: 4568 },
    { name: 'Bleeding', id: 4569 },
    { name: 'Bleeding', id: 5120 },
  ]);

  // Ben's PC, added to the scene later than the rest: her ids come from a source of their own, so
  // every object made after the scene (a test's, a saved state's) keeps the id it always had. She
  // is not in the Turn Tracker, so every fight's turns stay as they were.
  const cleoId = createIdSource(0xc1e0);
  const cleo = mock.create('character', { name: 'Cleo', controlledby: ben.id, inplayerjournals: ben.id }, cleoId());
  const cleoAttributes = createAttributes(mock, cleo, CLEO_ATTRIBUTES, cleoId);
  const cleoToken = createToken(mock, pageId, 'Cleo', cleo.id, ben.id, 100, {
    bar1_link: cleoAttributes.vitality,
    bar2_link: cleoAttributes.soul,
    bar3_link: cleoAttributes.power,
  }, 280, cleoId());
  cleo.props._defaulttoken = JSON.stringify(defaultToken(cleoToken));

  return {
    pageId,
    players: { GM: gm.id, Alice: alice.id, Ben: ben.id },
    characters: { Bob: bob.id, Goblin: goblin.id, Cleo: cleo.id },
    tokens: { Bob: bobToken.id, 'Goblin 1': goblin1.id, 'Goblin 2': goblin2.id, Crate: crate.id, Cleo: cleoToken.id },
    attributes: { Bob: bobAttributes, Goblin: goblinAttributes, Cleo: cleoAttributes },
  };
}

/** A token's properties as Roll20 saves them for a character's default token (no id, page, place or markers). */
function defaultToken(token: MockObject): Record<string, unknown> {
  const saved: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(token.props)) {
    if (!['_id', '_type', '_pageid', 'left', 'top', 'statusmarkers'].includes(key)) saved[key] = value;
  }
  return saved;
}

function createAttributes<K extends string>(mock: MockRoll20, character: MockObject, values: Record<K, Values[string]>, newId?: () => string): Record<K, string> {
  const ids = {} as Record<K, string>;
  for (const name of Object.keys(values) as K[]) {
    const [current, max = ''] = values[name];
    ids[name] = mock.create('attribute', { characterid: character.id, name, current, max }, newId?.()).id;
  }
  return ids;
}

function createToken(
  mock: MockRoll20,
  pageId: string,
  name: string,
  represents: string,
  controlledby: string,
  left: number,
  bars: Record<string, string | number>,
  top = 140,
  id?: string,
): MockObject {
  return mock.create('graphic', {
    subtype: 'token',
    pageid: pageId,
    layer: 'objects',
    name,
    represents,
    controlledby,
    showname: true,
    left,
    top,
    imgsrc: 'https://s3.amazonaws.com/files.d20.io/images/0/token/thumb.png',
    ...bars,
  }, id);
}
