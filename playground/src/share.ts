// A fight as data: the scene, the dice seed and every step taken, so replaying the steps on a
// fresh table gives the same fight. It travels in the URL fragment ("#fight=..."), base64url of
// JSON, and a link is untrusted input: it is validated before anything runs, and bounded (LIMITS)
// so that any link replays in a moment. The chat box is bounded the same way (Fight.apply), so
// every fight the page makes can be shared.
import * as v from 'valibot';
import { matchingClose } from '../../mocks/chat-message.js';

export const SCENES = ['demo'] as const;
export type SceneId = (typeof SCENES)[number];

export const BAR_KEYS = ['bar1_value', 'bar1_max', 'bar2_value', 'bar2_max', 'bar3_value', 'bar3_max'] as const;
export type BarKey = (typeof BAR_KEYS)[number];

/** The share format this playground writes and reads. */
export const FORMAT = 1;

/**
 * What one fight may hold. The dice parser rolls about a die a microsecond and an inline roll costs
 * some more, so a fight at every bound at once replays in well under the couple of seconds a link
 * may take (the browser test measures it); the characters keep a link short enough to open. Sheet
 * formulas are work too: the script works each attribute out once per read of a token, so a read
 * costs at most the references on the sheet, and these are counted as written (issue 29: nine
 * steps of formulas referring to formulas held the page up before the script counted its work).
 */
export const LIMITS = {
  /** Steps in a fight. */
  steps: 500,
  /** Characters in one chat line. */
  lineChars: 4000,
  /** Characters in all the fight's chat lines. */
  fightChars: 200_000,
  /** Dice in one roll ([[...]] with the rolls nested in it, or a /roll): the parser's own limit. */
  rollDice: 1000,
  /** Dice in one chat line. */
  lineDice: 2000,
  /** Dice in the whole fight. */
  fightDice: 50_000,
  /** Rolls in one chat line, nested ones included. */
  lineRolls: 100,
  /** Rolls in the whole fight. */
  fightRolls: 5000,
  /** Attribute references (@{...}) written into sheets in the whole fight. */
  fightRefs: 500,
} as const;

const Name = v.pipe(v.string(), v.minLength(1), v.maxLength(100));
const Value = v.pipe(v.string(), v.maxLength(100));
const Selection = v.pipe(v.array(Name), v.maxLength(20));

const SayStep = v.strictObject({
  k: v.literal('say'),
  /** The player who speaks, by display name. */
  as: Name,
  /** The selected tokens, by name. */
  sel: Selection,
  line: v.pipe(v.string(), v.minLength(1), v.maxLength(LIMITS.lineChars)),
});
const EditStep = v.strictObject({
  k: v.literal('edit'),
  token: Name,
  set: v.pipe(
    v.record(v.picklist(BAR_KEYS), Value),
    v.check((set) => Object.keys(set).length > 0, 'an edit changes something'),
  ),
});
const SheetStep = v.strictObject({
  k: v.literal('sheet'),
  char: Name,
  attr: Name,
  current: v.optional(Value),
  max: v.optional(Value),
});
const NextStep = v.strictObject({ k: v.literal('next') });

const STEP_KINDS = ['say', 'edit', 'sheet', 'next'] as const;
const StepSchema = v.variant('k', [SayStep, EditStep, SheetStep, NextStep]);
export type Step = v.InferOutput<typeof StepSchema>;
export type SayStep = v.InferOutput<typeof SayStep>;
export type EditStep = v.InferOutput<typeof EditStep>;
export type SheetStep = v.InferOutput<typeof SheetStep>;

const SpecSchema = v.strictObject({
  v: v.literal(FORMAT),
  scene: v.picklist(SCENES),
  seed: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2 ** 31 - 1)),
  steps: v.pipe(v.array(StepSchema), v.maxLength(LIMITS.steps)),
  /** Who was speaking and what was selected when the link was made. */
  as: v.optional(Name),
  sel: v.optional(Selection),
});
export type FightSpec = v.InferOutput<typeof SpecSchema>;

export const FRAGMENT_KEY = 'fight';

export function emptySpec(): FightSpec {
  return { v: 1, scene: 'demo', seed: 1, steps: [] };
}

