// `!damage` and `!defend` of the `threshold` edition as plans: parse, name what to read and roll,
// and resolve one token from those numbers (rules.md, "Edition `threshold`"; commands.md).
import { ACTION, at, placed, SUMMARY, TITLE, type Die, type Facts, type Headline, type Plan, type Resolution, type RuleChange, type Step, type ValueKey } from '../edition';
import { choiceArg, flagValue, hasFlag, optionalInteger, UsageError, type FlagTable, type ParsedLine, echo } from '../../text/args';
import { actingRefusal, amountArg } from '../shared';
import { TRACK_OF } from '../damageTypes';
import { resolveThresholdHit } from './damage';
import { betterPending, defenseCheckOf, resolveThresholdDefend, thresholdRollsNeeded, type ThresholdAction } from './defend';
import { resolveThresholdSave } from './save';
import { isDead, type ThresholdPending, type ThresholdState } from './state';
import { SOAK_ONLY_SITUATIONS, THRESHOLD_SITUATIONS, THRESHOLD_SITUATION_RULES, type ThresholdSituation } from './situations';
import type { ThresholdStep } from './steps';
import { deadNow } from './layout';

export const THRESHOLD_DAMAGE_FLAGS: FlagTable = {
  type: { kind: 'one' },
  defense: { kind: 'one', decides: 'decides its defense (--defense)' },
  hit: { kind: 'one' },
  situation: { kind: 'one' },
  mod: { kind: 'one' },
};

export const THRESHOLD_DEFEND_FLAGS: FlagTable = {
  action: { kind: 'one' },
  situation: { kind: 'one' },
  roll: { kind: 'one' },
  mod: { kind: 'one' },
  vs: { kind: 'one', token: true },
  ally: { kind: 'one', token: true },
  'perception-roll': { kind: 'one' },
  'perception-mod': { kind: 'one' },
  'react-roll': { kind: 'one' },
  difficulty: { kind: 'one' },
  skill: { kind: 'text' },
};

export const THRESHOLD_DAMAGE_USAGE =
  '!damage N [--hit H] [--type physical|magical] [--situation S] [--mod M] [--defense success|fail|none] [--ids ID ...] (N and H: whole numbers or inline rolls); !damage --undo [--force]';
export const THRESHOLD_DEFEND_USAGE =
  '!defend --action defend|guard|skill|counter|opportunity|save [--situation S] [--roll R] [--mod M] [--ally ID] [--vs ID] [--difficulty hard|impossible] [--perception-roll R] [--perception-mod M] [--react-roll R] [--skill NAME] [--ids ID ...]';

function situationArg(text: string | undefined): ThresholdSituation | null {
  if (text === undefined) return null;
  if (SOAK_ONLY_SITUATIONS.includes(text.toLowerCase())) throw new UsageError(`--situation ${text.toLowerCase()} means nothing in the threshold edition`);
  return choiceArg(text, '--situation', THRESHOLD_SITUATIONS);
}

// ---- !damage ----

interface DamageOrder {
  amount: number;
  track: 'physical' | 'magical';
  hit: number | null;
  situation: ThresholdSituation | null;
  mod: number;
  override: 'success' | 'fail' | 'none' | null;
}

export function parseThresholdDamage(line: ParsedLine): DamageOrder {
  const amount = amountArg(line, { what: 'the damage amount', missing: 'no damage amount given: a number or an inline roll, like !damage 12 or !damage [[2d6+3]]', example: '[[2d6+3]]' });
  const hit = optionalInteger(line, 'hit', -1000, 1000) ?? null;
  // rules.md: --mod adds to the hit chance and needs --hit.
  if (hasFlag(line, 'mod') && hit === null) throw new UsageError('--mod adds to the hit chance and needs --hit');
  const override = flagValue(line, 'defense');
  return {
    amount,
    track: TRACK_OF[choiceArg(flagValue(line, 'type') ?? 'physical', '--type', Object.keys(TRACK_OF))]!,
    hit,
    situation: situationArg(flagValue(line, 'situation')),
    mod: optionalInteger(line, 'mod', -1000, 1000) ?? 0,
    override: override === undefined ? null : choiceArg(override, '--defense', ['success', 'fail', 'none'] as const),
  };
}

