// A game with other scripts: the built bundle loaded after their stand-ins, concatenated as Roll20
// loads a game's scripts, in the mock (script writes fire no events). Chat comes back as lines a
// person reads, each whisper marked with its audience.
import { readFileSync } from 'node:fs';
import { createRoll20, type ChatRecord, type MockRoll20 } from '../../mocks/roll20';
import { buildDemoScene, type DemoScene } from '../../mocks/scene';
import { loadBundleSource, type SandboxContext } from '../../mocks/vm';
import { flatText } from '../../mocks/chat-text';

const BUNDLE = readFileSync(process.env.DEFENSE_ROUND_BUNDLE ?? 'dist/defense-round.js', 'utf8');

export interface Game {
  mock: MockRoll20;
  scene: DemoScene;
  /** The sandbox as last loaded (a restart loads it anew). */
  context: SandboxContext;
  say(player: keyof DemoScene['players'], content: string, selected?: string[]): Promise<string[]>;
  stored(): any;
  markers(token: string): string[];
  /** A linked token's edition state, kept as its character's. */
  memory(token: string): any;
  restart(): Promise<void>;
}

export async function game(scripts: string[], setup?: (mock: MockRoll20, scene: DemoScene) => void): Promise<Game> {
  const mock = createRoll20({ seed: 7 });
  const scene = buildDemoScene(mock);
  setup?.(mock, scene);
  const load = () => loadBundleSource(mock, [...scripts, BUNDLE].join('\n'));
  const played: Game = {
    mock,
    scene,
    context: load(),
    async say(player, content, selected = []) {
      mock.newMessages();
      await mock.chat(scene.players[player], content, { selected });
      mock.assertNoCrash();
      return mock.newMessages().map((record: ChatRecord) => `${record.whisperTo ? `->${record.whisperTo}: ` : ''}${flatText(record.content)}`);
    },
    stored: () => mock.state.DefenseRound,
    // Bob's memory is his character's (his bars are linked): kept under the character's id.
    memory: (name) => mock.state.DefenseRound?.tokens?.[String(mock.token(name).get('represents'))]?.edition?.state,
    markers: (name) => String(mock.token(name).get('statusmarkers') ?? '').split(',').filter(Boolean),
    async restart() {
      await mock.restart(() => {
        played.context = load();
      });
      mock.newMessages();
    },
  };
  mock.fireReady();
  await mock.settle();
  mock.newMessages();
  return played;
}
