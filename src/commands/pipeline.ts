// The one pipeline every command runs through (architecture.md, "One pipeline"): targets -> read
// facts once -> roll -> resolve -> write -> render -> send -> record. Handlers only parse their
// command into a plan and say what is special about them.
import { isRefusal, type AnyEdition, type Outcome, type Plan, type PlanContext, type Refusal } from '../rules/edition';
import { editionOf } from '../rules/editions';
import { barValue, editionStateOf, readFacts, readToken, tokenName, type ReadContext, type TokenReading, type TokenSnapshot, type ValueProblem } from '../roll20/read';
import { applyOutcome, type WriteContext, type WriteOptions } from '../roll20/write';
import { rollDice } from '../roll20/dice';
import { readTurnOrder, rowText, writeTurnOrder, type TurnOrderBatch } from '../roll20/turnorder';
import { currentRow } from '../roll20/turnMarker';
import type { AppliedToken } from '../state/history';
import { reply, type App, type CommandContext } from './context';
import { present, visibilityOf, type Shown } from './present';
import { barProblem } from './barProblem';
import { recordApplication } from './history';
import { isCard, type Target } from './targets';
import { controls } from '../roll20/players';
import { parseLine } from '../text/args';
import { GroupedRefusals, tidyRefusals } from './refusals';
import { healthColors } from '../roll20/otherScripts';

export function activeEdition(app: App): AnyEdition {
  return editionOf(app.store.settings.edition);
}

/** What plans may need of the settings: the overwhelm limit, where stamina lives, whether the sender is the GM. */
export function planContext(app: App, gm: boolean): PlanContext {
  const bars = app.store.settings.bars;
  // stamina-bar: 'power' (the Power resource) or a bar, which holds one of the three resources.
  const stamina = bars.stamina === 'power' ? 'power' : (['vitality', 'soul', 'power'] as const).find((resource) => bars[resource] === bars.stamina) ?? 'power';
  return { overwhelmLimit: app.store.settings.overwhelmLimit, stamina, gm };
}

function tokenNameById(id: string): string {
  const token = getObj('graphic', id);
  return token ? tokenName(token, id) : id;
}

/** A plan that reads only the token itself (its bars, stance and edition state): hand edits, undo, edition switches. */
export const TOKEN_ONLY: Plan<unknown> = { values: [], dice: [], resolve: () => ({ kind: 'refused', reason: 'nothing to resolve' }) };

/** The edition before the last switch, which judges tokens first met since (not the active one itself). */
export function editionLeftOf(app: App): AnyEdition | undefined {
  const left = app.store.editionLeft;
  return left !== undefined && left !== app.store.settings.edition ? editionOf(left) : undefined;
}

/** Whether the sender may read this token's numbers: the GM, its controller, or anyone when its breakdowns are public. */
function senderMaySee(ctx: CommandContext, snapshot: TokenSnapshot): boolean {
  return ctx.gm || controls(ctx.playerId, snapshot.token, snapshot.character) || visibilityOf(ctx.app, snapshot) === 'public';
}

/** What reading a token needs of the table: made once per command, shared by its targets. */
export function readContext(app: App, turnOrder?: readonly Roll20TurnEntry[]): ReadContext {
  const edition = activeEdition(app);
  const context: ReadContext = {
    settings: app.store.settings,
    attributes: app.attributes,
    edition,
    nameOf: tokenNameById,
    other: (id) => {
      const token = getObj('graphic', id);
      if (!token || isCard(token)) return undefined;
      const record = app.store.tokens[id];
      const vitality = barValue(token, app.store.settings.bars.vitality);
      return {
        name: tokenName(token, 'unnamed token'),
        stance: record?.stance ?? null,
        state: editionStateOf(edition, record, vitality, context.editionLeft),
        vitality,
        acting: context.turnRow !== undefined && context.turnRow.id === id,
      };
    },
  };
  if (turnOrder) {
    context.turnOrder = turnOrder;
    const row = currentRow(turnOrder);
    if (row) {
      context.turnRow = row;
      const id = rowText(row.id);
      if (id !== '' && id !== '-1' && getObj('graphic', id)?.get('layer') === 'gmlayer') context.turnRowHidden = true;
    }
  }
  const left = editionLeftOf(app);
  if (left) context.editionLeft = left;
  return context;
}

