// One token's hit in the `threshold` edition (The Defensive Turn, "Taking Damage", "Physical", "Magical",
// "Defense"; rules.md, "Hit chance against armor" and Clarifications), and `!damage`'s plan. Pure.
import { at, placed, SUMMARY, TITLE, type AttackAsked, type Facts, type Headline, type Order, type Outcome, type Plan, type Reads, type Resolution, type Resource, type RuleChange, type Step, type ValueKey } from '../edition';
import { echo } from '../../text/args';
import type { FlagValues } from '../../text/flags';
import { TRACK_OF } from '../damageTypes';
import type { THRESHOLD_DAMAGE_FLAGS } from './index';
import { deadNow, died, isDead } from './life';
import type { ThresholdPending, ThresholdState } from './state';
import { answersSituation, THRESHOLD_SITUATION_RULES, type ThresholdSituation } from './situations';
import type { ThresholdStep } from './words';

export interface ThresholdHit {
  amount: number;
  track: 'physical' | 'magical';
  /** The attacker's hit chance; null: the hit is taken as decided. */
  hit: number | null;
  /** The attack's situation as given (`--situation`); null: the pending defense's, or front. */
  situation: ThresholdSituation | null;
  /** Added to the hit chance (a projectile weapon's bonus, or any other). */
  mod: number;
  /** The track's armor now (a threshold; it never wears here). */
  armor: number;
  /** The token represents no character (and has no overrides): it has no armor, and says so. */
  noCharacter?: boolean;
  armorDefense: number;
  override: 'success' | 'fail' | 'none' | null;
  vitality: number;
  state: ThresholdState;
  /** The defense made ahead, waiting for this hit; null: none. */
  pending: ThresholdPending | null;
}

export interface ThresholdHitOutcome {
  missed: boolean;
  vitality: number;
  state: ThresholdState;
  steps: ThresholdStep[];
  dies: boolean;
  /** The defense made ahead is used up by this attack, hit or miss (not by a hit on the dead). */
  answerUsed: boolean;
}

function defenseUsed(hit: ThresholdHit, attack: ThresholdSituation, pending: ThresholdPending | undefined, steps: ThresholdStep[]): 'success' | 'fail' | 'none' {
  if (hit.override !== null) {
    steps.push({ kind: 'defense-used', result: hit.override, source: 'override' });
    return hit.override;
  }
  if (!pending) {
    steps.push({ kind: 'defense-used', result: 'none', source: 'none' });
    return 'none';
  }
  // rules.md: a defense made without the gate this attack's situation needs does not answer it.
  if (!answersSituation(pending, attack)) {
    steps.push({ kind: 'defense-does-not-answer', madeFor: pending.situation, attack });
    steps.push({ kind: 'defense-used', result: 'none', source: 'none' });
    return 'none';
  }
  steps.push({ kind: 'defense-used', result: pending.result, source: 'pending' });
  return pending.result;
}

export function resolveThresholdHit(hit: ThresholdHit): ThresholdHitOutcome {
  const steps: ThresholdStep[] = [];
  const pending = hit.pending ?? undefined;
  // rules.md: a dead token takes no damage (its pending defense, if any, stays as it was).
  if (isDead(hit.vitality)) {
    steps.push({ kind: 'dead-no-damage', vitality: hit.vitality });
    return { missed: false, vitality: hit.vitality, state: hit.state, steps, dies: false, answerUsed: false };
  }
  // rules.md: without --situation the attack is taken to be the one the pending defense answered.
  const attack = hit.situation ?? pending?.situation ?? 'front';
  const rule = THRESHOLD_SITUATION_RULES[attack];
  const defense = defenseUsed(hit, attack, pending, steps);
  if (hit.noCharacter) steps.push({ kind: 'no-character' });
  const state: ThresholdState = hit.state;

  if (rule.noHitChance) {
    steps.push({ kind: 'no-hit-chance', given: hit.hit });
  } else if (hit.hit === null) {
    steps.push({ kind: 'hit-decided' });
  } else {
    const total = hit.hit + rule.hitBonus + hit.mod;
    const armor = Math.max(0, hit.armor);
    // The Defensive Turn: "If their hit chance is equal to or less than your ... Armor, you will receive no damage."
    const hits = total > armor;
    steps.push({ kind: 'hit-check', hit: hit.hit, bonus: rule.hitBonus, mod: hit.mod, total, armor, track: hit.track, hits, situation: attack });
    if (!hits) return { missed: true, vitality: hit.vitality, state, steps, dies: false, answerUsed: true };
  }

  let damage = Math.max(0, hit.amount);
  if (defense === 'success') {
    // The Defensive Turn: "Should you succeed with your defense check you ... reduce the damage ... by the armor's defense score."
    const reduction = Math.max(0, hit.armorDefense);
    const after = Math.max(0, damage - reduction);
    steps.push({ kind: 'armor-defense', before: damage, defense: reduction, after });
    damage = after;
  }
  const after = hit.vitality - damage;
  steps.push({ kind: 'vitality-change', before: hit.vitality, after });
  const dies = after <= 0;
  if (dies) steps.push({ kind: 'dead-at-0' });
  return { missed: false, vitality: after, state: dies ? died(state) : state, steps, dies, answerUsed: true };
}

