// One hit in the `soak` edition (The Defensive Round, "Taking Damage"; rules.md, "Damage", steps 1-7,
// "Incapacitation and death", "Clarifications (soak)"): the defense used, the hit through armor, what
// it does to life, and `!damage`'s plan (and the hand edit's) over the values read. Pure.
import { at, SUMMARY, TITLE, type Die, type Facts, type Headline, type Order, type Outcome, type Plan, type Reads, type Resource, type Resolution, type RuleChange, type Step, type ValueFact, type ValueKey } from '../edition';
import { UsageError } from '../../text/args';
import type { FlagValues } from '../../text/flags';
import { TRACK_OF } from '../damageTypes';
import { clamp, percentOf } from '../values';
import type { SOAK_DAMAGE_FLAGS } from './index';
import { applyInstantKill, applyVitalityLoss, lifeOf } from './life';
import { resultOf, withLife, type Life, type SoakAnswer, type SoakState } from './state';
import type { ArmorAbsence, DamageStep, DamageTrack, DefenseResult, HitResult } from './words';

export interface SoakArmor {
  /** `armor_soak`: percent of the non-pierced damage the armor absorbs. */
  soakPercent: number;
  /** The track's current protection (`armor_physical` or `armor_magical`, current). */
  protection: number;
  /**
   * The track's undamaged protection (max), only to say why an armor is not standing:
   * above 0 with protection 0 reads as worn out; absent or 0 reads as never there.
   */
  protectionMax?: number;
  /**
   * The other track's current protection: the armor is one piece and stands while either
   * protection is above 0 (rules.md step 2, Ruling revised). Absent: 0.
   */
  otherProtection?: number;
  /** The other track's undamaged protection, for the same "worn out or never there". */
  otherProtectionMax?: number;
  /** Armor Defense (physical) or Spirit (magical). */
  armorReduction: number;
  /** Natural defense (physical) or natural spirit (magical). */
  naturalReduction: number;
}

export interface SoakHit {
  amount: number;
  track: DamageTrack;
  piercePercent: number;
  /** null: the token represents no character, so the hit is unreduced by armor. */
  armor: SoakArmor | null;
  /** `defensiveStanceReduction(fortitude)` in the defensive stance, else 0. */
  stanceReduction: number;
}

export interface SoakHitOutcome {
  vitalityLoss: number;
  /** The track's protection after wear (as given when the armor is not standing); null with no armor (no character). */
  protectionAfter: number | null;
  steps: DamageStep[];
}

// The Defensive Round: "you automatically get 5% of your Fortitude as a flat defense"; a negative Fortitude gives none.
export function defensiveStanceReduction(fortitude: number): number {
  return Math.max(0, percentOf(fortitude, 5));
}

// The Defensive Round: "it only decreases by 25% of the damage it received ... after Soak".
const WEAR_PERCENT = 25;

