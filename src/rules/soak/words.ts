// The steps of the `soak` edition (The Defensive Round) as data, numbers, enums and opaque ids
// only, and their plain words: one short line each, worded like the seed's worked example ("160 - 100
// Physical = 60"), and the words of a refused `!defend`. No HTML: the chat renderer escapes and wraps.
import { hitTitle as titled, type AttackAsked, type Facts, type Step, type WordsContext } from '../edition';
import { SITUATION_NAME } from '../situationNames';
import { actingRefusal } from '../shared';
import type { DefendFlag, SoakDefendAction, SoakDefendRefusal } from './check';
import type { Life } from './state';
import { SOAK_SITUATION_RULES, type PenalisedCheck, type SoakSituation } from './situations';

/** The Defensive Round: physical hits wear Physical; magical, energy and breath weapon hits wear Magical. */
export type DamageTrack = 'physical' | 'magical';

/** A defense result kept from `!defend` (pending) or given with `--defense`. */
export type DefenseResult = 'success' | 'fail';

/** Why the armor gives nothing (rules.md step 2: it stands while either protection is above 0). */
export type ArmorAbsence =
  | 'worn-out' // both protections worn down to 0: the armor is destroyed
  | 'never-there' // no protection on either track (no armor at all)
  | 'no-character'; // the token represents no character: the hit is unreduced

/** Why a token died. */
export type DeathCause =
  | 'reached-minus-10' // The Defensive Round: incapacitated characters take damage "until their vitality reaches -10"
  | 'hit-while-dying' // rules.md: a dying token that loses any more Vitality is dead
  | 'saves-failed'; // the third failed save of a dying token

export type DamageStep =
  /** Which defense result the hit met; a success cancels the hit (rules.md, "Outcome"). */
  | { kind: 'defense-used'; result: DefenseResult | 'none'; source: 'pending' | 'override' | 'none' }
  /** rules.md step 1: the pierced part skips every reduction. `rest` goes on to the armor. */
  | { kind: 'pierce'; amount: number; piercePercent: number; pierced: number; rest: number }
  /** rules.md step 2: the track's armor is not standing. `amount` is what goes on unreduced by armor. */
  | { kind: 'armor-absent'; track: DamageTrack; reason: ArmorAbsence; amount: number }
  /** rules.md step 3: `after = floor(before * (100 - soakPercent) / 100)`. */
  | { kind: 'soak'; soakPercent: number; before: number; after: number }
  /** rules.md step 4: `after = max(0, before - protection)`, protection as it stood before the hit. */
  | { kind: 'protection'; track: DamageTrack; protection: number; before: number; after: number }
  /** rules.md step 5: armor Defense (physical) or Spirit (magical), while the armor stands. */
  | { kind: 'armor-reduction'; track: DamageTrack; reduction: number; before: number; after: number }
  /** rules.md step 5: natural defense or spirit, only when the track's armor is not standing. */
  | { kind: 'natural-reduction'; track: DamageTrack; reduction: number; before: number; after: number }
  /** rules.md step 6: 5% of Fortitude in the defensive stance. */
  | { kind: 'defensive-stance'; reduction: number; before: number; after: number }
  /** rules.md step 7: loss = pierced + what came through the armor. */
  | { kind: 'vitality-loss'; pierced: number; throughArmor: number; loss: number }
  /** The Defensive Round: protection wears 25% of the damage after soak. */
  | { kind: 'protection-wear'; track: DamageTrack; afterSoak: number; wearPercent: number; wear: number; before: number; after: number }
  /** A Vitality bar moving (a hit, or a hand edit). */
  | { kind: 'vitality-change'; before: number; after: number }
  /** `--to soul|power`: the whole amount off that bar, no armor (Ruling). */
  | { kind: 'direct-damage'; bar: 'soul' | 'power'; amount: number; before: number; after: number }
  /** The targeted bar holds no number: nothing is taken from it. */
  | { kind: 'bar-not-a-number'; bar: 'soul' | 'power' }
  /** The Defensive Round: "Instant Kill's only drop your character's Vitality to 0". `applied` false: already at or below 0. */
  | { kind: 'instant-kill'; applied: boolean; before: number; after: number }
  /** A dead token takes no more damage. */
  | { kind: 'dead-no-damage'; vitality: number }
  /** A hand edit lowering a dead token's Vitality is undone. */
  | { kind: 'set-back'; attempted: number; vitality: number }
  /** Vitality at or below 0 (with the saves now owed: 1 from a hit, 0 otherwise). */
  | { kind: 'incapacitated'; savesOwed: number }
  /** The Defensive Round: a hit that "instantly drops" Vitality to -10 or below: three saves. */
  | { kind: 'dying'; savesOwed: number }
  | { kind: 'dead'; cause: DeathCause }
  /** Saves still owed that no longer count (death came first, or a hand edit made them moot). */
  | { kind: 'saves-lost'; count: number }
  /** One Vitality save roll (`save_check`). */
  | { kind: 'save-rolled'; roll: number; target: number; success: boolean; critical: boolean; savesLeft: number }
  /** The Defensive Round: a successful save stands the character back up with 1 Vitality. */
  | { kind: 'stood-up'; before: number; vitality: number }
  /** Ruling: a dying character's successful save leaves it alive, incapacitated at -9. */
  | { kind: 'saved-from-death'; before: number; vitality: number }
  /** A hand edit raised a dead token above 0: the GM's way to revive it. */
  | { kind: 'revived'; before: number; vitality: number }
  /** Vitality above 0 again by hand: every condition and owed save is cleared. */
  | { kind: 'conditions-cleared' };

