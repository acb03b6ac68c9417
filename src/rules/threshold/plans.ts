// `!damage` and `!defend` of the `threshold` edition as plans: parse, name what to read and roll,
// and resolve one token from those numbers (rules.md, "Edition `threshold`"; commands.md).
import { ACTION, at, placed, SUMMARY, TITLE, type Die, type Facts, type Headline, type Order, type Plan, type Resolution, type RuleChange, type Step, type ValueKey } from '../edition';
import { UsageError, echo } from '../../text/args';
import { flagTable, type AmountSpec, type FlagValues } from '../../text/flags';
import { actingRefusal } from '../shared';
import { TRACK_OF } from '../damageTypes';
import { resolveThresholdHit } from './damage';
import { betterPending, defenseCheckOf, resolveThresholdDefend, thresholdRollsNeeded, type ThresholdAction } from './defend';
import { resolveThresholdSave } from './save';
import { isDead, type ThresholdPending, type ThresholdState } from './state';
import { SOAK_ONLY_SITUATIONS, THRESHOLD_SITUATIONS, THRESHOLD_SITUATION_RULES, type ThresholdSituation, type ThresholdSituationRule } from './situations';
import type { ThresholdStep } from './steps';
import { deadNow } from './layout';

const ROLLED = ['defend', 'guard', 'save'];
/** The situations whose rule asks for this (The Defensive Turn's situation table): the lists the flags' conditions compare. */
const where = (asks: (rule: ThresholdSituationRule) => boolean) => THRESHOLD_SITUATIONS.filter((situation) => asks(THRESHOLD_SITUATION_RULES[situation]));
const SITUATION_MEANINGLESS = Object.fromEntries(SOAK_ONLY_SITUATIONS.map((word) => [word, `--situation ${word} means nothing in the threshold edition`]));