export function encodeSpec(spec: FightSpec): string {
  const bytes = new TextEncoder().encode(JSON.stringify(spec));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export type Decoded = { ok: true; spec: FightSpec } | { ok: false; error: string };

/** Reads a link's fight; a link that is damaged, from another format or over a bound says why in plain words. */
export function decodeSpec(text: string): Decoded {
  let json: unknown;
  try {
    const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (ch) => ch.charCodeAt(0));
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    return { ok: false, error: 'the link is damaged: its fight cannot be read' };
  }
  if (!isRecord(json)) return { ok: false, error: 'the link holds no fight: its data is not a fight' };
  if (json.v !== FORMAT) return { ok: false, error: formatProblem(json.v) };
  const parsed = v.safeParse(SpecSchema, json);
  if (!parsed.success) return { ok: false, error: plainIssue(parsed.issues[0], json) };
  let tally = emptyTally();
  for (const [i, step] of parsed.output.steps.entries()) {
    const over = overBound(step, tally);
    if (over) return { ok: false, error: linkBoundText(over, i + 1) };
    tally = addStep(tally, step);
  }
  return { ok: true, spec: parsed.output };
}

/** The fragment of a page address: "#fight=..." for a fight, or nothing for a fresh table. */
export function fragmentOf(spec: FightSpec): string {
  const bare = spec.steps.length === 0 && spec.as === undefined && (spec.sel ?? []).length === 0 && spec.seed === 1;
  return bare ? '' : `#${FRAGMENT_KEY}=${encodeSpec(spec)}`;
}

/** True when a fragment is the page's business: a fight, or none (a fresh table). "#top" and the like are not. */
export function isFightFragment(hash: string): boolean {
  return hash === '' || hash === '#' || hash.startsWith(`#${FRAGMENT_KEY}=`);
}

