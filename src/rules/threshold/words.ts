// The steps of the `threshold` edition (The Defensive Turn) as data, numbers, enums and opaque ids
// only, and their plain words: one short line each, in The Defensive Turn's terms.
import { hitTitle, type Headline, type Step, type WordsContext } from '../edition';
import { SITUATION_NAME } from '../situationNames';
import { isDead, isDeadForGood, triesLeft } from './life';
import type { ThresholdState } from './state';
import { THRESHOLD_SITUATION_RULES, type Difficulty, type ThresholdSituation } from './situations';

export type ThresholdCheckName = 'defend' | 'react' | 'perceive' | 'save';

export type ThresholdStep =
  /** Which defense result the hit met, and where it came from. */
  | { kind: 'defense-used'; result: 'success' | 'fail' | 'none'; source: 'pending' | 'override' | 'none' }
  /** A pending defense made for another situation, without the perceive check this one needs. */
  | { kind: 'defense-does-not-answer'; madeFor: ThresholdSituation; attack: ThresholdSituation }
  /** The hit chance against the track's armor (The Defensive Turn: "equal to or less than your ... Armor ... no damage"). */
  | { kind: 'hit-check'; hit: number; bonus: number; mod: number; total: number; armor: number; track: 'physical' | 'magical'; hits: boolean; situation: ThresholdSituation }
  /** No hit chance is compared: an area attack hits every target. `given` when a --hit was given anyway. */
  | { kind: 'no-hit-chance'; given: number | null }
  /** The token represents no character and has no overrides: no armor, no Defense (rules.md, "Reading values"). */
  | { kind: 'no-character' }
  /** No --hit: the hit is taken as already decided. */
  | { kind: 'hit-decided' }
  /** The Defensive Turn: a successful defense takes the armor's Defense off the damage. */
  | { kind: 'armor-defense'; before: number; defense: number; after: number }
  | { kind: 'vitality-change'; before: number; after: number }
  /** The Defensive Turn: "Should your character's Vitality ever reach 0, your character is dead." */
  | { kind: 'dead-at-0' }
  | { kind: 'dead-no-damage'; vitality: number }
  /** A hand edit lowering a dead token's Vitality is undone. */
  | { kind: 'set-back'; attempted: number; vitality: number }
  | { kind: 'revived' }
  /** A percentile check, its target divided for difficulty first, then modifiers added. */
  | { kind: 'check'; check: ThresholdCheckName; roll: number; base: number; difficulty: Difficulty; mod: number; target: number; success: boolean; critical: boolean }
  /** A failed perceive check: no defense (a spectator's attack simply hits). */
  | { kind: 'no-defense'; situation: ThresholdSituation; takesDamage: boolean }
  /** A failed React check before a skill or counter: not made. */
  | { kind: 'not-in-time'; action: 'skill' | 'counter' }
  | { kind: 'pending-defense'; result: 'success' | 'fail'; situation: ThresholdSituation; for: string | null }
  /** The ally keeps the better of its own pending defense and the guard's. */
  | { kind: 'guard-kept'; ally: string; result: 'success' | 'fail' }
  | { kind: 'announced'; action: 'skill' | 'counter' | 'opportunity'; vs: string | null; skillName: string | null }
  | { kind: 'spectator-drawn'; spectator: string }
  /** A save try: free, or paid with 1d% EXP (the cost rolled first). */
  | { kind: 'save-cost'; cost: number; exp: number; paid: boolean }
  | { kind: 'stood-up'; before: number }
  | { kind: 'save-failed'; triesLeft: number };

/** The card of a command (title, public line, result, where the token stands now), each step placed in its section. */
export type ThresholdCardStep =
  /** `headline` and `lost`: the title tells what the attack did. */
  | { kind: 'attack-title'; who: string; amount: number; track: 'physical' | 'magical'; headline: Headline; lost: number }
  | { kind: 'attack-summary'; who: string; headline: Headline }
  /** Where a dead token stands; `standing`: a standing one says its Vitality too. */
  | { kind: 'dead-now'; state: ThresholdState; vitality: number; standing?: true }
  | { kind: 'defense-title'; who: string; action: string; situation: string }
  | { kind: 'defense-result'; who: string; guarded: string | null; result: 'success' | 'fail'; summary?: true }
  | { kind: 'defense-announced'; who: string; action: string }
  | { kind: 'save-title'; who: string }
  | { kind: 'save-summary'; who: string; stood: boolean };

const CARD_KINDS = new Set<string>(['attack-title', 'attack-summary', 'dead-now', 'defense-title', 'defense-result', 'defense-announced', 'save-title', 'save-summary']);