export const THRESHOLD_DAMAGE_FLAGS = flagTable({
  hit: { kind: 'integer', min: -1000, max: 1000, placeholder: 'H' },
  // rules.md: --mod adds to the hit chance and needs --hit.
  mod: { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', needs: { flag: 'hit', why: '--mod adds to the hit chance and needs --hit' } },
  type: { kind: 'choice', choices: Object.keys(TRACK_OF), default: 'physical' },
  situation: { kind: 'choice', choices: THRESHOLD_SITUATIONS, meaningless: SITUATION_MEANINGLESS, placeholder: 'S' },
  defense: { kind: 'choice', choices: ['success', 'fail', 'none'], decides: 'decides its defense (--defense)' },
});

const ACTIONS = ['defend', 'guard', 'skill', 'counter', 'opportunity', 'save'] as const;

/** `!defend`'s flags, in the order their refusals are checked: which check a situation asks for is read off the situation table. */
export const THRESHOLD_DEFEND_FLAGS = flagTable({
  action: {
    kind: 'choice', choices: ACTIONS, required: true,
    // rules.md, Clarifications (threshold): The Defensive Turn gives evading no check; react is a soak action.
    meaningless: {
      evade: '--action evade means nothing in the threshold edition (The Defensive Turn gives evading no check): use --action defend',
      react: '--action react means nothing in the threshold edition: a React check is made by defend or guard where the situation asks for one',
    },
  },
  situation: { kind: 'choice', choices: THRESHOLD_SITUATIONS, meaningless: SITUATION_MEANINGLESS, placeholder: 'S', onlyWhen: { flag: 'action', notIn: ['save', 'opportunity'] } },
  // Flags that would change nothing here are refused, never ignored (commands.md, "Syntax").
  roll: {
    kind: 'die', sides: 100, placeholder: 'R',
    onlyWhen: [
      { flag: 'situation', notIn: where((rule) => rule.reactCheck !== null), why: '--roll does not apply here: the defense check against --situation {value} is a React check; give its roll with --react-roll' },
      { flag: 'action', in: ROLLED, why: '--roll does not apply to --action {value}: it is announced, not rolled' },
    ],
  },
  'react-roll': { kind: 'die', sides: 100, placeholder: 'R', onlyWhen: { flag: 'situation', in: where((rule) => rule.reactCheck !== null), why: '--react-roll applies only where a React check is made (--situation projectile, spell-fast, spell-invisible)' } },
  'perception-roll': { kind: 'die', sides: 100, placeholder: 'R', onlyWhen: { flag: 'situation', in: where((rule) => rule.perceive !== null), why: '--perception-roll applies only where a perceive check comes first (behind, distracted, covert, spectator)' } },
  'perception-mod': { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', onlyWhen: { flag: 'situation', in: where((rule) => rule.perceive?.withMod === true), why: '--perception-mod applies only to the perceive check of a covert attack or a spectator' } },
  difficulty: { kind: 'choice', choices: ['hard', 'impossible'], onlyWhen: { flag: 'situation', in: where((rule) => rule.difficultyFlag), why: '--difficulty applies only to --situation covert, spell-fast or spell-invisible' } },
  mod: { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', onlyWhen: { flag: 'action', in: ROLLED, why: '--mod changes a check, and --action {value} is announced, not rolled' } },
  ally: { kind: 'token', required: { when: { flag: 'action', in: ['guard'] }, why: "--action guard needs --ally with the guarded token's id" }, onlyWhen: { flag: 'action', in: ['guard'] } },
  vs: { kind: 'token', onlyWhen: { flag: 'action', notIn: ['save'] } },
  skill: { kind: 'text', placeholder: 'NAME', onlyWhen: { flag: 'action', notIn: ['save'] } },
});

export const THRESHOLD_DAMAGE_USAGE =
  '!damage N [--hit H] [--type physical|magical] [--situation S] [--mod M] [--defense success|fail|none] [--ids ID ...] (N and H: whole numbers or inline rolls); !damage --undo [--force]';
export const THRESHOLD_DEFEND_USAGE =
  '!defend --action defend|guard|skill|counter|opportunity|save [--situation S] [--roll R] [--mod M] [--ally ID] [--vs ID] [--difficulty hard|impossible] [--perception-roll R] [--perception-mod M] [--react-roll R] [--skill NAME] [--ids ID ...]';

export const THRESHOLD_AMOUNT: AmountSpec = { what: 'the damage amount', missing: 'no damage amount given: a number or an inline roll, like !damage 12 or !damage [[2d6+3]]', example: '[[2d6+3]]' };

// ---- !damage ----

interface DamageOrder {
  amount: number;
  track: 'physical' | 'magical';
  hit: number | null;
  situation: ThresholdSituation | null;
  mod: number;
  override: 'success' | 'fail' | 'none' | null;
}

/** The hit as the rules take it, from the order the pipeline parsed. */
export function thresholdDamageOrder(order: Order): DamageOrder {
  const flags = order as FlagValues<typeof THRESHOLD_DAMAGE_FLAGS> & Order;
  return {
    amount: order.amount ?? 0,
    track: TRACK_OF[flags.type]!,
    hit: flags.hit ?? null,
    situation: flags.situation ?? null,
    mod: flags.mod ?? 0,
    override: flags.defense ?? null,
  };
}

export function thresholdDamagePlan(order: DamageOrder): Plan<ThresholdState, ThresholdPending> {
  const armorKey: ValueKey = order.track === 'physical' ? 'armor_physical' : 'armor_magical';
  return {
    values: [armorKey, 'armor_defense'],
    dice: [],
    resolve(facts): Resolution<ThresholdState, ThresholdPending> {
      const vitality = facts.bars.vitality.value;
      if (vitality === null) return { kind: 'bar', resource: 'vitality' };
      const outcome = resolveThresholdHit({
        amount: order.amount,
        track: order.track,
        hit: order.hit,
        situation: order.situation,
        mod: order.mod,
        armor: facts.armorSource ? (facts.values[armorKey]?.current ?? 0) : 0,
        armorDefense: facts.armorSource ? (facts.values.armor_defense?.current ?? 0) : 0,
        noCharacter: !facts.armorSource,
        override: order.override,
        vitality,
        state: facts.state,
        pending: facts.answer,
      });
      const who = facts.id;
      const headline: Headline = outcome.missed ? 'missed' : outcome.dies ? 'dies' : outcome.vitality !== vitality ? 'hit' : 'unharmed';
      const changes: RuleChange[] = outcome.vitality !== vitality ? [{ kind: 'bar', resource: 'vitality', to: outcome.vitality }] : [];
      const isDefense = (step: ThresholdStep) => step.kind === 'defense-used' || step.kind === 'defense-does-not-answer';
      const steps: Step[] = [
        at(TITLE, { kind: 'attack-title', who, amount: order.amount, track: order.track, headline, lost: vitality - outcome.vitality }),
        at(SUMMARY, { kind: 'attack-summary', who, headline }),
        ...placed('Defense', outcome.steps.filter(isDefense)),
        ...placed('Breakdown', outcome.steps.filter((step) => !isDefense(step))),
        ...deadNow('Now', outcome.state, outcome.vitality),
      ];
      return {
        headline,
        steps,
        changes,
        state: outcome.state,
        // The defense made ahead is used up by this attack, hit or miss.
        ...(outcome.answerUsed && facts.answer !== null ? { answer: null } : {}),
        detail: outcome,
      };
    },
  };
}

/** commands.md, "Hand edits": in threshold only a pending success applies (the armor's Defense). */
export function thresholdHandEditPlan(loss: number): Plan<ThresholdState, ThresholdPending> {
  return thresholdDamagePlan({ amount: loss, track: 'physical', hit: null, situation: null, mod: 0, override: null });
}

// ---- !defend ----

type Action = (typeof ACTIONS)[number];

interface DefendOrder {
  action: Action;
  situation: ThresholdSituation;
  situationGiven: boolean;
  difficulty: 'hard' | 'impossible' | null;
  mod: number;
  perceptionMod: number;
  vs: string | null;
  ally: string | null;
  skillName: string | null;
}

/** The check as the rules take it, from the order the pipeline parsed. */
export function thresholdDefendOrder(order: Order): DefendOrder {
  if (order.positionals.length > 0) throw new UsageError(`unexpected "${echo(order.positionals.join(' '))}" (give the action with --action)`);
  const flags = order as FlagValues<typeof THRESHOLD_DEFEND_FLAGS> & Order;
  return {
    action: flags.action,
    situation: flags.situation ?? 'front',
    situationGiven: flags.situation !== undefined,
    difficulty: flags.difficulty ?? null,
    mod: flags.mod ?? 0,
    perceptionMod: flags['perception-mod'] ?? 0,
    vs: flags.vs ?? null,
    ally: flags.ally ?? null,
    skillName: flags.skill ?? null,
  };
}

export function thresholdDefendPlan(order: DefendOrder): Plan<ThresholdState, ThresholdPending> {
  if (order.action === 'save') return savePlan(order);
  const action = order.action;
  const needed = thresholdRollsNeeded(action, order.situation);
  // The Defensive Turn: the defense check is a React check where the situation asks for one.
  const dice: Die[] = [];
  if (needed.perceive) dice.push({ name: 'perceive', sides: 100, flag: 'perception-roll' });
  if (needed.check) dice.push({ name: 'check', sides: 100, flag: defenseCheckOf(order.situation) === 'react' ? 'react-roll' : 'roll' });
  return {
    values: ['defend_check', 'reaction_check', 'perception_check'],
    dice,
    readsTurnOrder: true,
    ...(order.ally !== null ? { others: [order.ally] } : {}),
    resolve(facts, rolled) {
      return resolveDefense(order, action, facts, { perceive: rolled.perceive ?? 100, check: rolled.check ?? 100 });
    },
  };
}

function resolveDefense(
  order: DefendOrder,
  action: ThresholdAction,
  facts: Facts<ThresholdState, ThresholdPending>,
  rolls: { perceive: number; check: number },
): Resolution<ThresholdState, ThresholdPending> {
  const vitality = facts.bars.vitality.value;
  if (vitality === null) return { kind: 'bar', resource: 'vitality' };
  if (isDead(vitality)) return { kind: 'refused', reason: 'this character is dead and makes no defense; it may only make its Vitality saves (--action save)' };
  // The Defensive Turn: the defensive turn is "when it is not actively your turn".
  if (facts.acting) return { kind: 'refused', reason: actingRefusal('turn') };
  const ally = order.ally !== null ? facts.others[order.ally] : undefined;
  if (order.ally !== null && !ally) return { kind: 'refused', reason: "--ally: no token on the table has that id" };
  if (order.ally !== null && order.ally === facts.id) return { kind: 'refused', reason: '--ally names this token itself: guard defends others (use --action defend)' };
  const value = (key: ValueKey) => facts.values[key]?.current ?? null;
  const outcome = resolveThresholdDefend({
    action,
    situation: order.situation,
    difficulty: order.difficulty,
    checkTargets: { defend: value('defend_check'), react: value('reaction_check'), perceive: value('perception_check') },
    rolls,
    mod: order.mod,
    perceptionMod: order.perceptionMod,
    vs: order.vs,
    ally: order.ally,
    skillName: order.skillName,
  });
  if (outcome.kind === 'missing') {
    const key: ValueKey = outcome.check === 'perceive' ? 'perception_check' : outcome.check === 'react' ? 'reaction_check' : 'defend_check';
    return { kind: 'missing-value', key };
  }
  const steps: ThresholdStep[] = [...outcome.steps];
  const changes: RuleChange[] = [];
  let answer: ThresholdPending | undefined;
  if (outcome.pending && action === 'guard' && ally && order.ally) {
    const kept = betterPending(ally.answer ?? undefined, outcome.pending);
    steps.push({ kind: 'guard-kept', ally: order.ally, result: kept.result });
    changes.push({ kind: 'ally-answer', tokenId: order.ally, answer: kept });
  } else if (outcome.pending) {
    answer = outcome.pending;
  }
  if (outcome.drawSpectator && order.vs) changes.push({ kind: 'join-turn-order', tokenId: order.vs, initiative: 0 });
  const result = outcome.pending?.result;
  const who = facts.id;
  const guarded = action === 'guard' && ally && order.ally ? order.ally : null;
  return {
    headline: 'acts',
    steps: [
      at(TITLE, { kind: 'defense-title', who, action, situation: order.situation }),
      result ? at(SUMMARY, { kind: 'defense-result', who, guarded, result, summary: true }) : at(SUMMARY, { kind: 'defense-announced', who, action }),
      ...placed('Check', steps),
      ...(result ? [at('Result', { kind: 'defense-result', who, guarded, result })] : []),
      ...(result === 'fail' && action === 'defend' ? [at(ACTION, { kind: 'offer-damage' })] : []),
    ],
    changes,
    ...(answer !== undefined ? { answer } : {}),
    observed: false,
    detail: outcome,
  };
}

function savePlan(order: DefendOrder): Plan<ThresholdState, ThresholdPending> {
  return {
    values: ['save_check', 'exp'],
    // The cost die is rolled first (Ruling), then the save; a given --roll is the save's.
    dice: [{ name: 'cost', sides: 100 }, { name: 'save', sides: 100, flag: 'roll' }],
    resolve(facts, rolled) {
      const vitality = facts.bars.vitality.value;
      if (vitality === null) return { kind: 'bar', resource: 'vitality' };
      const cost = rolled.cost ?? 100;
      const save = rolled.save ?? 100;
      const outcome = resolveThresholdSave({
        vitality,
        state: facts.state,
        saveTarget: facts.values.save_check?.current ?? null,
        mod: order.mod,
        exp: facts.values.exp?.current ?? null,
        rolls: { cost, save },
      });
      if (outcome.kind === 'refused') {
        switch (outcome.reason) {
          case 'not-dead':
            return { kind: 'refused', reason: 'no save is owed (saves come from dying at 0 or below)' };
          case 'dead-for-good':
            // Either its four rounds are over, or it died for good in the edition before (it stays dead).
            return { kind: 'refused', reason: 'dead for good: no save is left (The Defensive Turn: "After 4 rounds you are simply dead"; a token dead for good in another edition stays dead)' };
          case 'tried-this-round':
            return { kind: 'refused', reason: 'this round\'s try is used (one try a round); the next round brings the next' };
          case 'missing-exp':
            return { kind: 'missing-value', key: 'exp' };
          case 'missing-save-check':
            return { kind: 'missing-value', key: 'save_check' };
        }
      }
      const changes: RuleChange[] = [];
      if (outcome.vitality !== vitality) changes.push({ kind: 'bar', resource: 'vitality', to: outcome.vitality });
      if (outcome.expAfter !== null) changes.push({ kind: 'value', key: 'exp', to: outcome.expAfter });
      const who = facts.id;
      return {
        headline: outcome.stood ? 'saved' : 'acts',
        steps: [
          at(TITLE, { kind: 'save-title', who }),
          at(SUMMARY, { kind: 'save-summary', who, stood: outcome.stood }),
          ...placed('Roll', outcome.steps),
          ...deadNow('Now', outcome.state, outcome.vitality, true),
        ],
        changes,
        state: outcome.state,
        // Undo puts paid EXP back (issue: the threshold edition).
        ...(outcome.expAfter !== null ? { undoable: true } : {}),
        detail: outcome,
      };
    },
  };
}