/** The actions that roll a check (counter and skill are announced, not rolled). */
export type RolledDefendAction = 'defend' | 'evade' | 'react';

export type DefendStep =
  /** The perception gate of behind, distracted, covert, spectator. `target` = `baseTarget + mod`. */
  | {
      kind: 'perception-check';
      situation: SoakSituation;
      roll: number;
      baseTarget: number;
      mod: number;
      target: number;
      success: boolean;
      critical: boolean;
    }
  /** The gate failed: no defensive action (a spectator's attack then simply hits). */
  | { kind: 'no-defensive-action'; situation: SoakSituation; takesDamage: boolean }
  /** The unseen spell's mental check and what it did to the evade penalty. */
  | {
      kind: 'mental-check';
      roll: number;
      target: number;
      success: boolean;
      critical: boolean;
      penaltyBefore: number;
      penaltyAfter: number;
    }
  /** A situation's penalty to the check (after any mental check); only when not 0. */
  | { kind: 'situation-penalty'; situation: SoakSituation; check: PenalisedCheck; penalty: number }
  /** A situation other than `front` that leaves this check as it is (e.g. defend against a gun). */
  | { kind: 'situation-no-penalty'; situation: SoakSituation; check: PenalisedCheck }
  /** An ally's aid (`--aided-by`), from its successful reaction check. */
  | { kind: 'aided'; bonus: number; by?: string }
  /** The check's own modifier (`--mod`); only when not 0. */
  | { kind: 'modifier'; mod: number }
  /** The action's check. `target` = `baseTarget` + the sum of `adjustments` (penalty, aid, mod, in order). */
  | {
      kind: 'action-check';
      action: RolledDefendAction;
      roll: number;
      baseTarget: number;
      adjustments: number[];
      target: number;
      success: boolean;
      critical: boolean;
    }
  /** What the next `!damage` on this token will use. */
  | { kind: 'pending-defense'; result: 'success' | 'fail' }
  /** The reaction check's result against this attacker, kept for the round. */
  | { kind: 'reaction-recorded'; vs: string; success: boolean }
  /** A counter attack, for oneself or (with Reactive Guard) for an ally; the counter is the defender's own attack. */
  | { kind: 'counter-announced'; vs: string; ally: string | null; skillName: string | null }
  /** A defensive skill, announced; the GM and player resolve its effect. */
  | { kind: 'skill-announced'; skillName: string | null; vs: string | null; ally: string | null }
  /** Countering a spectator makes it a participant (Turn Tracker, initiative 0). */
  | { kind: 'spectator-drawn'; spectator: string };

export interface HitDescription {
  amount: number;
  track: 'physical' | 'magical';
  to: 'vitality' | 'soul' | 'power';
  piercePercent: number;
  instantKill: boolean;
}

/** What a hit did, for its public line. */
export type HitResult = 'blocks' | 'incapacitated' | 'dying' | 'dead' | 'armor-holds' | 'hit' | 'unharmed';

