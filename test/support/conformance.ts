// What the edition conformance suite runs over: an edition played as the pipeline would play it,
// from generated facts and rolls, knowing nothing of its rules. A walk enters a token, then sets
// its Vitality, ends rounds and runs each of the edition's plans (the hit, the check, the stance,
// the hand edit read through armor, each answer to an attack), keeping every state, answer, step
// and card it produced, and every exception a plan let escape.
import { allEditions, isEditionId, plainAttack, registerEdition } from '../../src/rules/editions';
import { flat } from '../editions/flat';
import { orderOf } from '../../src/commands/orders';
import { stancePlan } from '../../src/rules/stance';
import fc from 'fast-check';
import {
  isRefusal,
  RESOURCES,
  VALUE_KEYS,
  type AnyEdition,
  type Facts,
  type OtherFacts,
  type Outcome,
  type Plan,
  type PlanContext,
  type Resource,
  type Step,
  type ValueFact,
  type ValueKey,
} from '../../src/rules/edition';
import { parseLine, UsageError, type ParsedLine } from '../../src/text/args';
import { bar, factsOf, rollsGiven } from './facts';

// ---------------------------------------------------------------------------------------------
// The lines an edition's specs say they take

/**
 * The first form of a usage line with only what it requires: the first word of each `a|b` choice,
 * the low end of a range, and `1` for a placeholder (N, ID). Optional `[...]` parts, the second
 * form after `;` and the explanation in parentheses are left out.
 */
export function usageLine(usage: string): string {
  const first = usage.split(';')[0]!.replace(/\s\(.*$/, '');
  const required = first.replace(/\[[^\]]*\]/g, ' ');
  return required
    .split(/\s+/)
    .filter((word) => word !== '')
    .map((word) => {
      if (word.startsWith('!') || word.startsWith('--')) return word;
      const alternative = word.split('|')[0]!;
      const range = /^(-?\d+)-\d+$/.exec(alternative);
      if (range) return range[1]!;
      return /^[A-Z]+$/.test(alternative) ? '1' : alternative;
    })
    .join(' ');
}

/** The flags a usage names (`--type`, `--ids`), first form and second. */
export function usageFlags(usage: string): string[] {
  return [...usage.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!);
}

/** The words a usage offers in its first choice (`!stance a|b|c`: the modes). */
export function usageChoices(usage: string): string[] {
  const word = usage.split(/\s+/)[1] ?? '';
  return word.includes('|') ? word.split('|') : [];
}

/** Every line the conformance suite plans for a spec: its own examples, then its usage's required form. */
export function specLines(spec: { usage: string; examples?: readonly string[] }): string[] {
  return [...(spec.examples ?? []), usageLine(spec.usage)];
}

// ---------------------------------------------------------------------------------------------
// Generated facts

export const CONFORMANCE_CONTEXT: PlanContext = { overwhelmLimit: 20, stamina: 'power', gm: true };

/** A value as a sheet may hold it: absent, not a number, or a number (maxes too, sometimes below it). */
const valueArb: fc.Arbitrary<ValueFact | undefined> = fc.oneof(
  { weight: 1, arbitrary: fc.constant(undefined) },
  { weight: 1, arbitrary: fc.constant<ValueFact>({ current: null, max: null, present: true }) },
  {
    weight: 8,
    arbitrary: fc
      .tuple(fc.integer({ min: -20, max: 150 }), fc.option(fc.integer({ min: 0, max: 150 }), { nil: null }))
      .map(([current, max]): ValueFact => ({ current, max: max ?? current, present: true })),
  },
);

const vitalityArb = fc.oneof({ weight: 9, arbitrary: fc.integer({ min: -40, max: 120 }) }, { weight: 1, arbitrary: fc.constant(null) });

/** Everything of a token's facts but its state, stance, answer and Vitality, which the walk keeps. */
export interface Surroundings {
  values: Partial<Record<ValueKey, ValueFact>>;
  soul: number | null;
  power: number | null;
  maxVitality: number | null;
  armorSource: boolean;
  initiative: number | null;
  acting: boolean;
  currentTurn: { initiative: number | null; hidden: boolean } | null;
  /** The Vitality bar holds no number for this command (a word typed into it): its outcome is looked at, not kept. */
  barGarbage: boolean;
  /** The other tokens a plan names are on the table; their Vitality. */
  others: boolean;
  otherVitality: number | null;
  context: PlanContext;
}

