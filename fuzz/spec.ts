// What the fuzzer reads of an edition's commands (issue 31: the fuzzer reads the specs, it lists no
// editions): each flag's kind from the command's flag table; the words and ranges its usage line
// spells out (`[--type physical|magical]`, `[--pierce 0-100]`) and which flags it requires (written
// outside brackets); and the dice a line's plan rolls, each with the flag that gives its roll.
import { parseLine, type FlagSpec, type FlagTable } from '../src/text/args';
import type { Die, Plan, PlanContext } from '../src/rules/edition';

export interface FlagShape {
  name: string;
  spec: FlagSpec;
  /** The usage lists its words (`physical|magical`). */
  words?: string[];
  /** The usage gives its range (`0-100`). */
  range?: [number, number];
  /** The usage's name for its value (`S`, `M`, `ID`), when it gives neither. */
  placeholder?: string;
  /** The usage writes it outside brackets. */
  required: boolean;
  /** It gives a die's roll (its usage's value is `R`, or a range from 1): given only for a die the plan rolls. */
  roll: boolean;
}

const USAGE_FLAG = /(\[)?--([a-z][\w-]*)(?: ([^\s[\]]+))?/g;

/** Each flag of a command's table, with what its usage line says of it. */
export function flagShapes(flags: FlagTable, usage: string): FlagShape[] {
  const said = new Map<string, { bracketed: boolean; value: string | undefined }>();
  for (const match of usage.matchAll(USAGE_FLAG)) if (!said.has(match[2]!)) said.set(match[2]!, { bracketed: match[1] !== undefined, value: match[3] });
  return Object.entries(flags).map(([name, spec]) => {
    const usage = said.get(name);
    const shape: FlagShape = { name, spec, required: usage !== undefined && !usage.bracketed, roll: false };
    const value = usage?.value;
    const range = value === undefined ? null : /^(-?\d+)-(-?\d+)$/.exec(value);
    if (range) shape.range = [Number(range[1]), Number(range[2])];
    else if (value?.includes('|')) shape.words = value.split('|');
    else if (value !== undefined && !value.startsWith('(')) shape.placeholder = value;
    shape.roll = shape.placeholder === 'R' || shape.range?.[0] === 1;
    return shape;
  });
}

/** The dice a line's plan rolls (none when the line is refused before it is planned). */
export function diceOf(plan: (line: ReturnType<typeof parseLine>) => Plan<unknown, unknown>, text: string): readonly Die[] {
  try {
    return plan(parseLine(text)).dice;
  } catch {
    return [];
  }
}

/** The GM's settings as a new game has them, for planning a line. */
export const PLAN_CONTEXT: PlanContext = { overwhelmLimit: 20, stamina: 'power', gm: true };
