// The one pipeline every command runs through (architecture.md, "One pipeline"): targets -> read
// facts once -> roll -> resolve -> write -> render -> send -> record. Handlers only parse their
// command into a plan and say what is special about them.
import { isRefusal, type AnyEdition, type Die, type Outcome, type Plan, type PlanContext, type Refusal, type Rolls, type Step, type WordsContext } from '../rules/edition';
import { wordsOf } from '../rules/sharedSteps';
import { editionOf } from '../rules/editions';
import { findCharacter, findToken, readFacts, readToken, tokenName, type ReadContext, type ReadOptions, type TokenReading, type TokenSnapshot, type ValueProblem } from '../roll20/read';
import { applyOutcome, type WriteContext, type WriteOptions } from '../roll20/write';
import { rollDice } from '../roll20/dice';
import { entryKey, readTurnOrder, rowText, textHash, writeTurnOrder, type TurnOrderBatch } from '../roll20/turnorder';
import { currentRow } from '../roll20/turnMarker';
import type { AppliedToken, StoredChange } from '../state/history';
import type { Memories } from '../state/memory';
import { refuse, reply, type App, type CommandContext } from './context';
import { present, visibilityOf, type AttackTitles, type PresentOptions, type Shown } from './present';
import type { CardSource } from '../render/cards';
import { barProblem } from './barProblem';
import { ownedByGm, recordApplication, undoCommand } from './history';
import { isCard, type Target } from './targets';
import { controls, RELAYED } from '../roll20/players';
import { hiddenFromPlayers } from '../roll20/visible';
import { echo, optionalInteger, parseLine, type ParsedLine } from '../text/args';
import { GroupedRefusals, tidyRefusals } from './refusals';
import { healthColors } from '../roll20/otherScripts';
import { cutWhole } from '../text/cut';
import { turnStartOf } from '../state/turnStart';

export function activeEdition(app: App): AnyEdition {
  return editionOf(app.store.settings.edition);
}

/** What plans may need of the settings: the overwhelm limit, where stamina lives, whether the sender is the GM. */
export function planContext(app: App, gm: boolean): PlanContext {
  const bars = app.store.settings.bars;
  // stamina-bar: 'power' (the Power resource) or a bar, which holds one of the three resources.
  const stamina = bars.stamina === 'power' ? 'power' : bars.vitality === bars.stamina ? 'vitality' : bars.soul === bars.stamina ? 'soul' : 'power';
  return { overwhelmLimit: app.store.settings.overwhelmLimit, stamina, gm };
}

/** A token's name for the words of a step or a refusal (its id when it is gone or has none). */
export function tokenNameById(id: string): string {
  const token = findToken(id);
  return token ? tokenName(token, id) : id;
}

/** The memories commands change: token records and the exchange's answers on file. */
export function memoriesOf(app: App): Memories {
  return app.store;
}

/** The edition before the last switch, which judges tokens first met since (not the active one itself). */
export function editionLeftOf(app: App): AnyEdition | undefined {
  const left = app.store.editionLeft;
  return left !== undefined && left !== app.store.settings.edition ? editionOf(left) : undefined;
}

/** Whether the sender may read this token's numbers: the GM, its controller, or anyone when its breakdowns are public. */
export function senderMaySee(ctx: CommandContext, snapshot: Pick<TokenSnapshot, 'token' | 'character' | 'npc' | 'hidden'>): boolean {
  return ctx.gm || controls(ctx.playerId, snapshot.token, snapshot.character) || visibilityOf(ctx.app, snapshot) === 'public';
}

/** What reading a token needs of the table: made once per command, shared by its targets. */
export function readContext(app: App, turnOrder?: readonly Roll20TurnEntry[]): ReadContext {
  const context: ReadContext = {
    settings: app.store.settings,
    attributes: app.attributes,
    edition: activeEdition(app),
    tokens: app.store.tokens,
    waiting: app.store.exchange.waiting,
  };
  if (turnOrder) {
    context.turnOrder = turnOrder;
    const row = currentRow(turnOrder);
    if (row) {
      context.turnRow = row;
      // The count its turn began at, as the last look at the tracker kept it (commands/rounds.ts).
      const start = turnStartOf(app.store.round.start, textHash(entryKey(row)));
      if (start !== undefined) context.turnStart = start;
      const id = rowText(row.id);
      const token = id !== '' && id !== '-1' ? findToken(id) : undefined;
      if (token !== undefined && hiddenFromPlayers(token)) context.turnRowHidden = true;
    }
  }
  const left = editionLeftOf(app);
  if (left) context.editionLeft = left;
  return context;
}

