// `!defend` in the `soak` edition as a plan: parse the action, count the d100s still to roll, and
// resolve one token's check or owed save from the numbers read (rules.md, "Defensive actions").
import { ACTION, at, placed, SUMMARY, TITLE, type Die, type Facts, type Headline, type Plan, type Resolution, type RuleChange, type Step, type ValueKey } from '../edition';
import { choiceArg, flagValue, hasFlag, optionalInteger, UsageError, type FlagTable, type ParsedLine, echo } from '../../text/args';
import { percentileCheck } from '../check';
import { describeRefusal, resolveSoakDefend, type CheckName, type SoakAid, type SoakDefendAction, type SoakDefendInput } from './defend';
import { SOAK_SITUATIONS, SOAK_SITUATION_RULES } from './situations';
import { resolveSave } from './life';
import { lifeNow, stanceButtons } from './layout';
import { lifeOf, withLife, type SoakAnswer, type SoakState } from './state';

const ACTIONS = ['defend', 'evade', 'react', 'counter', 'skill', 'save'] as const;
type Action = (typeof ACTIONS)[number];

export const SOAK_DEFEND_USAGE =
  '!defend --action defend|evade|react|counter|skill|save [--situation S] [--roll 1-100] [--mod M] [--vs ID] [--ally ID] [--aided-by ID] [--mental] [--mental-roll R] [--perception-roll R] [--perception-mod M] [--skill NAME] [--ids ID ...]';

export const SOAK_DEFEND_FLAGS: FlagTable = {
  action: { kind: 'one' },
  situation: { kind: 'one' },
  roll: { kind: 'one' },
  mod: { kind: 'one' },
  vs: { kind: 'one', token: true },
  ally: { kind: 'one', token: true },
  'aided-by': { kind: 'one', token: true },
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
  mentalAsked: boolean;
}

export function parseSoakDefend(parsed: ParsedLine): DefendOrder {
  if (parsed.positionals.length > 0) throw new UsageError(`unexpected "${echo(parsed.positionals.join(' '))}" (give the action with --action)`);
  // rules.md, Reactive stance: aid comes from a named ally's successful reaction, not a switch.
  if (hasFlag(parsed, 'aided')) {
    throw new UsageError('--aided is replaced by --aided-by ID (the reacting ally\'s token) with --vs ID (the attacker)');
  }
  const actionText = flagValue(parsed, 'action');
  if (actionText === undefined) throw new UsageError(`no action given: add --action ${ACTIONS.join('|')}`);
  const action = choiceArg(actionText, '--action', ACTIONS);
  const situationText = flagValue(parsed, 'situation');
  if (situationText !== undefined && (action === 'save' || action === 'react')) {
    throw new UsageError(`--situation does not apply to --action ${action}`);
  }
  if (action === 'save') {
    const meaningless = ['vs', 'ally', 'aided-by', 'skill', 'mental', 'mental-roll', 'perception-roll', 'perception-mod'].find((flag) => hasFlag(parsed, flag));
    if (meaningless) throw new UsageError(`--${meaningless} does not apply to --action save`);
  }
  const situation = situationText === undefined ? 'front' : choiceArg(situationText, '--situation', SOAK_SITUATIONS);
  // Rolls that would decide nothing are refused, never silently ignored (commands.md, "Syntax").
  if (hasFlag(parsed, 'roll') && (action === 'counter' || action === 'skill')) {
    throw new UsageError(`--roll does not apply to --action ${action}: it is announced, not rolled`);
  }
  if (hasFlag(parsed, 'perception-roll') && SOAK_SITUATION_RULES[situation].perceptionGate === 'none') {
    throw new UsageError(`--perception-roll applies only where a perception check comes first (behind, distracted, covert, spectator)`);
  }
  if ((hasFlag(parsed, 'mental') || hasFlag(parsed, 'mental-roll')) && !(action === 'evade' && SOAK_SITUATION_RULES[situation].mentalCheckEasesPenalty)) {
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
    mentalAsked: hasFlag(parsed, 'mental') || hasFlag(parsed, 'mental-roll'),
    mod: optionalInteger(parsed, 'mod', -1000, 1000) ?? 0,
    perceptionMod: optionalInteger(parsed, 'perception-mod', -1000, 1000) ?? 0,
    aidedBy: flagValue(parsed, 'aided-by') ?? null,
    vs: flagValue(parsed, 'vs') ?? null,
    ally: flagValue(parsed, 'ally') ?? null,
    skillName: flagValue(parsed, 'skill') ?? null,
  };
}

