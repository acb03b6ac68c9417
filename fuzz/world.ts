// The fuzzer's table: the demo scene of mocks/ grown with the awkward cases (a hidden NPC, a
// token controlled by everyone, a player token on an NPC sheet, hostile names, a card, a text),
// the built bundle loaded as Roll20 concatenates scripts (a TokenMod stand-in first, sometimes a
// HealthColors one), an onDamage observer that checks what it is told, and a chat listener
// registered after the script that can pull a token away while the script's roll is in flight.
import { createRoll20, type MockObject, type MockRoll20 } from '../mocks/roll20';
import { buildDemoScene, type DemoScene } from '../mocks/scene';
import { evaluateIn, loadBundleSource, type SandboxContext } from '../mocks/vm';
import { HEALTHCOLORS_STAND_IN, TOKENMOD_STAND_IN } from '../mocks/other-scripts';
import { Rng } from './rng';
import { DEFAULT_EDITION, playableEditions } from '../src/rules/editions';

/** Strings that must never reach chat as they are: each one is Roll20 or HTML syntax, or a bidi override. */
export const PAYLOADS = ['<b>X</b>', '[[1d20]]', '{{y}}', '@{z}', '%{w}', '?{q}', '$[[0]]', '\u202E'] as const;

/** Names the fuzzer gives tokens and characters: plain, hostile, empty, duplicate, long. */
export const NAMES = [
  'Orc', 'Wolf', 'Rat', 'Imp <b>X</b>', 'Bat [[1d20]]', 'Elf {{y}}', 'Ork @{z}', 'Ent %{w}', 'Ant\u202Eevil', 'Newt\u2028line',
  'Quiz ?{q}', 'Cash $[[0]]', 'Gob"q', "O'Brien", '', 'Goblin 1', 'x'.repeat(300),
  // Control characters: JSON writes most of them as six characters each (\u0007).
  `\u0001\u0007\u001b${'\u0007'.repeat(190)}`, 'Tab\tName\u0000', '\ud800lone',
] as const;

/** The hidden NPC's name: only the GM ever sees it (it stays on the GM layer and players never select it). */
export const HIDDEN_NAME = 'Shade';

export interface Actor {
  /** How the trail names it. */
  label: string;
  /** The player id ("API" for another script). */
  id: string;
  gm: boolean;
  api: boolean;
  displayname: string;
}

export type InFlightAction = 'api-remove-token' | 'user-remove-token' | 'remove-character' | 'revoke-control' | 'switch-edition';

/** A change made by a chat listener while the script's roll is out (commands.md, "Rolls that come back late"). */
export interface InFlight {
  action: InFlightAction;
  tokenId: string;
  playerId: string;
  /** Set once the listener has acted. */
  done: boolean;
  /**
   * The token's values (and what the script remembers of it) as they stood when the listener acted:
   * what the command wrote before that (a command that rolls nothing may finish first) is not late.
   */
  seen?: Map<string, unknown>;
}

const EXTRA_ATTRIBUTES: Record<string, number> = {
  exp: 200,
  passive_defense: 8,
  active_defense: 4,
  full_defense: 3,
  armor_score: 6,
  natural_spirit: 2,
};

export class World {
  readonly mock: MockRoll20;
  readonly scene: DemoScene;
  readonly rng: Rng;
  readonly actors: Actor[];
  readonly gm: Actor;
  context!: SandboxContext;
  /** Ids of graphics, characters and attributes removed so far (commands still name them). */
  readonly deleted: string[] = [];
  readonly hiddenId: string;
  readonly nonTokens: string[];
  inFlight?: InFlight;
  /** A state written by a "newer version": the script must leave it byte for byte. */
  newerJson?: string;
  /** What the onDamage observer was told that it should not have been. */
  readonly observerProblems: string[] = [];
  readonly withHealthColors: boolean;
  /** Reads one token's values as the checks key them (set by the runner, so this file needs nothing of checks.ts). */
  tokenValues?: (tokenId: string) => Map<string, unknown>;
  /** The whole world as checks see it, taken now (set by the fuzzer). */
  snapshotNow?: () => unknown;
  /** The world just before and just after the GM's edition switch made while a roll was out: what lies between is the GM's. */
  preSwitch?: unknown;
  rebase?: unknown;
  /** Every token, character and player name seen so far, as chat shows it. */
  readonly namesSeen = new Set<string>();
  private readonly source: string;