/** Reads one token's facts for a plan, once. */
export function readTarget<S>(app: App, target: Target, plan: Plan<S>, context: ReadContext = readContext(app)): TokenReading<S> {
  const snapshot = readToken(target.token, target.character, app.store.settings);
  return readFacts<S>(snapshot, app.store.tokens[snapshot.id], plan, context);
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
  const field = first.which === 'max' ? `the max of "${first.attribute}"` : `"${first.attribute}"`;
  return `${snapshot.name}: its character's ${field} ${first.problem}; set a number there (or a formula of numbers and attributes), or give the token its own value with !defense-round set ${first.key} N${outcome}`;
}

/** What writing needs of the script: made once per command, shared by its targets. */
export function writeContext(app: App): WriteContext {
  return { settings: app.store.settings, edition: activeEdition(app), tokens: app.store.tokens };
}

/** Writes one resolved outcome; returns what it changed (for undo) and what to show. */
export function write<S>(
  app: App,
  reading: TokenReading<S>,
  outcome: Outcome<S>,
  options: WriteOptions & { title?: string } = {},
  context: WriteContext = writeContext(app),
): { applied: AppliedToken; shown: Shown } {
  const { snapshot } = reading;
  const written = applyOutcome(context, reading, outcome, options);
  const shown: Shown = { snapshot, outcome: outcome as Outcome<unknown>, changes: written.changes, notes: written.notes };
  if (options.title) shown.title = options.title;
  return {
    // The name only labels the entry (the history keeps at most 200 characters of it).
    applied: { tokenId: snapshot.id, name: snapshot.name.length > 200 ? snapshot.name.slice(0, 200) : snapshot.name, changes: written.changes },
    shown,
  };
}