/** The card of a command (title, public line, result, where the token stands now), each step placed in its section. */
export type SoakCardStep =
  /** `result` and `lost` (Vitality, or the bar hit): the title tells what the hit did. */
  | { kind: 'hit-title'; who: string; hit: HitDescription; result: HitResult; lost?: number }
  | { kind: 'hit-summary'; who: string; result: HitResult }
  /** Where the token stands now (its condition, or standing at a Vitality). */
  | { kind: 'life-now'; life: Life; vitality: number | null }
  | { kind: 'save-title'; who: string }
  | { kind: 'save-summary'; who: string; result: 'stands' | 'clings' | 'dies' | 'fails' }
  | { kind: 'check-title'; who: string; action: string; situation: string }
  | { kind: 'check-result'; who: string; result: 'success' | 'fail'; action?: string }
  | { kind: 'check-summary'; who: string; action: string; result: 'success' | 'fail' | null }
  /** The Defensive Round: "you must declare what kind of stance you are taking: Defensive or Reactive". */
  | { kind: 'no-stance-declared' };

type SoakStep = DamageStep | DefendStep | SoakCardStep;

const PROTECTION_NAME: Record<DamageTrack, string> = { physical: 'Physical', magical: 'Magical' };
const REDUCTION_NAME: Record<DamageTrack, string> = { physical: 'Defense', magical: 'Spirit' };
const BAR_NAME = { soul: 'Soul', power: 'Power' } as const;

function armorAbsent(reason: ArmorAbsence, amount: number): string {
  switch (reason) {
    case 'worn-out':
      return `Armor destroyed (worn out): ${amount} is not reduced`;
    case 'never-there':
      return `No armor (no Physical or Magical protection): ${amount} is not reduced`;
    case 'no-character':
      return `No character, so no armor: ${amount} is not reduced by armor`;
  }
}

function death(cause: DeathCause): string {
  switch (cause) {
    case 'reached-minus-10':
      return 'Dead: reached -10 while incapacitated';
    case 'hit-while-dying':
      return 'Dead: hit again while dying';
    case 'saves-failed':
      return 'Dead: every save failed';
  }
}

function saves(count: number): string {
  return count === 1 ? '1 save' : `${count} saves`;
}

/**
 * One reduction of the damage: a clamp is said as one ("32 - 100 Physical: all 32 stopped"), and a
 * reduction of nothing left is left out (an empty line).
 */
function reduced(before: number, by: number, what: string, after: number): string {
  if (before === 0) return '';
  if (after === 0 && by > before) return `${before} - ${by} ${what}: all ${before} stopped`;
  return `${before} - ${by} ${what} = ${after}`;
}

const CHECK_LABEL: Record<RolledDefendAction, string> = { defend: 'Defend', evade: 'Evade', react: 'Reaction' };

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

/** What the token's condition asks of the table next, in one line. */
function lifeLine(life: Life): string | undefined {
  switch (life.condition) {
    case 'none':
      return undefined;
    case 'incapacitated':
      return life.savesOwed > 0 ? 'Incapacitated: one save owed (!defend --action save) to stand back up at 1 Vitality' : 'Incapacitated';
    case 'dying':
      return `Dying: ${life.savesOwed} save${life.savesOwed === 1 ? '' : 's'} owed (!defend --action save); the first success keeps it alive at -9`;
    case 'dead':
      return 'Dead';
  }
}

/** The card's title: what the hit did first, then the hit itself ("Bob loses 30 Vitality (200 physical)"), or as the context puts them. */
function hitTitle(name: string, hit: HitDescription, result: HitResult, lost: number | undefined, context: WordsContext | undefined): string {
  const amount = `${hit.amount} ${hit.track}${hit.piercePercent > 0 ? `, ${hit.piercePercent}% piercing` : ''}`;
  if (hit.instantKill) return titled(`${name} dies`, 'instant kill', context, `${name}: instant kill`);
  if (hit.to !== 'vitality') {
    const what = `${name} takes ${lost ?? hit.amount} to ${hit.to === 'soul' ? 'Soul' : 'Power'}`;
    return titled(what, amount, context, what);
  }
  switch (result) {
    case 'blocks':
      return titled(`${name} blocks the hit`, amount, context);
    case 'armor-holds':
      return titled(`${name} takes no damage: the armor holds`, amount, context);
    case 'unharmed':
      return titled(`${name} takes no damage`, amount, context);
    case 'incapacitated':
    case 'dying':
      return titled(`${name} loses ${lost} Vitality and falls, ${result}`, amount, context);
    case 'dead':
      return titled(`${name} loses ${lost} Vitality and dies`, amount, context);
    case 'hit':
      return titled(`${name} loses ${lost} Vitality`, amount, context);
  }
}