export function resolveSoakHit(hit: SoakHit): SoakHitOutcome {
  const steps: DamageStep[] = [];
  const amount = Math.max(0, hit.amount); // a negative hit is no hit (parsing refuses them anyway)
  const piercePercent = clamp(hit.piercePercent, 0, 100);
  const stanceReduction = Math.max(0, hit.stanceReduction);

  // rules.md step 1: the pierced part skips soak, protection, defense, natural and stance alike.
  const pierced = percentOf(amount, piercePercent);
  const rest = amount - pierced;
  if (piercePercent > 0) steps.push({ kind: 'pierce', amount, piercePercent, pierced, rest });

  let throughArmor = rest;
  let protectionAfter: number | null = null;
  let wearStep: DamageStep | null = null;
  const armor = hit.armor;
  // Clarifications (soak): armor values below 0 count as 0, soak counts as 0..100.
  const protection = armor === null ? 0 : Math.max(0, armor.protection);
  // The Defensive Round: each protection "must be dropped to zero before the armor is destroyed", and Soak is
  // lost "only when the armor providing Soak is destroyed": the armor stands while either is above 0.
  const standing = armor !== null && (protection > 0 || Math.max(0, armor.otherProtection ?? 0) > 0);

  if (armor !== null && standing) {
    // rules.md step 3: soak comes first and never wears.
    const soakPercent = clamp(armor.soakPercent, 0, 100);
    const afterSoak = percentOf(rest, 100 - soakPercent);
    if (soakPercent > 0) steps.push({ kind: 'soak', soakPercent, before: rest, after: afterSoak });

    // rules.md step 4: protection as it stood before this hit (a worn-out track subtracts 0).
    throughArmor = Math.max(0, afterSoak - protection);
    steps.push({ kind: 'protection', track: hit.track, protection, before: afterSoak, after: throughArmor });

    // rules.md step 5: armor Defense/Spirit works while the armor stands.
    const armorReduction = Math.max(0, armor.armorReduction);
    if (armorReduction > 0) {
      const before = throughArmor;
      throughArmor = Math.max(0, throughArmor - armorReduction);
      steps.push({ kind: 'armor-reduction', track: hit.track, reduction: armorReduction, before, after: throughArmor });
    }

    // The Defensive Round: wear is 25% of damage after soak, and protection stops at 0 (a worn-out track has nothing to wear).
    const wear = percentOf(afterSoak, WEAR_PERCENT);
    protectionAfter = Math.max(0, protection - wear);
    if (protection > 0) {
      wearStep = {
        kind: 'protection-wear', track: hit.track, afterSoak, wearPercent: WEAR_PERCENT, wear,
        before: protection, after: protectionAfter,
      };
    } else {
      protectionAfter = armor.protection; // nothing left to wear: left exactly as it was
    }
  } else {
    // rules.md step 2: with both protections at 0 the armor is destroyed: no soak, no Defense/Spirit.
    const wasThere = (armor?.protectionMax ?? 0) > 0 || (armor?.otherProtectionMax ?? 0) > 0;
    const reason: ArmorAbsence = armor === null ? 'no-character' : wasThere ? 'worn-out' : 'never-there';
    steps.push({ kind: 'armor-absent', track: hit.track, reason, amount: rest });
    if (armor !== null) {
      protectionAfter = armor.protection; // not hit, not worn: left exactly as it was (even below 0)
      // rules.md step 5 (Ruling): natural defense/spirit is the fallback, never a bonus on top.
      const naturalReduction = Math.max(0, armor.naturalReduction);
      if (naturalReduction > 0) {
        const before = throughArmor;
        throughArmor = Math.max(0, throughArmor - naturalReduction);
        steps.push({ kind: 'natural-reduction', track: hit.track, reduction: naturalReduction, before, after: throughArmor });
      }
    }
  }

  // rules.md step 6 (Ruling): after Defense/Spirit, on both tracks, armor or not.
  if (stanceReduction > 0) {
    const before = throughArmor;
    throughArmor = Math.max(0, throughArmor - stanceReduction);
    steps.push({ kind: 'defensive-stance', reduction: stanceReduction, before, after: throughArmor });
  }

  // rules.md step 7.
  const vitalityLoss = pierced + throughArmor;
  steps.push({ kind: 'vitality-loss', pierced, throughArmor, loss: vitalityLoss });
  // The seed's example tells the wear last, after the loss.
  if (wearStep !== null) steps.push(wearStep);

  return { vitalityLoss, protectionAfter, steps };
}

// ---- the defense used, and what the hit does to the bars and to life

export interface SoakBars {
  vitality: number;
  /** null: the bar holds no number (only matters when `--to soul` targets it). */
  soul: number | null;
  power: number | null;
}

export interface SoakDamageInput {
  /** 0 allowed; ignored for an instant kill. */
  amount: number;
  track: DamageTrack;
  piercePercent: number;
  /** soul/power: the whole amount off that bar, no armor (Ruling). */
  to: 'vitality' | 'soul' | 'power';
  instantKill: boolean;
  /** The result kept from an earlier `!defend` on this token. */
  pendingDefense: DefenseResult | null;
  /** `--defense`: wins over the pending defense. */
  defenseOverride: DefenseResult | 'none' | null;
  bars: SoakBars;
  armor: SoakArmor | null;
  stanceReduction: number;
  life: Life;
}