  constructor(seed: number, bundle: string) {
    this.rng = new Rng(seed ^ 0x2545f491);
    this.mock = createRoll20({ seed });
    this.scene = buildDemoScene(this.mock);
    this.withHealthColors = this.rng.chance(0.3);
    this.source = TOKENMOD_STAND_IN + (this.withHealthColors ? HEALTHCOLORS_STAND_IN : '') + bundle;
    const mock = this.mock;
    const scene = this.scene;
    const player = (label: string, id: string, gm = false): Actor => ({
      label,
      id,
      gm,
      api: false,
      displayname: String(mock.peek(mock.globals.getObj('player', id)!, '_displayname')),
    });
    const eve = mock.addPlayer({ displayname: 'Eve <b>X</b>' });
    const zed = mock.addPlayer({ displayname: 'Zed [[1d20]]' });
    this.gm = player('GM', scene.players.GM, true);
    this.actors = [
      this.gm,
      player('Alice', scene.players.Alice),
      player('Ben', scene.players.Ben),
      player('Eve', eve.id),
      player('Zed', zed.id),
      { label: 'API', id: 'API', gm: true, api: true, displayname: 'API' },
    ];

    for (const name of ['Bob', 'Goblin'] as const) {
      for (const [attr, value] of Object.entries(EXTRA_ATTRIBUTES)) {
        mock.create('attribute', { characterid: scene.characters[name], name: attr, current: value, max: '' });
      }
    }
    // Ben's second PC (the scene's Cleo is his first), controlled through its sheet only; unlinked bars.
    const dara = mock.create('character', { name: 'Dara', controlledby: scene.players.Ben });
    for (const [attr, value] of Object.entries({ ...EXTRA_ATTRIBUTES, armor_soak: 15, armor_physical: 50, armor_magical: 30, armor_defense: 10, defend_check: 60, evade_check: 50, reaction_check: 40, perception_check: 45, mental_check: 35, save_check: 55, fortitude: 40 })) {
      mock.create('attribute', { characterid: dara.id, name: attr, current: value, max: attr.startsWith('armor_') ? value : '' });
    }
    const page = scene.pageId;
    const token = (props: Record<string, unknown>) =>
      mock.create('graphic', { subtype: 'token', pageid: page, layer: 'objects', showname: true, top: 140, ...props });
    token({ name: 'Dara', represents: dara.id, bar1_value: 45, bar1_max: 45, bar2_value: 12, bar2_max: 12, bar3_value: 9, bar3_max: 9, left: 500 });
    // Alice's token on the NPC sheet: she controls the token, not the sheet.
    token({ name: 'Drone', represents: scene.characters.Goblin, controlledby: scene.players.Alice, bar1_value: 25, bar1_max: 25, bar2_value: 5, bar3_value: 5, left: 600 });
    // Everyone's token, with a hostile name, representing nothing.
    token({ name: 'Imp <b>X</b> [[1d20]] {{y}} @{z} %{w}\u202E', controlledby: 'all', bar1_value: 15, bar1_max: 15, left: 700 });
    // Eve's own token.
    token({ name: 'Eve pet', controlledby: eve.id, bar1_value: 12, bar1_max: 20, bar2_value: 3, bar3_value: '', left: 800 });
    // The hidden NPC: on the GM layer for good.
    this.hiddenId = token({ name: HIDDEN_NAME, represents: scene.characters.Goblin, layer: 'gmlayer', bar1_value: 33, bar1_max: 33, left: 900 }).id;
    // The campaign's own token markers, as Roll20 lists them: one tag with Roll20's "name::id" shape, one hostile.
    mock.globals.Campaign().set('token_markers', JSON.stringify([
      { id: 1, name: 'Poisoned', tag: 'Poisoned::1234', url: 'https://example.invalid/p.png' },
      { id: 2, name: 'Evil', tag: 'Evil<b>X</b>{{y}}', url: 'https://example.invalid/e.png' },
    ]));
    const card = mock.create('graphic', { subtype: 'card', pageid: page, layer: 'objects', name: 'Ace', left: 1000, top: 140 });
    const text = mock.create('text', { pageid: page, text: 'a label', layer: 'objects' });
    this.nonTokens = [card.id, text.id, scene.characters.Bob, page];
    this.load();
    mock.fireReady();
  }

  /** Loads the bundle into a fresh sandbox, as Roll20 does at every start; also what a restart runs. */
  readonly load = (): void => {
    const context = loadBundleSource(this.mock, this.source, 'defense-round.js');
    this.context = context;
    const problems = this.observerProblems;
    context.__fuzzObserve = (token: Roll20Graphic, before: any, after: any) => {
      for (const [label, resources] of [['before', before], ['after', after]] as const) {
        for (const key of ['vitality', 'soul', 'power']) {
          const value = resources?.[key];
          if (value !== null && !Number.isSafeInteger(value)) problems.push(`onDamage ${label}.${key} was ${String(value)} for ${String(token?.get?.('name'))}`);
        }
        if (typeof resources?.statusmarkers !== 'string') problems.push(`onDamage ${label}.statusmarkers was not a string`);
      }
    };
    evaluateIn(context, 'DefenseRound.onDamage(globalThis.__fuzzObserve)');
    // The script registers its chat handler on `ready`; this listener is registered after it (on the same
    // `ready`, later in line), so it runs right after the script's handler, while the script's roll is out.
    this.mock.globals.on('ready', () => this.mock.globals.on('chat:message', (msg: Roll20ChatMessage) => this.duringRoll(msg)));
  };