/** A step of the card's layout, not of the rules. */
export function isLayoutStep(step: Step): step is ThresholdCardStep & Step {
  return CARD_KINDS.has(step.kind);
}

const CHECK: Record<ThresholdCheckName, string> = { defend: 'Defend', react: 'React', perceive: 'Perceive', save: 'Vitality save' };

function target(base: number, difficulty: Difficulty, mod: number, total: number): string {
  const divided = difficulty === 'hard' ? `${base} hard (half)` : difficulty === 'impossible' ? `${base} impossible (quarter)` : `${base}`;
  if (difficulty === 'normal' && mod === 0) return `${total}`;
  return `${divided}${mod === 0 ? '' : mod > 0 ? ` + ${mod}` : ` - ${-mod}`} = ${total}`;
}

/** Where a dead token stands, in one line; undefined for one alive. */
function nowLine(state: ThresholdState, vitality: number): string | undefined {
  if (!isDead(vitality)) return undefined;
  if (isDeadForGood(state, vitality)) return 'Dead for good: no save is left';
  if (!state.freeSaveUsed) return 'Dead: the free Vitality save is owed (!defend --action save)';
  const left = triesLeft(state);
  return `Dead: ${left} paid ${left === 1 ? 'try' : 'tries'} left, one a round, 1d% EXP each${state.triedThisRound ? ' (this round\'s try is used)' : ''}`;
}

const ATTACK_SUMMARY: Partial<Record<Headline, string>> = { missed: 'is missed', dies: 'is hit and dies', hit: 'is hit' };

/** The situation and its effect in a few words, for the prompts of `!attack`. */
export function situationWords(situation: string): string {
  const rule = THRESHOLD_SITUATION_RULES[situation as ThresholdSituation];
  if (!rule) return situation;
  const effects = [
    rule.perceive ? `a ${rule.perceive.difficulty === 'normal' ? '' : `${rule.perceive.difficulty} `}perceive check first` : '',
    rule.reactCheck ? 'the defense is a React check' : '',
    rule.noHitChance ? 'no hit chance: it hits' : rule.hitBonus !== 0 ? `+${rule.hitBonus} to hit` : '',
  ].filter((effect) => effect !== '');
  return `${SITUATION_NAME[situation as ThresholdSituation]}${effects.length > 0 ? `: ${effects.join(', ')}` : ''}`;
}