const surroundingsArb: fc.Arbitrary<Surroundings> = fc.record({
  values: fc.tuple(...VALUE_KEYS.map(() => valueArb)).map((values) => {
    const out: Partial<Record<ValueKey, ValueFact>> = {};
    VALUE_KEYS.forEach((key, index) => {
      if (values[index] !== undefined) out[key] = values[index];
    });
    return out;
  }),
  soul: fc.option(fc.integer({ min: -10, max: 60 }), { nil: null }),
  power: fc.option(fc.integer({ min: -10, max: 60 }), { nil: null }),
  maxVitality: fc.option(fc.integer({ min: 1, max: 120 }), { nil: null }),
  armorSource: fc.boolean(),
  initiative: fc.option(fc.integer({ min: -5, max: 30 }), { nil: null }),
  acting: fc.boolean(),
  currentTurn: fc.option(fc.record({ initiative: fc.option(fc.integer({ min: -5, max: 30 }), { nil: null }), hidden: fc.boolean() }), { nil: null }),
  barGarbage: fc.oneof({ weight: 9, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
  others: fc.boolean(),
  otherVitality: vitalityArb,
  // Stamina may not share the Vitality bar (`!defense-round config stamina-bar`).
  context: fc.record({ overwhelmLimit: fc.integer({ min: 0, max: 30 }), stamina: fc.constantFrom<Resource>(...RESOURCES.filter((resource) => resource !== 'vitality')), gm: fc.boolean() }),
});

/** One thing that happens to the token: rolls are raw, each taken modulo its die's sides. */
export type Op =
  | { kind: 'set'; to: number }
  | { kind: 'round' }
  | { kind: 'hit' | 'check'; line: number; extra: number[]; rolls: number[]; around: Surroundings }
  | { kind: 'stance'; mode: number; around: Surroundings }
  | { kind: 'answer'; choice: number; situation: number; rolls: number[]; around: Surroundings }
  | { kind: 'hand-edit'; loss: number; rolls: number[]; around: Surroundings };

export interface Walk {
  /** A number: a token whose bar holds none is left alone by the rules (its state stays as entered). */
  vitality: number;
  deadForGood: boolean;
  ops: Op[];
}

const rollsArb = fc.array(fc.integer({ min: 0, max: 9999 }), { minLength: 6, maxLength: 6 });
const indexArb = fc.nat({ max: 99 });

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('set' as const), to: fc.integer({ min: -40, max: 120 }) }),
  fc.record({ kind: fc.constant('round' as const) }),
  fc.record({ kind: fc.constantFrom('hit' as const, 'check' as const), line: indexArb, extra: fc.array(indexArb, { maxLength: 3 }), rolls: rollsArb, around: surroundingsArb }),
  fc.record({ kind: fc.constant('stance' as const), mode: indexArb, around: surroundingsArb }),
  fc.record({ kind: fc.constant('answer' as const), choice: indexArb, situation: indexArb, rolls: rollsArb, around: surroundingsArb }),
  fc.record({ kind: fc.constant('hand-edit' as const), loss: fc.integer({ min: 1, max: 300 }), rolls: rollsArb, around: surroundingsArb }),
);

export const walkArb: fc.Arbitrary<Walk> = fc.record({
  vitality: fc.integer({ min: -40, max: 120 }),
  deadForGood: fc.boolean(),
  ops: fc.array(opArb, { maxLength: 12 }),
});

// ---------------------------------------------------------------------------------------------
// A walk, played

/** Where something came from, for the failure message: the op and the line. */
export interface Sourced<T> {
  value: T;
  from: string;
}

export interface Played {
  /** Every state the edition made, with the Vitality it was made at (null: another token's, not known). */
  states: Array<Sourced<{ state: unknown; vitality: number | null }>>;
  answers: Array<Sourced<unknown>>;
  steps: Array<Sourced<Step>>;
  /** Outcomes of the hit, the check and the stance: each is a card of its own. */
  cards: Array<Sourced<Outcome<unknown, unknown>>>;
  /** Exceptions a plan let escape (a UsageError from parsing a line is not one). */
  errors: Array<Sourced<unknown>>;
  /** The hit and check lines the edition's specs took (each needs no UsageError to be counted). */
  planned: Set<string>;
}

/** The flags of a spec's lines, each with the values they were given there, for mixing into other lines. */
function flagPool(lines: readonly string[]): Array<[string, string[]]> {
  const pool: Array<[string, string[]]> = [];
  for (const line of lines) parseLine(line).flags.forEach((values, name) => pool.push([name, values]));
  return pool;
}

/** A line of the spec, with flags of its other lines mixed in. */
function lineOf(lines: readonly string[], pool: ReadonlyArray<[string, string[]]>, index: number, extra: readonly number[]): string {
  let line = lines[index % lines.length]!;
  for (const pick of extra) {
    if (pool.length === 0) break;
    const [name, values] = pool[pick % pool.length]!;
    if (!parseLine(line).flags.has(name)) line += ` --${name}${values.length > 0 ? ` ${values.join(' ')}` : ''}`;
  }
  return line;
}