export interface SoakDamageOutcome {
  defenseUsed: { result: DefenseResult | 'none'; source: 'pending' | 'override' | 'none' };
  /** A successful defense blocked the hit: nothing else happened. */
  cancelled: boolean;
  bars: SoakBars;
  /** The track's protection after wear; null when no hit reached armor (or there is none). */
  protectionAfter: number | null;
  life: Life;
  steps: DamageStep[];
  /** Whether any bar, the protection or the condition differs from the input. */
  changed: boolean;
}

function chooseDefense(input: SoakDamageInput): SoakDamageOutcome['defenseUsed'] {
  // rules.md: `!damage --defense success|fail|none` overrides the pending defense.
  if (input.defenseOverride !== null) return { result: input.defenseOverride, source: 'override' };
  if (input.pendingDefense !== null) return { result: input.pendingDefense, source: 'pending' };
  return { result: 'none', source: 'none' };
}

function sameLife(a: Life, b: Life): boolean {
  return a.condition === b.condition && a.savesOwed === b.savesOwed;
}

/** Nothing happened to the token: a blocked hit, or one on the dead. */
function unchangedBy(input: SoakDamageInput, defenseUsed: SoakDamageOutcome['defenseUsed'], steps: DamageStep[], cancelled: boolean): SoakDamageOutcome {
  return { defenseUsed, cancelled, bars: { ...input.bars }, protectionAfter: null, life: { ...input.life }, steps, changed: false };
}

export function resolveSoakDamage(input: SoakDamageInput): SoakDamageOutcome {
  const defenseUsed = chooseDefense(input);
  const steps: DamageStep[] = [{ kind: 'defense-used', result: defenseUsed.result, source: defenseUsed.source }];

  // rules.md, "Outcome": a successful defense negates the attack, `--to` damage and instant kill included.
  if (defenseUsed.result === 'success') return unchangedBy(input, defenseUsed, steps, true);

  // rules.md: a dead token takes no more damage, on any bar (Ruling: Soul and Power too).
  if (input.life.condition === 'dead') {
    steps.push({ kind: 'dead-no-damage', vitality: input.bars.vitality });
    return unchangedBy(input, defenseUsed, steps, false);
  }

  // Ruling: instant kill wins over `--to` (parsing refuses the two together anyway).
  if (input.instantKill) {
    const kill = applyInstantKill(input.bars.vitality, input.life);
    steps.push(...kill.steps);
    const bars = { ...input.bars, vitality: kill.after };
    return {
      defenseUsed, cancelled: false, bars, protectionAfter: null, life: kill.life, steps,
      changed: kill.after !== input.bars.vitality || !sameLife(kill.life, input.life),
    };
  }

  const amount = Math.max(0, input.amount); // a negative hit is no hit (parsing refuses them anyway)

  // rules.md (Ruling): `--to soul|power` takes the whole amount off that bar, no armor applies.
  if (input.to !== 'vitality') {
    const bar = input.to;
    const before = input.bars[bar];
    if (before === null) {
      steps.push({ kind: 'bar-not-a-number', bar });
      return unchangedBy(input, defenseUsed, steps, false);
    }
    const after = before - amount; // bars may go negative: nothing clamps at 0
    steps.push({ kind: 'direct-damage', bar, amount, before, after });
    return {
      defenseUsed, cancelled: false, bars: { ...input.bars, [bar]: after }, protectionAfter: null,
      life: { ...input.life }, steps, changed: after !== before,
    };
  }

  const hit = resolveSoakHit({
    amount, track: input.track, piercePercent: input.piercePercent, armor: input.armor, stanceReduction: input.stanceReduction,
  });
  for (const step of hit.steps) steps.push(step);
  const loss = applyVitalityLoss(input.bars.vitality, hit.vitalityLoss, input.life);
  for (const step of loss.steps) steps.push(step);
  return {
    defenseUsed,
    cancelled: false,
    bars: { vitality: loss.after, soul: input.bars.soul, power: input.bars.power },
    protectionAfter: hit.protectionAfter,
    life: loss.life,
    steps,
    changed:
      loss.after !== input.bars.vitality ||
      !sameLife(loss.life, input.life) ||
      (input.armor !== null && hit.protectionAfter !== input.armor.protection),
  };
}

