// `!defend --action A ...`: a defensive check for each target in the `soak` edition, or an owed
// Vitality save (`--action save`). Rolls are Roll20's own unless given (`--roll`, an inline roll).
import { AIDED_BONUS, resolveSoakDefend, describeRefusal, type CheckName, type SoakDefendAction, type SoakDefendInput, type SoakDefendOutcome } from '../rules/soak/defend';
import { SOAK_SITUATIONS, SOAK_SITUATION_RULES } from '../rules/soak/situations';
import { resolveSave } from '../rules/soak/life';
import { percentileCheck } from '../rules/check';
import type { AttributeKey } from '../state/settings';
import { readToken, readValue, type TokenSnapshot } from '../roll20/read';
import { rollPercentiles } from '../roll20/dice';
import { writeBar } from '../roll20/write';
import { notifyObservers } from '../roll20/observers';
import { describeDamageStep } from '../render/damageSteps';
import { describeDefendSteps } from '../render/defendSteps';
import { lifeLine } from '../render/damageCard';
import { isSafeId, renderButton } from '../render/card';
import { checkFlags, choiceArg, flagValue, hasFlag, idsArg, optionalInteger, UsageError, type FlagSpec, type ParsedLine } from './parse';
import { peekRecord, pruneRecord, reply, tokenRecord, type App, type CommandContext } from './context';
import type { CommandHandler } from './dispatch';
import { deliver } from './deliver';
import { resolveTargets, type Target } from './targets';
import { barProblem } from './barProblem';
import { commitLife, currentLife, resourcesOf } from './tokenLife';
import { drawIntoTurnOrder } from './spectator';

const ACTIONS = ['defend', 'evade', 'react', 'counter', 'skill', 'save'] as const;
type Action = (typeof ACTIONS)[number];

const USAGE =
  '!defend --action defend|evade|react|counter|skill|save [--situation S] [--roll 1-100] [--mod M] [--vs ID] [--ally ID] [--aided] [--mental] [--mental-roll R] [--perception-roll R] [--perception-mod M] [--skill NAME] [--ids ID ...]';

const FLAGS: Record<string, FlagSpec> = {
  action: { kind: 'one' },
  situation: { kind: 'one', editions: ['soak', 'threshold'] },
  roll: { kind: 'one' },
  mod: { kind: 'one' },
  vs: { kind: 'one' },
  ally: { kind: 'one' },
  aided: { kind: 'switch', editions: ['soak'] },
  mental: { kind: 'switch', editions: ['soak'] },
  'mental-roll': { kind: 'one', editions: ['soak'] },
  'perception-roll': { kind: 'one' },
  'perception-mod': { kind: 'one' },
  'react-roll': { kind: 'one', editions: ['threshold'] },
  difficulty: { kind: 'one', editions: ['threshold'] },
  skill: { kind: 'text' },
  ids: { kind: 'list' },
  help: { kind: 'switch' },
};

const CHECK_ATTRIBUTE: Record<CheckName, AttributeKey> = {
  defend: 'defend_check',
  evade: 'evade_check',
  reaction: 'reaction_check',
  perception: 'perception_check',
  mental: 'mental_check',
};

/** The parsed command: the rules' own inputs, plus the rolls given in chat (rolled by Roll20 when absent). */
interface DefendOrder extends Pick<SoakDefendInput, 'situation' | 'mod' | 'perceptionMod' | 'aided' | 'vs' | 'ally' | 'skillName'> {
  action: Action;
  roll: number | undefined;
  perceptionRoll: number | undefined;
  mentalRoll: number | undefined;
  mentalAsked: boolean;
}

