// `!defend` in the `soak` edition as a plan: parse the action, count the d100s still to roll, and
// resolve one token's check or owed save from the numbers read (rules.md, "Defensive actions").
import { ACTION, at, placed, SUMMARY, TITLE, type Die, type Facts, type Headline, type Order, type Plan, type Resolution, type RuleChange, type Step, type ValueKey } from '../edition';
import { UsageError, echo } from '../../text/args';
import { flagTable, type FlagValues } from '../../text/flags';
import { percentileCheck } from '../check';
import { describeRefusal, resolveSoakDefend, type CheckName, type SoakAid, type SoakDefendAction, type SoakDefendInput } from './defend';
import { SOAK_SITUATIONS, SOAK_SITUATION_RULES, type SoakSituation } from './situations';
import { resolveSave } from './life';
import { lifeNow, stanceButtons } from './layout';
import { lifeOf, withLife, type SoakAnswer, type SoakState } from './state';

const ACTIONS = ['defend', 'evade', 'react', 'counter', 'skill', 'save'] as const;
type Action = (typeof ACTIONS)[number];

export const SOAK_DEFEND_USAGE =
  '!defend --action defend|evade|react|counter|skill|save [--situation S] [--roll 1-100] [--mod M] [--vs ID] [--ally ID] [--aided-by ID] [--mental] [--mental-roll R] [--perception-roll R] [--perception-mod M] [--skill NAME] [--ids ID ...]';

/** The situations whose rule asks for this (The Defensive Round's situation table): the lists the flags' conditions compare. */
const where = (asks: (rule: (typeof SOAK_SITUATION_RULES)[SoakSituation]) => boolean) => SOAK_SITUATIONS.filter((situation) => asks(SOAK_SITUATION_RULES[situation]));
const NOT_FOR_SAVE = { flag: 'action', notIn: ['save'] } as const;
const MENTAL = '--mental and --mental-roll apply only to --action evade with --situation spell-unseen';

/** `!defend`'s flags, in the order their refusals are checked (commands.md, "Syntax": what would change nothing is refused). */
export const SOAK_DEFEND_FLAGS = flagTable({
  // rules.md, Reactive stance: aid comes from a named ally's successful reaction, not a switch (the old switch is kept only to refuse it).
  aided: { kind: 'switch', retired: '--aided is replaced by --aided-by ID (the reacting ally\'s token) with --vs ID (the attacker)' },
  action: { kind: 'choice', choices: ACTIONS, required: true },
  situation: { kind: 'choice', choices: SOAK_SITUATIONS, default: 'front', placeholder: 'S', onlyWhen: { flag: 'action', notIn: ['save', 'react'] } },
  roll: { kind: 'die', sides: 100, placeholder: '1-100', onlyWhen: { flag: 'action', notIn: ['counter', 'skill'], why: '--roll does not apply to --action {value}: it is announced, not rolled' } },
  mod: { kind: 'integer', min: -1000, max: 1000, placeholder: 'M' },
  mental: { kind: 'switch', onlyWhen: [NOT_FOR_SAVE, { flag: 'action', in: ['evade'], why: MENTAL }, { flag: 'situation', in: where((rule) => rule.mentalCheckEasesPenalty), why: MENTAL }] },
  'mental-roll': { kind: 'die', sides: 100, placeholder: 'R', onlyWhen: [NOT_FOR_SAVE, { flag: 'action', in: ['evade'], why: MENTAL }, { flag: 'situation', in: where((rule) => rule.mentalCheckEasesPenalty), why: MENTAL }] },
  'perception-roll': {
    kind: 'die', sides: 100, placeholder: 'R',
    onlyWhen: [NOT_FOR_SAVE, { flag: 'situation', in: where((rule) => rule.perceptionGate !== 'none'), why: '--perception-roll applies only where a perception check comes first (behind, distracted, covert, spectator)' }],
  },
  // A reaction and a counter are always against an attacker, aid always from one (a missing argument is a malformed command).
  vs: { kind: 'token', onlyWhen: NOT_FOR_SAVE, required: { when: { flag: 'action', in: ['react', 'counter'] }, why: "--action {value} needs --vs with the attacker's token id" } },
  ally: { kind: 'token', onlyWhen: NOT_FOR_SAVE },
  'aided-by': { kind: 'token', onlyWhen: NOT_FOR_SAVE, needs: { flag: 'vs', why: "--aided-by needs --vs with the attacker's token id" } },
  'perception-mod': { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', onlyWhen: NOT_FOR_SAVE },
  skill: { kind: 'text', placeholder: 'NAME', onlyWhen: NOT_FOR_SAVE },
});

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

/** The check as the rules take it, from the order the pipeline parsed. */
export function soakDefendOrder(order: Order): DefendOrder {
  if (order.positionals.length > 0) throw new UsageError(`unexpected "${echo(order.positionals.join(' '))}" (give the action with --action)`);
  const flags = order as FlagValues<typeof SOAK_DEFEND_FLAGS> & Order;
  return {
    action: flags.action,
    situation: flags.situation,
    mentalAsked: flags.mental || flags['mental-roll'] !== undefined,
    mod: flags.mod ?? 0,
    perceptionMod: flags['perception-mod'] ?? 0,
    aidedBy: flags['aided-by'] ?? null,
    vs: flags.vs ?? null,
    ally: flags.ally ?? null,
    skillName: flags.skill ?? null,
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