/** The target is still on the table, as it was, and still the sender's to touch (after an asynchronous roll). */
function stillThere(ctx: CommandContext, target: Target, anyTarget: boolean): boolean {
  const token = getObj('graphic', target.token.id);
  if (!token || isCard(token)) return false;
  const characterId = target.character?.id ?? '';
  if (String(token.get('represents') ?? '') !== characterId) return false;
  const character = characterId ? getObj('character', characterId) : undefined;
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

const NO_DICE: readonly number[] = Object.freeze([]);


export interface RunOptions {
  /** The sender may target tokens they do not control (players-target-any, for !damage). */
  anyTarget?: boolean;
  /** The multi-target cards' title, e.g. "Damage: 3 tokens". */
  title: string;
  /** Record the applications for `!damage --undo`. */
  record?: boolean;
  /** The whisper naming every refused target (each reason once, without its full stop); `anyApplied`: some target was not refused. */
  refusals: (refused: string[], anyApplied: boolean) => string;
}

/** Flags that carry a die the defender (or the save) rolls: given as a plain number, it was not rolled. */
const ROLL_FLAGS = ['roll', 'perception-roll', 'mental-roll', 'react-roll', 'defense-roll'] as const;

/**
 * The rolls the sender typed rather than rolled, in the card's words ("typed, not rolled: --roll
 * 99"); undefined when none was. A die is rolled only as one inline roll of dice (with modifiers):
 * [[1d100]] or [[1d20+5]] is Roll20's own roll; 99, [[99]], [[1d1*20]] or a query in brackets is typed.
 */
function typedRolls(ctx: CommandContext): string | undefined {
  const given = ROLL_FLAGS.filter((flag) => ctx.parsed.flags.has(flag));
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

/** Runs a plan on every permitted target. `notes` name targets refused before anything was read. */
export async function runPlan<S>(ctx: CommandContext, plan: Plan<S>, targets: readonly Target[], notes: readonly string[], options: RunOptions): Promise<void> {
  const app = ctx.app;
  const perTarget = plan.dice.length;
  // No dice, no wait: the command runs to its end inside its own chat event, so nothing (another
  // script's handler of the same message) can delete a target between its checks and its writes.
  const planned = app.store.settings.edition;
  const rolled = perTarget > 0 ? await rollDice(targets.flatMap(() => plan.dice)) : [];
  // The plan is the edition's it was made in: an edition switch while the roll was out leaves it nothing to apply to.
  if (app.store.settings.edition !== planned) {
    reply(ctx, `Not applied: the edition changed to ${app.store.settings.edition} while the roll was out; nothing changed. Send the command again.`);
    return;
  }
  const refused: string[] = [...notes];
  // A player's typed rolls are marked for everyone to see; the GM knows what the GM typed.
  const typed = ctx.gm ? undefined : typedRolls(ctx);
  const grouped = new GroupedRefusals();
  const applied: AppliedToken[] = [];
  const shown: Shown[] = [];
  let undoable = false;
  // Read once for every target's facts, changed in memory by their writes, written once below.
  const turnOrder: TurnOrderBatch | undefined = plan.readsTurnOrder ? { order: readTurnOrder(), changed: false } : undefined;
  // Another script's presence, found once for every target (scripts do not come and go mid-command).
  const hc = healthColors() ?? null;
  // What reading and writing need of the table, made once for every target.
  const reads = readContext(app, turnOrder?.order);
  const writes = writeContext(app);
  targets.forEach((target, index) => {
    // commands.md, "Rolls that come back late": the token, its character and the sender's control are checked again.
    if (perTarget > 0 && !stillThere(ctx, target, options.anyTarget === true)) {
      refused.push(`${tokenName(target.token, 'a token')} is gone, has lost its character, or is no longer yours since the roll: nothing applied`);
      return;
    }
    const reading = readTarget(app, target, plan, reads);
    const resolution = plan.resolve(reading.facts, perTarget === 0 ? NO_DICE : rolled.slice(index * perTarget, (index + 1) * perTarget));
    // Whether the sender may read this token's numbers: asked only when a refusal would show one.
    const maySee = () => senderMaySee(ctx, reading.snapshot);
    if (isRefusal(resolution)) {
      // A rule's reason shared by several tokens is said once, before all their names.
      if (resolution.kind === 'refused' && !resolution.nameFirst) grouped.add(reading.snapshot.name, resolution.reason);
      else refused.push(describeTokenRefusal(app, reading.snapshot, resolution, maySee()));
      return;
    }
    if (reading.problems.length > 0) {
      refused.push(describeValueProblems(reading.snapshot, reading.problems));
      return;
    }
    const unsafe = unsafeResult(resolution);
    if (unsafe !== undefined) {
      refused.push(`${reading.snapshot.name}: the result${maySee() ? ` (${unsafe})` : ''} is beyond the whole numbers the script writes safely; nothing written`);
      return;
    }
    const writeOptions: WriteOptions = { notify: resolution.observed ?? true, healthColors: hc };
    if (turnOrder) writeOptions.turnOrder = turnOrder;
    const result = write(app, reading, resolution, writeOptions, writes);
    applied.push(result.applied);
    if (typed) result.shown.typed = typed;
    shown.push(result.shown);
    undoable ||= resolution.undoable === true;
  });
  refused.push(...grouped.lines());
  if (turnOrder?.changed) writeTurnOrder(turnOrder.order);
  if ((options.record || undoable) && applied.length > 0) {
    recordApplication(app, { by: ctx.playerId, kind: options.record ? 'damage' : 'save', round: app.store.round.number, tokens: applied });
  }
  present(app, shown, {
    title: options.title,
    replyTo: ctx.replyTo,
    sender: ctx.gm ? 'gm' : ctx.playerId,
    senderMaySee: (snapshot) => senderMaySee(ctx, snapshot),
  });
  if (refused.length > 0) {
    const line = options.refusals(tidyRefusals(refused), applied.length > 0);
    reply(ctx, `${line.charAt(0).toUpperCase()}${line.slice(1)}`);
  }
}