/** Reads a fragment; no fight in it is a fresh table. */
export function specFromFragment(hash: string): Decoded {
  const text = hash.replace(/^#/, '');
  if (text === '') return { ok: true, spec: emptySpec() };
  const match = new RegExp(`^${FRAGMENT_KEY}=([A-Za-z0-9_-]*)$`).exec(text);
  if (!match) return { ok: false, error: 'the link holds no fight the playground knows' };
  return decodeSpec(match[1] ?? '');
}

// ---- plain words for what is wrong with a link ------------------------------------------------

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function formatProblem(format: unknown): string {
  if (typeof format === 'number' && Number.isInteger(format) && format > FORMAT) {
    return `this link was made by a newer playground (format ${format}); this one reads format ${FORMAT}: open it with a newer copy of the page`;
  }
  if (format === undefined) return 'the link holds no format number, so it is no fight this playground wrote';
  return `the link's format (${JSON.stringify(format).slice(0, 20)}) is not one this playground reads (it reads format ${FORMAT})`;
}

type Issue = v.InferIssue<typeof SpecSchema>;

function plainIssue(issue: Issue | undefined, json: Record<string, unknown>): string {
  const path = (issue?.path ?? []).map((item) => item.key);
  const unknownKey = issue?.type === 'strict_object' && issue.expected === 'never';
  const [top, index] = path;
  if (top === 'steps' && typeof index === 'number') {
    const steps = json.steps as unknown[];
    return `step ${index + 1} is not a step this playground knows${stepDetail(steps[index], path.slice(2), unknownKey)}`;
  }
  if (unknownKey && path.length === 1) return `the link holds "${String(top).slice(0, 40)}", which is not part of a fight this playground knows`;
  switch (top) {
    case 'scene':
      return `the link's scene ${JSON.stringify(json.scene).slice(0, 40)} is not one this playground has (it has ${SCENES.join(', ')})`;
    case 'seed':
      return `the link's dice seed is not a whole number from 1 to ${2 ** 31 - 1}`;
    case 'steps':
      return Array.isArray(json.steps)
        ? `the link holds ${json.steps.length} steps, more than the ${LIMITS.steps} a shared fight may have`
        : "the link's steps are not a list of steps";
    case 'as':
      return "the link's speaker is not a player's name";
    case 'sel':
      return "the link's selection is not a list of up to 20 token names";
    default:
      return 'the link holds no fight this playground can read';
  }
}

/** Why one step is not a step: "" for a kind the playground does not know, else ": its line ...". */
function stepDetail(step: unknown, path: unknown[], unknownKey: boolean): string {
  if (!isRecord(step)) return ' (it is not a step at all)';
  const kind = step.k;
  if (typeof kind !== 'string' || !(STEP_KINDS as readonly string[]).includes(kind)) {
    return typeof kind === 'string' ? ` (a "${kind.slice(0, 40)}" step)` : '';
  }
  const [field] = path;
  if (unknownKey) return `: a ${kind} step holds no "${String(field).slice(0, 40)}"`;
  switch (field) {
    case 'as':
      return ": its speaker is not a player's name";
    case 'sel':
      return ': its selection is not a list of up to 20 token names';
    case 'line': {
      const line = step.line;
      if (typeof line !== 'string') return ': its line is not text';
      if (line === '') return ': its line is empty';
      return `: its line is ${count(line.length)} characters long, more than the ${count(LIMITS.lineChars)} a line may have`;
    }
    case 'token':
      return ": it names no token (a token's name is 1 to 100 characters)";
    case 'char':
      return ": it names no character (a character's name is 1 to 100 characters)";
    case 'attr':
      return ": it names no attribute (an attribute's name is 1 to 100 characters)";
    case 'set':
      return ": it does not type into a token's bars (bar1_value to bar3_max, each at most 100 characters, at least one)";
    case 'current':
    case 'max':
      return `: its ${field} value is not text of at most 100 characters`;
    default:
      return '';
  }
}

// ---- bounds -------------------------------------------------------------------------------------

/** What the fight's steps have used so far. */
export interface Tally {
  steps: number;
  chars: number;
  rolls: number;
  dice: number;
  /** Attribute references written into sheets. */
  refs: number;
}

export function emptyTally(): Tally {
  return { steps: 0, chars: 0, rolls: 0, dice: 0, refs: 0 };
}

/** One bound a step would break: `amount` against `limit` (for a roll, the roll's text). */
export type Bound =
  | { kind: 'steps' | 'lineChars' | 'fightChars' | 'lineDice' | 'fightDice' | 'lineRolls' | 'fightRolls' | 'fightRefs'; amount: number; limit: number }
  | { kind: 'rollDice'; amount: number; limit: number; roll: string };

export function addStep(tally: Tally, step: Step): Tally {
  if (step.k === 'sheet') return { ...tally, steps: tally.steps + 1, refs: tally.refs + sheetRefs(step) };
  if (step.k !== 'say') return { ...tally, steps: tally.steps + 1 };
  const cost = rollCost(step.line);
  return { ...tally, steps: tally.steps + 1, chars: tally.chars + step.line.length, rolls: tally.rolls + cost.rolls, dice: tally.dice + cost.dice };
}

/** The attribute references a sheet edit writes: each "@{" of its current and max (a formula's look-ups). */
export function sheetRefs(step: SheetStep): number {
  return countOf(step.current ?? '', '@{') + countOf(step.max ?? '', '@{');
}

/** The first bound the step would break, taken after the tally's steps; undefined when it fits. */
export function overBound(step: Step, tally: Tally): Bound | undefined {
  if (tally.steps + 1 > LIMITS.steps) return { kind: 'steps', amount: tally.steps + 1, limit: LIMITS.steps };
  if (step.k === 'sheet') {
    const refs = tally.refs + sheetRefs(step);
    return refs > LIMITS.fightRefs ? { kind: 'fightRefs', amount: refs, limit: LIMITS.fightRefs } : undefined;
  }
  if (step.k !== 'say') return undefined;
  const line = step.line;
  if (line.length > LIMITS.lineChars) return { kind: 'lineChars', amount: line.length, limit: LIMITS.lineChars };
  const cost = rollCost(line);
  if (cost.biggest && cost.biggest.dice > LIMITS.rollDice) return { kind: 'rollDice', amount: cost.biggest.dice, limit: LIMITS.rollDice, roll: cost.biggest.text };
  if (cost.dice > LIMITS.lineDice) return { kind: 'lineDice', amount: cost.dice, limit: LIMITS.lineDice };
  if (cost.rolls > LIMITS.lineRolls) return { kind: 'lineRolls', amount: cost.rolls, limit: LIMITS.lineRolls };
  if (tally.chars + line.length > LIMITS.fightChars) return { kind: 'fightChars', amount: tally.chars + line.length, limit: LIMITS.fightChars };
  if (tally.dice + cost.dice > LIMITS.fightDice) return { kind: 'fightDice', amount: tally.dice + cost.dice, limit: LIMITS.fightDice };
  if (tally.rolls + cost.rolls > LIMITS.fightRolls) return { kind: 'fightRolls', amount: tally.rolls + cost.rolls, limit: LIMITS.fightRolls };
  return undefined;
}

const count = (n: number) => n.toLocaleString('en-US');
const shorten = (text: string) => (text.length > 40 ? `${text.slice(0, 37)}...` : text);

/** A bound a link's step breaks, for the note that the link could not be loaded. */
export function linkBoundText(bound: Bound, step: number): string {
  const { amount, limit } = bound;
  switch (bound.kind) {
    case 'steps':
      return `the link holds more than ${count(limit)} steps, the most a shared fight may have`;
    case 'lineChars':
      return `step ${step}'s line is ${count(amount)} characters long, more than the ${count(limit)} a line may have`;
    case 'rollDice':
      return `step ${step} can roll up to ${count(amount)} dice in one roll (${shorten(bound.roll)}), more than the ${count(limit)} a roll may have`;
    case 'lineDice':
      return `step ${step} can roll up to ${count(amount)} dice, more than the ${count(limit)} a line may roll`;
    case 'lineRolls':
      return `step ${step} makes ${count(amount)} rolls, more than the ${count(limit)} a line may make`;
    case 'fightChars':
      return `the link's lines hold ${count(amount)} characters by step ${step}, more than the ${count(limit)} a shared fight may hold`;
    case 'fightDice':
      return `the link's fight can roll up to ${count(amount)} dice by step ${step}, more than the ${count(limit)} a shared fight may roll`;
    case 'fightRolls':
      return `the link's fight makes ${count(amount)} rolls by step ${step}, more than the ${count(limit)} a shared fight may make`;
    case 'fightRefs':
      return `the link's sheets refer to attributes ${count(amount)} times by step ${step}, more than the ${count(limit)} a shared fight's sheets may`;
  }
}

/** A bound a step taken now would break, for the note in the chat log (nothing was sent). */
export function liveBoundText(bound: Bound): string {
  const { amount, limit } = bound;
  const why = 'so that a shared fight replays in a moment';
  const fresh = 'Reset for a fresh table to go on.';
  switch (bound.kind) {
    case 'steps':
      return `Not done: this fight has its ${count(limit)} steps, the most a shared fight may have. ${fresh}`;
    case 'lineChars':
      return `Not sent: the line is ${count(amount)} characters long; the playground sends at most ${count(limit)}.`;
    case 'rollDice':
      return `Not sent: ${shorten(bound.roll)} can roll up to ${count(amount)} dice; one roll may have at most ${count(limit)}, ${why}.`;
    case 'lineDice':
      return `Not sent: the line can roll up to ${count(amount)} dice; a line may roll at most ${count(limit)}, ${why}.`;
    case 'lineRolls':
      return `Not sent: the line makes ${count(amount)} rolls; a line may make at most ${count(limit)}, ${why}.`;
    case 'fightChars':
      return `Not sent: this fight's lines would hold ${count(amount)} characters; a shared fight holds at most ${count(limit)}. ${fresh}`;
    case 'fightDice':
      return `Not sent: this fight could then roll up to ${count(amount)} dice in all; a shared fight rolls at most ${count(limit)}, ${why}. ${fresh}`;
    case 'fightRolls':
      return `Not sent: this fight would make ${count(amount)} rolls in all; a shared fight makes at most ${count(limit)}, ${why}. ${fresh}`;
    case 'fightRefs':
      return `Not done: this fight's sheets would refer to attributes ${count(amount)} times; a shared fight's sheets refer at most ${count(limit)} times, ${why}. ${fresh}`;
  }
}

// ---- what a line rolls --------------------------------------------------------------------------

export interface RollCost {
  /** Rolls: each [[...]] (nested ones too) and a /roll line. */
  rolls: number;
  /** The most dice the line's rolls can roll, all told. */
  dice: number;
  /** The roll with the most dice. */
  biggest?: { text: string; dice: number };
}

/** As many rerolls as the dice parser makes of one die before it stops (1d1! rolls 1,001 dice). */
const REROLL_CAP = 1001;

/**
 * What a line rolls when the chat sends it, counted without rolling: the mock rolls each [[...]]
 * (and the rest of a /roll, /r, /gr or /gmroll line) with the dice parser. The count is an upper
 * bound: a number of dice worked out in the roll ((1d4)d6, [[...]]d6) counts as the 1,000 the
 * parser allows at most, and an exploding or rerolling die as twice the dice it rolls on average
 * (all 1,001 the parser may roll when every face rerolls).
 */
export function rollCost(line: string): RollCost {
  const regions: string[] = [];
  const command = /^\/(r|roll|gr|gmroll)(?:\s+|$)/i.exec(line);
  if (command) regions.push(line.slice(command[0].length));
  else {
    let from = 0;
    for (;;) {
      const start = line.indexOf('[[', from);
      if (start < 0) break;
      const end = closingOf(line, start);
      regions.push(line.slice(start, end));
      from = end;
    }
  }
  const cost: RollCost = { rolls: 0, dice: 0 };
  for (const region of regions) {
    const rolls = command ? 1 + countOf(region, '[[') : countOf(region, '[[');
    const dice = diceIn(region);
    cost.rolls += rolls;
    cost.dice += dice;
    if (!cost.biggest || dice > cost.biggest.dice) cost.biggest = { text: region, dice };
  }
  return cost;
}

/** The end of the roll that opens at `start` (after its "]]"), or the line's end when it is not closed. */
function closingOf(text: string, start: number): number {
  const close = matchingClose(text, start);
  return close < 0 ? text.length : close + 2;
}

function countOf(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

// A dice term: a count (a number, a group worked out, or a nested roll's result), "d", the sides,
// and the modifiers that follow up to the next operator or space.
const TERM = /(\d+|\([^()]*\)|\]\]|\))?d(\d+|%|F|\([^()]*\))([^\s+\-*/(){},[\]]*)/gi;
const CLAUSE = /(!!|!p|!|ro|r)([<>=]?)(\d*)/gi;

