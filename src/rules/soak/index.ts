// The `soak` edition ("The Defensive Round") on the edition seam: soak, protection that wears and
// Defense against every hit, defensive and reactive stances, incapacitation, dying and Vitality saves.
import { type AttackAsked, type Edition, type Order, type Step } from '../edition';
import { UsageError } from '../../text/args';
import { flagTable } from '../../text/flags';
import { answerPlan, defendOrder, keepFiled } from '../shared';
import { TRACK_OF } from '../damageTypes';
import { announced, attackerPlan, counterSpent, defendPlan, edgeOrder, edgeRefusal, misfit, reactionSpent, SOAK_STANCES } from './check';
import { damagePlan, handEditPlan } from './hit';
import { describeSoakStateChange, endSoakRound, enterSoak, isEmptySoakState, setSoakVitality, soakCondition } from './life';
import { parseSoakAnswer, parseSoakState, type SoakAnswer, type SoakState } from './state';
import { SOAK_SITUATIONS, SOAK_SITUATION_RULES, type SoakSituation, type SoakSituationRule } from './situations';
import { answerLabel, situationWords, soakWords } from './words';

export type { SoakAnswer, SoakState } from './state';
export { soakWords } from './words';

/** No armor is read for these hits, so a type or piercing would change nothing (refused, not ignored). */
const ARMOR_READ = [
  { flag: 'instant-kill', in: ['false'], why: '--type and --pierce mean nothing with --instant-kill: no armor applies' },
  { flag: 'to', in: ['vitality'], why: '--type and --pierce mean nothing with --to {value}: no armor applies' },
];

export const SOAK_DAMAGE_FLAGS = flagTable({
  type: { kind: 'choice', choices: Object.keys(TRACK_OF), default: 'physical', onlyWhen: ARMOR_READ },
  to: { kind: 'choice', choices: ['vitality', 'soul', 'power'], default: 'vitality' },
  'instant-kill': { kind: 'switch', onlyWhen: { flag: 'to', in: ['vitality'], why: '--instant-kill cannot be combined with --to soul or power' } },
  pierce: { kind: 'integer', min: 0, max: 100, placeholder: '0-100', onlyWhen: ARMOR_READ },
  defense: { kind: 'choice', choices: ['success', 'fail', 'none'], decides: 'decides its defense (--defense)' },
});

/** The situations whose rule asks for this (The Defensive Round's situation table): the lists the flags' conditions compare. */
const where = (asks: (rule: SoakSituationRule) => boolean) => SOAK_SITUATIONS.filter((situation) => asks(SOAK_SITUATION_RULES[situation]));
const NOT_FOR_SAVE = { flag: 'action', notIn: ['save'] } as const;
const MENTAL = '--mental and --mental-roll apply only to --action evade with --situation spell-unseen';