function parseDefend(parsed: ParsedLine, ctx: CommandContext): DefendOrder {
  checkFlags(parsed, FLAGS, ctx.app.store.settings.edition);
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected "${parsed.positionals.join(' ')}" (give the action with --action)`);
  const actionText = flagValue(parsed, 'action');
  if (actionText === undefined) throw new UsageError('no action given');
  const action = choiceArg(actionText, '--action', ACTIONS);
  const situationText = flagValue(parsed, 'situation');
  if (situationText !== undefined && (action === 'save' || action === 'react')) {
    throw new UsageError(`--situation does not apply to --action ${action}`);
  }
  if (action === 'save') {
    const meaningless = ['vs', 'ally', 'skill', 'mental', 'mental-roll', 'perception-roll', 'perception-mod'].find((flag) => hasFlag(parsed, flag));
    if (meaningless) throw new UsageError(`--${meaningless} does not apply to --action save`);
  }
  const mentalRoll = optionalInteger(parsed, 'mental-roll', 1, 100);
  const situation = situationText === undefined ? 'front' : choiceArg(situationText, '--situation', SOAK_SITUATIONS);
  // Rolls that would decide nothing are refused, never silently ignored (commands.md, "Syntax").
  if (hasFlag(parsed, 'roll') && (action === 'counter' || action === 'skill')) {
    throw new UsageError(`--roll does not apply to --action ${action}: it is announced, not rolled`);
  }
  if (hasFlag(parsed, 'perception-roll') && SOAK_SITUATION_RULES[situation].perceptionGate === 'none') {
    throw new UsageError(`--perception-roll applies only where a perception check comes first (behind, distracted, covert, spectator)`);
  }
  if ((hasFlag(parsed, 'mental') || mentalRoll !== undefined) && !(action === 'evade' && SOAK_SITUATION_RULES[situation].mentalCheckEasesPenalty)) {
    throw new UsageError('--mental and --mental-roll apply only to --action evade with --situation spell-unseen');
  }
  return {
    action,
    situation,
    roll: optionalInteger(parsed, 'roll', 1, 100),
    perceptionRoll: optionalInteger(parsed, 'perception-roll', 1, 100),
    mentalRoll,
    mentalAsked: hasFlag(parsed, 'mental') || mentalRoll !== undefined,
    mod: optionalInteger(parsed, 'mod', -1000, 1000) ?? 0,
    perceptionMod: optionalInteger(parsed, 'perception-mod', -1000, 1000) ?? 0,
    aided: hasFlag(parsed, 'aided'),
    vs: flagValue(parsed, 'vs') ?? null,
    ally: flagValue(parsed, 'ally') ?? null,
    skillName: flagValue(parsed, 'skill') ?? null,
  };
}

/** Which d100s a target still needs from Roll20: the action's, the perception gate's, the mental check's. */
function rollsNeeded(order: DefendOrder): { action: boolean; perception: boolean; mental: boolean } {
  const rolledAction = order.action === 'defend' || order.action === 'evade' || order.action === 'react' || order.action === 'save';
  const gated = order.action !== 'save' && SOAK_SITUATION_RULES[order.situation].perceptionGate !== 'none';
  return {
    action: rolledAction && order.roll === undefined,
    perception: gated && order.perceptionRoll === undefined,
    mental: order.mentalAsked && order.mentalRoll === undefined,
  };
}

function tokenNameById(id: string): string {
  const token = getObj('graphic', id);
  return token ? String(token.get('name') ?? '') || id : id;
}

export const defendCommand: CommandHandler = {
  usage: USAGE,
  help: [
    'Situations: ' + SOAK_SITUATIONS.join(', ') + '.',
    'A successful defend or evade blocks the next !damage on the token this round; a failure offers a button that applies damage.',
  ],
  async run(ctx) {
    const order = parseDefend(ctx.parsed, ctx);
    const { targets, notes } = resolveTargets(ctx, idsArg(ctx.parsed));
    const needed = rollsNeeded(order);
    const perTarget = Number(needed.action) + Number(needed.perception) + Number(needed.mental);
    const rolled = await rollPercentiles(perTarget * targets.length);
    const refusals: string[] = [...notes];
    targets.forEach((target, index) => {
      const own = rolled.slice(index * perTarget, (index + 1) * perTarget);
      const next = () => own.shift() ?? 100;
      const rolls = {
        action: order.roll ?? (needed.action ? next() : 100),
        perception: order.perceptionRoll ?? (needed.perception ? next() : 100),
        mental: order.mentalAsked ? (order.mentalRoll ?? next()) : null,
      };
      const problem = defendOne(ctx, target, order, rolls);
      if (problem) refusals.push(problem);
    });
    if (refusals.length > 0) reply(ctx, refusals.join('; '));
  },
};

/** One target's check; returns a refusal to whisper, or undefined when it was resolved. */
function defendOne(
  ctx: CommandContext,
  { token, character }: Target,
  order: DefendOrder,
  rolls: { action: number; perception: number; mental: number | null },
): string | undefined {
  const app = ctx.app;
  const settings = app.store.settings;
  const snapshot = readToken(token, character, settings);
  const vitalityProblem = barProblem(snapshot, 'vitality');
  const vitality = snapshot.bars.vitality.value;
  if (vitalityProblem || vitality === null) return vitalityProblem;
  const record = peekRecord(app, snapshot.id);
  const life = currentLife(app, snapshot.id, vitality);
  const missing = (check: AttributeKey) =>
    `${snapshot.name}: cannot roll this check: its character has no number in the attribute "${settings.attributes[check]}" (set it on the sheet, or !defense-round set ${check} N)`;

  if (order.action === 'save') {
    const target = readValue(snapshot, 'save_check', record, settings, app.attributes).current;
    if (life.savesOwed <= 0) return `${snapshot.name}: no save is owed (saves come from falling to 0 or below)`;
    if (target === null) return missing('save_check');
    const bonus = order.mod + (order.aided ? AIDED_BONUS : 0);
    const outcome = resolveSave(vitality, life, percentileCheck(rolls.action, target + bonus));
    if (!outcome.ok) return `${snapshot.name}: no save is owed`;
    return applySave(app, snapshot, vitality, life, outcome);
  }

  const checkTargets = Object.fromEntries(
    (Object.keys(CHECK_ATTRIBUTE) as CheckName[]).map((check) => [
      check,
      readValue(snapshot, CHECK_ATTRIBUTE[check], record, settings, app.attributes).current,
    ]),
  ) as Record<CheckName, number | null>;
  const outcome: SoakDefendOutcome = resolveSoakDefend({
    action: order.action as SoakDefendAction,
    situation: order.situation,
    stance: record?.stance === 'defensive' || record?.stance === 'reactive' ? record.stance : 'none',
    condition: life.condition,
    checkTargets,
    rolls,
    mod: order.mod,
    perceptionMod: order.perceptionMod,
    aided: order.aided,
    vs: order.vs,
    ally: order.ally,
    skillName: order.skillName,
    round: { reactions: record?.reactions ?? {}, skillsVs: record?.skillsVs ?? [] },
  });
  if (outcome.kind === 'refused') return `${snapshot.name}: ${describeRefusal(outcome.reason)}`;
  if (outcome.kind === 'missing-target') return missing(CHECK_ATTRIBUTE[outcome.check]);

  const stored = tokenRecord(app, snapshot.id);
  if (outcome.pendingDefense !== null) stored.pendingDefense = outcome.pendingDefense;
  if (outcome.roundUpdate.reaction) {
    stored.reactions = { ...stored.reactions, [outcome.roundUpdate.reaction.vs]: outcome.roundUpdate.reaction.success };
  }
  if (outcome.roundUpdate.skillVs) stored.skillsVs = [...(stored.skillsVs ?? []), outcome.roundUpdate.skillVs];
  pruneRecord(app, snapshot.id);
  const spectatorNote = outcome.drawSpectator && order.vs ? drawIntoTurnOrder(order.vs) : undefined;

  const lines = describeDefendSteps(outcome.steps, tokenNameById);
  const button =
    outcome.offerDamageButton && isSafeId(snapshot.id)
      ? renderButton(`Apply damage to ${snapshot.name}`, `!damage ?{Damage} --ids ${snapshot.id}`)
      : undefined;
  const result =
    outcome.pendingDefense === 'success' ? 'blocks the next hit' : outcome.pendingDefense === 'fail' ? 'fails to defend' : undefined;
  deliver(settings, snapshot, {
    card: {
      title: `${snapshot.name}: ${order.action}${order.situation !== 'front' ? ` (${order.situation})` : ''}`,
      rows: [
        { label: 'Check', lines },
        { label: 'Result', lines: result ? [`${snapshot.name} ${result}`] : [] },
        { label: 'Turn Tracker', lines: spectatorNote ? [spectatorNote] : [] },
      ],
    },
    shortLine: result ? `${snapshot.name} ${result}.` : `${snapshot.name} makes a defensive action (${order.action}).`,
    ...(button ? { extra: button } : {}),
  });
  return undefined;
}

function applySave(
  app: App,
  snapshot: TokenSnapshot,
  vitality: number,
  lifeBefore: ReturnType<typeof currentLife>,
  outcome: Extract<ReturnType<typeof resolveSave>, { ok: true }>,
): undefined {
  const settings = app.store.settings;
  if (outcome.vitality !== vitality) writeBar(snapshot, 'vitality', outcome.vitality);
  const markers = commitLife(app, snapshot, outcome.life);
  notifyObservers(
    snapshot.token,
    resourcesOf(snapshot, lifeBefore.condition, snapshot.statusmarkers),
    { ...resourcesOf(snapshot, outcome.life.condition, markers), vitality: outcome.vitality },
    outcome,
    { [`${snapshot.bars.vitality.bar}_value`]: snapshot.bars.vitality.raw, statusmarkers: snapshot.statusmarkers },
  );
  const now = lifeLine(outcome.life);
  const succeeded = outcome.steps.some((step) => step.kind === 'save-rolled' && step.success);
  const died = outcome.life.condition === 'dead';
  deliver(settings, snapshot, {
    card: {
      title: `${snapshot.name}: Vitality save`,
      rows: [
        { label: 'Roll', lines: outcome.steps.map(describeDamageStep) },
        { label: 'Now', lines: [now ?? `Standing, Vitality ${outcome.vitality}`] },
      ],
    },
    shortLine: succeeded
      ? `${snapshot.name} makes a save${outcome.life.condition === 'none' ? ' and stands back up' : ' and clings to life'}.`
      : died
        ? `${snapshot.name} fails a save and dies.`
        : `${snapshot.name} fails a save.`,
  });
  return undefined;
}
