// The rules' worked examples (docs/rules.md), one per edition that has one, on the demo table: each
// edition's sample (src/rules/<edition>/index.ts) says Bob's and the goblins' numbers and the moves
// to try, each with what the rules say should come out; "Set up" makes the GM's hand edits that put
// the numbers on the table (mocks/sample-table.ts, shared with the sandbox). Every edition also
// offers its `DR-Attack` macro (the docs' own) as an exchange: Goblin 1 attacks, a player clicks.
import { editionOf } from '../../src/rules/editions.js';
import type { EditionSample, SampleValues } from '../../src/rules/edition.js';
import { FOE, HERO, sampleEdits, WORN, type SampleEdit } from '../../mocks/sample-table.js';
import type { Edition, Fight } from './fight.js';

export interface ExampleMove {
  /** What the move is, in the rules' words. */
  says: string;
  line: string;
  /** What the rules say comes out. */
  expect: string;
  /** Who is selected when the move is put in the chat box (Bob when absent); the GM's move when the speaker may not select it. */
  selected?: string;
}

/** What a setup did: the sample's edits it made (those not already on the table), and whether it moved the turn on. */
export interface SetUp {
  edits: SampleEdit[];
  nextTurn: boolean;
}

export interface Example {
  edition: Edition;
  title: string;
  /** Bob's numbers in the example, as the setup writes them. */
  setupText: string;
  moves: readonly ExampleMove[];
  /** The exchange to try after the moves: the edition's `DR-Attack` macro, answered by a click. */
  attack?: ExampleMove;
  /**
   * The GM's edits that give the demo table this edition's values (Bob as the example has him, the
   * goblins to match): made on every switch to the edition, and again by "Set up the example".
   */
  setup(fight: Fight): Promise<SetUp>;
}

/** The GM's view of the table: the setup reads values whoever speaks. */
const GM = 'GM';

/** The example's first move must not come on Bob's turn when it is a defense made ahead ("When it is not actively your turn ..."). */
const defendsAhead = (sample: EditionSample) => sample.example.moves.some((move) => /^!defend\b/i.test(move.line));

async function notBobsTurn(fight: Fight): Promise<boolean> {
  if (fight.turnOrder()[0]?.name !== HERO) return false;
  return fight.nextTurn();
}

/**
 * Makes one edit of the sample unless the table holds it already (a value already there is no
 * step and no chat): a sheet value on the attribute the settings read for its key (a protection
 * undamaged: its max too), or Bob's Vitality typed into his bar. True when it made a step.
 */
async function make(fight: Fight, edit: SampleEdit): Promise<boolean> {
  const current = String(edit.value);
  if (edit.kind === 'vitality') {
    const bar = fight.settings().bars.vitality ?? 'bar1';
    const now = fight.tokens(GM).find((token) => token.name === edit.token)?.bars.find((b) => b.resource === 'vitality');
    if (now && now.value === current && now.max === current) return false;
    return fight.editBars(edit.token, { [`${bar}_value`]: current, [`${bar}_max`]: current });
  }
  const attribute = fight.settings().attributes[edit.key] ?? edit.key;
  const max = WORN.has(edit.key) ? current : undefined;
  const now = fight.attributeValue(edit.character, attribute);
  if (now && now.current === current && (max === undefined || now.max === max)) return false;
  return fight.editSheet(edit.character, attribute, current, max);
}

/** A token's numbers in words: "Vitality 30, Defense 10, Physical armor 18". */
function numbers(values: SampleValues, sample: EditionSample): string {
  return (Object.entries(values) as Array<[keyof SampleValues, number]>)
    .map(([key, value]) => `${key === 'vitality' ? 'Vitality' : (sample.sheet[key] ?? key)} ${value}`)
    .join(', ');
}

/** The edition's `DR-Attack` macro as a move: Goblin 1 declares it, the defender's player answers with a click. */
export function attackMove(edition: Edition): ExampleMove | undefined {
  const macro = editionOf(edition).table.macros.find((m) => m.name === 'DR-Attack');
  if (macro === undefined) return undefined;
  return {
    says: "Goblin 1 attacks with the edition's DR-Attack macro (the docs' own): pick Cleo, Ben's PC, or Bob on the map",
    line: macro.action,
    expect: "the defender's player gets a whisper with a button per answer: speak as Ben (or Alice) and click one; the macro's default damage gets through Cleo's light armor",
    selected: 'Goblin 1',
  };
}

/** The edition's worked example on the demo table; undefined when its sample gives none. */
export function exampleOf(edition: Edition): Example | undefined {
  const sample = editionOf(edition).table.sample;
  if (sample === undefined) return undefined;
  const offTurn = defendsAhead(sample);
  const attack = attackMove(edition);
  return {
    edition,
    title: sample.example.title,
    setupText: `${HERO}: ${numbers(sample.hero, sample)}; the goblins: ${numbers(sample.foe, sample)}${offTurn ? `; it is not ${HERO}'s turn` : ''}.`,
    moves: sample.example.moves,
    ...(attack ? { attack } : {}),
    async setup(fight) {
      const edits: SampleEdit[] = [];
      for (const edit of sampleEdits(edition)) if (await make(fight, edit)) edits.push(edit);
      const nextTurn = offTurn && (await notBobsTurn(fight));
      return { edits, nextTurn };
    },
  };
}

export { FOE, HERO };
