// A game table for command tests: the mock Roll20 with the demo scene and the script loaded,
// either from src/ (unit speed, coverage of the TypeScript) or as the built bundle in node:vm
// (the file a GM pastes). Every helper checks that nothing crashed the sandbox.
import { createRoll20, type ChatRecord, type MockRoll20 } from '../../mocks/roll20';
import { buildDemoScene, type DemoScene } from '../../mocks/scene';
import { loadBundle, loadBundleSource } from '../../mocks/vm';
import { flatText } from '../../mocks/chat-text';
import { startDefenseRound } from '../../src/app';

export type Mode = 'src' | 'bundle';
export const MODES: Mode[] = ['src', 'bundle'];

export type PlayerName = 'GM' | 'Alice' | 'Ben';
export type TokenName = 'Bob' | 'Goblin 1' | 'Goblin 2' | 'Crate';

export interface Table {
  mock: MockRoll20;
  scene: DemoScene;
  mode: Mode;
  /** A player types a chat line with these tokens selected; answers with the messages it caused. */
  say(player: PlayerName, content: string, selected?: readonly string[]): Promise<ChatRecord[]>;
  /** A bar value as Roll20 holds it. */
  bar(token: string, bar?: 'bar1' | 'bar2' | 'bar3'): unknown;
  markers(token: string): string[];
  attr(character: string, name: string, which?: 'current' | 'max'): unknown;
  id(token: TokenName | string): string;
  /** The Turn Tracker moves on one turn (the demo opens on Bob's turn; Bob defends once it passes). */
  passTurn(): Promise<void>;
  /** The script's stored state. */
  stored(): any;
  /**
   * What the script remembers of one token, in one flat view whatever the layout of `state`:
   * its edition state's fields, stance, worn armor (as `wear`) and overrides; undefined when nothing.
   */
  memory(token: TokenName | string): any;
  /** Roll20 restarts the sandbox: state is kept as JSON, the script loads again and gets `ready` (`downMs`: the time it was down). */
  restart(downMs?: number): Promise<void>;
  close(): void;
}

export async function openTable(
  mode: Mode,
  options: { seed?: number; setup?: (mock: MockRoll20, scene: DemoScene) => void; /** Another build of the bundle to load (bundle mode). */ bundleSource?: string } = {},
): Promise<Table> {
  const mock = createRoll20({ seed: options.seed ?? 7 });
  const scene = buildDemoScene(mock);
  options.setup?.(mock, scene);
  const load = () => {
    if (mode === 'src') {
      mock.globals.on('ready', () => {
        startDefenseRound();
      });
    } else if (options.bundleSource !== undefined) {
      loadBundleSource(mock, options.bundleSource);
    } else {
      // DEFENSE_ROUND_BUNDLE: another build to run the bundle tests on (an old one, to see a test fail before a fix).
      loadBundle(mock, process.env.DEFENSE_ROUND_BUNDLE);
    }
  };
  if (mode === 'src') mock.install(globalThis);
  load();
  mock.fireReady();
  await mock.settle();
  mock.assertNoCrash();
  mock.newMessages();
  // A name, or a token's id (a token made in the test, named like another).
  const id = (token: string) => (scene.tokens as Record<string, string>)[token] ?? (mock.globals.getObj('graphic', token) ? token : mock.token(token).id);
  return {
    mock,
    scene,
    mode,
    async say(player, content, selected = []) {
      mock.newMessages();
      await mock.chat(scene.players[player], content, { selected: selected.map(id) });
      mock.assertNoCrash();
      return mock.newMessages();
    },
    bar(token, bar = 'bar1') {
      return mock.token(token).get(`${bar}_value`);
    },
    markers(token) {
      return String(mock.token(token).get('statusmarkers') ?? '')
        .split(',')
        .filter((m) => m !== '');
    },
    attr(character, name, which = 'current') {
      return mock.attribute(character, name).get(which);
    },
    id,
    async passTurn() {
      mock.nextTurn();
      await mock.settle();
      mock.assertNoCrash();
      mock.newMessages();
    },
    stored() {
      return mock.state.DefenseRound;
    },
    memory(token) {
      const stored = mock.state.DefenseRound;
      const own = stored?.tokens?.[id(token)];
      // A linked token's memory is its character's (schema 4): its record there, beside its own.
      const tokenObj = mock.globals.getObj('graphic', id(token)) as any;
      const character = tokenObj?.get('bar1_link') ? stored?.tokens?.[tokenObj.get('represents')] : undefined;
      return memoryView(character ? { ...own, ...character } : own, stored?.exchange?.waiting?.[id(token)]);
    },
    async restart(downMs = 0) {
      await mock.restart(load, downMs);
      mock.assertNoCrash();
      mock.newMessages();
    },
    close() {
      if (mode === 'src') mock.uninstall();
    },
  };
}

/** Chat content as a person reads it: entities decoded, template braces and tags dropped. */
/** A table setup: a second token of Bob, its Vitality linked to the same sheet attribute (a unique character with two tokens). */
export function bobTwin(name = 'Bob (mirror image)'): (mock: MockRoll20, scene: DemoScene) => void {
  return (mock, scene) => {
    mock.create('graphic', {
      subtype: 'token', pageid: scene.pageId, layer: 'objects', name, represents: scene.characters.Bob,
      controlledby: scene.players.Alice, bar1_link: scene.attributes.Bob.vitality, bar1_value: 70, bar1_max: 70,
      imgsrc: String(mock.token('Bob').get('imgsrc')),
    });
  };
}

export function readable(record: ChatRecord): string {
  return flatText(record.content);
}

export function texts(records: ChatRecord[]): string[] {
  return records.map(readable);
}

/** Messages that were whispered to `to` ('gm' or a display name). */
export function whispered(records: ChatRecord[], to: string): string[] {
  return records.filter((r) => r.whisperTo?.toLowerCase() === to.toLowerCase()).map(readable);
}

/** Messages everyone sees (not whispers), sent by the script. */
export function publicFromScript(records: ChatRecord[]): string[] {
  return records.filter((r) => !r.whisperTo && r.who === 'DefenseRound').map(readable);
}

/**
 * A token record as one flat object: the edition state's fields beside the rest, and the defense
 * it made ahead (kept by the exchange since schema 3) as `pendingDefense`.
 */
export function memoryView(record: any, answer?: any): any {
  if (!record && !answer) return undefined;
  const view: Record<string, unknown> = { ...(record?.edition?.state ?? {}) };
  if (answer !== undefined) view.pendingDefense = answer.answer;
  record ??= {};
  if (record.stance !== undefined) view.stance = record.stance;
  if (record.worn !== undefined) view.wear = record.worn;
  if (record.overrides !== undefined) view.overrides = record.overrides;
  return Object.keys(view).length > 0 ? view : undefined;
}
