// The `threshold` edition ("The Defensive Turn") on the edition seam: hit chance
// against armor, defense checks that let the armor's Defense apply, death at 0 with one free save
// and then saves paid in EXP, one a round for four rounds.
import { at, type Edition, type Order, type Step } from '../edition';
import {
  THRESHOLD_AMOUNT,
  thresholdDamageOrder,
  thresholdDefendOrder,
  thresholdDamagePlan,
  thresholdDefendPlan,
  thresholdHandEditPlan,
  THRESHOLD_DAMAGE_FLAGS,
  THRESHOLD_DAMAGE_USAGE,
  THRESHOLD_DEFEND_FLAGS,
  THRESHOLD_DEFEND_USAGE,
} from './plans';
import {
  alive,
  describeThresholdStateChange,
  died,
  endThresholdRound,
  enterThreshold,
  isDead,
  isDeadForGood,
  parseThresholdAnswer,
  parseThresholdState,
  type ThresholdPending,
  type ThresholdState,
} from './state';
import { isLayoutStep, layoutWords } from './layout';
import { thresholdAttack } from './attack';
import { THRESHOLD_MACROS } from './macros';
import { THRESHOLD_SITUATIONS } from './situations';
import type { ThresholdStep } from './steps';
import { thresholdText } from './text';

export type { ThresholdState } from './state';

/** Words for any step of this edition: its card's layout, or its rules' steps. */
export function thresholdWords(step: Step, nameOf: (id: string) => string = (id) => id): string {
  return isLayoutStep(step) ? layoutWords(step, nameOf) : thresholdText(step, nameOf);
}

export const threshold: Edition<ThresholdState, ThresholdPending> = {
  id: 'threshold',
  table: {
    playable: true,
    settings: [],
    markers: ['dead'],
    macros: THRESHOLD_MACROS,
    // The Defensive Turn's Bob; the goblins' armor on the same d20 scale (a hit chance above 12 hits).
    sample: {
      sheet: { armor_physical: 'Physical armor', armor_magical: 'Magical armor', armor_defense: 'Defense', defend_check: 'Defend check', exp: 'EXP' },
      hero: { vitality: 30, armor_defense: 10, armor_physical: 18 },
      foe: { armor_physical: 12, armor_defense: 3 },
      hit: '!damage 20 --hit 19',
      example: {
        title: 'Bob, from the rules text (The Defensive Turn)',
        moves: [
          { says: "Bob's defense check succeeds (55 to beat, rolls 10)", line: '!defend --action defend --roll 10', expect: 'a success: Defense applies to the next hit' },
          { says: 'an enemy hits with hit chance 19 for 20', line: '!damage 20 --hit 19', expect: '19 beats Physical Armor 18; 20 - 10 Defense = 10; Vitality 30 -> 20' },
        ],
      },
    },
  },
  hit: {
    flags: THRESHOLD_DAMAGE_FLAGS,
    usage: THRESHOLD_DAMAGE_USAGE,
    examples: ['!damage 20 --hit 19', '!damage 12 --hit 15 --type magical --situation behind --mod 2', '!damage 20 --defense success'],
    help: [
      'The hit chance (--hit, plus the situation\'s bonus and --mod) must beat the track\'s armor (armor_physical or armor_magical), or nothing happens; without --hit the hit is taken as decided. A pending successful defense takes armor_defense off the damage. At 0 Vitality the token is dead.',
    ],
    amount: THRESHOLD_AMOUNT,
    plan: (order: Order) => thresholdDamagePlan(thresholdDamageOrder(order)),
    handEdit: thresholdHandEditPlan,
  },
  check: {
    flags: THRESHOLD_DEFEND_FLAGS,
    usage: THRESHOLD_DEFEND_USAGE,
    examples: ['!defend --action defend --roll 55', '!defend --action defend --situation behind --perception-roll 10', '!defend --action save'],
    help: [
      'Situations: ' + THRESHOLD_SITUATIONS.join(', ') + '.',
      'behind, distracted and covert need a hard perceive check first; projectile and the fast or invisible spells make the defense a hard React check. A dead token makes its saves: the first is free, then one a round for 1d% EXP, for 4 rounds.',
    ],
    plan: (order: Order) => thresholdDefendPlan(thresholdDefendOrder(order)),
    answers: thresholdAttack,
  },
  stance: {
    flags: {},
    usage: '!stance (the threshold edition has no stances)',
    help: [],
    modes: [],
    default: 'none',
    row: 'Stance',
    says: {},
  },
  life: {
    setVitality(before: number, after: number, state: ThresholdState) {
      const steps: ThresholdStep[] = [];
      let vitality = after;
      let next = state;
      if (after < before && isDead(before)) {
        // commands.md: a dead token's bar is set back (the dead take no damage).
        vitality = before;
        steps.push({ kind: 'set-back', attempted: after, vitality: before });
      } else if (after !== before) {
        steps.push({ kind: 'vitality-change', before, after });
        if (after > 0) {
          if (isDead(before)) steps.push({ kind: 'revived' });
          next = alive(state);
        } else if (before > 0) {
          steps.push({ kind: 'dead-at-0' });
          next = died(state);
        }
      }
      return {
        vitality,
        state: next,
        steps,
        conditions: steps.filter((step) => step.kind !== 'vitality-change'),
        now: isDead(vitality) ? at('Now', { kind: 'dead-now', state: next, vitality }) : undefined,
        // The dead make no defense: one made ahead goes with the death.
        ...(next !== state && next.roundsDead === 0 ? { dropsAnswer: true as const } : {}),
      };
    },
    enter: enterThreshold,
    endRound: endThresholdRound,
    condition: (_state: ThresholdState, vitality: number | null) => (isDead(vitality) ? 'dead' as const : 'none' as const),
    deadForGood: isDeadForGood,
    parseState: parseThresholdState,
    isEmptyState: (state: ThresholdState) => Object.values(state).every((value) => value === undefined),
    describeStateChange: describeThresholdStateChange,
    parseAnswer: parseThresholdAnswer,
  },
  words: thresholdWords,
};
