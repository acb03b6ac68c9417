// What the fuzzer reads of an edition's commands (issue 31: the fuzzer reads the specs, it lists no
// editions): each flag's kind, words, range and whether it is required, from the command's typed
// flag table (src/text/flags.ts); and the dice a line's plan rolls, each with the flag that gives its roll.
import { parseLine, RefusalError, UsageError, type FlagSpec } from '../src/text/args';
import { placeholderOf, toFlagTable, type TypedFlagTable } from '../src/text/flags';
import type { Die, Order, Plan, PlanContext } from '../src/rules/edition';
import { orderOf } from '../src/commands/orders';

export interface FlagShape {
  name: string;
  spec: FlagSpec;
  /** A choice's words (`physical|magical`). */
  words?: string[];
  /** A number's range (`0-100`; a die's 1 to its sides). */
  range?: [number, number];
  /** The name of its value (`S`, `M`, `ID`), when it has neither. */
  placeholder?: string;
  /** It must always be given. */
  required: boolean;
  /** It gives a die's roll: given only for a die the plan rolls. */
  roll: boolean;
}

/** Each flag of a command's typed table: its kind, and the words, range or name of its value. */
export function flagShapes(flags: TypedFlagTable): FlagShape[] {
  const old = toFlagTable(flags);
  return Object.entries(flags).map(([name, flag]) => {
    const shape: FlagShape = { name, spec: old[name]!, required: flag.required === true || (typeof flag.required === 'object' && flag.required.when === undefined), roll: flag.kind === 'die' };
    if (flag.kind === 'choice') shape.words = [...flag.choices];
    else if (flag.kind === 'integer') shape.range = [flag.min, flag.max];
    else if (flag.kind === 'die') shape.range = [1, flag.sides];
    else if (flag.kind === 'amount') shape.range = [0, Math.min(flag.max, 100)];
    else shape.placeholder = placeholderOf(flag);
    return shape;
  });
}

/** The dice a line's plan rolls (none when the line is refused before it is planned). */
export function diceOf(plan: (order: Order) => Plan<unknown, unknown>, flags: TypedFlagTable, text: string, amount?: Parameters<typeof orderOf>[2]): readonly Die[] {
  try {
    return plan(orderOf(parseLine(text), flags, amount)).dice;
  } catch (error) {
    // A refused line rolls nothing; anything else thrown is a fault the fuzzer must show.
    if (error instanceof UsageError || error instanceof RefusalError) return [];
    throw error;
  }
}

/** The GM's settings as a new game has them, for planning a line. */
export const PLAN_CONTEXT: PlanContext = { overwhelmLimit: 20, stamina: 'power', gm: true };