// ---- !damage and the hand edit read through armor

/** The hit as the rules take it from `!damage`: the damage's own inputs. */
export type SoakDamageOrder = Pick<SoakDamageInput, 'amount' | 'track' | 'piercePercent' | 'to' | 'instantKill' | 'defenseOverride'>;

// The Defensive Round: energy and breath weapon attacks wear the Magical protection like magic.
interface TrackKeys {
  protection: ValueKey;
  other: ValueKey;
  reduction: ValueKey;
  natural: ValueKey;
  /** What a hit reads of the armor at each stage (`armorReads`), made once. */
  reads: Record<'first' | 'standing' | 'other' | 'down' | 'otherMax', Reads>;
}
function trackKeys(protection: ValueKey, other: ValueKey, reduction: ValueKey, natural: ValueKey): TrackKeys {
  const reads = { first: { values: [protection] }, standing: { values: ['armor_soak', reduction] }, other: { values: [other] }, down: { values: [natural], maxes: [protection] }, otherMax: { values: [], maxes: [other] } } as const;
  return { protection, other, reduction, natural, reads };
}
const TRACK_KEYS: Record<DamageTrack, TrackKeys> = {
  physical: trackKeys('armor_physical', 'armor_magical', 'armor_defense', 'natural_defense'),
  magical: trackKeys('armor_magical', 'armor_physical', 'armor_spirit', 'natural_spirit'),
};
const FORTITUDE: Reads = { values: ['fortitude'] };
// Made once: every hit names them (a 1-token hit is mostly its fixed cost).
const NO_VALUES: readonly ValueKey[] = [];
const NO_DICE: readonly Die[] = [];
const BAR_OF: Record<SoakDamageOrder['to'], readonly Resource[]> = { vitality: ['vitality'], soul: ['soul'], power: ['power'] };

/** The hit as the rules take it, from the order the pipeline parsed. */
export function soakDamageOrder(order: Order): SoakDamageOrder {
  const flags = order as FlagValues<typeof SOAK_DAMAGE_FLAGS> & Order;
  const instantKill = flags['instant-kill'];
  if (instantKill && order.amount !== undefined) throw new UsageError('--instant-kill takes no amount: it drops Vitality to 0');
  return {
    amount: order.amount ?? 0,
    track: TRACK_OF[flags.type]!,
    piercePercent: flags.pierce ?? 0,
    to: flags.to,
    instantKill,
    defenseOverride: flags.defense ?? null,
  };
}

/** `!damage`: the order parsed, then planned. */
export function damagePlan(order: Order): Plan<SoakState, SoakAnswer> {
  return hitPlan(soakDamageOrder(order));
}

/** A hand edit read through armor (commands.md: `!damage` of the loss, physical, using the pending defense): a bare `!damage N`. */
export function handEditPlan(loss: number): Plan<SoakState, SoakAnswer> {
  return hitPlan({ amount: loss, track: 'physical', piercePercent: 0, to: 'vitality', instantKill: false, defenseOverride: null });
}

function hitPlan(order: SoakDamageOrder): Plan<SoakState, SoakAnswer> {
  const keys = TRACK_KEYS[order.track];
  const hitsArmor = order.to === 'vitality' && !order.instantKill;
  const resolve = (facts: Facts<SoakState, SoakAnswer>) => resolveOne(order, facts);
  if (!hitsArmor) return { values: NO_VALUES, bars: BAR_OF[order.to], dice: NO_DICE, resolve };
  return { values: NO_VALUES, bars: BAR_OF[order.to], dice: NO_DICE, resolve, more: (facts) => armorReads(facts, keys, order.defenseOverride) };
}

