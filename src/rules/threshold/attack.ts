// `!attack` in the `threshold` edition: the attack's situation is `!damage`'s own; a defender
// answers with a defense check made in it (The Defensive Turn), or none.
import type { AttackSpec, Step } from '../edition';
import { answerPlan, defendOrder, keepFiled } from '../shared';
import { THRESHOLD_DEFEND_FLAGS, thresholdDefendOrder, thresholdDefendPlan } from './plans';
import { defenseCheckOf } from './defend';
import type { ThresholdPending, ThresholdState } from './state';
import { THRESHOLD_SITUATION_RULES, type ThresholdSituation } from './situations';
import { SITUATION_NAME } from '../situationNames';

export const thresholdAttack: AttackSpec<ThresholdState, ThresholdPending> = {
  flags: {},
  answerFlag: 'action',
  rollFlag: 'roll',
  choices: ['defend', 'none'],
  label: (word, facts) => {
    const target = facts.values.defend_check?.current;
    return word === 'none' ? 'No defense' : `Defend${target === null || target === undefined ? '' : ` (${target})`}`;
  },
  situation: (order) => (order.situation as string | undefined) ?? null,
  situationWords(situation) {
    const rule = THRESHOLD_SITUATION_RULES[situation as ThresholdSituation];
    if (!rule) return situation;
    const effects = [
      rule.perceive ? `a ${rule.perceive.difficulty === 'normal' ? '' : `${rule.perceive.difficulty} `}perceive check first` : '',
      rule.reactCheck ? 'the defense is a React check' : '',
      rule.noHitChance ? 'no hit chance: it hits' : rule.hitBonus !== 0 ? `+${rule.hitBonus} to hit` : '',
    ].filter((effect) => effect !== '');
    return `${SITUATION_NAME[situation as ThresholdSituation]}${effects.length > 0 ? `: ${effects.join(', ')}` : ''}`;
  },
  planAnswer(word, situation) {
    const plan = answerPlan(thresholdDefendPlan(thresholdDefendOrder(defendOrder({ action: word, situation }, THRESHOLD_DEFEND_FLAGS))), 'pending-defense');
    // An answer's --roll is its defense check's, a React check too where the situation asks for one.
    const react = situation !== null && defenseCheckOf(situation as ThresholdSituation) === 'react';
    return react ? { ...plan, dice: plan.dice.map((die) => (die.name === 'check' ? { ...die, flag: 'roll' } : die)) } : plan;
  },
  // The defense check itself (Defend, or React where the situation asks), not the perceive check before it.
  keep: (word, outcome) =>
    keepFiled(word, outcome, outcome.steps.find((step): step is Step & { roll: number; success: boolean } => step.kind === 'check' && ((step as { check?: string }).check === 'defend' || (step as { check?: string }).check === 'react'))),
};