/** Words for any step of this edition: its rules' steps and its card's. */
export function thresholdWords(step: Step, nameOf: (id: string) => string = (id) => id, context?: WordsContext): string {
  const s = step as ThresholdStep | ThresholdCardStep;
  switch (s.kind) {
    case 'defense-used': {
      // An attack's answer has its own row: only what it did.
      if (context?.answered && s.source !== 'override') return s.result === 'success' ? "The armor's Defense applies" : "The armor's Defense does not apply";
      const from = s.source === 'pending' ? ' (from !defend)' : s.source === 'override' ? ' (--defense)' : '';
      // The row is "Defense": its line starts with the result, not the word again.
      if (s.result === 'success') return `Succeeded${from}: the armor's Defense applies`;
      if (s.result === 'fail') return `Failed${from}: the armor's Defense does not apply`;
      return `None${from}`;
    }
    case 'defense-does-not-answer':
      return `The pending defense was made against ${SITUATION_NAME[s.madeFor].toLowerCase()}, without the perceive check ${SITUATION_NAME[s.attack].toLowerCase()} needs: it counts as none`;
    case 'hit-check': {
      const bonus = s.bonus !== 0 ? ` + ${s.bonus} ${SITUATION_NAME[s.situation].toLowerCase()}` : '';
      const mod = s.mod !== 0 ? (s.mod > 0 ? ` + ${s.mod}` : ` - ${-s.mod}`) : '';
      const sum = bonus || mod ? `${s.hit}${bonus}${mod} = ${s.total}` : `${s.total}`;
      const armor = `${s.track === 'physical' ? 'Physical' : 'Magical'} Armor ${s.armor}`;
      return s.hits ? `Hit chance ${sum} beats ${armor}: a hit` : `Hit chance ${sum} vs ${armor}: no damage (at or under the armor)`;
    }
    case 'no-hit-chance':
      return s.given === null ? 'Area attack: no hit chance needed, every target is hit' : `Area attack: no hit chance needed (the given ${s.given} is not compared)`;
    case 'no-character':
      return 'No character, so no armor: no armor threshold and no Defense';
    case 'hit-decided':
      return 'No hit chance given: the hit is taken as decided';
    case 'armor-defense':
      return `${s.before} - ${s.defense} Defense = ${s.after}`;
    case 'vitality-change':
      // Unchanged: the title says "takes no damage", and no "70 -> 70" line is printed.
      return s.before === s.after ? '' : `Vitality ${s.before} -> ${s.after}`;
    case 'dead-at-0':
      return 'Dies at 0: after the free save, one try a round for 1d% EXP, for 4 rounds';
    case 'dead-no-damage':
      return `Dead: takes no damage (Vitality ${s.vitality})`;
    case 'set-back':
      return `Dead: takes no damage, Vitality set back from ${s.attempted} to ${s.vitality}`;
    case 'revived':
      return 'Revived: raised above 0 by hand, no longer dead';
    case 'check': {
      const result = s.success ? (s.critical ? 'success (critical)' : 'success') : 'failure';
      // Every check of The Defensive Turn is a percentile roll: the card says its die.
      return `${CHECK[s.check]} d100 ${s.roll} vs ${target(s.base, s.difficulty, s.mod, s.target)}: ${result}`;
    }
    case 'no-defense':
      return s.takesDamage
        ? `${SITUATION_NAME[s.situation]} not perceived: no defense, the attack hits`
        : `${SITUATION_NAME[s.situation]}: attack not perceived, no defense`;
    case 'not-in-time':
      return `React check failed: no ${s.action === 'skill' ? 'defensive skill' : 'counter attack'} in time`;
    case 'pending-defense': {
      // The result is the card's Result row: this line says where it is kept, once.
      const against = SITUATION_NAME[s.situation].toLowerCase();
      return s.for === null ? `Kept for the next hit on this token (${against})` : `Kept for the next hit on ${nameOf(s.for)} (${against})`;
    }
    case 'guard-kept':
      return `${nameOf(s.ally)} keeps the better defense: ${s.result}`;
    case 'announced': {
      const what = s.action === 'skill' ? (s.skillName ? `Defensive skill "${s.skillName}"` : 'Defensive skill') : s.action === 'counter' ? 'Counter attack' : 'Attack of opportunity';
      return `${what}${s.vs === null ? '' : ` against ${nameOf(s.vs)}`}`;
    }
    case 'spectator-drawn':
      return `${nameOf(s.spectator)} is drawn into the battle (Turn Tracker, initiative 0)`;
    case 'save-cost':
      return s.paid
        ? `Save costs 1d% EXP: ${s.cost}, EXP ${s.exp} -> ${s.exp - s.cost}`
        : `Save costs 1d% EXP: ${s.cost}, but EXP is ${s.exp}: not made, nothing taken, this round's try is used`;
    case 'stood-up':
      return `Stands back up: Vitality ${s.before} -> 1`;
    case 'save-failed':
      return s.triesLeft > 0 ? `Still dead: ${s.triesLeft} more ${s.triesLeft === 1 ? 'try' : 'tries'}, one a round, each for 1d% EXP` : 'Still dead: no try left after this round';
    case 'attack-title': {
      const name = nameOf(s.who);
      const what = s.headline === 'missed' ? 'takes no damage: the armor holds' : s.headline === 'dies' ? `loses ${s.lost} Vitality and dies` : s.headline === 'hit' ? `loses ${s.lost} Vitality` : 'takes no damage';
      return hitTitle(`${name} ${what}`, `${s.amount} ${s.track}`, context);
    }
    case 'attack-summary':
      return `${nameOf(s.who)} ${ATTACK_SUMMARY[s.headline] ?? 'is unharmed'}.`;
    case 'dead-now':
      return nowLine(s.state, s.vitality) ?? `Standing, Vitality ${s.vitality}`;
    case 'defense-title':
      return `${nameOf(s.who)}: ${s.action}${s.situation !== 'front' ? ` (${s.situation})` : ''}`;
    case 'defense-result': {
      const who = s.guarded !== null ? `${nameOf(s.who)} guards ${nameOf(s.guarded)}` : nameOf(s.who);
      const line = s.result === 'success' ? `${who}: the armor's Defense will apply to the next hit` : `${who}: no defense against the next hit`;
      return s.summary ? `${line}.` : line;
    }
    case 'defense-announced':
      return `${nameOf(s.who)} makes a defensive action (${s.action}).`;
    case 'save-title':
      return `${nameOf(s.who)}: Vitality save`;
    case 'save-summary':
      return s.stood ? `${nameOf(s.who)} makes a save and stands back up.` : `${nameOf(s.who)} stays dead.`;
  }
}
