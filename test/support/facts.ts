// Hand-built facts for the rules' unit tests: what the reader would hand a plan, made from numbers.
import { isRefusal, SUMMARY, TITLE, ACTION, type AnyEdition, type BarFact, type Facts, type Outcome, type PlanContext, type Resolution, type Rolls, type Plan, type Step, type ValueFact } from '../../src/rules/edition';
import { wordsOf } from '../../src/rules/sharedSteps';
import { type ParsedLine } from '../../src/text/args';
import { givenDice } from '../../src/commands/pipeline';

/** A value as read from a sheet: `current` (worn) and `max` (undamaged, defaults to current). */
export const val = (current: number, max: number = current): ValueFact => ({ current, max, present: true });

/** A value that is there but holds no number ("", words). */
export const notANumber: ValueFact = { current: null, max: null, present: true };

export const bar = (value: number | null, max: number | null = null): BarFact => ({ value, max });

/** The GM's settings a plan may read (the defaults), sent by the GM. */
export const CONTEXT: PlanContext = { overwhelmLimit: 20, stamina: 'power', gm: true };

/** Hand-built facts, and how the test names other tokens in a card's words (`cardOf`): the rules never see it. */
export type NamedFacts<S, A = unknown> = Facts<S, A> & { nameOf(id: string): string };

/** A token's facts: Bob (`bob-1`), 70/20/30, no values, no stance, no answer on file, out of the Turn Tracker, unless `over` says otherwise. */
export function factsOf<S, A = unknown>(state: S, over: Partial<NamedFacts<S, A>> = {}): NamedFacts<S, A> {
  return {
    id: 'bob-1',
    name: 'Bob',
    bars: { vitality: bar(70, 70), soul: bar(20, 20), power: bar(30, 30) },
    values: {},
    armorSource: true,
    stance: null,
    state,
    answer: null,
    initiative: null,
    acting: false,
    currentTurn: null,
    others: {},
    nameOf: (id) => id,
    ...over,
  };
}

/** The outcome of a resolution that must not be a refusal (the test fails naming the refusal). */
export function outcomeOf<S, A>(resolution: Resolution<S, A>): Outcome<S, A> {
  if (isRefusal(resolution)) throw new Error(`expected an outcome, got the refusal ${JSON.stringify(resolution)}`);
  return resolution;
}

/** The plan's dice rolled as `rolled`, in the plan's order (the pipeline hands them over by name). */
export function rollsFor(plan: Pick<Plan<unknown>, 'dice'>, rolled: readonly number[]): Rolls {
  const rolls: Record<string, number> = {};
  plan.dice.forEach((die, index) => {
    if (rolled[index] !== undefined) rolls[die.name] = rolled[index]!;
  });
  return rolls;
}

/**
 * The rolls the pipeline hands a plan parsed from `line` (src/commands/pipeline.ts, `givenDice`):
 * each die whose flag the line gives takes that value (checked from 1 to its sides, as there); the
 * others take `rolled`, in the plan's order. A die left without a number is left out.
 */
export function rollsGiven(plan: Pick<Plan<unknown>, 'dice'>, line: ParsedLine, rolled: readonly number[] = []): Rolls {
  const rolls: Record<string, number> = { ...givenDice(line, plan.dice) };
  let next = 0;
  for (const die of plan.dice) {
    if (rolls[die.name] !== undefined) continue;
    const value = rolled[next++];
    if (value !== undefined) rolls[die.name] = value;
  }
  return rolls;
}

/** The words of an outcome's steps as the renderer says them: the token's own id is `name` (Bob). */
function sayer(edition: AnyEdition, facts: { id: string; name: string; nameOf?(id: string): string }): (step: Step) => string {
  return wordsOf(edition, (id) => (id === facts.id ? facts.name : (facts.nameOf?.(id) ?? id)));
}

/** The card as the renderer lays it out: its title, and its rows' lines by section. */
export function cardOf(edition: AnyEdition, outcome: Outcome<unknown, unknown>, facts: { id: string; name: string; nameOf?(id: string): string } = factsOf({})): { title: string; summary: string; rows: Array<{ label: string; lines: string[] }> } {
  const say = sayer(edition, facts);
  const rows: Array<{ label: string; lines: string[] }> = [];
  for (const step of outcome.steps) {
    if (step.section === undefined || step.section === TITLE || step.section === SUMMARY || step.section === ACTION) continue;
    let row = rows.find((candidate) => candidate.label === step.section);
    if (!row) rows.push((row = { label: step.section, lines: [] }));
    const line = say(step);
    if (line !== '') row.lines.push(line); // as fullCard: a step whose words are empty says nothing
  }
  const kept = rows.filter((row) => row.lines.length > 0);
  const title = outcome.steps.find((step) => step.section === TITLE);
  const summary = outcome.steps.find((step) => step.section === SUMMARY);
  return { title: title ? say(title) : '', summary: summary ? say(summary) : '', rows: kept };
}

/** Every line of the outcome's card, in order. */
export const cardLines = (edition: AnyEdition, outcome: Outcome<unknown, unknown>, facts?: { id: string; name: string; nameOf?(id: string): string }): string[] =>
  cardOf(edition, outcome, facts).rows.flatMap((row) => row.lines);

/** The buttons a card offers, as step kinds ("offer-damage", or a button's label). */
export const offers = (outcome: Outcome<unknown, unknown>): string[] =>
  outcome.steps.filter((step) => step.section === ACTION).map((step) => (step.kind === 'button' ? (step as unknown as { label: string }).label : step.kind));