/** Reads one token's facts for a plan, once, before its rules run. */
export function readTarget<S>(app: App, target: Target, plan: Pick<Plan<S>, 'values' | 'maxes' | 'bars' | 'others' | 'more'>, context: ReadContext = readContext(app), options?: ReadOptions): TokenReading<S> {
  const snapshot = readToken(target.token, target.character, app.store.settings);
  const tokens = app.store.tokens;
  return readFacts<S>(snapshot, tokens[snapshot.id], plan, context, tokens[snapshot.home], options);
}

/** Why a target cannot go to the rules as read: a bar they count on, or a value, holds no number (undefined: it can). */
export function unreadable(app: App, reading: TokenReading<unknown>, maySee = true, outcome?: string): string | undefined {
  if (reading.brokenBar !== undefined) return describeTokenRefusal(app, reading.snapshot, { kind: 'bar', resource: reading.brokenBar }, maySee);
  if (reading.problems.length > 0) return describeValueProblems(reading.snapshot, reading.problems, outcome);
  return undefined;
}

/** A refusal in one line, naming the token (and the attribute to set, for a missing value); raw values only to who may see them. */
export function describeTokenRefusal(app: App, snapshot: TokenSnapshot, refusal: Refusal, maySee = true): string {
  switch (refusal.kind) {
    case 'refused':
      return refusal.nameFirst ? `${snapshot.name} ${refusal.reason}` : `${snapshot.name}: ${refusal.reason}`;
    case 'bar':
      if (!maySee) return `${snapshot.name}: a bar it needs holds no whole number; left as it was`;
      return barProblem(snapshot, refusal.resource) ?? `${snapshot.name}: ${refusal.resource} is not a number`;
    case 'missing-value':
      if (!snapshot.character) return `${snapshot.name}: cannot roll this check: it represents no character and has no ${refusal.key} of its own (!defense-round set ${refusal.key} N)`;
      return `${snapshot.name}: cannot roll this check: its character has no number in the attribute "${app.store.settings.attributes[refusal.key]}" (set it on the sheet, or !defense-round set ${refusal.key} N)`;
  }
}

/**
 * The refusal of a target whose character value holds neither a number nor a formula Roll20 could
 * work out: the attribute named, and what to do (it is never read as 0).
 */
export function describeValueProblems(snapshot: TokenSnapshot, problems: readonly ValueProblem[], outcome = '; nothing changed'): string {
  const first = problems[0]!;
  const field = first.which === 'max' ? `the max of "${echo(first.attribute, 30)}"` : `"${echo(first.attribute, 30)}"`;
  return `${snapshot.name}: ${field} ${echo(first.problem, 70)}; put a number there, or !defense-round set ${first.key} N${outcome}`;
}

/** What writing needs of the script: made once per command, shared by its targets. */
export function writeContext(app: App): WriteContext {
  return { settings: app.store.settings, edition: activeEdition(app), memories: memoriesOf(app) };
}

/** One written outcome as chat will show it: its words made only when it is shown. */
class ShownOutcome implements Shown {
  title?: Step;
  typed?: string;
  answer?: string;
  summary?: string;
  /** What the pipeline tells its words (an attack's answer said on its own row). */
  readonly told: WordsContext = {};
  /** The words of a step (the card says every outcome it shows): called straight, one call per step. */
  readonly say: (step: Step, told?: WordsContext) => string;

  constructor(
    readonly snapshot: TokenSnapshot,
    readonly outcome: Outcome<unknown>,
    readonly changes: StoredChange[],
    readonly notes: string[],
    edition: AnyEdition,
    nameOf: (id: string) => string,
  ) {
    this.say = wordsNaming(edition, snapshot, nameOf, this.told);
  }

  forDetails(): CardSource {
    const { id, name } = this.snapshot;
    const kept: CardSource = { snapshot: { id, name }, outcome: { steps: this.outcome.steps }, notes: this.notes, say: this.say };
    if (this.title) kept.title = this.title;
    if (this.typed) kept.typed = this.typed;
    if (this.answer) kept.answer = this.answer;
    return kept;
  }
}

/** A step's words, with names for ids; the token's own is the name it was read with. */
function wordsNaming(edition: AnyEdition, token: { id: string; name: string }, nameOf: (id: string) => string, told: WordsContext): (step: Step, told?: WordsContext) => string {
  const { id, name } = token;
  return wordsOf(edition, (other) => (other === id ? name : nameOf(other)), told);
}