/** The hit as the attacker declared it: what `!damage` says before any token is read. */
type Attack = Pick<ThresholdHit, 'amount' | 'track' | 'hit' | 'situation' | 'mod' | 'override'>;

/** `!damage`: the order the pipeline parsed, as the rules take it. */
export function damagePlan(order: Order): Plan<ThresholdState, ThresholdPending> {
  const flags = order as FlagValues<typeof THRESHOLD_DAMAGE_FLAGS> & Order;
  return attackPlan({ amount: order.amount ?? 0, track: TRACK_OF[flags.type]!, hit: flags.hit ?? null, situation: flags.situation ?? null, mod: flags.mod ?? 0, override: flags.defense ?? null });
}

/** commands.md, "Hand edits": in threshold only a pending success applies (the armor's Defense). */
export function handEditPlan(loss: number): Plan<ThresholdState, ThresholdPending> {
  return attackPlan({ amount: loss, track: 'physical', hit: null, situation: null, mod: 0, override: null });
}

// What a hit may read, made once (a 50-token hit is mostly its per-token cost).
const NO_VALUES: readonly ValueKey[] = [];
const VITALITY: readonly Resource[] = ['vitality'];
const READS = {
  physical: { armor: { values: ['armor_physical'] }, both: { values: ['armor_physical', 'armor_defense'] } },
  magical: { armor: { values: ['armor_magical'] }, both: { values: ['armor_magical', 'armor_defense'] } },
} as const satisfies Record<Attack['track'], Record<'armor' | 'both', Reads>>;
const DEFENSE: Reads = { values: ['armor_defense'] };

/**
 * What a hit reads of the armor, as the rules will use it (each read costs a Roll20 get, and a value
 * that is no number refuses the token): the track's armor only against a hit chance, the armor's
 * Defense only where a successful defense would take it off; nothing for the dead or a token with
 * no armor. Undefined once read (The Defensive Turn, "Hit chance" and "Defense check").
 */
function armorReads(attack: Attack, facts: Facts<ThresholdState, ThresholdPending>): Reads | undefined {
  const vitality = facts.bars.vitality.value;
  if (!facts.armorSource || vitality === null || isDead(vitality)) return undefined;
  const situation = attack.situation ?? facts.answer?.situation ?? 'front';
  const armor = attack.hit !== null && !THRESHOLD_SITUATION_RULES[situation].noHitChance;
  const defense = (attack.override ?? facts.answer?.result) === 'success';
  const key = attack.track === 'physical' ? 'armor_physical' : 'armor_magical';
  const needArmor = armor && facts.values[key] === undefined;
  const needDefense = defense && facts.values.armor_defense === undefined;
  const reads = READS[attack.track];
  return needArmor ? (needDefense ? reads.both : reads.armor) : needDefense ? DEFENSE : undefined;
}

function attackPlan(attack: Attack): Plan<ThresholdState, ThresholdPending> {
  const armorKey: ValueKey = attack.track === 'physical' ? 'armor_physical' : 'armor_magical';
  return {
    values: NO_VALUES,
    bars: VITALITY,
    more: (facts) => armorReads(attack, facts),
    dice: [],
    resolve(facts): Resolution<ThresholdState, ThresholdPending> {
      const vitality = facts.bars.vitality.value;
      if (vitality === null) return { kind: 'bar', resource: 'vitality' };
      // Each field named (not `...attack`): a spread on this path made every hit several times slower in V8.
      const outcome = resolveThresholdHit({
        amount: attack.amount,
        track: attack.track,
        hit: attack.hit,
        situation: attack.situation,
        mod: attack.mod,
        override: attack.override,
        armor: facts.armorSource ? (facts.values[armorKey]?.current ?? 0) : 0,
        armorDefense: facts.armorSource ? (facts.values.armor_defense?.current ?? 0) : 0,
        noCharacter: !facts.armorSource,
        vitality,
        state: facts.state,
        pending: facts.answer,
      });
      const who = facts.id;
      const headline: Headline = outcome.missed ? 'missed' : outcome.dies ? 'dies' : outcome.vitality !== vitality ? 'hit' : 'unharmed';
      const changes: RuleChange[] = outcome.vitality !== vitality ? [{ kind: 'bar', resource: 'vitality', to: outcome.vitality }] : [];
      const isDefense = (step: ThresholdStep) => step.kind === 'defense-used' || step.kind === 'defense-does-not-answer';
      const steps: Step[] = [
        at(TITLE, { kind: 'attack-title', who, amount: attack.amount, track: attack.track, headline, lost: vitality - outcome.vitality }),
        at(SUMMARY, { kind: 'attack-summary', who, headline }),
        ...placed('Defense', outcome.steps.filter(isDefense)),
        ...placed('Breakdown', outcome.steps.filter((step) => !isDefense(step))),
        ...deadNow('Now', outcome.state, outcome.vitality),
      ];
      return {
        headline,
        steps,
        changes,
        state: outcome.state,
        // The defense made ahead is used up by this attack, hit or miss.
        ...(outcome.answerUsed && facts.answer !== null ? { answer: null } : {}),
        detail: outcome,
      };
    },
  };
}