/** The d100s a check rolls, each unless its flag gives it: the action's, the perception gate's, the mental check's. */
function diceOf(order: DefendOrder): Die[] {
  const rolledAction = order.action === 'defend' || order.action === 'evade' || order.action === 'react' || order.action === 'save';
  const gated = order.action !== 'save' && SOAK_SITUATION_RULES[order.situation].perceptionGate !== 'none';
  const dice: Die[] = [];
  if (rolledAction) dice.push({ name: 'action', sides: 100, flag: 'roll' });
  if (gated) dice.push({ name: 'perception', sides: 100, flag: 'perception-roll' });
  if (order.mentalAsked) dice.push({ name: 'mental', sides: 100, flag: 'mental-roll' });
  return dice;
}

export function soakDefendPlan(order: DefendOrder): Plan<SoakState, SoakAnswer> {
  return {
    values: order.action === 'save' ? ['save_check'] : Object.values(CHECK_ATTRIBUTE),
    bars: ['vitality'],
    // The Defensive Round: the acting token (top of the Turn Tracker) is not in its defensive round.
    readsTurnOrder: order.action !== 'save',
    // The aiding ally's stance and reaction; the attacker's name, for a refusal's words.
    ...(order.aidedBy !== null || order.vs !== null ? { others: [order.aidedBy, order.vs].filter((id): id is string => id !== null) } : {}),
    dice: diceOf(order),
    resolve(facts, rolled) {
      const rolls = { action: rolled.action ?? 100, perception: rolled.perception ?? 100, mental: order.mentalAsked ? (rolled.mental ?? 100) : null };
      return order.action === 'save' ? resolveOwedSave(order, facts, rolls.action) : resolveCheck(order, facts, rolls);
    },
  };
}

function resolveOwedSave(order: DefendOrder, facts: Facts<SoakState, SoakAnswer>, roll: number): Resolution<SoakState, SoakAnswer> {
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
  const who = facts.id;
  return {
    headline: succeeded ? 'saved' : died ? 'dies' : 'acts',
    steps: [
      at(TITLE, { kind: 'save-title', who }),
      at(SUMMARY, { kind: 'save-summary', who, result: succeeded ? (outcome.life.condition === 'none' ? 'stands' : 'clings') : died ? 'dies' : 'fails' }),
      ...placed('Roll', outcome.steps),
      ...lifeNow('Now', outcome.life, outcome.vitality),
    ],
    changes: outcome.vitality !== vitality ? [{ kind: 'bar', resource: 'vitality', to: outcome.vitality }] : [],
    state: withLife(facts.state, outcome.life),
    detail: outcome,
  };
}

function resolveCheck(
  order: DefendOrder,
  facts: Facts<SoakState, SoakAnswer>,
  rolls: { action: number; perception: number; mental: number | null },
): Resolution<SoakState, SoakAnswer> {
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
  if (outcome.kind === 'refused') return { kind: 'refused', reason: describeRefusal(outcome.reason, (id) => facts.others[id]?.name ?? id) };
  if (outcome.kind === 'missing-target') return { kind: 'missing-value', key: CHECK_ATTRIBUTE[outcome.check] };

  const next: SoakState = { ...state };
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
  const headline: Headline = 'acts';
  const undeclared = facts.stance !== 'defensive' && facts.stance !== 'reactive';
  const who = facts.id;
  const result = outcome.pendingDefense;
  const steps: Step[] = [
    at(TITLE, { kind: 'check-title', who, action: order.action, situation: order.situation }),
    at(SUMMARY, { kind: 'check-summary', who, action: order.action, result }),
    ...placed('Check', outcome.steps),
    ...(result !== null ? [at('Result', { kind: 'check-result', who, result, action: order.action })] : []),
    // The Defensive Round: "you must declare what kind of stance you are taking: Defensive or Reactive".
    ...(undeclared ? [at('Stance', { kind: 'no-stance-declared' })] : []),
    ...(outcome.offerDamageButton ? [at(ACTION, { kind: 'offer-damage' })] : []),
    ...(undeclared ? stanceButtons(facts.id) : []),
  ];
  return {
    headline,
    steps,
    changes,
    state: next,
    ...(result !== null ? { answer: result } : {}),
    observed: false,
    detail: outcome,
  };
}