/**
 * What a hit reads of the armor next, named from what it read already (each read costs a Roll20 get,
 * and a value that is no number refuses the token): Fortitude only in the defensive stance; no armor
 * for a hit a successful defense blocks or on the dead (rules.md, "Outcome"; they take no damage);
 * Soak and Defense while the armor stands (The Defensive Round: either protection above 0), else the
 * natural defense and the maxes, which say only whether it was worn out or never there (the other's
 * when this one has none). Undefined: nothing more.
 */
function armorReads(facts: Facts<SoakState, SoakAnswer>, keys: TrackKeys, override: SoakDamageOrder['defenseOverride']): Reads | undefined {
  const read = facts.values;
  if (facts.stance === 'defensive' && read.fortitude === undefined) return FORTITUDE;
  const protection = read[keys.protection];
  if (protection === undefined) {
    const blocked = (override ?? (facts.answer === null ? null : resultOf(facts.answer))) === 'success';
    return !facts.armorSource || blocked || lifeOf(facts.state, facts.bars.vitality.value).condition === 'dead' ? undefined : keys.reads.first;
  }
  const other = read[keys.other];
  if (above0(protection) || above0(other)) return read.armor_soak === undefined ? keys.reads.standing : undefined;
  if (other === undefined) return keys.reads.other;
  if (read[keys.natural] === undefined) return keys.reads.down;
  return (protection?.max ?? 0) > 0 ? undefined : keys.reads.otherMax;
}

const above0 = (value: ValueFact | undefined): boolean => (value?.current ?? 0) > 0;

function resolveOne(order: SoakDamageOrder, facts: Facts<SoakState, SoakAnswer>): Resolution<SoakState, SoakAnswer> {
  const keys = TRACK_KEYS[order.track];
  const hitsArmor = order.to === 'vitality' && !order.instantKill;
  // Soul or Power damage needs only that bar to be a number; Vitality is then left untouched.
  if (facts.bars[order.to].value === null) return { kind: 'bar', resource: order.to };
  const vitalityReadable = facts.bars.vitality.value !== null;
  const vitality = facts.bars.vitality.value ?? 0;
  const value = (key: ValueKey) => facts.values[key]?.current ?? 0;

  // A token with no character and no overrides has no armor: the hit is unreduced (rules.md).
  const armor: SoakArmor | null = hitsArmor && facts.armorSource ? armorOf(facts.values, keys) : null;
  const stanceReduction = hitsArmor && facts.stance === 'defensive' ? defensiveStanceReduction(value('fortitude')) : 0;
  const life = lifeOf(facts.state, facts.bars.vitality.value);
  // Each field named (not `...order`): a spread here made every hit's resolve several times slower in V8.
  const outcome = resolveSoakDamage({
    amount: order.amount,
    track: order.track,
    piercePercent: order.piercePercent,
    to: order.to,
    instantKill: order.instantKill,
    defenseOverride: order.defenseOverride,
    pendingDefense: facts.answer === null ? null : resultOf(facts.answer),
    bars: { vitality, soul: facts.bars.soul.value, power: facts.bars.power.value },
    armor,
    stanceReduction,
    life,
  });

  const changes: RuleChange[] = [];
  if (vitalityReadable && outcome.bars.vitality !== vitality) changes.push({ kind: 'bar', resource: 'vitality', to: outcome.bars.vitality });
  for (const bar of ['soul', 'power'] as const) {
    const after = outcome.bars[bar];
    if (after !== null && after !== facts.bars[bar].value) changes.push({ kind: 'bar', resource: bar, to: after });
  }
  if (armor && outcome.protectionAfter !== null && outcome.protectionAfter !== armor.protection) {
    changes.push({ kind: 'value', key: keys.protection, to: outcome.protectionAfter });
  }
  const result: Outcome<SoakState, SoakAnswer> = {
    headline: headlineOf(outcome, life),
    steps: hitSteps(facts.id, order, outcome, life),
    changes,
    state: withLife(facts.state, outcome.life),
    detail: outcome,
  };
  // The defense made ahead is used up by the hit, whatever decided it (rules.md, Clarifications).
  if (facts.answer !== null) result.answer = null;
  return result;
}