/** The token the walk plays: its Vitality, state, stance and the answer it has on file. */
interface Token {
  vitality: number;
  state: unknown;
  stance: string | null;
  answer: unknown;
}

const NAMES = (id: string) => `Name(${id})`;

function factsFor(edition: AnyEdition, token: Token, around: Surroundings, plan: Plan<unknown, unknown>): Facts<unknown, unknown> {
  const values: Partial<Record<ValueKey, ValueFact>> = {};
  for (const key of plan.values) if (around.values[key] !== undefined) values[key] = around.values[key];
  const others: Record<string, OtherFacts<unknown, unknown> | undefined> = {};
  if (around.others) {
    for (const id of plan.others ?? []) {
      others[id] = { name: NAMES(id), stance: null, state: edition.life.enter(around.otherVitality, false), answer: null, vitality: around.otherVitality, acting: false };
    }
  }
  return factsOf(token.state, {
    id: 'token-1',
    name: 'Token',
    bars: { vitality: bar(around.barGarbage ? null : token.vitality, around.maxVitality), soul: bar(around.soul, around.soul), power: bar(around.power, around.power) },
    values,
    armorSource: around.armorSource,
    stance: token.stance,
    answer: token.answer,
    initiative: around.initiative,
    acting: around.acting,
    currentTurn: around.currentTurn,
    others,
    nameOf: NAMES,
  });
}

/** Each raw roll into its die's range, given ones first (the pipeline's `givenDice`). */
function rollsFor(plan: Plan<unknown, unknown>, line: ParsedLine, raw: readonly number[]) {
  return rollsGiven(plan, line, plan.dice.map((die, index) => 1 + ((raw[index] ?? 0) % die.sides)));
}

const NO_LINE: ParsedLine = { command: '', positionals: [], flags: new Map() };