/** Writes one resolved outcome; returns what it changed (for undo) and what to show. */
function write<S>(
  app: App,
  reading: TokenReading<S>,
  outcome: Outcome<S>,
  options: WriteOptions & { title?: Step } = {},
  context: WriteContext = writeContext(app),
): { applied: AppliedToken; shown: Shown } {
  const { snapshot } = reading;
  const written = applyOutcome(context, reading, outcome, options);
  const shown: Shown = new ShownOutcome(snapshot, outcome as Outcome<unknown>, written.changes, written.notes, context.edition, tokenNameById);
  if (options.title) shown.title = options.title;
  return {
    // The name only labels the entry (the history keeps at most 200 characters of it).
    applied: { tokenId: snapshot.id, name: cutWhole(snapshot.name, 200), changes: written.changes },
    shown,
  };
}

/** The target is still on the table, as it was, and still the sender's to touch (after an asynchronous roll). */
function stillThere(ctx: CommandContext, target: Target, anyTarget: boolean): boolean {
  const token = findToken(target.token.id);
  if (!token || isCard(token)) return false;
  const characterId = target.character?.id ?? '';
  if (String(token.get('represents') ?? '') !== characterId) return false;
  const character = characterId ? findCharacter(characterId) : undefined;
  if (characterId && !character) return false;
  return ctx.gm || anyTarget || controls(ctx.playerId, token, character);
}

/** commands.md, "Numbers written": a value outside the safe integers is refused, never written. */
export function unsafeResult(outcome: Outcome<unknown>): number | undefined {
  for (const change of outcome.changes) {
    if ((change.kind === 'bar' || change.kind === 'value') && !Number.isSafeInteger(change.to)) return change.to;
    if (change.kind === 'initiative' && !(Number.isFinite(change.to) && Math.abs(change.to) <= 1e9)) return change.to;
  }
  return undefined;
}


export interface RunOptions {
  /** The sender may target tokens they do not control (players-target-any, for !damage). */
  anyTarget?: boolean;
  /** The multi-target cards' title, e.g. "Damage: 3 tokens". */
  title: string;
  /** Record the applications for `!damage --undo`. */
  record?: boolean;
  /** Whose undo it is, when not the sender's (an attack's resolution is its declarer's). */
  recordBy?: string;
  /**
   * Called just before anything is written (after the roll, when there is one): a reason to write
   * nothing (an attack cancelled while its roll was out), or undefined to go on.
   */
  claim?: () => string | undefined;
  /** The whisper naming every refused target (each reason once, without its full stop); `anyApplied`: some target was not refused. */
  refusals: (refused: string[], anyApplied: boolean) => string;
  /** An attack's result (the exchange's): its cards' titles name the attacker and the hit. */
  attack?: AttackTitles;
}

/**
 * The rolls the sender typed rather than rolled, in the card's words ("typed, not rolled: --roll
 * 99"); undefined when none was. A die is rolled only as one inline roll of dice (with modifiers):
 * [[1d100]] or [[1d20+5]] is Roll20's own roll; 99, [[99]], [[1d1*20]] or a query in brackets is typed.
 */
export function typedRolls(ctx: CommandContext, dice: readonly Die[]): string | undefined {
  const given = dice.flatMap((die) => (die.flag !== undefined && ctx.parsed.flags.has(die.flag) ? [die.flag] : []));
  if (given.length === 0) return undefined;
  const raw = parseLine(ctx.msg.content ?? '');
  const typed = given.filter((flag) => !isDieRoll((raw.flags.get(flag) ?? []).join(' '), ctx.msg.inlinerolls));
  if (typed.length === 0) return undefined;
  return `typed, not rolled: ${typed.map((flag) => `--${flag} ${(ctx.parsed.flags.get(flag) ?? []).join(' ')}`).join(', ')}`;
}

/** A die count and sides, then Roll20's die modifiers (keep, drop, reroll, explode, crit ranges), then whole-number terms. */
const DIE_ROLL = /^\s*(\d*)d(\d+)(?:[kd][hl]?\d+|!{1,2}p?|r[<>=]?\d+|ro[<>=]?\d+|c[sf][<>=]?\d+)*\s*(?:[+-]\s*\d+\s*)*$/i;

