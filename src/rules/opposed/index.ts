// The `opposed` edition ("Opposed Rolls") on the edition seam: opposed d20 rolls, damage = weapon
// + margin, armor against armor penetration deciding Vitality or stamina, initiative paid for
// active and full defenses in the Turn Tracker, and the counterattack announced.
import { at, type Edition } from '../edition';
import { UsageError } from '../../text/args';
import { DEFENSE_MODES } from './attack';
import { DAMAGE_AMOUNT, DAMAGE_FLAGS, DAMAGE_USAGE, handEditPlan, opposedDamagePlan, STANCE_USAGE } from './plans';
import { parseOpposedState, stateAt, stateOf, type OpposedState } from './state';
import { MODE_EFFECT, opposedWords } from './text';
import { opposedAttack, parseOpposedAnswer, type OpposedAnswer } from './answer';
import { OPPOSED_MACROS } from './macros';

export type { OpposedState } from './state';
export type { OpposedAnswer } from './answer';

export const opposed: Edition<OpposedState, OpposedAnswer> = {
  id: 'opposed',
  table: {
    playable: true,
    settings: ['overwhelm-limit', 'stamina-bar'],
    markers: ['incapacitated', 'active', 'full'],
    macros: OPPOSED_MACROS,
    // Opposed Rolls' worked example; every token with defenses and armor, so active and full defense mean something.
    sample: {
      sheet: { armor_score: 'Armor score', passive_defense: 'Passive defense', active_defense: 'Active defense', full_defense: 'Full defense' },
      hero: { vitality: 70, passive_defense: 10, active_defense: 4, full_defense: 2, armor_score: 13 },
      foe: { passive_defense: 8, active_defense: 3, full_defense: 2, armor_score: 6 },
      hit: '!damage 8 --attack 24 --defense-roll 8',
      example: {
        title: 'The worked example of Opposed Rolls',
        moves: [{ says: 'attack 24 against a defense roll of 8 + passive 10 = 18, weapon 8', line: '!damage 8 --attack 24 --defense-roll 8', expect: 'a hit for 8 + 6 = 14, above armor 13: Vitality damage' }],
      },
    },
  },
  hit: {
    flags: DAMAGE_FLAGS,
    usage: DAMAGE_USAGE,
    examples: ['!damage 8 --attack 15', '!damage 8 --attack 15 --ap 2 --defense-mode active --defense-roll 10'],
    help: [
      'The defender rolls 1d20 (or --defense-roll) + passive_defense (+ active_defense when active, + full_defense when full); the attack hits when it beats that. Damage = weapon + margin; above armor_score - AP it is Vitality damage, otherwise stamina. Active defense costs 5 initiative, full 10, unless overwhelmed.',
    ],
    amount: DAMAGE_AMOUNT,
    plan: opposedDamagePlan,
    handEdit: handEditPlan,
  },
  check: {
    flags: {},
    usage: '!defend (none in the opposed edition: the defense is rolled inside !damage)',
    help: ['The defense is rolled inside !damage: choose the mode with !stance or --defense-mode.'],
    refused: 'in the opposed edition the defense is rolled inside !damage: choose the mode with !stance passive|active|full, or --defense-mode on !damage',
    plan: () => {
      throw new UsageError('in the opposed edition the defense is rolled inside !damage');
    },
    answers: opposedAttack,
  },
  stance: {
    flags: {},
    usage: STANCE_USAGE,
    help: [`Passive: ${MODE_EFFECT.passive}. Active: ${MODE_EFFECT.active}. Full: ${MODE_EFFECT.full}.`],
    modes: DEFENSE_MODES,
    default: 'passive',
    row: 'Defense mode',
    says: {
      passive: { takes: 'defends passively by default', already: 'already defends passively by default', effect: MODE_EFFECT.passive },
      active: { takes: 'defends actively by default', already: 'already defends actively by default', effect: MODE_EFFECT.active },
      full: { takes: 'defends fully by default', already: 'already defends fully by default', effect: MODE_EFFECT.full },
    },
  },
  life: {
    setVitality(before: number, after: number, state: OpposedState) {
      // A hand edit above 0 is the GM's way to bring back even a token dead for good.
      const dead = state.dead === true && after <= 0;
      const change = [{ kind: 'vitality-change', before, after }];
      return {
        vitality: after,
        state: stateAt(after, dead),
        steps: change,
        conditions: [],
        now: after <= 0 ? at('Now', dead ? { kind: 'down-now', dead: true } : { kind: 'down-now', typed: true }) : undefined,
      };
    },
    // rules.md, "Switching editions": entered as its Vitality leaves it (shown down at or below 0); dead for good stays so.
    enter: (vitality: number | null, deadForGood: boolean): OpposedState => (vitality === null ? stateOf(false, deadForGood) : stateAt(vitality, deadForGood)),
    // Ruling: at or below 0 shows the incapacitated marker as a visual aid only (Opposed Rolls has no death rules).
    condition: (state: OpposedState, vitality: number | null) => (state.dead ? 'dead' as const : vitality !== null && vitality <= 0 ? 'incapacitated' as const : 'none' as const),
    deadForGood: (state: OpposedState) => state.dead === true,
    parseState: parseOpposedState,
    parseAnswer: parseOpposedAnswer,
    isEmptyState: (state: OpposedState) => state.down !== true && state.dead !== true,
  },
  words: opposedWords,
};