/** The hit's card, as steps: the defense used, the breakdown in the seed's order, where it leaves the token. */
function hitSteps(who: string, hit: SoakDamageOrder, outcome: SoakDamageOutcome, lifeBefore: Life): Step[] {
  const result = hitResult(outcome, lifeBefore);
  const steps: Step[] = [{ kind: 'hit-title', section: TITLE, who, hit, result, lost: lostOf(outcome) } as Step, { kind: 'hit-summary', section: SUMMARY, who, result } as Step];
  // The defense first, then the breakdown; The Defensive Round tells the Vitality change first, then
  // the armor's wear: the (first) wear moves to just after the (first) Vitality change.
  let wear: DamageStep | undefined;
  let changed = false;
  for (const step of outcome.steps) {
    if (step.kind === 'defense-used') steps.push(at('Defense', step));
    else if (step.kind === 'protection-wear') wear ??= step;
    else if (step.kind === 'vitality-change') changed = true;
  }
  const moved = changed ? wear : undefined;
  let placedWear = false;
  for (const step of outcome.steps) {
    if (step.kind === 'defense-used' || step === moved) continue;
    steps.push(at('Breakdown', step));
    if (moved !== undefined && !placedWear && step.kind === 'vitality-change') {
      steps.push(at('Breakdown', moved));
      placedWear = true;
    }
  }
  if (outcome.life.condition !== 'none') steps.push(at('Now', { kind: 'life-now', life: outcome.life, vitality: null } as Step));
  return steps;
}

/** What the hit took: the Vitality lost, or what left the Soul or Power bar it struck. */
function lostOf(outcome: SoakDamageOutcome): number | undefined {
  for (const step of outcome.steps) {
    if (step.kind === 'vitality-loss') return step.loss;
    if (step.kind === 'direct-damage') return step.before - step.after;
  }
  return undefined;
}

/** The token's armor as the rules read it (a value the hit did not read counts as 0: it is not used). */
function armorOf(values: Facts<SoakState, SoakAnswer>['values'], keys: TrackKeys): SoakArmor {
  return {
    soakPercent: values.armor_soak?.current ?? 0,
    protection: values[keys.protection]?.current ?? 0,
    protectionMax: values[keys.protection]?.max ?? undefined,
    otherProtection: values[keys.other]?.current ?? 0,
    otherProtectionMax: values[keys.other]?.max ?? undefined,
    armorReduction: values[keys.reduction]?.current ?? 0,
    naturalReduction: values[keys.natural]?.current ?? 0,
  };
}

function headlineOf(outcome: SoakDamageOutcome, before: Life): Headline {
  if (outcome.cancelled) return 'blocked';
  if (outcome.life.condition !== before.condition) {
    if (outcome.life.condition === 'dead') return 'dies';
    if (outcome.life.condition !== 'none') return 'falls';
  }
  return outcome.changed ? 'hit' : 'unharmed';
}

/** The public line of a hit, when the breakdown is for the GM only: no numbers. */
function hitResult(outcome: SoakDamageOutcome, lifeBefore: Life): HitResult {
  if (outcome.cancelled) return 'blocks';
  const changed = outcome.life.condition !== lifeBefore.condition;
  const condition = changed ? outcome.life.condition : 'none';
  if (condition !== 'none') return condition;
  if (outcome.steps.some((step) => step.kind === 'vitality-loss' && step.loss === 0)) return 'armor-holds';
  return outcome.changed ? 'hit' : 'unharmed';
}
