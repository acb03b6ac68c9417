// The `threshold` edition ("The Defensive Turn") on the edition seam: hit chance
// against armor, defense checks that let the armor's Defense apply, death at 0 with one free save
// and then saves paid in EXP, one a round for four rounds.
import type { Edition } from '../edition';
import { flagTable } from '../../text/flags';
import { TRACK_OF } from '../damageTypes';
import { answerPlanOf, checksLabel, defendPlan, fitsAttack, guardButtons, keepAnswer } from './check';
import { damagePlan, declarerPlan, handEditPlan, onTheEdge, sparedBy, strayEdge } from './hit';
import { endThresholdRound, enterThreshold, isDead, isDeadForGood, setThresholdVitality } from './life';
import { parseThresholdAnswer, parseThresholdState, type ThresholdPending, type ThresholdState } from './state';
import { SOAK_ONLY_SITUATIONS, THRESHOLD_SITUATIONS, THRESHOLD_SITUATION_RULES, type ThresholdSituationRule } from './situations';
import { situationWords, thresholdWords } from './words';

export type { ThresholdState } from './state';
export { thresholdWords } from './words';

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

// What the attack may declare of a defense's checks, on `!defend` and on `!attack` alike.
const PERCEPTION_MOD = { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', onlyWhen: { flag: 'situation', in: where((rule) => rule.perceive?.withMod === true), why: '--perception-mod applies only to the perceive check of a covert attack or a spectator' } } as const;
const DIFFICULTY = { kind: 'choice', choices: ['hard', 'impossible'], onlyWhen: { flag: 'situation', in: where((rule) => rule.difficultyFlag), why: '--difficulty applies only to --situation covert, spell-fast or spell-invisible' } } as const;
const PERCEPTION_ROLL = { kind: 'die', sides: 100, placeholder: 'R' } as const;

/** `!defend`'s flags, in the order their refusals are checked: which check a situation asks for is read off the situation table. */
export const THRESHOLD_DEFEND_FLAGS = flagTable({
  action: {
    kind: 'choice', choices: ['defend', 'guard', 'skill', 'counter', 'opportunity', 'save'] as const, required: true,
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
  'perception-roll': { ...PERCEPTION_ROLL, onlyWhen: { flag: 'situation', in: where((rule) => rule.perceive !== null), why: '--perception-roll applies only where a perceive check comes first (behind, distracted, covert, spectator)' } },
  'perception-mod': PERCEPTION_MOD,
  difficulty: DIFFICULTY,
  mod: { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', onlyWhen: { flag: 'action', in: ROLLED, why: '--mod changes a check, and --action {value} is announced, not rolled' } },
  ally: { kind: 'token', required: { when: { flag: 'action', in: ['guard'] }, why: "--action guard needs --ally with the guarded token's id" }, onlyWhen: { flag: 'action', in: ['guard'] } },
  vs: { kind: 'token', onlyWhen: { flag: 'action', notIn: ['save'] } },
  skill: { kind: 'text', placeholder: 'NAME', onlyWhen: { flag: 'action', notIn: ['save'] } },
});

/**
 * `!attack`'s flags beyond `!damage`'s (rules.md, "The exchange": the attack carries what belongs to
 * the attacker): the checks' difficulty and perceive penalty, an area's edge, and what an attack out
 * of turn is.
 */
export const THRESHOLD_ATTACK_FLAGS = flagTable({
  difficulty: DIFFICULTY,
  'perception-mod': PERCEPTION_MOD,
  edge: { kind: 'list', placeholder: 'ID ...', onlyWhen: { flag: 'situation', in: ['aoe'], why: '--edge applies only to --situation aoe: the defenders on the edge of an area attack face the hit chance' } },
  counter: { kind: 'switch', help: 'A counter attack, out of turn' },
  opportunity: { kind: 'switch', help: 'An attack of opportunity, out of turn', onlyWhen: { flag: 'counter', notIn: ['true'], why: '--opportunity and --counter: an attack is one or the other' } },
});

/** `!defend --answer`'s flags beyond the word and its roll: the perceive check's roll, and the ally a guard answers for. */
export const THRESHOLD_ANSWER_FLAGS = flagTable({
  'perception-roll': PERCEPTION_ROLL,
  ally: { kind: 'token' },
});

export const threshold: Edition<ThresholdState, ThresholdPending> = {
  id: 'threshold',
  table: {
    playable: true,
    reads: ['armor_physical', 'armor_magical', 'armor_defense', 'defend_check', 'perception_check', 'reaction_check', 'save_check', 'exp'],
    settings: [],
    markers: ['dead'],
    // The macros of a table playing `threshold` (docs/commands.md, "The `threshold` edition").
    macros: [
      // One defender, one query (the hit chance a plain d20); the group macro asks the rest.
      { name: 'DR-Attack', action: '!attack [[?{Damage|2d6}]] --hit [[1d20]] --ids @{target|Defender|token_id}', tokenAction: true },
      { name: 'DR-Attack-Group', action: '!attack [[?{Damage|2d6}]] --hit [[1d20+?{Hit modifier|0}]] --type ?{Type|Physical,physical|Magical,magical} --ids @{target|Defender 1|token_id} @{target|Defender 2|token_id} @{target|Defender 3|token_id}', tokenAction: true },
      { name: 'DR-Damage', action: '!damage [[?{Damage|2d6}]] --hit [[1d20+?{Hit modifier|0}]] --type ?{Type|Physical,physical|Magical,magical}', gm: true, tokenAction: true },
      { name: 'DR-Defend', action: '!defend --action defend --situation ?{Situation|Front,front|Side,side|Behind,behind|Projectile,projectile}', tokenAction: true },
      { name: 'DR-Undo', action: '!damage --undo' },
    ],
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
    usage: '!damage N [--hit H] [--type physical|magical] [--situation S] [--mod M] [--defense success|fail|none] [--ids ID ...] (N and H: whole numbers or inline rolls); !damage --undo [--force]',
    examples: ['!damage 20 --hit 19', '!damage 12 --hit 15 --type magical --situation behind --mod 2', '!damage 20 --defense success'],
    help: [
      'The hit chance (--hit, plus the situation\'s bonus and --mod) must beat the track\'s armor (armor_physical or armor_magical), or nothing happens; without --hit the hit is taken as decided. A pending successful defense takes armor_defense off the damage. At 0 Vitality the token is dead.',
    ],
    amount: { what: 'the damage amount', missing: 'no damage amount given: a number or an inline roll, like !damage 12 or !damage [[2d6+3]]', example: '[[2d6+3]]' },
    plan: damagePlan,
    handEdit: handEditPlan,
  },
  check: {
    flags: THRESHOLD_DEFEND_FLAGS,
    usage: '!defend --action defend|guard|skill|counter|opportunity|save [--situation S] [--roll R] [--mod M] [--ally ID] [--vs ID] [--difficulty hard|impossible] [--perception-roll R] [--perception-mod M] [--react-roll R] [--skill NAME] [--ids ID ...]',
    examples: ['!defend --action defend --roll 55', '!defend --action defend --situation behind --perception-roll 10', '!defend --action save'],
    help: [
      'Situations: ' + THRESHOLD_SITUATIONS.join(', ') + '.',
      'behind, distracted and covert need a hard perceive check first; projectile and the fast or invisible spells make the defense a hard React check. A dead token makes its saves: the first is free, then one a round for 1d% EXP, for 4 rounds.',
    ],
    plan: defendPlan,
    // `!attack`: the attack's situation is `!damage`'s own; a defender answers with a defense check made in it (The Defensive Turn), or none; a guard answers for an ally.
    answers: {
      flags: THRESHOLD_ATTACK_FLAGS,
      answerFlags: THRESHOLD_ANSWER_FLAGS,
      choices: ['defend', 'none'],
      announced: ['guard'],
      label: (word, facts, attack) => (word === 'none' ? 'No defense' : checksLabel(facts, attack)),
      situationWords,
      forDefender: onTheEdge,
      refuseDeclared: strayEdge,
      declarer: declarerPlan,
      planAnswer: (word, attack, _context, answer) => answerPlanOf(word, attack, answer),
      keep: keepAnswer,
      extra: guardButtons,
      fits: fitsAttack,
      spared: sparedBy,
    },
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
    enter: enterThreshold,
    endRound: endThresholdRound,
    condition: (_state, vitality) => (isDead(vitality) ? 'dead' : 'none'),
    setVitality: setThresholdVitality,
    deadForGood: isDeadForGood,
    parseState: parseThresholdState,
    isEmptyState: (state) => Object.values(state).every((value) => value === undefined),
    describeStateChange: () => 'has had a save or another round dead since',
    parseAnswer: parseThresholdAnswer,
  },
  words: thresholdWords,
};