const HIT_SUMMARY: Record<HitResult, string> = {
  blocks: 'blocks the hit',
  incapacitated: 'is hit and falls, incapacitated',
  dying: 'is hit and falls, dying',
  dead: 'is hit and dies',
  'armor-holds': 'is hit, but the armor holds',
  hit: 'is hit',
  unharmed: 'is unharmed',
};

/** A check's result, the action named as it was made ("fails to evade"). */
function checkResult(result: 'success' | 'fail', action: string | undefined): string {
  if (result === 'success') return action === 'evade' ? 'evades the next hit' : 'blocks the next hit';
  return `fails to ${action === 'evade' ? 'evade' : 'defend'}`;
}

/** Words for any step of this edition: its hit's, its check's, its life's and its card's. Ids go through `nameOf`. */
export function soakWords(step: Step, nameOf: (id: string) => string = (id) => id, context?: WordsContext): string {
  const s = step as SoakStep;
  switch (s.kind) {
    case 'defense-used': {
      // An attack's answer has its own row: only what it did.
      if (context?.answered && s.source !== 'override') return s.result === 'success' ? 'The hit is blocked, no damage' : 'The hit lands';
      const from = s.source === 'pending' ? ' (from !defend)' : s.source === 'override' ? ' (--defense)' : '';
      // The row is "Defense": its line starts with the result, not the word again.
      if (s.result === 'success') return `Succeeded${from}: the hit is blocked, no damage`;
      if (s.result === 'fail') return `Failed${from}: the hit lands`;
      return `None${from}: the hit lands`;
    }
    case 'pierce':
      return `Pierced ${s.piercePercent}% of ${s.amount} = ${s.pierced} (skips armor), ${s.rest} left`;
    case 'armor-absent':
      return armorAbsent(s.reason, s.amount);
    case 'soak':
      return `${s.before} x ${100 - s.soakPercent}% soak = ${s.after}`; // as the seed writes it: 200 x 0.8 Soak (20% Soak)
    case 'protection':
      return reduced(s.before, s.protection, PROTECTION_NAME[s.track], s.after);
    case 'armor-reduction':
      return reduced(s.before, s.reduction, REDUCTION_NAME[s.track], s.after);
    case 'natural-reduction':
      return reduced(s.before, s.reduction, `natural ${REDUCTION_NAME[s.track]}`, s.after);
    case 'defensive-stance':
      return reduced(s.before, s.reduction, 'defensive stance', s.after);
    case 'vitality-loss':
      if (s.loss === 0) return 'No Vitality lost';
      return s.pierced > 0
        ? `Vitality loss ${s.pierced} pierced + ${s.throughArmor} = ${s.loss}`
        : `Vitality loss ${s.loss}`;
    case 'protection-wear':
      return `${PROTECTION_NAME[s.track]} ${s.before === s.after ? `stays ${s.after}` : `${s.before} -> ${s.after}`} (wears ${s.wearPercent}% of ${s.afterSoak} = ${s.wear})`;
    case 'vitality-change':
      // Unchanged is said by "No Vitality lost": no "70 -> 70" line (an empty line is left out).
      return s.before === s.after ? '' : `Vitality ${s.before} -> ${s.after}`;
    case 'direct-damage':
      return `${s.amount} to ${BAR_NAME[s.bar]}, no armor: ${BAR_NAME[s.bar]} ${s.before === s.after ? `stays ${s.after}` : `${s.before} -> ${s.after}`}`;
    case 'bar-not-a-number':
      return `${BAR_NAME[s.bar]} is not a number: nothing taken`;
    case 'instant-kill':
      return s.applied
        ? `Instant kill: Vitality ${s.before} -> 0`
        : `Instant kill: Vitality already ${s.before} (at or below 0), unchanged`;
    case 'dead-no-damage':
      return `Dead: takes no damage (Vitality ${s.vitality})`;
    case 'set-back':
      return `Dead: takes no damage, Vitality set back from ${s.attempted} to ${s.vitality}`;
    // The saves owed are said once, in the card's "Now" row.
    case 'incapacitated':
      return s.savesOwed > 0 ? 'Falls: incapacitated' : 'Incapacitated: no save owed';
    case 'dying':
      return 'Falls: dying (-10 or below)';
    case 'dead':
      return death(s.cause);
    case 'saves-lost':
      return s.count === 1 ? 'The owed save is lost' : `The ${s.count} owed saves are lost`;
    case 'save-rolled': {
      const result = s.success ? (s.critical ? 'critical success' : 'success') : 'failure';
      const left = s.success ? '' : s.savesLeft > 0 ? `, ${saves(s.savesLeft)} left` : ', no save left';
      return `Save d100 ${s.roll} vs ${s.target}: ${result}${left}`;
    }
    case 'stood-up':
      return `Stands back up: Vitality ${s.before} -> ${s.vitality}`;
    case 'saved-from-death':
      return `Saved from death: Vitality ${s.before} -> ${s.vitality}, still incapacitated`;
    case 'revived':
      return 'Revived: raised above 0 by hand, no longer dead';
    case 'conditions-cleared':
      return 'Above 0 again: conditions and owed saves cleared';
    case 'perception-check':
      return `Perception d100 ${s.roll} vs ${targetText(s.baseTarget, s.mod === 0 ? [] : [s.mod], s.target)}: ${resultText(s.success, s.critical)}`;
    case 'no-defensive-action':
      return s.takesDamage
        ? `${SITUATION_NAME[s.situation]} not perceived: no defensive action, the attack hits`
        : `${SITUATION_NAME[s.situation]}: attack not perceived, no defensive action`;
    case 'mental-check': {
      const effect = s.critical
        ? 'penalty removed'
        : s.success
          ? `penalty halved to ${s.penaltyAfter}`
          : `penalty stays ${s.penaltyBefore}`;
      return `Mental d100 ${s.roll} vs ${s.target}: ${resultText(s.success, s.critical)}, ${effect}`;
    }
    case 'situation-penalty':
      return `${SITUATION_NAME[s.situation]}: ${signed(s.penalty)} to ${s.check}`;
    case 'situation-no-penalty':
      return `${SITUATION_NAME[s.situation]}: no penalty to ${s.check}`;
    case 'aided':
      return s.by === undefined ? `Aided by an ally: ${signed(s.bonus)}` : `Aided by ${nameOf(s.by)}: ${signed(s.bonus)}`;
    case 'modifier':
      return `Modifier: ${signed(s.mod)}`;
    case 'action-check':
      return `${CHECK_LABEL[s.action]} d100 ${s.roll} vs ${targetText(s.baseTarget, s.adjustments, s.target)}: ${resultText(s.success, s.critical)}`;
    case 'pending-defense':
      return s.result === 'success'
        ? 'Kept for the next hit on this token: that hit is negated'
        : 'Kept for the next hit on this token: that hit lands';
    case 'reaction-recorded':
      return `Reaction against ${nameOf(s.vs)}: ${s.success ? 'success' : 'failure'}, kept for this round`;
    case 'counter-announced':
      return s.ally === null
        ? `Counter attack against ${nameOf(s.vs)}${s.skillName === null ? '' : ` (${s.skillName})`}`
        : `Counter attack for ${nameOf(s.ally)} against ${nameOf(s.vs)} (${s.skillName ?? 'Reactive Guard'})`;
    case 'skill-announced': {
      const name = s.skillName === null ? 'Defensive skill' : `Defensive skill "${s.skillName}"`;
      const on = s.ally === null ? '' : ` on ${nameOf(s.ally)}`;
      const against = s.vs === null ? '' : ` against ${nameOf(s.vs)}`;
      return `${name}${on}${against}`;
    }
    case 'spectator-drawn':
      return `${nameOf(s.spectator)} is drawn into the battle (Turn Tracker, initiative 0)`;
    case 'hit-title':
      return hitTitle(nameOf(s.who), s.hit, s.result, s.lost, context);
    case 'hit-summary':
      return `${nameOf(s.who)} ${HIT_SUMMARY[s.result]}.`;
    case 'life-now':
      return lifeLine(s.life) ?? `Standing, Vitality ${s.vitality}`;
    case 'save-title':
      return `${nameOf(s.who)}: Vitality save`;
    case 'save-summary': {
      const name = nameOf(s.who);
      if (s.result === 'stands') return `${name} makes a save and stands back up.`;
      if (s.result === 'clings') return `${name} makes a save and clings to life.`;
      return s.result === 'dies' ? `${name} fails a save and dies.` : `${name} fails a save.`;
    }
    case 'check-title':
      return `${nameOf(s.who)}: ${s.action}${s.situation !== 'front' ? ` (${s.situation})` : ''}`;
    case 'check-result':
      return `${nameOf(s.who)} ${checkResult(s.result, s.action)}`;
    case 'check-summary': {
      const name = nameOf(s.who);
      if (s.result === null) return `${name} makes a defensive action (${s.action}).`;
      return `${name} ${checkResult(s.result, s.action)}.`;
    }
    case 'no-stance-declared':
      return 'None declared: a defender must declare Defensive or Reactive';
  }
}