// ---- The attack as declared (`!attack`, rules.md "The exchange"): who it can touch, who is on an
// area's edge, and whether the attacker may attack now.

type Declared = FlagValues<typeof THRESHOLD_DAMAGE_FLAGS> & Order & { edge?: string[]; counter?: boolean; opportunity?: boolean };

/**
 * Why the declared hit chance cannot touch this defender, whatever it answers, or null (rules.md,
 * "The hit chance comes first"; The Defensive Turn: "first needs to roll above 18 for hit chance. If
 * the enemy makes the hit chance ... Bob can now make a defense check"). Reads what the hit reads.
 */
export function sparedBy(facts: Facts<ThresholdState, ThresholdPending>, attack: AttackAsked): string | null {
  const order = attack.order as Declared;
  const vitality = facts.bars.vitality.value;
  if (order.hit === undefined || vitality === null || isDead(vitality)) return null;
  const rule = THRESHOLD_SITUATION_RULES[(attack.situation ?? facts.answer?.situation ?? 'front') as ThresholdSituation];
  if (rule.noHitChance) return null;
  const track = TRACK_OF[order.type]!;
  const armor = facts.armorSource ? Math.max(0, facts.values[track === 'physical' ? 'armor_physical' : 'armor_magical']?.current ?? 0) : 0;
  const total = order.hit + rule.hitBonus + (order.mod ?? 0);
  return total > armor ? null : `missed (hit chance ${total} does not beat ${track === 'physical' ? 'Physical' : 'Magical'} Armor ${armor})`;
}

const EDGE = new WeakMap<Order, Order>();

/** The Defensive Turn: an area attack needs no hit chance "unless targets are on the edge": those named in --edge face it (one order for them all). */
export function onTheEdge(order: Order, defender: string): Order {
  const edge = (order as Declared).edge;
  if (edge === undefined || !edge.includes(defender)) return order;
  let theirs = EDGE.get(order);
  if (!theirs) EDGE.set(order, (theirs = { ...order, situation: 'aoe-edge' }));
  return theirs;
}

/** An --edge id that is no defender of the attack refuses it. */
export function strayEdge(order: Order, defenders: readonly string[]): string | null {
  const stray = (order as Declared).edge?.find((id) => !defenders.includes(id));
  return stray === undefined ? null : `--edge: "${echo(stray)}" is no defender of this attack (name each edge defender in --ids too)`;
}

const MAY_ATTACK: Outcome<ThresholdState, ThresholdPending> = { headline: 'acts', steps: [], changes: [], observed: false, detail: null };

/**
 * rules.md, "Out of turn" (The Defensive Turn: in the defensive turn "You cannot ... attack", only
 * defend, guard, use defensive skills "including counter attack", or "Make Attacks of Opportunity"):
 * with the Turn Tracker in use, an attacker not on its turn attacks only as a counter attack (with
 * the skill, which the script cannot read: --counter says it has it) or an attack of opportunity.
 * A token with no turn in the Turn Tracker (a spectator) is not checked.
 */
export function declarerPlan(order: Order): Plan<ThresholdState, ThresholdPending> {
  const declared = order as Declared;
  const as = declared.counter ? 'counter attack' : declared.opportunity ? 'attack of opportunity' : null;
  const flag = declared.counter ? '--counter' : '--opportunity';
  return {
    values: NO_VALUES,
    dice: [],
    readsTurnOrder: true,
    resolve(facts) {
      if (facts.currentTurn === null || (facts.initiative === null && !facts.acting)) return MAY_ATTACK;
      if (facts.acting) return as === null ? MAY_ATTACK : { kind: 'refused', reason: `${flag}: it is this token's turn, so its attack is no ${as}` };
      if (as === null) return { kind: 'refused', reason: "it is not this token's turn: in the defensive turn it attacks only with a counter attack (--counter, with the skill) or an attack of opportunity (--opportunity)" };
      if (isDead(facts.bars.vitality.value)) return { kind: 'refused', reason: `this character is dead: it makes no ${as}` };
      return MAY_ATTACK;
    },
  };
}
