// `!defend` in the `soak` edition as a plan: parse the action, count the d100s still to roll, and
// resolve one token's check or owed save from the numbers read (rules.md, "Defensive actions").
import type { Facts, Headline, Plan, Resolution, RuleChange, ValueKey } from '../edition';
import { choiceArg, flagValue, hasFlag, optionalInteger, UsageError, type FlagTable, type ParsedLine, echo } from '../../text/args';
import { percentileCheck } from '../check';
import { describeRefusal, resolveSoakDefend, type CheckName, type SoakAid, type SoakDefendAction, type SoakDefendInput } from './defend';
import { SOAK_SITUATIONS, SOAK_SITUATION_RULES } from './situations';
import { resolveSave } from './life';
import { describeDamageStep } from './damageText';
import { describeDefendSteps } from './defendText';
import { lifeLine } from './cards';
import { lifeOf, withLife, type SoakState } from './state';

const ACTIONS = ['defend', 'evade', 'react', 'counter', 'skill', 'save'] as const;
type Action = (typeof ACTIONS)[number];

export const SOAK_DEFEND_USAGE =
  '!defend --action defend|evade|react|counter|skill|save [--situation S] [--roll 1-100] [--mod M] [--vs ID] [--ally ID] [--aided-by ID] [--mental] [--mental-roll R] [--perception-roll R] [--perception-mod M] [--skill NAME] [--ids ID ...]';

export const SOAK_DEFEND_FLAGS: FlagTable = {
  action: { kind: 'one' },
  situation: { kind: 'one' },
  roll: { kind: 'one' },
  mod: { kind: 'one' },
  vs: { kind: 'one' },
  ally: { kind: 'one' },
  'aided-by': { kind: 'one' },
  // The old switch, kept only to refuse it with the flag that replaced it.
  aided: { kind: 'switch' },
  mental: { kind: 'switch' },
  'mental-roll': { kind: 'one' },
  'perception-roll': { kind: 'one' },
  'perception-mod': { kind: 'one' },
  skill: { kind: 'text' },
};

const CHECK_ATTRIBUTE: Record<CheckName, ValueKey> = {
  defend: 'defend_check',
  evade: 'evade_check',
  reaction: 'reaction_check',
  perception: 'perception_check',
  mental: 'mental_check',
};

/** The parsed command: the rules' own inputs, plus the rolls given in chat (rolled by Roll20 when absent). */
export interface DefendOrder extends Pick<SoakDefendInput, 'situation' | 'mod' | 'perceptionMod' | 'vs' | 'ally' | 'skillName'> {
  /** `--aided-by ID`: the reacting ally whose success aids this check. */
  aidedBy: string | null;
  action: Action;
  roll: number | undefined;
  perceptionRoll: number | undefined;
  mentalRoll: number | undefined;
  mentalAsked: boolean;
}