/** Whether a flag's raw text is exactly one inline roll whose expression rolls a real die (two sides or more). */
function isDieRoll(text: string, inlineRolls: Roll20InlineRoll[] | undefined): boolean {
  const only = /^\s*\$\[\[(\d+)\]\]\s*$/.exec(text);
  if (!only) return false;
  const roll = inlineRolls?.[Number(only[1])];
  const die = DIE_ROLL.exec(String(roll?.expression ?? ''));
  if (!die) return false;
  const count = die[1] === '' ? 1 : Number(die[1]);
  return count >= 1 && Number(die[2]) >= 2;
}

/** The dice the sender gave with their flags (each 1 to its sides), by name; a bad one is a UsageError. */
export function givenDice(parsed: ParsedLine, dice: readonly Die[]): Record<string, number> {
  const given: Record<string, number> = {};
  for (const die of dice) {
    const value = die.flag === undefined ? undefined : optionalInteger(parsed, die.flag, 1, die.sides);
    if (value !== undefined) given[die.name] = value;
  }
  return given;
}

/** A target's rolls by name: the given ones, then Roll20's in the plan's order, from `from` in `rolled` (every target's, in turn). */
export function rollsOf(dice: readonly Die[], given: Readonly<Record<string, number>>, rolled: readonly number[], from: number): Rolls {
  if (dice.length === 0) return NO_ROLLS;
  const rolls: Record<string, number> = { ...given };
  let next = from;
  for (const die of dice) if (rolls[die.name] === undefined) rolls[die.name] = rolled[next++] ?? die.sides;
  return rolls;
}

/** No dice rolled (a plan that needs none). */
export const NO_ROLLS: Rolls = Object.freeze({});
/** A plan without dice is given none. */
const NO_GIVEN: Readonly<Record<string, number>> = Object.freeze({});
const NO_ROLLED: readonly number[] = [];
/** A plan without dice rolls none (one empty list for all of them). */
const NO_DICE: Die[] = [];

/** What one target's plan came to: written (what it changed, and what to show), or why nothing was. */
export type TargetResult<S> =
  | { kind: 'written'; outcome: Outcome<S>; applied: AppliedToken; shown: Shown; reading: TokenReading<S> }
  | { kind: 'refusal'; refusal: Refusal; reading: TokenReading<S> }
  /** A character value the rules read holds neither a number nor a formula of numbers. */
  | { kind: 'problems'; reading: TokenReading<S> }
  /** commands.md, "Numbers written": a result beyond the safe integers is never written. */
  | { kind: 'unsafe'; value: number; reading: TokenReading<S> };

/**
 * The one path of a plan on one token: read its facts once (a bar or value that cannot be read
 * refuses it then, before the rules run), resolve them, check what came out, write it. Commands run
 * it per target; hand edits, edition switches and repairs run it too. `options` say how to read it
 * besides the plan (a hand edit starts from the value before).
 */
export function applyPlanTo<S>(
  app: App,
  target: Target,
  plan: Plan<S>,
  rolls: Rolls,
  reads: ReadContext,
  writes: WriteContext,
  writeOptions: (outcome: Outcome<S>) => WriteOptions & { title?: Step },
  options?: ReadOptions,
): TargetResult<S> {
  const reading = readTarget(app, target, plan, reads, options);
  if (reading.brokenBar !== undefined) return { kind: 'refusal', refusal: { kind: 'bar', resource: reading.brokenBar }, reading };
  if (reading.problems.length > 0) return { kind: 'problems', reading };
  const resolution = plan.resolve(reading.facts, rolls);
  if (isRefusal(resolution)) return { kind: 'refusal', refusal: resolution, reading };
  const unsafe = unsafeResult(resolution);
  if (unsafe !== undefined) return { kind: 'unsafe', value: unsafe, reading };
  const { applied, shown } = write(app, reading, resolution, writeOptions(resolution), writes);
  return { kind: 'written', outcome: resolution, applied, shown, reading };
}

/** A plan that needs no dice, on tokens the script found itself (an edition switch, a repair): written, nothing said. */
export function applyQuietly<S>(app: App, targets: readonly Target[], plan: Plan<S>): Array<TargetResult<S>> {
  const reads = readContext(app);
  const writes = writeContext(app);
  return targets.map((target) => applyPlanTo(app, target, plan, NO_ROLLS, reads, writes, () => ({ notify: false })));
}