/** The situation and its effect in a few words, for the prompts of `!attack`. */
export function situationWords(situation: string): string {
  const rule = SOAK_SITUATION_RULES[situation as SoakSituation];
  if (!rule) return situation;
  const effects = [
    rule.perceptionGate !== 'none' ? 'a perception check first' : '',
    rule.defendPenalty !== 0 ? `defend ${rule.defendPenalty}` : '',
    rule.evadeImpossible ? 'no evade' : rule.evadePenalty !== 0 ? `evade ${rule.evadePenalty}` : '',
  ].filter((effect) => effect !== '');
  return `${SITUATION_NAME[situation as SoakSituation]}${effects.length > 0 ? `: ${effects.join(', ')}` : ''}`;
}

/**
 * An answer's button (rules.md, "Buttons show the check that is rolled"): the check and its final
 * target in the attack's situation, and the check that comes first ("Evade (20, Mental 40 first)").
 */
export function answerLabel(word: string, values: Facts<unknown>['values'], { situation, order }: AttackAsked): string {
  if (word !== 'defend' && word !== 'evade') return 'No defense';
  const name = word === 'defend' ? 'Defend' : 'Evade';
  const base = values[word === 'defend' ? 'defend_check' : 'evade_check']?.current;
  if (base === null || base === undefined) return name;
  const rule = SOAK_SITUATION_RULES[situation as SoakSituation] ?? SOAK_SITUATION_RULES.front;
  // The Defensive Round: behind, distracted, covert and spectator need a perception check first (covert and spectator with the skill's penalty).
  const mod = rule.perceptionGate === 'with-perception-mod' && typeof order['perception-mod'] === 'number' ? order['perception-mod'] : 0;
  const known = (value: number | null | undefined, plus = 0) => (value === null || value === undefined ? '' : ` ${value + plus}`);
  const first =
    rule.perceptionGate !== 'none'
      ? `, Perception${known(values.perception_check?.current, mod)} first`
      : word === 'evade' && rule.mentalCheckEasesPenalty
        ? `, Mental${known(values.mental_check?.current)} first`
        : '';
  return `${name} (${base + (word === 'defend' ? rule.defendPenalty : rule.evadePenalty)}${first})`;
}

