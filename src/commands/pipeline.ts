// The one pipeline every command runs through (architecture.md, "One pipeline"): targets -> read
// facts once -> roll -> resolve -> write -> render -> send -> record. Handlers only parse their
// command into a plan and say what is special about them.
import { isRefusal, type AnyEdition, type Outcome, type Plan, type PlanContext, type Refusal } from '../rules/edition';
import { editionOf } from '../rules/editions';
import { editionStateOf, readFacts, readToken, type TokenReading, type TokenSnapshot } from '../roll20/read';
import { readInteger } from '../rules/values';
import { applyOutcome, type WriteOptions } from '../roll20/write';
import { rollDice } from '../roll20/dice';
import { readTurnOrder } from '../roll20/turnorder';
import type { AppliedToken } from '../state/history';
import { reply, type App, type CommandContext } from './context';
import { present, type Shown } from './present';
import { barProblem } from './barProblem';
import { recordApplication } from './history';
import { isCard, type Target } from './targets';

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
  return token ? String(token.get('name') ?? '') || id : id;
}

/** Reads one token's facts for a plan, once. */
export function readTarget<S>(app: App, target: Target, plan: Plan<S>, turnOrder?: readonly Roll20TurnEntry[]): TokenReading<S> {
  const snapshot = readToken(target.token, target.character, app.store.settings);
  const edition = activeEdition(app);
  return readFacts<S>(snapshot, app.store.tokens[snapshot.id], plan, {
    settings: app.store.settings,
    attributes: app.attributes,
    edition,
    nameOf: tokenNameById,
    ...(turnOrder ? { turnOrder } : {}),
    other: (id) => {
      const token = getObj('graphic', id);
      if (!token || isCard(token)) return undefined;
      const record = app.store.tokens[id];
      return {
        name: String(token.get('name') ?? '') || 'unnamed token',
        stance: record?.stance ?? null,
        state: editionStateOf(edition, record, readInteger(token.get(`${app.store.settings.bars.vitality}_value` as 'bar1_value'))),
      };
    },
  });
}

/** A refusal in one line, naming the token (and the attribute to set, for a missing value). */
export function describeTokenRefusal(app: App, snapshot: TokenSnapshot, refusal: Refusal): string {
  switch (refusal.kind) {
    case 'refused':
      return refusal.nameFirst ? `${snapshot.name} ${refusal.reason}` : `${snapshot.name}: ${refusal.reason}`;
    case 'bar':
      return barProblem(snapshot, refusal.resource) ?? `${snapshot.name}: ${refusal.resource} is not a number`;
    case 'missing-value':
      return `${snapshot.name}: cannot roll this check: its character has no number in the attribute "${app.store.settings.attributes[refusal.key]}" (set it on the sheet, or !defense-round set ${refusal.key} N)`;
  }
}

/** Writes one resolved outcome; returns what it changed (for undo) and what to show. */
export function write<S>(app: App, reading: TokenReading<S>, outcome: Outcome<S>, options: WriteOptions & { title?: string } = {}): { applied: AppliedToken; shown: Shown } {
  const { snapshot } = reading;
  const written = applyOutcome({ settings: app.store.settings, edition: activeEdition(app), tokens: app.store.tokens }, reading, outcome, options);
  return {
    applied: { tokenId: snapshot.id, name: snapshot.name, changes: written.changes },
    shown: { snapshot, outcome: outcome as Outcome<unknown>, changes: written.changes, notes: written.notes, ...(options.title ? { title: options.title } : {}) },
  };
}

export interface RunOptions {
  /** The multi-target cards' title, e.g. "Damage: 3 tokens". */
  title: string;
  /** Record the applications for `!damage --undo`. */
  record?: boolean;
  /** The whisper naming every refused target, or undefined to say nothing. */
  refusals: (refused: string[]) => string;
}

/** Runs a plan on every permitted target. `notes` name targets refused before anything was read. */
export async function runPlan<S>(ctx: CommandContext, plan: Plan<S>, targets: readonly Target[], notes: readonly string[], options: RunOptions): Promise<void> {
  const app = ctx.app;
  const perTarget = plan.dice.length;
  const rolled = await rollDice(targets.flatMap(() => plan.dice));
  const refused: string[] = [...notes];
  const applied: AppliedToken[] = [];
  const shown: Shown[] = [];
  let undoable = false;
  const turnOrder = plan.readsTurnOrder ? readTurnOrder() : undefined;
  targets.forEach((target, index) => {
    const reading = readTarget(app, target, plan, turnOrder);
    const resolution = plan.resolve(reading.facts, rolled.slice(index * perTarget, (index + 1) * perTarget));
    if (isRefusal(resolution)) {
      refused.push(describeTokenRefusal(app, reading.snapshot, resolution));
      return;
    }
    const result = write(app, reading, resolution, { notify: resolution.observed ?? true });
    applied.push(result.applied);
    shown.push(result.shown);
    undoable ||= resolution.undoable === true;
  });
  if ((options.record || undoable) && applied.length > 0) {
    recordApplication(app, { by: ctx.playerId, kind: options.record ? 'damage' : 'save', round: app.store.round.number, tokens: applied });
  }
  present(app, shown, { title: `${options.title}: ${shown.length} tokens`, replyTo: ctx.replyTo });
  if (refused.length > 0) reply(ctx, options.refusals(refused));
}
