// `!attack` in the `soak` edition: the attack's situation (The Defensive Round's table), the
// answers a defender may give (defend, evade, none), each rolled as `!defend` would, and a
// reactive defender's reaction check beside them (a plain `!defend --action react`).
import { ACTION, type AttackSpec, type ButtonStep, type Step } from '../edition';
import { answerPlan, defendOrder, keepFiled } from '../shared';
import { SOAK_DEFEND_FLAGS, soakDefendOrder, soakDefendPlan } from './defendPlan';
import { SOAK_SITUATION_RULES, SOAK_SITUATIONS, type SoakSituation } from './situations';
import { SITUATION_NAME } from '../situationNames';
import type { SoakAnswer, SoakState } from './state';

const target = (value: number | null | undefined) => (value === null || value === undefined ? '' : ` (${value})`);

export const soakAttack: AttackSpec<SoakState, SoakAnswer> = {
  // The attack's situation: every answer's check is made in it (`!defend`'s situation table).
  flags: { situation: { kind: 'choice', choices: SOAK_SITUATIONS, placeholder: 'S' } },
  answerFlag: 'action',
  rollFlag: 'roll',
  choices: ['defend', 'evade', 'none'],
  label: (word, facts) =>
    word === 'defend' ? `Defend${target(facts.values.defend_check?.current)}` : word === 'evade' ? `Evade${target(facts.values.evade_check?.current)}` : 'No defense',
  situation: (order) => (order.situation as string | undefined) ?? null,
  situationWords(situation) {
    const rule = SOAK_SITUATION_RULES[situation as SoakSituation];
    if (!rule) return situation;
    const effects = [
      rule.perceptionGate !== 'none' ? 'a perception check first' : '',
      rule.defendPenalty !== 0 ? `defend ${rule.defendPenalty}` : '',
      rule.evadeImpossible ? 'no evade' : rule.evadePenalty !== 0 ? `evade ${rule.evadePenalty}` : '',
    ].filter((effect) => effect !== '');
    return `${SITUATION_NAME[situation as SoakSituation]}${effects.length > 0 ? `: ${effects.join(', ')}` : ''}`;
  },
  planAnswer: (word, situation) => answerPlan(soakDefendPlan(soakDefendOrder(defendOrder({ action: word, situation }, SOAK_DEFEND_FLAGS))), 'pending-defense'),
  // The action's own check, when one was made (a failed perception check leaves none).
  keep: (word, outcome) => keepFiled(word, outcome, outcome.steps.find((step): step is Step & { roll: number; success: boolean } => step.kind === 'action-check')),
  extra(facts, attacker): ButtonStep[] {
    // The Defensive Round, "Reactive Stance": one reaction check per attacker per round.
    if (facts.stance !== 'reactive' || attacker === null) return [];
    return [{ kind: 'button', section: ACTION, label: `React (${facts.values.reaction_check?.current ?? '?'})`, command: `!defend --action react --vs ${attacker} --ids ${facts.id}` }];
  },
};