  private duringRoll(msg: Roll20ChatMessage): void {
    const flight = this.inFlight;
    if (!flight || flight.done || msg.type !== 'api' || msg.playerid !== flight.playerId) return;
    const token = this.mock.globals.getObj('graphic', flight.tokenId) as MockObject | undefined;
    if (!token) return;
    flight.done = true;
    flight.seen = this.tokenValues?.(token.id);
    switch (flight.action) {
      case 'api-remove-token':
        this.forget(token.id);
        token.remove();
        return;
      case 'user-remove-token':
        this.forget(token.id);
        this.mock.userRemove(token);
        return;
      case 'remove-character': {
        const character = this.mock.globals.getObj('character', String(token.props._represents ?? token.props.represents ?? ''));
        if (character) {
          this.forget(character.id);
          this.mock.userRemove(character);
        }
        return;
      }
      case 'switch-edition': {
        // The GM switches editions while the roll is out: the command must apply nothing when it returns.
        const now = this.edition();
        const next = playableEditions().filter((id) => id !== now);
        this.preSwitch = this.snapshotNow?.();
        this.mock.deliverNow(this.gm.id, `!defense-round config edition ${next[this.deleted.length % next.length]}`);
        // What the switch itself did is the GM's: the step's changes are counted from here, and nothing may change the token after.
        flight.seen = this.tokenValues?.(token.id);
        this.rebase = this.snapshotNow?.();
        return;
      }
      case 'revoke-control': {
        token.set('controlledby', '');
        const character = this.mock.globals.getObj('character', String(token.props.represents ?? ''));
        character?.set('controlledby', '');
        return;
      }
    }
  }

  /** Remembers a removed object's id, so commands can still name it. */
  forget(id: string): void {
    this.deleted.push(id);
    if (this.deleted.length > 40) this.deleted.shift();
  }

  graphics(): MockObject[] {
    return this.mock.globals.findObjs({ _type: 'graphic' }) as unknown as MockObject[];
  }

  tokens(): MockObject[] {
    return this.graphics().filter((g) => g.props._subtype === 'token');
  }

  characters(): MockObject[] {
    return this.mock.globals.findObjs({ _type: 'character' }) as unknown as MockObject[];
  }

  attributes(): MockObject[] {
    return this.mock.globals.findObjs({ _type: 'attribute' }) as unknown as MockObject[];
  }

  character(token: MockObject): MockObject | undefined {
    const id = String(token.props._represents ?? token.props.represents ?? '');
    return id ? (this.mock.globals.getObj('character', id) as unknown as MockObject | undefined) : undefined;
  }

  /** The script's own state, or undefined while a newer version's is left in place. */
  stored(): any {
    const stored = this.mock.state.DefenseRound;
    return this.newerJson === undefined && stored && typeof stored === 'object' ? stored : undefined;
  }

  edition(): string {
    const edition = this.stored()?.settings?.edition;
    return typeof edition === 'string' ? edition : DEFAULT_EDITION;
  }

  settings(): any {
    return this.stored()?.settings;
  }
}

/** Whether a controlledby list names the player, or everyone. */
export function lists(controlledBy: unknown, playerId: string): boolean {
  return String(controlledBy ?? '')
    .split(',')
    .some((entry) => {
      const trimmed = entry.trim();
      return trimmed === playerId || trimmed === 'all';
    });
}

/** commands.md: a player controls a token when the token, or the character it represents, lists them or `all`. */
export function controls(world: World, actor: Actor, token: MockObject): boolean {
  if (actor.gm) return true;
  // A relayed command that names no player is nobody's: it controls nothing ("all" included).
  if (actor.id === 'API') return false;
  return lists(token.props.controlledby, actor.id) || lists(world.character(token)?.props.controlledby, actor.id);
}

/** commands.md, "Output": an NPC is a token no player controls (`all` counts as players). */
export function isNpc(world: World, token: MockObject): boolean {
  const listed = (value: unknown) => String(value ?? '').split(',').some((entry) => entry.trim() !== '');
  return !listed(token.props.controlledby) && !listed(world.character(token)?.props.controlledby);
}