export function thresholdDamagePlan(order: DamageOrder): Plan<ThresholdState, ThresholdPending> {
  const armorKey: ValueKey = order.track === 'physical' ? 'armor_physical' : 'armor_magical';
  return {
    values: [armorKey, 'armor_defense'],
    bars: ['vitality'],
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

const ACTIONS = ['defend', 'guard', 'skill', 'counter', 'opportunity', 'save'] as const;
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

export function parseThresholdDefend(line: ParsedLine): DefendOrder {
  if (line.positionals.length > 0) throw new UsageError(`unexpected "${echo(line.positionals.join(' '))}" (give the action with --action)`);
  const actionText = flagValue(line, 'action');
  if (actionText === undefined) throw new UsageError(`no action given: add --action ${ACTIONS.join('|')}`);
  const word = actionText.toLowerCase();
  // rules.md, Clarifications (threshold): The Defensive Turn gives evading no check; react is a soak action.
  if (word === 'evade') throw new UsageError('--action evade means nothing in the threshold edition (The Defensive Turn gives evading no check): use --action defend');
  if (word === 'react') throw new UsageError('--action react means nothing in the threshold edition: a React check is made by defend or guard where the situation asks for one');
  const action = choiceArg(actionText, '--action', ACTIONS);
  const situationText = flagValue(line, 'situation');
  if (situationText !== undefined && (action === 'save' || action === 'opportunity')) throw new UsageError(`--situation does not apply to --action ${action}`);
  const situation = situationArg(situationText) ?? 'front';
  const rule = THRESHOLD_SITUATION_RULES[situation];
  const needed = thresholdRollsNeeded(action === 'save' ? 'defend' : action, situation);
  const ownIsReact = action !== 'save' && needed.check && defenseCheckOf(situation) === 'react';
  const ownIsDefend = action === 'save' || ((action === 'defend' || action === 'guard') && defenseCheckOf(situation) === 'defend');
  // Flags that would change nothing here are refused, never ignored (commands.md, "Syntax").
  if (hasFlag(line, 'roll') && !ownIsDefend) {
    throw new UsageError(ownIsReact
      ? `--roll does not apply here: the defense check against --situation ${situation} is a React check; give its roll with --react-roll`
      : `--roll does not apply to --action ${action}: it is announced, not rolled`);
  }
  if (hasFlag(line, 'react-roll') && !ownIsReact) throw new UsageError('--react-roll applies only where a React check is made (--situation projectile, spell-fast, spell-invisible)');
  if (hasFlag(line, 'perception-roll') && (action === 'save' || !rule.perceive)) throw new UsageError('--perception-roll applies only where a perceive check comes first (behind, distracted, covert, spectator)');
  if (hasFlag(line, 'perception-mod') && (action === 'save' || !rule.perceive?.withMod)) throw new UsageError('--perception-mod applies only to the perceive check of a covert attack or a spectator');
  if (hasFlag(line, 'difficulty') && (action === 'save' || !rule.difficultyFlag)) throw new UsageError('--difficulty applies only to --situation covert, spell-fast or spell-invisible');
  if (hasFlag(line, 'mod') && !(action === 'defend' || action === 'guard' || action === 'save')) throw new UsageError(`--mod changes a check, and --action ${action} is announced, not rolled`);
  if (action === 'guard' && !hasFlag(line, 'ally')) throw new UsageError('--action guard needs --ally with the guarded token\'s id');
  if (action !== 'guard' && hasFlag(line, 'ally')) throw new UsageError('--ally applies only to --action guard');
  if (action === 'save' && (hasFlag(line, 'vs') || hasFlag(line, 'skill'))) throw new UsageError(`--${hasFlag(line, 'vs') ? 'vs' : 'skill'} does not apply to --action save`);
  const difficulty = flagValue(line, 'difficulty');
  return {
    action,
    situation,
    situationGiven: situationText !== undefined,
    difficulty: difficulty === undefined ? null : choiceArg(difficulty, '--difficulty', ['hard', 'impossible'] as const),
    mod: optionalInteger(line, 'mod', -1000, 1000) ?? 0,
    perceptionMod: optionalInteger(line, 'perception-mod', -1000, 1000) ?? 0,
    vs: flagValue(line, 'vs') ?? null,
    ally: flagValue(line, 'ally') ?? null,
    skillName: flagValue(line, 'skill') ?? null,
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
    bars: ['vitality'],
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
    bars: ['vitality'],
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

