// Hand-built facts for the rules' unit tests: what the reader would hand a plan, made from numbers.
import { cardWords, isRefusal, type BarFact, type Facts, type Outcome, type PlanContext, type Resolution, type ValueFact } from '../../src/rules/edition';

/** A value as read from a sheet: `current` (worn) and `max` (undamaged, defaults to current). */
export const val = (current: number, max: number = current): ValueFact => ({ current, max, present: true });

/** A value that is there but holds no number ("", words). */
export const notANumber: ValueFact = { current: null, max: null, present: true };

export const bar = (value: number | null, max: number | null = null): BarFact => ({ value, max });

/** The GM's settings a plan may read (the defaults), sent by the GM. */
export const CONTEXT: PlanContext = { overwhelmLimit: 20, stamina: 'power', gm: true };

/** A token's facts: Bob (`bob-1`), 70/20/30, no values, no stance, out of the Turn Tracker, unless `over` says otherwise. */
export function factsOf<S>(state: S, over: Partial<Facts<S>> = {}): Facts<S> {
  return {
    id: 'bob-1',
    name: 'Bob',
    bars: { vitality: bar(70, 70), soul: bar(20, 20), power: bar(30, 30) },
    values: {},
    armorSource: true,
    stance: null,
    state,
    initiative: null,
    acting: false,
    currentTurn: null,
    others: {},
    nameOf: (id) => id,
    ...over,
  };
}

/** The outcome of a resolution that must not be a refusal (the test fails naming the refusal). */
export function outcomeOf<S>(resolution: Resolution<S>): Outcome<S> {
  if (isRefusal(resolution)) throw new Error(`expected an outcome, got the refusal ${JSON.stringify(resolution)}`);
  return resolution;
}

/** Every line of the outcome's card, in order. */
export const cardLines = (outcome: Outcome<unknown>): string[] => cardWords(outcome).rows.flatMap((row) => row.lines);