export function parseSoakDefend(parsed: ParsedLine): DefendOrder {
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected "${echo(parsed.positionals.join(' '))}" (give the action with --action)`);
  // rules.md, Reactive stance: aid comes from a named ally's successful reaction, not a switch.
  if (hasFlag(parsed, 'aided')) {
    throw new UsageError('--aided is replaced by --aided-by ID (the reacting ally\'s token) with --vs ID (the attacker)');
  }
  const actionText = flagValue(parsed, 'action');
  if (actionText === undefined) throw new UsageError('no action given');
  const action = choiceArg(actionText, '--action', ACTIONS);
  const situationText = flagValue(parsed, 'situation');
  if (situationText !== undefined && (action === 'save' || action === 'react')) {
    throw new UsageError(`--situation does not apply to --action ${action}`);
  }
  if (action === 'save') {
    const meaningless = ['vs', 'ally', 'aided-by', 'skill', 'mental', 'mental-roll', 'perception-roll', 'perception-mod'].find((flag) => hasFlag(parsed, flag));
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
  // A missing argument is a malformed command, answered with the usage (commands.md, "Usage only
  // for syntax"): a reaction and a counter are always against an attacker, aid always from one.
  if ((action === 'react' || action === 'counter') && !hasFlag(parsed, 'vs')) {
    throw new UsageError(`--action ${action} needs --vs with the attacker's token id`);
  }
  if (hasFlag(parsed, 'aided-by') && !hasFlag(parsed, 'vs')) throw new UsageError('--aided-by needs --vs with the attacker\'s token id');
  return {
    action,
    situation,
    roll: optionalInteger(parsed, 'roll', 1, 100),
    perceptionRoll: optionalInteger(parsed, 'perception-roll', 1, 100),
    mentalRoll,
    mentalAsked: hasFlag(parsed, 'mental') || mentalRoll !== undefined,
    mod: optionalInteger(parsed, 'mod', -1000, 1000) ?? 0,
    perceptionMod: optionalInteger(parsed, 'perception-mod', -1000, 1000) ?? 0,
    aidedBy: flagValue(parsed, 'aided-by') ?? null,
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

export function soakDefendPlan(order: DefendOrder): Plan<SoakState> {
  const needed = rollsNeeded(order);
  return {
    values: order.action === 'save' ? ['save_check'] : Object.values(CHECK_ATTRIBUTE),
    // seed 000: the acting token (top of the Turn Tracker) is not in its defensive round.
    readsTurnOrder: order.action !== 'save',
    ...(order.aidedBy !== null ? { others: [order.aidedBy] } : {}),
    dice: Array<number>(Number(needed.action) + Number(needed.perception) + Number(needed.mental)).fill(100),
    resolve(facts, rolled) {
      const own = [...rolled];
      const next = () => own.shift() ?? 100;
      const rolls = {
        action: order.roll ?? (needed.action ? next() : 100),
        perception: order.perceptionRoll ?? (needed.perception ? next() : 100),
        mental: order.mentalAsked ? (order.mentalRoll ?? next()) : null,
      };
      return order.action === 'save' ? resolveOwedSave(order, facts, rolls.action) : resolveCheck(order, facts, rolls);
    },
  };
}

function resolveOwedSave(order: DefendOrder, facts: Facts<SoakState>, roll: number): Resolution<SoakState> {
  const vitality = facts.bars.vitality.value;
  if (vitality === null) return { kind: 'bar', resource: 'vitality' };
  const life = lifeOf(facts.state, vitality);
  const target = facts.values.save_check?.current ?? null;
  if (life.savesOwed <= 0) return { kind: 'refused', reason: 'no save is owed (saves come from falling to 0 or below)' };
  if (target === null) return { kind: 'missing-value', key: 'save_check' };
  const outcome = resolveSave(vitality, life, percentileCheck(roll, target + order.mod));
  if (!outcome.ok) return { kind: 'refused', reason: 'no save is owed' };
  const succeeded = outcome.steps.some((step) => step.kind === 'save-rolled' && step.success);
  const died = outcome.life.condition === 'dead';
  const name = facts.name;
  return {
    headline: succeeded ? 'saved' : died ? 'dies' : 'acts',
    steps: outcome.steps,
    card: {
      title: `${name}: Vitality save`,
      rows: [
        { label: 'Roll', lines: outcome.steps.map(describeDamageStep) },
        { label: 'Now', lines: [lifeLine(outcome.life) ?? `Standing, Vitality ${outcome.vitality}`] },
      ],
    },
    shortLine: succeeded
      ? `${name} makes a save${outcome.life.condition === 'none' ? ' and stands back up' : ' and clings to life'}.`
      : died
        ? `${name} fails a save and dies.`
        : `${name} fails a save.`,
    changes: outcome.vitality !== vitality ? [{ kind: 'bar', resource: 'vitality', to: outcome.vitality }] : [],
    state: withLife(facts.state, outcome.life),
    detail: outcome,
  };
}

function resolveCheck(
  order: DefendOrder,
  facts: Facts<SoakState>,
  rolls: { action: number; perception: number; mental: number | null },
): Resolution<SoakState> {
  const vitality = facts.bars.vitality.value;
  if (vitality === null) return { kind: 'bar', resource: 'vitality' };
  const life = lifeOf(facts.state, vitality);
  const checkTargets = Object.fromEntries(
    (Object.keys(CHECK_ATTRIBUTE) as CheckName[]).map((check) => [check, facts.values[CHECK_ATTRIBUTE[check]]?.current ?? null]),
  ) as Record<CheckName, number | null>;
  const state = facts.state;
  let aid: SoakAid | null = null;
  if (order.aidedBy !== null) {
    const aider = facts.others[order.aidedBy];
    if (!aider) return { kind: 'refused', reason: "--aided-by: no token on the table has that id" };
    if (order.aidedBy === facts.id) return { kind: 'refused', reason: '--aided-by names this token itself: an aid comes from an ally' };
    const reactions = aider.state.reactions ?? {};
    const reaction = order.vs !== null && Object.prototype.hasOwnProperty.call(reactions, order.vs) ? reactions[order.vs] : undefined;
    aid = {
      by: order.aidedBy,
      stance: aider.stance === 'reactive' || aider.stance === 'defensive' ? aider.stance : 'none',
      reaction,
      condition: lifeOf(aider.state, aider.vitality ?? null).condition,
      acting: aider.acting === true,
    };
  }
  const outcome = resolveSoakDefend({
    action: order.action as SoakDefendAction,
    situation: order.situation,
    stance: facts.stance === 'defensive' || facts.stance === 'reactive' ? facts.stance : 'none',
    condition: life.condition,
    checkTargets,
    rolls,
    mod: order.mod,
    perceptionMod: order.perceptionMod,
    aid,
    acting: facts.acting,
    vs: order.vs,
    ally: order.ally,
    skillName: order.skillName,
    round: { reactions: state.reactions ?? {}, skillsVs: state.skillsVs ?? [] },
  });
  if (outcome.kind === 'refused') return { kind: 'refused', reason: describeRefusal(outcome.reason, facts.nameOf) };
  if (outcome.kind === 'missing-target') return { kind: 'missing-value', key: CHECK_ATTRIBUTE[outcome.check] };

  const next: SoakState = { ...state };
  if (outcome.pendingDefense !== null) next.pendingDefense = outcome.pendingDefense;
  if (outcome.roundUpdate.reaction) next.reactions = { ...next.reactions, [outcome.roundUpdate.reaction.vs]: outcome.roundUpdate.reaction.success };
  if (outcome.roundUpdate.skillVs) next.skillsVs = [...(next.skillsVs ?? []), outcome.roundUpdate.skillVs];
  const used = outcome.roundUpdate.reactionUsed;
  if (used !== undefined) next.reactions = { ...next.reactions, [used]: 'used' };
  const changes: RuleChange[] = outcome.drawSpectator && order.vs ? [{ kind: 'join-turn-order', tokenId: order.vs, initiative: 0 }] : [];
  const aidUsed = outcome.roundUpdate.aidUsed;
  const aider = aidUsed ? facts.others[aidUsed.by] : undefined;
  if (aidUsed && aider) {
    // The aiding ally's success is spent: its state changes too (one reaction per success).
    changes.push({ kind: 'ally-state', tokenId: aidUsed.by, state: { ...aider.state, reactions: { ...aider.state.reactions, [aidUsed.vs]: 'used' } } });
  }
  const result =
    outcome.pendingDefense === 'success' ? 'blocks the next hit' : outcome.pendingDefense === 'fail' ? 'fails to defend' : undefined;
  const headline: Headline = 'acts';
  const undeclared = facts.stance !== 'defensive' && facts.stance !== 'reactive';
  return {
    headline,
    steps: outcome.steps,
    card: {
      title: `${facts.name}: ${order.action}${order.situation !== 'front' ? ` (${order.situation})` : ''}`,
      rows: [
        { label: 'Check', lines: describeDefendSteps(outcome.steps, facts.nameOf) },
        { label: 'Result', lines: result ? [`${facts.name} ${result}`] : [] },
        // seed 000: "you must declare what kind of stance you are taking: Defensive or Reactive".
        { label: 'Stance', lines: undeclared ? ['No stance declared: a defender must declare Defensive or Reactive'] : [] },
      ],
    },
    ...(undeclared
      ? {
          buttons: [
            { label: 'Defensive stance', command: `!stance defensive --ids ${facts.id}` },
            { label: 'Reactive stance', command: `!stance reactive --ids ${facts.id}` },
          ],
        }
      : {}),
    shortLine: result ? `${facts.name} ${result}.` : `${facts.name} makes a defensive action (${order.action}).`,
    changes,
    state: next,
    offerDamageButton: outcome.offerDamageButton,
    observed: false,
    detail: outcome,
  };
}
