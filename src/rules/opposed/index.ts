// The `opposed` edition ("Opposed Rolls") on the edition seam: opposed d20 rolls, damage = weapon
// + margin, armor against armor penetration deciding Vitality or stamina, initiative paid for
// active and full defenses in the Turn Tracker, and the counterattack announced.
import { type Edition } from '../edition';
import { UsageError } from '../../text/args';
import { flagTable } from '../../text/flags';
import { damagePlan, handEditPlan, modeAnswerPlan, setVitality } from './rules';
import { DEFENSE_MODES, parseOpposedAnswer, parseOpposedState, stateAt, type DefenseMode, type OpposedAnswer, type OpposedState } from './state';
import { MODE_EFFECT, MODE_LABEL, opposedWords } from './words';

export type { OpposedAnswer, OpposedState } from './state';

export const DAMAGE_FLAGS = flagTable({
  attack: { kind: 'integer', min: -1000, max: 1000, placeholder: 'A', required: { why: '--attack is required: the attacker\'s result (1d20 + modifiers)' } },
  ap: { kind: 'integer', min: 0, max: 1000, placeholder: 'P' },
  // Opposed Rolls: "the opponent can choose" the defense mode, and rolls the defense.
  'defense-mode': { kind: 'choice', choices: DEFENSE_MODES, decides: 'chooses its defense mode (--defense-mode)' },
  'defense-roll': { kind: 'die', sides: 20, placeholder: 'R', decides: 'rolls its defense (--defense-roll)' },
});

export const opposed: Edition<OpposedState, OpposedAnswer> = {
  id: 'opposed',
  table: {
    playable: true,
    reads: ['passive_defense', 'active_defense', 'full_defense', 'armor_score'],
    settings: ['overwhelm-limit', 'stamina-bar'],
    markers: ['incapacitated', 'active', 'full'],
    // docs/commands.md, "The `opposed` edition".
    macros: [
      // One defender, one query (the attack a plain d20); the group macro asks the modifier.
      { name: 'DR-Attack', action: '!attack [[?{Weapon damage|1d8}]] --attack [[1d20]] --ids @{target|Defender|token_id}', tokenAction: true },
      { name: 'DR-Attack-Group', action: '!attack [[?{Weapon damage|1d8}]] --attack [[1d20+?{Attack modifier|0}]] --ids @{target|Defender 1|token_id} @{target|Defender 2|token_id} @{target|Defender 3|token_id}', tokenAction: true },
      { name: 'DR-Damage', action: '!damage [[?{Weapon damage|1d8}]] --attack [[1d20+?{Attack modifier|0}]]', gm: true, tokenAction: true },
      { name: 'DR-Stance', action: '!stance ?{Defense mode|Passive,passive|Active,active|Full,full}', tokenAction: true },
      { name: 'DR-Undo', action: '!damage --undo' },
    ],
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
    usage: '!damage B --attack A [--ap P] [--defense-mode passive|active|full] [--defense-roll R] [--ids ID ...] (B, A, R: whole numbers or inline rolls); !damage --undo [--force]',
    examples: ['!damage 8 --attack 15', '!damage 8 --attack 15 --ap 2 --defense-mode active --defense-roll 10'],
    help: [
      'The defender rolls 1d20 (or --defense-roll) + passive_defense (+ active_defense when active, + full_defense when full); the attack hits when it beats that. Damage = weapon + margin; above armor_score - AP it is Vitality damage, otherwise stamina. Active defense costs 5 initiative, full 10, unless overwhelmed.',
    ],
    amount: { what: 'the weapon damage', missing: 'no weapon damage given: a number or an inline roll, like !damage [[1d8+2]] --attack 15', example: '[[1d8+2]]' },
    plan: damagePlan,
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
    // `!attack`: the defender answers with its mode and its d20, kept typed; its hit reads them as
    // `!damage` would its `--defense-mode` and `--defense-roll`.
    answers: {
      answerFlag: 'mode',
      choices: DEFENSE_MODES,
      label: (word) => MODE_LABEL[word as DefenseMode] ?? word,
      planAnswer: (word, _attack, context) => modeAnswerPlan(word, context),
      keep: (word, _outcome, rolls) => ({ word, answer: { mode: word as DefenseMode, roll: rolls.defense ?? 1 }, roll: rolls.defense ?? 1 }),
      // The answer's d20 is the hit's defense roll.
      rolled: (answer) => ({ defense: answer.roll }),
    },
  },
  stance: {
    flags: {},
    usage: '!stance passive|active|full [--ids ID ...] (no mode: show the selected tokens\' modes)',
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
    setVitality,
    // rules.md, "Switching editions": entered as its Vitality leaves it (shown down at or below 0); dead for good stays so.
    enter: (vitality, deadForGood) => stateAt(vitality, deadForGood),
    // Ruling: at or below 0 shows the incapacitated marker as a visual aid only (Opposed Rolls has no death rules).
    condition: (state, vitality) => (state.dead ? 'dead' : vitality !== null && vitality <= 0 ? 'incapacitated' : 'none'),
    deadForGood: (state) => state.dead === true,
    parseState: parseOpposedState,
    parseAnswer: parseOpposedAnswer,
    isEmptyState: (state) => state.down !== true && state.dead !== true,
  },
  words: opposedWords,
};
