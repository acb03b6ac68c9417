// The rules' worked examples (docs/rules.md), one per edition that has one, on the demo table: each
// edition's sample (src/rules/<edition>/index.ts) says Bob's and the goblins' numbers and the moves
// to try, each with what the rules say should come out; "Set up" makes the GM's hand edits that put
// the numbers on the table.
import { editionOf } from '../../src/rules/editions.js';
import type { EditionSample, SampleValues, ValueKey } from '../../src/rules/edition.js';
import { WORN, type Edition, type Fight } from './fight.js';

export interface ExampleMove {
  /** What the move is, in the rules' words. */
  says: string;
  line: string;
  /** What the rules say comes out. */
  expect: string;
}

export interface Example {
  edition: Edition;
  title: string;
  /** Bob's numbers in the example, as the setup writes them. */
  setupText: string;
  moves: readonly ExampleMove[];
  /**
   * The GM's edits that give the demo table this edition's values (Bob as the example has him, the
   * goblins to match): made on every switch to the edition, and again by "Set up the example".
   */
  setup(fight: Fight): Promise<void>;
}

/** The demo table's hero and the sheet its foes share (mocks/scene.ts). */
const HERO = 'Bob';
const FOE = 'Goblin';

/** The example's first move must not come on Bob's turn when it is a defense made ahead ("When it is not actively your turn ..."). */
const defendsAhead = (sample: EditionSample) => sample.example.moves.some((move) => /^!defend\b/i.test(move.line));

async function notBobsTurn(fight: Fight): Promise<void> {
  if (fight.turnOrder()[0]?.name === HERO) await fight.nextTurn();
}

/**
 * The GM sets a sheet value for this edition's table: the attribute the settings read for `key`,
 * written only when it differs (a value already there is no step and no chat). A protection is
 * set undamaged: its max too.
 */
async function sheet(fight: Fight, char: string, key: ValueKey, value: number): Promise<void> {
  const attribute = fight.settings().attributes[key] ?? key;
  const current = String(value);
  const max = WORN.has(key) ? current : undefined;
  const now = fight.attributeValue(char, attribute);
  if (now && now.current === current && (max === undefined || now.max === max)) return;
  await fight.editSheet(char, attribute, current, max);
}

async function bobVitality(fight: Fight, value: number): Promise<void> {
  const bar = fight.settings().bars.vitality ?? 'bar1';
  const bob = fight.tokens().find((token) => token.name === HERO)?.bars.find((b) => b.resource === 'vitality');
  if (bob && bob.value === String(value) && bob.max === String(value)) return;
  await fight.editBars(HERO, { [`${bar}_value`]: String(value), [`${bar}_max`]: String(value) });
}

/** A token's numbers in words: "Vitality 30, Defense 10, Physical armor 18". */
function numbers(values: SampleValues, sample: EditionSample): string {
  return (Object.entries(values) as Array<[keyof SampleValues, number]>)
    .map(([key, value]) => `${key === 'vitality' ? 'Vitality' : (sample.sheet[key] ?? key)} ${value}`)
    .join(', ');
}

/** The edition's worked example on the demo table; undefined when its sample gives none. */
export function exampleOf(edition: Edition): Example | undefined {
  const sample = editionOf(edition).table.sample;
  if (sample === undefined) return undefined;
  const offTurn = defendsAhead(sample);
  return {
    edition,
    title: sample.example.title,
    setupText: `${HERO}: ${numbers(sample.hero, sample)}; the goblins: ${numbers(sample.foe, sample)}${offTurn ? `; it is not ${HERO}'s turn` : ''}.`,
    moves: sample.example.moves,
    async setup(fight) {
      for (const [who, values] of [[HERO, sample.hero], [FOE, sample.foe]] as const) {
        for (const [key, value] of Object.entries(values) as Array<[keyof SampleValues, number]>) {
          if (key !== 'vitality') await sheet(fight, who, key, value);
          else if (who === HERO) await bobVitality(fight, value);
        }
      }
      if (offTurn) await notBobsTurn(fight);
    },
  };
}