/** Runs a plan on every permitted target. `notes` name targets refused before anything was read. */
export function runPlan<S>(ctx: CommandContext, plan: Plan<S>, targets: readonly Target[], notes: readonly string[], options: RunOptions): void | Promise<void> {
  const given = plan.dice.length === 0 ? NO_GIVEN : givenDice(ctx.parsed, plan.dice);
  // A player's typed rolls are marked for everyone to see; the GM knows what the GM typed.
  const typed = ctx.gm ? undefined : typedRolls(ctx, plan.dice);
  return runPlans(
    ctx,
    targets.map((target) => {
      const item: PlannedTarget<S> = { target, plan, given };
      if (typed) item.typed = typed;
      return item;
    }),
    notes,
    options,
  );
}

/** One target of a command, with its own plan (an attack's defenders each answered in their way). */
export interface PlannedTarget<S> {
  target: Target;
  plan: Plan<S>;
  /** The dice its line gave with their flags, by name. */
  given: Readonly<Record<string, number>>;
  /** Rolls typed rather than rolled, said on its card. */
  typed?: string;
  /** How its defender answered (an attack's row says it). */
  answer?: string;
  /** Its answer row says the defense its hit read: the edition's words do not say it again. */
  answered?: true;
  /** The defense its hit reads instead of the one on file (an attack's answer; null: none): read, never filed. */
  answerGiven?: { answer: unknown };
  /** Its answer replaces the defense on file (made ahead for another situation): the hit clears it. */
  replacesFiled?: true;
}

/**
 * Runs each target's plan: one roll message for every die still to roll, then each target read,
 * resolved and written. A command with no dice to roll runs to its end at once, without a promise
 * (most commands: no awaits, so no promises made per command); one with dice, once Roll20 rolled.
 */
export function runPlans<S>(ctx: CommandContext, items: ReadonlyArray<PlannedTarget<S>>, notes: readonly string[], options: RunOptions): void | Promise<void> {
  // The dice still to roll, per target (worked out once for a run of targets sharing one plan).
  let last: PlannedTarget<S> | undefined;
  let lastDice: Die[] = [];
  let anyDice = false;
  let readsTurnOrder = false;
  const toRoll: Die[][] = [];
  for (const item of items) {
    if (last === undefined || item.plan !== last.plan || item.given !== last.given) lastDice = item.plan.dice.length === 0 ? NO_DICE : item.plan.dice.filter((die) => item.given[die.name] === undefined);
    last = item;
    toRoll.push(lastDice);
    anyDice ||= lastDice.length > 0;
    readsTurnOrder ||= item.plan.readsTurnOrder === true;
  }
  // No dice, no wait: the command runs to its end inside its own chat event, so nothing (another
  // script's handler of the same message) can delete a target between its checks and its writes.
  if (!anyDice) {
    const refusal = options.claim?.();
    if (refusal !== undefined) {
      reply(ctx, refusal);
      return;
    }
    return applyPlans(ctx, items, toRoll, undefined, readsTurnOrder, notes, options);
  }
  const planned = ctx.app.store.settings.edition;
  return rollDice(toRoll.flatMap((dice) => dice.map((die) => die.sides))).then((rolled) => {
    const refusal = options.claim?.();
    if (refusal !== undefined) {
      reply(ctx, refusal);
      return;
    }
    // The plan is the edition's it was made in: an edition switch while the roll was out leaves it nothing to apply to.
    if (ctx.app.store.settings.edition !== planned) {
      reply(ctx, `Not applied: the edition changed to ${ctx.app.store.settings.edition} while the roll was out; nothing changed. Send the command again.`);
      return;
    }
    applyPlans(ctx, items, toRoll, rolled, readsTurnOrder, notes, options);
  });
}

/**
 * The targets' plans, their dice rolled (`rolled`: every target's in turn; undefined when there were
 * none to roll): read, resolved, written, recorded and shown.
 */
