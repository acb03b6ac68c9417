// Plain text, one line per `!defend` step, so the chat shows each rule with its numbers
// (commands.md, "Output"). Pure; HTML and Roll20 escaping is the chat renderer's job, not this one's.

import type { DefendStep, RolledDefendAction } from './defendSteps';
import type { PenalisedCheck } from './situations';
import { SITUATION_NAME } from '../situationNames';

const CHECK_LABEL: Record<RolledDefendAction, string> = { defend: 'Defend', evade: 'Evade', react: 'Reaction' };

const PENALISED_WORD: Record<PenalisedCheck, string> = { defend: 'defend', evade: 'evade' };

/** `+5` / `-5`; zero as `0`. */
function signed(n: number): string {
  return n > 0 ? `+${n}` : `${n}`;
}

/** `55`, or `55 - 5 + 5 = 55` when the target was adjusted. */
function targetText(baseTarget: number, adjustments: readonly number[], target: number): string {
  if (adjustments.length === 0) return `${target}`;
  const terms = adjustments.map((n) => (n < 0 ? ` - ${-n}` : ` + ${n}`)).join('');
  return `${baseTarget}${terms} = ${target}`;
}

function resultText(success: boolean, critical: boolean): string {
  return success ? (critical ? 'success (critical)' : 'success') : 'failure';
}

/**
 * One line for one step. Attacker and ally ids go through `nameOf` (the caller may turn a token id
 * into its name); by default the id is shown as given.
 */
export function describeDefendStep(step: DefendStep, nameOf: (id: string) => string = (id) => id): string {
  switch (step.kind) {
    case 'perception-check':
      return `Perception d100 ${step.roll} vs ${targetText(step.baseTarget, step.mod === 0 ? [] : [step.mod], step.target)}: ${resultText(step.success, step.critical)}`;
    case 'no-defensive-action':
      return step.takesDamage
        ? `${SITUATION_NAME[step.situation]} not perceived: no defensive action, the attack hits`
        : `${SITUATION_NAME[step.situation]}: attack not perceived, no defensive action`;
    case 'mental-check': {
      const effect = step.critical
        ? 'penalty removed'
        : step.success
          ? `penalty halved to ${step.penaltyAfter}`
          : `penalty stays ${step.penaltyBefore}`;
      return `Mental d100 ${step.roll} vs ${step.target}: ${resultText(step.success, step.critical)}, ${effect}`;
    }
    case 'situation-penalty':
      return `${SITUATION_NAME[step.situation]}: ${signed(step.penalty)} to ${PENALISED_WORD[step.check]}`;
    case 'situation-no-penalty':
      return `${SITUATION_NAME[step.situation]}: no penalty to ${PENALISED_WORD[step.check]}`;
    case 'aided':
      return step.by === undefined ? `Aided by an ally: ${signed(step.bonus)}` : `Aided by ${nameOf(step.by)}: ${signed(step.bonus)}`;
    case 'modifier':
      return `Modifier: ${signed(step.mod)}`;
    case 'action-check':
      return `${CHECK_LABEL[step.action]} d100 ${step.roll} vs ${targetText(step.baseTarget, step.adjustments, step.target)}: ${resultText(step.success, step.critical)}`;
    case 'pending-defense':
      return step.result === 'success'
        ? 'Kept for the next hit on this token: that hit is negated'
        : 'Kept for the next hit on this token: that hit lands';
    case 'reaction-recorded':
      return `Reaction against ${nameOf(step.vs)}: ${step.success ? 'success' : 'failure'}, kept for this round`;
    case 'counter-announced':
      return step.ally === null
        ? `Counter attack against ${nameOf(step.vs)}${step.skillName === null ? '' : ` (${step.skillName})`}`
        : `Counter attack for ${nameOf(step.ally)} against ${nameOf(step.vs)} (${step.skillName ?? 'Reactive Guard'})`;
    case 'skill-announced': {
      const name = step.skillName === null ? 'Defensive skill' : `Defensive skill "${step.skillName}"`;
      const on = step.ally === null ? '' : ` on ${nameOf(step.ally)}`;
      const against = step.vs === null ? '' : ` against ${nameOf(step.vs)}`;
      return `${name}${on}${against}`;
    }
    case 'spectator-drawn':
      return `${nameOf(step.spectator)} is drawn into the battle (Turn Tracker, initiative 0)`;
  }
}

/** Every step, one line each. */
export function describeDefendSteps(steps: readonly DefendStep[], nameOf?: (id: string) => string): string[] {
  return steps.map((step) => describeDefendStep(step, nameOf));
}