/** `!defend`'s flags, in the order their refusals are checked (commands.md, "Syntax": what would change nothing is refused). */
export const SOAK_DEFEND_FLAGS = flagTable({
  // rules.md, Reactive stance: aid comes from a named ally's successful reaction, not a switch (the old switch is kept only to refuse it).
  aided: { kind: 'switch', retired: '--aided is replaced by --aided-by ID (the reacting ally\'s token) with --vs ID (the attacker)' },
  action: { kind: 'choice', choices: ['defend', 'evade', 'react', 'counter', 'skill', 'save'] as const, required: true },
  situation: { kind: 'choice', choices: SOAK_SITUATIONS, default: 'front', placeholder: 'S', onlyWhen: { flag: 'action', notIn: ['save', 'react'] } },
  roll: { kind: 'die', sides: 100, placeholder: '1-100', onlyWhen: { flag: 'action', notIn: ['counter', 'skill'], why: '--roll does not apply to --action {value}: it is announced, not rolled' } },
  mod: { kind: 'integer', min: -1000, max: 1000, placeholder: 'M' },
  mental: { kind: 'switch', onlyWhen: [NOT_FOR_SAVE, { flag: 'action', in: ['evade'], why: MENTAL }, { flag: 'situation', in: where((rule) => rule.mentalCheckEasesPenalty), why: MENTAL }] },
  'mental-roll': { kind: 'die', sides: 100, placeholder: 'R', onlyWhen: [NOT_FOR_SAVE, { flag: 'action', in: ['evade'], why: MENTAL }, { flag: 'situation', in: where((rule) => rule.mentalCheckEasesPenalty), why: MENTAL }] },
  'perception-roll': {
    kind: 'die', sides: 100, placeholder: 'R',
    onlyWhen: [NOT_FOR_SAVE, { flag: 'situation', in: where((rule) => rule.perceptionGate !== 'none'), why: '--perception-roll applies only where a perception check comes first (behind, distracted, covert, spectator)' }],
  },
  // A reaction and a counter are always against an attacker, aid always from one (a missing argument is a malformed command).
  vs: { kind: 'token', onlyWhen: NOT_FOR_SAVE, required: { when: { flag: 'action', in: ['react', 'counter'] }, why: "--action {value} needs --vs with the attacker's token id" } },
  ally: { kind: 'token', onlyWhen: NOT_FOR_SAVE },
  'aided-by': { kind: 'token', onlyWhen: NOT_FOR_SAVE, needs: { flag: 'vs', why: "--aided-by needs --vs with the attacker's token id" } },
  'perception-mod': { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', onlyWhen: NOT_FOR_SAVE },
  skill: { kind: 'text', placeholder: 'NAME', onlyWhen: NOT_FOR_SAVE },
});

/** What each stance does, in a few words (The Defensive Round, "Defensive Stance", "Reactive Stance"). */
const STANCE_EFFECT = {
  defensive: '5% of Fortitude off every hit; defensive skills on itself only (one per attacker per round); no counter attacks',
  reactive: 'one Reaction Check per attacker per round; a success allows a counter attack, skills on allies and aided checks',
  none: 'no stance',
};

/**
 * An answer as the `!defend` it is (rules.md, "An attack's answers"): its action in the attack's
 * situation with the attack's perception penalty, the answer's aid (`--vs` the attacker) and dice;
 * The Defensive Round, "Unseen or very fast spells": an Evade against one makes the Mental check.
 */
function answerOrder(word: string, attack: AttackAsked, answer: Order): Order {
  const aider = answer['aided-by'] as string | undefined;
  if (aider !== undefined && attack.attacker === null) throw new UsageError('--aided-by: an aid is against the attacker, and this attack names none');
  const text = (value: unknown) => (value === undefined ? null : String(value));
  const order = defendOrder(
    { action: word, situation: attack.situation, 'perception-mod': text(attack.order['perception-mod']), 'aided-by': aider ?? null, vs: aider === undefined ? null : attack.attacker, 'mental-roll': text(answer['mental-roll']), 'perception-roll': text(answer['perception-roll']) },
    SOAK_DEFEND_FLAGS,
  );
  return word === 'evade' && SOAK_SITUATION_RULES[order.situation as SoakSituation].mentalCheckEasesPenalty ? { ...order, mental: true } : order;
}

export const soak: Edition<SoakState, SoakAnswer> = {
  id: 'soak',
  table: {
    playable: true,
    reads: ['armor_soak', 'armor_physical', 'armor_magical', 'armor_defense', 'armor_spirit', 'natural_defense', 'natural_spirit', 'fortitude', 'defend_check', 'evade_check', 'perception_check', 'mental_check', 'reaction_check', 'save_check'],
    settings: [],
    markers: ['incapacitated', 'dying', 'dead', 'defensive', 'reactive'],
    // The macros of a table playing `soak` (docs/commands.md, "Ready-to-paste macros").
    macros: [
      // One defender, one query: select, click, pick, amount (the rules text's 200 gets through its own Bob's armor).
      { name: 'DR-Attack', action: '!attack [[?{Damage|200}]] --ids @{target|Defender|token_id}', tokenAction: true },
      { name: 'DR-Attack-Group', action: '!attack [[?{Damage|200}]] --type ?{Type|Physical,physical|Magical,magical} --situation ?{Situation|Front,front|Side,side|Behind,behind|Area attack,aoe} --ids @{target|Defender 1|token_id} @{target|Defender 2|token_id} @{target|Defender 3|token_id}', tokenAction: true },
      { name: 'DR-Damage', action: '!damage [[?{Damage|2d6+3}]] --type ?{Type|Physical,physical|Magical,magical|Energy,energy|Breath,breath} --pierce ?{Piercing percent|0}', gm: true, tokenAction: true },
      { name: 'DR-Defend', action: '!defend --action ?{Action|Defend,defend|Evade,evade} --situation ?{Situation|Front,front|Side,side|Behind,behind|Area attack,aoe}', tokenAction: true },
      { name: 'DR-Stance', action: '!stance ?{Stance|Defensive,defensive|Reactive,reactive|None,none}', tokenAction: true },
      { name: 'DR-Undo', action: '!damage --undo' },
    ],
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
    usage: '!damage N [--type physical|magical|energy|breath] [--pierce 0-100] [--to vitality|soul|power] [--instant-kill] [--defense success|fail|none] [--ids ID ...] (N: a whole number 0-1000000 or an inline roll like [[2d6+3]]); !damage --undo [--force]',
    examples: ['!damage 200', '!damage 40 --type magical --pierce 25', '!damage 15 --to soul --defense fail', '!damage --instant-kill'],
    help: [
      'Applies one hit to each selected token (or --ids): piercing, soak, protection (which wears 25% of the damage after soak), Defense/Spirit, defensive stance. The armor stands, and soaks, while either protection is above 0. A pending !defend result is used up.',
      'At 0 or below: one save stands the token up at 1 Vitality; a single hit to -10 or below gives three saves against death, and once saved it still owes the stand-up save.',
    ],
    // The amount: none only with --instant-kill (which drops Vitality to 0).
    amount: { what: 'the damage amount', missing: 'no damage amount given: a number or an inline roll, like !damage 12 or !damage [[2d6+3]]', example: '[[2d6+3]]', optionalWith: 'instant-kill' },
    plan: damagePlan,
    handEdit: handEditPlan,
  },
  check: {
    flags: SOAK_DEFEND_FLAGS,
    usage: '!defend --action defend|evade|react|counter|skill|save [--situation S] [--roll 1-100] [--mod M] [--vs ID] [--ally ID] [--aided-by ID] [--mental] [--mental-roll R] [--perception-roll R] [--perception-mod M] [--skill NAME] [--ids ID ...]',
    examples: ['!defend --action defend --roll 20', '!defend --action evade --situation behind', '!defend --action save'],
    help: [
      'Situations: ' + SOAK_SITUATIONS.join(', ') + '.',
      'A successful defend or evade blocks the next !damage on the token this round; a failure offers a button that applies damage.',
      'Not on your own turn (the top of the Turn Tracker); saves are always allowed.',
      'Reactive stance: one successful --action react --vs ATTACKER buys one reaction against that attacker: a counter, a skill on an ally, or aid (the ally adds --aided-by YOUR_ID --vs ATTACKER, +5).',
    ],
    plan: defendPlan,
    // `!attack`: the attack's situation (The Defensive Round's table); a defender answers with defend or evade, each rolled as
    // `!defend` would in that situation, or none; beside them, what it may announce now (rules.md, "An attack's answers").
    answers: {
      // The attack's situation: every answer's check is made in it (`!defend`'s situation table); --counter: a counter attack, out of turn (rules.md).
      flags: {
        situation: { kind: 'choice', choices: SOAK_SITUATIONS, placeholder: 'S' },
        counter: { kind: 'switch', help: 'A counter attack, out of turn' },
        // The Defensive Round, covert attacks and hidden spectators: the penalty to each answer's perception check.
        'perception-mod': { kind: 'integer', min: -1000, max: 1000, placeholder: 'M', onlyWhen: { flag: 'situation', in: where((rule) => rule.perceptionGate === 'with-perception-mod') } },
        // The Defensive Round, area of effect: the defenders on its farthest reach, who may evade with no penalty.
        edge: { kind: 'list', onlyWhen: { flag: 'situation', in: ['aoe'] } },
      },
      // What a defender brings to its answer: an aid (against the attacker), and the dice of the checks it makes.
      answerFlags: { 'aided-by': { kind: 'token' }, 'mental-roll': { kind: 'die', sides: 100, placeholder: 'R' }, 'perception-roll': { kind: 'die', sides: 100, placeholder: 'R' } },
      choices: ['defend', 'evade', 'none'],
      label: (word, facts, attack) => answerLabel(word, facts.values, attack),
      situationWords,
      planAnswer: (word, attack, _context, answer) => answerPlan(defendPlan(answerOrder(word, attack, answer)), 'pending-defense'),
      // The action's own check, when one was made (a failed perception check leaves none), and the ally whose aid it took.
      keep(word, outcome) {
        const kept = keepFiled(word, outcome, outcome.steps.find((step): step is Step & { roll: number; success: boolean } => step.kind === 'action-check'));
        const aid = outcome.steps.find((step): step is Step & { by?: string } => step.kind === 'aided');
        if (aid?.by !== undefined) kept.helper = aid.by;
        return kept;
      },
      // The Defensive Round, "Aided Checks": the aid spends the aider's reaction against the attacker, written with the hit.
      settle: (kept, aider, { attacker }) => (kept.helper === undefined || attacker === null ? [] : [{ kind: 'ally-state', tokenId: kept.helper, state: reactionSpent(aider.state, attacker) }]),
      fits: misfit,
      forDefender: edgeOrder,
      refuseDeclared: edgeRefusal,
      extra: announced,
      declarer: attackerPlan,
      spend: counterSpent,
    },
  },
  stance: {
    flags: {},
    usage: '!stance defensive|reactive|none [--ids ID ...] (no mode: show the selected tokens\' stances)',
    help: [`Defensive: ${STANCE_EFFECT.defensive}. Reactive: ${STANCE_EFFECT.reactive}.`],
    modes: SOAK_STANCES,
    default: 'none',
    row: 'Stance',
    says: {
      defensive: { takes: 'takes the defensive stance', already: 'is already in the defensive stance', effect: STANCE_EFFECT.defensive },
      reactive: { takes: 'takes the reactive stance', already: 'is already in the reactive stance', effect: STANCE_EFFECT.reactive },
      none: { takes: 'drops its stance', already: 'already has no stance', effect: STANCE_EFFECT.none },
    },
  },
  life: {
    enter: enterSoak,
    endRound: endSoakRound,
    condition: soakCondition,
    setVitality: setSoakVitality,
    parseState: parseSoakState,
    isEmptyState: isEmptySoakState,
    describeStateChange: describeSoakStateChange,
    parseAnswer: parseSoakAnswer,
  },
  words: soakWords,
};
