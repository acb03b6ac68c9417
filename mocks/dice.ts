// The mock's one dice source: Roll20 notation through @3d-dice/dice-roller-parser, seeded, with
// forced faces so a test can say exactly what the next dice show.
import { createRequire } from 'node:module';
import type { DiceRoller as DiceRollerClass, RollBase } from '@3d-dice/dice-roller-parser';
import { mulberry32 } from './random.js';

// The package is a webpack UMD bundle: Node's ESM loader sees no named exports, so load it as CommonJS.
const { DiceRoller } = createRequire(import.meta.url)('@3d-dice/dice-roller-parser') as {
  DiceRoller: typeof DiceRollerClass;
};

export interface DiceResult {
  total: number;
  expression: string;
  /** The faces of every die rolled, in the order rolled (kept and dropped alike). */
  faces: number[];
}

export interface Dice {
  evaluate(expression: string): DiceResult;
  /** The next dice rolled (by evaluate or randomInteger) show these faces, in order. */
  force(...faces: number[]): void;
  seed(n: number): void;
  /** A uniform integer 1..max, as Roll20's randomInteger; forced faces apply here too. */
  randomInteger(max: number): number;
  /** Forced faces not used yet. */
  pendingForced(): readonly number[];
}

// What the parser calls to roll one die: generateDiceRoll(sides, order). It turns its random
// number r into a face with parseInt((r * sides).toFixed()) + 1, i.e. it ROUNDS: face 1 gets half
// the odds and r >= (sides - 0.5) / sides gives sides + 1 (a d20 can show 21). We therefore pick
// the face ourselves and hand the parser r = (face - 1) / sides, which it rounds back exactly.
type DieHook = { generateDiceRoll(sides: number, order: number): RollBase & { roll: number } };

export function createDice(seed = 1): Dice {
  let random = mulberry32(seed);
  const forced: number[] = [];
  let faces: number[] = [];

  const nextFace = (sides: number): number => {
    if (!Number.isInteger(sides) || sides < 1) throw new Error(`a d${sides} has no faces`);
    const wanted = forced.shift();
    if (wanted === undefined) return Math.floor(random() * sides) + 1;
    if (!Number.isInteger(wanted) || wanted < 1 || wanted > sides) {
      throw new Error(`forced face ${wanted} cannot show on a d${sides}`);
    }
    return wanted;
  };

  const roller = new DiceRoller(() => random());
  const hooked = roller as unknown as DieHook;
  const parserRoll = hooked.generateDiceRoll;
  if (typeof parserRoll !== 'function') {
    throw new Error('@3d-dice/dice-roller-parser changed: generateDiceRoll not found, forced dice cannot work');
  }
  hooked.generateDiceRoll = function (sides: number, order: number) {
    const face = nextFace(sides);
    const saved = roller.randFunction;
    roller.randFunction = () => (face - 1) / sides;
    try {
      const result = parserRoll.call(this, sides, order);
      if (result.roll !== face) throw new Error(`dice parser turned face ${face} into ${result.roll} on a d${sides}`);
      faces.push(face);
      return result;
    } finally {
      roller.randFunction = saved;
    }
  };

  return {
    evaluate(expression) {
      faces = [];
      const text = expression.trim();
      // The parser keeps unparsed trailing text as a label ("1d20+@{x}" rolls 1d20); Roll20 refuses those.
      const parsed = roller.parse(text);
      const label = (parsed as { label?: string }).label ?? '';
      if (/^[-+*/%^]|[@%?&]\{/.test(label.trim())) throw new Error(`cannot evaluate dice expression: ${expression}`);
      const total = roller.rollParsed(parsed).value;
      if (typeof total !== 'number' || Number.isNaN(total)) throw new Error(`dice expression gave no number: ${expression}`);
      return { total, expression: text, faces };
    },
    force(...wanted) {
      forced.push(...wanted);
    },
    seed(n) {
      random = mulberry32(n);
    },
    randomInteger(max) {
      if (!Number.isInteger(max) || max < 1) throw new Error(`randomInteger needs a whole number of at least 1, got ${max}`);
      return nextFace(max);
    },
    pendingForced: () => [...forced],
  };
}
