// The `soak` edition ("The Defensive Round") on the edition seam.
import { at, type Edition, type Order, type Step } from '../edition';
import { applyHandEdit } from './life';
import { describeDamageStep } from './damageText';
import { describeDefendStep } from './defendText';
import type { DamageStep } from './damageSteps';
import type { DefendStep } from './defendSteps';
import { LAYOUT_KINDS, layoutWords, type SoakLayoutStep } from './layout';
import { soakAttack } from './attack';
import { SOAK_MACROS } from './macros';
import { plainHit, SOAK_AMOUNT, soakDamageOrder, soakDamagePlan, SOAK_DAMAGE_FLAGS, SOAK_DAMAGE_USAGE } from './damagePlan';
import { soakDefendOrder, soakDefendPlan, SOAK_DEFEND_FLAGS, SOAK_DEFEND_USAGE } from './defendPlan';
import { STANCE_EFFECT } from './layout';
import { SOAK_STANCES } from './stance';
import { SOAK_SITUATIONS } from './situations';
import {
  describeSoakStateChange,
  endSoakRound,
  enterSoak,
  isEmptySoakState,
  lifeOf,
  parseSoakAnswer,
  parseSoakState,
  soakCondition,
  withLife,
  type SoakAnswer,
  type SoakState,
} from './state';

// Every `!defend` step kind, checked by the compiler against DefendStep: a new kind cannot be missed here.
const DEFEND_STEP_KIND: Record<DefendStep['kind'], true> = {
  'perception-check': true, 'no-defensive-action': true, 'mental-check': true, 'situation-penalty': true, 'situation-no-penalty': true, aided: true,
  modifier: true, 'action-check': true, 'pending-defense': true, 'reaction-recorded': true, 'counter-announced': true, 'skill-announced': true, 'spectator-drawn': true,
};
/** Which words a step kind takes: the card's layout, or `!defend`'s (any other kind is a damage or life step). One look-up per step. */
const WORDS_OF_KIND = new Map<string, 'layout' | 'defend'>([...[...LAYOUT_KINDS].map((kind) => [kind, 'layout'] as const), ...Object.keys(DEFEND_STEP_KIND).map((kind) => [kind, 'defend'] as const)]);

/** Words for any step of this edition: its card's layout, `!defend` steps, or damage and life steps. */
export function soakWords(step: Step, nameOf: (id: string) => string = (id) => id): string {
  const words = WORDS_OF_KIND.get(step.kind);
  if (words === 'layout') return layoutWords(step as SoakLayoutStep & Step, nameOf);
  return words === 'defend' ? describeDefendStep(step as DefendStep, nameOf) : describeDamageStep(step as DamageStep);
}

const HELP = {
  damage: [
    'Applies one hit to each selected token (or --ids): piercing, soak, protection (which wears 25% of the damage after soak), Defense/Spirit, defensive stance. The armor stands, and soaks, while either protection is above 0. A pending !defend result is used up.',
    'At 0 or below: one save stands the token up at 1 Vitality; a single hit to -10 or below gives three saves against death, and once saved it still owes the stand-up save.',
  ],
  defend: [
    'Situations: ' + SOAK_SITUATIONS.join(', ') + '.',
    'A successful defend or evade blocks the next !damage on the token this round; a failure offers a button that applies damage.',
    'Not on your own turn (the top of the Turn Tracker); saves are always allowed.',
    'Reactive stance: one successful --action react --vs ATTACKER buys one reaction against that attacker: a counter, a skill on an ally, or aid (the ally adds --aided-by YOUR_ID --vs ATTACKER, +5).',
  ],
  stance: [`Defensive: ${STANCE_EFFECT.defensive}. Reactive: ${STANCE_EFFECT.reactive}.`],
};

export const soak: Edition<SoakState, SoakAnswer> = {
  id: 'soak',
  table: {
    playable: true,
    settings: [],
    markers: ['incapacitated', 'dying', 'dead', 'defensive', 'reactive'],
    macros: SOAK_MACROS,
    // The README's hit on the demo table as it starts.
    sample: {
      sheet: { armor_soak: 'Soak %', armor_physical: 'Physical', armor_magical: 'Magical', armor_defense: 'Defense', armor_spirit: 'Spirit' },
      hero: { vitality: 70, armor_soak: 20, armor_physical: 100, armor_defense: 30 },
      foe: { armor_soak: 10, armor_physical: 20, armor_defense: 5 },
      hit: '!damage 30',
      example: {
        title: 'Bob loses 30 Vitality to 200 physical (the README)',
        moves: [{ says: 'Bob takes a 200 physical hit, no defense', line: '!damage 200', expect: 'Vitality 70 -> 40; Physical 100 -> 60' }],
      },
    },
  },
  hit: {
    flags: SOAK_DAMAGE_FLAGS,
    usage: SOAK_DAMAGE_USAGE,
    examples: ['!damage 200', '!damage 40 --type magical --pierce 25', '!damage 15 --to soul --defense fail', '!damage --instant-kill'],
    help: HELP.damage,
    amount: SOAK_AMOUNT,
    plan: (order: Order) => soakDamagePlan(soakDamageOrder(order)),
    handEdit: (loss: number) => soakDamagePlan(plainHit(loss)),
  },
  check: {
    flags: SOAK_DEFEND_FLAGS,
    usage: SOAK_DEFEND_USAGE,
    examples: ['!defend --action defend --roll 20', '!defend --action evade --situation behind', '!defend --action save'],
    help: HELP.defend,
    plan: (order: Order) => soakDefendPlan(soakDefendOrder(order)),
    answers: soakAttack,
  },
  stance: {
    flags: {},
    usage: '!stance defensive|reactive|none [--ids ID ...] (no mode: show the selected tokens\' stances)',
    help: HELP.stance,
    modes: SOAK_STANCES,
    default: 'none',
    row: 'Stance',
    says: {
      defensive: { takes: 'takes the defensive stance', already: 'is already in the defensive stance', effect: STANCE_EFFECT.defensive! },
      reactive: { takes: 'takes the reactive stance', already: 'is already in the reactive stance', effect: STANCE_EFFECT.reactive! },
      none: { takes: 'drops its stance', already: 'already has no stance', effect: STANCE_EFFECT.none! },
    },
  },
  life: {
    setVitality(before: number, after: number, state: SoakState) {
      const result = applyHandEdit(before, after, lifeOf(state, before));
      return {
        vitality: result.after,
        state: withLife(state, result.life),
        steps: result.steps,
        conditions: result.steps.filter((step) => step.kind !== 'vitality-change'),
        now: result.life.condition === 'none' ? undefined : at('Now', { kind: 'life-now', life: result.life, vitality: null }),
      };
    },
    enter: enterSoak,
    endRound: endSoakRound,
    condition: (state: SoakState, vitality: number | null) => (state.life ? soakCondition(state) : lifeOf(state, vitality).condition),
    // The Defensive Round: the dead stay dead ("Only very specific spells are said to help here").
    deadForGood: (state: SoakState, vitality: number | null) => lifeOf(state, vitality).condition === 'dead',
    parseState: parseSoakState,
    isEmptyState: isEmptySoakState,
    describeStateChange: describeSoakStateChange,
    parseAnswer: parseSoakAnswer,
  },
  words: soakWords,
};