/** Plays a walk over an edition: every state, answer, step and card it made, and what escaped. */
export function play(edition: AnyEdition, walk: Walk): Played {
  const { life } = edition;
  const played: Played = { states: [], answers: [], steps: [], cards: [], errors: [], planned: new Set() };
  const hitLines = specLines(edition.hit);
  const checkLines = edition.check.refused ? [] : specLines(edition.check);
  const pools = { hit: flagPool(hitLines), check: flagPool(checkLines) };
  const situations = [null, ...checkLines.map((line) => safely(() => edition.check.answers.situation(orderOf(parseLine(line), edition.check.flags)))).filter((s): s is string => typeof s === 'string')];

  // The dead lie at or below 0 in every edition: only there is a token dead for good when it enters.
  const deadForGood = walk.deadForGood && walk.vitality <= 0;
  const token: Token = { vitality: walk.vitality, state: life.enter(walk.vitality, deadForGood), stance: null, answer: null };
  played.states.push({ value: { state: token.state, vitality: token.vitality }, from: `enter(${walk.vitality}, ${deadForGood})` });

  /** An outcome taken as the writer takes it, its steps and states kept. */
  const take = (outcome: Outcome<unknown, unknown>, from: string, card: boolean, around: Surroundings) => {
    for (const step of outcome.steps) played.steps.push({ value: step, from });
    if (card) played.cards.push({ value: outcome, from });
    if (around.barGarbage) {
      // A token whose bar holds no number: what its rules made is kept, but not played on.
      if (outcome.state !== undefined) played.states.push({ value: { state: outcome.state, vitality: null }, from: `${from} (no Vitality)` });
      if (outcome.answer !== undefined && outcome.answer !== null) played.answers.push({ value: outcome.answer, from });
      return;
    }
    for (const change of outcome.changes) {
      if (change.kind === 'bar' && change.resource === 'vitality') token.vitality = change.to;
      if (change.kind === 'ally-state') played.states.push({ value: { state: change.state, vitality: null }, from: `${from} (an ally's state)` });
      if (change.kind === 'ally-answer' && change.answer !== null) played.answers.push({ value: change.answer, from: `${from} (an ally's answer)` });
    }
    if (outcome.state !== undefined) token.state = outcome.state;
    if (outcome.stance !== undefined) token.stance = outcome.stance;
    if (outcome.answer !== undefined) token.answer = outcome.answer;
    if (outcome.answer !== undefined && outcome.answer !== null) played.answers.push({ value: outcome.answer, from });
    played.states.push({ value: { state: token.state, vitality: token.vitality }, from });
  };

  /** A plan resolved over the token; a resolve that throws is kept as an error. */
  const run = (plan: Plan<unknown, unknown>, line: ParsedLine, raw: readonly number[], around: Surroundings, from: string) => {
    try {
      const rolls = rollsFor(plan, line, raw);
      const resolution = plan.resolve(factsFor(edition, token, around, plan), rolls);
      return isRefusal(resolution) ? undefined : { outcome: resolution, rolls };
    } catch (error) {
      played.errors.push({ value: error, from });
      return undefined;
    }
  };

  /** A spec's plan of a line: a UsageError is the spec's refusal of the line, anything else escaped. */
  const planOf = (make: () => Plan<unknown, unknown>, from: string): Plan<unknown, unknown> | undefined => {
    try {
      return make();
    } catch (error) {
      if (!(error instanceof UsageError)) played.errors.push({ value: error, from });
      return undefined;
    }
  };

  for (const op of walk.ops) {
    switch (op.kind) {
      case 'set': {
        const before = token.vitality;
        const from = `setVitality(${before}, ${op.to}, ${JSON.stringify(token.state)})`;
        try {
          const set = life.setVitality(before, op.to, token.state);
          for (const step of [...set.steps, ...set.conditions, ...(set.now ? [set.now] : [])]) played.steps.push({ value: step, from });
          token.vitality = set.vitality;
          token.state = set.state;
          if (set.dropsAnswer) token.answer = null;
          played.states.push({ value: { state: token.state, vitality: token.vitality }, from });
        } catch (error) {
          played.errors.push({ value: error, from });
        }
        break;
      }
      case 'round':
        token.state = life.endRound(token.state);
        // The exchange forgets answers at the end of the round (rules.md, "Rounds").
        token.answer = null;
        played.states.push({ value: { state: token.state, vitality: token.vitality }, from: 'endRound' });
        break;
      case 'hit':
      case 'check': {
        const lines = op.kind === 'hit' ? hitLines : checkLines;
        if (lines.length === 0) break;
        const text = lineOf(lines, pools[op.kind], op.line, op.extra);
        const line = parseLine(text);
        const spec = op.kind === 'hit' ? edition.hit : edition.check;
        const plan = planOf(() => (op.kind === 'hit' ? edition.hit.plan(orderOf(line, spec.flags, edition.hit.amount), op.around.context) : edition.check.plan(orderOf(line, spec.flags))), text);
        if (!plan) break;
        played.planned.add(text);
        const done = run(plan, line, op.rolls, op.around, text);
        if (done) take(done.outcome, text, true, op.around);
        break;
      }
      case 'stance': {
        const modes = edition.stance.modes;
        if (modes.length === 0) break;
        const mode = modes[op.mode % modes.length]!;
        const plan = planOf(() => stancePlan(edition.stance, mode), `!stance ${mode}`);
        const done = plan && run(plan, NO_LINE, [], op.around, `!stance ${mode}`);
        if (done) take(done.outcome, `!stance ${mode}`, true, op.around);
        break;
      }
      case 'answer': {
        const { answers } = edition.check;
        const word = answers.choices[op.choice % answers.choices.length]!;
        const situation = situations[op.situation % situations.length]!;
        const from = `answer ${word} (situation ${situation})`;
        const plan = planOf(() => answers.planAnswer(word, plainAttack(situation, 'attacker-1'), op.around.context, { positionals: [] }), from);
        const done = plan && run(plan, NO_LINE, op.rolls, op.around, from);
        if (!done) break;
        try {
          const kept = answers.keep(word, done.outcome, done.rolls);
          for (const step of done.outcome.steps) played.steps.push({ value: step, from });
          if (kept.answer !== undefined) played.answers.push({ value: kept.answer, from: `${from}, kept` });
        } catch (error) {
          played.errors.push({ value: error, from: `${from}, kept` });
        }
        break;
      }
      case 'hand-edit': {
        const from = `hand edit of ${op.loss}`;
        const plan = planOf(() => edition.hit.handEdit(op.loss, op.around.context), from);
        const done = plan && run(plan, NO_LINE, op.rolls, op.around, from);
        if (done) take(done.outcome, from, false, op.around);
        break;
      }
    }
  }
  return played;
}

function safely<T>(make: () => T): T | undefined {
  try {
    return make();
  } catch {
    return undefined;
  }
}

/**
 * The editions the suite runs over: every registered one, and `flat`, written only for the tests
 * (test/editions/flat/), so the laws are seen to hold for an edition that is not shipped too.
 */
export function editionsUnderTest(): Array<readonly [string, AnyEdition]> {
  if (!isEditionId(flat.id)) registerEdition(flat);
  return allEditions().map((edition) => [edition.id, edition] as const);
}