function diceIn(expression: string): number {
  let total = 0;
  for (const term of expression.matchAll(TERM)) {
    const [, count = '', sides = '', modifiers = ''] = term;
    total += diceOf(count) * rerollFactor(sides, modifiers);
  }
  return total;
}

function diceOf(count: string): number {
  if (count === '') return 1;
  const n = /^\(?\s*(\d+)\s*\)?$/.exec(count);
  return n ? Number(n[1]) : LIMITS.rollDice;
}

/** How many dice one die may roll with its rerolling and exploding clauses (1 without any). */
function rerollFactor(sidesText: string, modifiers: string): number {
  const clauses = [...modifiers.matchAll(CLAUSE)];
  if (clauses.length === 0) return 1;
  const literal = /^\(?\s*(\d+)\s*\)?$/.exec(sidesText);
  const sides = sidesText === '%' ? 100 : literal ? Number(literal[1]) : NaN;
  let once = false;
  let rerolling = 0;
  let repeated = false;
  for (const [, clause = '', compare = '', numberText = ''] of clauses) {
    if (clause.toLowerCase() === 'ro') {
      once = true;
      continue;
    }
    repeated = true;
    const target = numberText === '' ? (clause.startsWith('!') ? sides : 1) : Number(numberText);
    if (compare === '>') rerolling += Math.max(0, sides - target + 1);
    else if (compare === '<') rerolling += Math.min(sides, target);
    else rerolling += 1;
  }
  if (!repeated) return 2;
  if (!Number.isFinite(sides)) return REROLL_CAP;
  const stopping = sides - Math.min(sides, rerolling);
  const factor = stopping <= 0 ? REROLL_CAP : Math.min(REROLL_CAP, 2 * Math.ceil(sides / stopping));
  return once ? Math.min(REROLL_CAP, factor * 2) : factor;
}