/** The attacker's refusals (rules.md, "Out of turn"). */
export const OUT_OF_TURN = 'not its turn (top of the Turn Tracker): out of turn it attacks only as a counter attack (--counter), after a successful reaction check against each defender';
export const COUNTER_ON_ITS_TURN = 'it is its own turn (top of the Turn Tracker): a counter attack is made out of turn; attack without --counter';
/** Why React is not offered again (The Defensive Round: "For each enemy you get to make one Reaction Check"). */
export const REACTED = 'React: made against this attacker this round already (one per enemy)';

/**
 * Why a defense made ahead does not stand in for an attack (rules.md, "An attack's answers"): made
 * for a situation that asks otherwise of its action, or with another perception penalty (`mods`).
 */
export function misfitWords(action: PenalisedCheck, made: SoakSituation, attack: SoakSituation, mods?: readonly [number, number]): string {
  const defense = `${action === 'defend' ? 'a defend' : 'an evade'} made for ${situationWords(made)}`;
  return mods ? `${defense}; its perception penalty ${mods[0]}, this attack's ${mods[1]}` : `${defense}; this attack: ${situationWords(attack)}`;
}

const ACTION_WORD: Record<SoakDefendAction, string> = {
  defend: 'defend',
  evade: 'evade',
  react: 'make a reaction check',
  counter: 'counter attack',
  skill: 'use a defensive skill',
};