function applyPlans<S>(ctx: CommandContext, items: ReadonlyArray<PlannedTarget<S>>, toRoll: readonly Die[][], rolledDice: readonly number[] | undefined, readsTurnOrder: boolean, notes: readonly string[], options: RunOptions): void {
  const app = ctx.app;
  const anyDice = rolledDice !== undefined;
  const rolled = rolledDice ?? NO_ROLLED;
  const refused: string[] = [...notes];
  let grouped: GroupedRefusals | undefined;
  const applied: AppliedToken[] = [];
  const shown: Shown[] = [];
  let undoable = false;
  // Read once for every target's facts, changed in memory by their writes, written once below.
  const turnOrder: TurnOrderBatch | undefined = readsTurnOrder ? { order: readTurnOrder(), changed: false } : undefined;
  // Another script's presence, found once for every target (scripts do not come and go mid-command).
  const hc = healthColors() ?? null;
  // What reading and writing need of the table, made once for every target.
  const reads = readContext(app, turnOrder?.order);
  const writes = writeContext(app);
  const writeOptions = (resolution: Outcome<S>): WriteOptions => {
    const options: WriteOptions = { notify: resolution.observed ?? true, healthColors: hc };
    if (turnOrder) options.turnOrder = turnOrder;
    return options;
  };
  // A hit given its answer (an attack's) used none on file: what it says of the answer it read is not filed.
  const answerRead = (resolution: Outcome<S>): WriteOptions => {
    delete resolution.answer;
    return writeOptions(resolution);
  };
  // An answer that replaced the defense on file: the hit clears it (undo puts it back).
  const answerReplaced = (resolution: Outcome<S>): WriteOptions => {
    resolution.answer = null;
    return writeOptions(resolution);
  };
  let next = 0;
  items.forEach(({ target, plan, given, typed, answer, answered, answerGiven, replacesFiled }, index) => {
    const dice = toRoll[index]!;
    const from = next;
    next += dice.length;
    // commands.md, "Rolls that come back late": the token, its character and the sender's control are checked again.
    if (anyDice && !stillThere(ctx, target, options.anyTarget === true)) {
      refused.push(`${tokenName(target.token, 'a token')} is gone, has lost its character, or is no longer yours since the roll: nothing applied`);
      return;
    }
    const result = answerGiven === undefined
      ? applyPlanTo(app, target, plan, rollsOf(plan.dice, given, rolled, from), reads, writes, writeOptions)
      : applyPlanTo(app, target, plan, rollsOf(plan.dice, given, rolled, from), reads, writes, replacesFiled ? answerReplaced : answerRead, { answerGiven });
    if (result.kind !== 'written') {
      const { snapshot } = result.reading;
      // Whether the sender may read this token's numbers: asked only when a refusal would show one.
      const maySee = () => senderMaySee(ctx, snapshot);
      if (result.kind === 'refusal') {
        // A rule's reason shared by several tokens is said once, before all their names.
        if (result.refusal.kind === 'refused' && !result.refusal.nameFirst) (grouped ??= new GroupedRefusals()).add(snapshot.name, result.refusal.reason);
        else refused.push(describeTokenRefusal(app, snapshot, result.refusal, maySee()));
      } else if (result.kind === 'problems') {
        refused.push(describeValueProblems(snapshot, result.reading.problems));
      } else {
        refused.push(`${snapshot.name}: the result${maySee() ? ` (${result.value})` : ''} is beyond the whole numbers the script writes safely; nothing written`);
      }
      return;
    }
    const resolution = result.outcome;
    applied.push(result.applied);
    if (typed) result.shown.typed = typed;
    if (answer) result.shown.answer = answer;
    if (answered) result.shown.told.answered = true;
    shown.push(result.shown);
    undoable ||= resolution.undoable === true;
  });
  if (grouped) refused.push(...grouped.lines());
  if (turnOrder?.changed) writeTurnOrder(turnOrder.order);
  let undo: PresentOptions['undo'];
  if ((options.record || undoable) && applied.length > 0) {
    const by = options.recordBy ?? ctx.playerId;
    const byGm = by === ctx.playerId ? ctx.gm || by === RELAYED : ownedByGm(by);
    const key = recordApplication(app, { by, kind: options.record ? 'damage' : 'save', round: app.store.round.number, tokens: applied }, byGm);
    // A player's own save is not hers to undo: its card offers no Undo (the GM has the command).
    if (key !== undefined && (options.record || byGm)) undo = { command: undoCommand(key), byGm };
  }
  // The rows are kept as the undo entry's owner's: an attack's as its declarer's, whoever's answer settled it.
  const rowsBy = options.recordBy === undefined || options.recordBy === ctx.playerId ? (ctx.gm ? 'gm' : ctx.playerId) : ownedByGm(options.recordBy) ? 'gm' : options.recordBy;
  // Assigned, not spread: a conditional spread costs more than the rest of this together.
  const presenting: PresentOptions = { title: options.title, replyTo: ctx.replyTo, sender: rowsBy, senderMaySee: (snapshot) => senderMaySee(ctx, snapshot) };
  if (undo) presenting.undo = undo;
  if (options.attack) presenting.attack = options.attack;
  present(app, shown, presenting);
  if (refused.length > 0) {
    const line = options.refusals(tidyRefusals(refused), applied.length > 0);
    refuse(ctx, line);
  }
}