const FLAG_WORD: Record<DefendFlag, string> = {
  mental: '--mental / --mental-roll',
  'perception-mod': '--perception-mod',
  mod: '--mod',
  aided: '--aided-by',
  ally: '--ally',
  skill: '--skill',
};

/** A clear sentence for the player saying why nothing was rolled; token ids go through `nameOf`. */
export function describeRefusal(reason: SoakDefendRefusal, nameOf: (id: string) => string = (id) => id): string {
  switch (reason.code) {
    case 'acting-turn':
      return capitalized(actingRefusal('round'));
    case 'aid-down':
      return `Aid needs a standing ally: ${nameOf(reason.by)} is ${reason.condition} (only a standing token can act).`;
    case 'aid-acting':
      return `No aid on the aider's own turn: ${nameOf(reason.by)} is acting (top of the Turn Tracker); its reaction can aid once the turn moves on.`;
    case 'aid-not-reactive':
      return `Aid needs the reactive stance: ${nameOf(reason.by)} is not in it (an aided check comes from a successful reaction check).`;
    case 'aid-no-reaction':
      return reason.used
        ? `Aid needs an unspent reaction: ${nameOf(reason.by)} already spent its success against ${nameOf(reason.vs)} this round (one reaction per success).`
        : `Aid needs a successful reaction check: ${nameOf(reason.by)} has none against ${nameOf(reason.vs)} this round (it makes one with !defend --action react --vs).`;
    case 'cannot-act':
      return reason.condition === 'dead'
        ? 'This character is dead and makes no defensive action.'
        : `This character is ${reason.condition} and makes no defensive action; it may only make the saves it is owed (--action save).`;
    case 'situation-not-allowed':
      return `--situation does not apply to --action ${reason.action}: situations change only defend and evade checks and gate counters and skills.`;
    case 'flag-not-applicable':
      return flagRefusal(reason.flag, reason.action, reason.situation);
    case 'evade-impossible-aoe':
      return 'An area attack cannot be evaded unless you are on its farthest reach (--situation aoe-edge). You can still defend (--action defend). Your pending defense is unchanged.';
    case 'needs-reactive-stance':
      return `To ${ACTION_WORD[reason.action]}${reason.action === 'skill' ? ' on an ally' : ''} you need the reactive stance (now: ${reason.stance}). Use !stance reactive.`;
    case 'counter-in-defensive-stance':
      return 'In the defensive stance you cannot counter attack: you are focused on drawing yourself in.';
    case 'needs-vs':
      return `--action ${reason.action} needs --vs with the attacker's token id.`;
    case 'already-reacted':
      return `You already made your reaction check against ${nameOf(reason.vs)} this round (one per attacker per round).`;
    case 'no-reaction-success':
      return reason.used
        ? `Your successful reaction against ${nameOf(reason.vs)} is already spent this round: one success buys one reaction (a counter, a skill on an ally, or aid).`
        : `To ${ACTION_WORD[reason.action]}${reason.action === 'skill' ? ' on an ally' : ''} against ${nameOf(reason.vs)} you need a successful reaction check against that attacker this round (!defend --action react --vs with ${nameOf(reason.vs)}'s token id).`;
    case 'needs-reactive-guard':
      return 'Countering for an ally needs the Reactive Guard skill: add --skill "Reactive Guard".';
    case 'defensive-skill-on-ally':
      return 'In the defensive stance you can use skills only on yourself, not to defend others.';
    case 'skill-limit':
      return `In the defensive stance you can use one defensive skill per attacker per round, and you already used one against ${nameOf(reason.vs)}.`;
  }
}

function flagRefusal(flag: DefendFlag, action: SoakDefendAction, situation: SoakSituation): string {
  const name = FLAG_WORD[flag];
  switch (flag) {
    case 'mental':
      return `${name} applies only to evading an unseen or very fast spell (--action evade --situation spell-unseen).`;
    case 'perception-mod':
      return `${name} applies only to the perception check of a covert attack or a spectator (--situation covert|spectator), not to --situation ${situation}.`;
    case 'mod':
    case 'aided':
      return `${name} changes a check, and --action ${action} is announced, not rolled.`;
    case 'ally':
      return `${name} applies only to --action counter and --action skill, not to --action ${action}.`;
    case 'skill':
      return `${name} names a skill for --action skill or --action counter (Reactive Guard), not for --action ${action}.`;
  }
}

function capitalized(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
