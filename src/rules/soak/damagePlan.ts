// `!damage` in the `soak` edition as a plan: parse the arguments, name the values to read, and
// resolve one token's hit from those numbers (rules.md, "Damage"; commands.md, "Syntax").
import { at, type Facts, type Outcome, type Plan, type Reads, type Resolution, type RuleChange, type ValueFact, type ValueKey, type Headline, type Step } from '../edition';
import { choiceArg, flagValue, hasFlag, optionalInteger, UsageError, type FlagTable, type ParsedLine } from '../../text/args';
import { defensiveStanceReduction, type SoakArmor } from './damage';
import type { DamageStep, DamageTrack } from './damageSteps';
import { TRACK_OF } from '../damageTypes';
import { resolveSoakDamage, type SoakDamageOutcome } from './resolveDamage';
import { hitResult, SUMMARY, TITLE } from './layout';
import { lifeOf, withLife, type SoakAnswer, type SoakState } from './state';
import type { Life } from './life';
import { amountArg } from '../shared';


export const SOAK_DAMAGE_FLAGS: FlagTable = {
  type: { kind: 'one' },
  pierce: { kind: 'one' },
  to: { kind: 'one' },
  'instant-kill': { kind: 'switch' },
  defense: { kind: 'one', decides: 'decides its defense (--defense)' },
};

export const SOAK_DAMAGE_USAGE =
  '!damage N [--type physical|magical|energy|breath] [--pierce 0-100] [--to vitality|soul|power] [--instant-kill] [--defense success|fail|none] [--ids ID ...] (N: a whole number 0-1000000 or an inline roll like [[2d6+3]]); !damage --undo [--force]';

export interface SoakDamageOrder {
  amount: number;
  track: DamageTrack;
  piercePercent: number;
  to: 'vitality' | 'soul' | 'power';
  instantKill: boolean;
  defenseOverride: 'success' | 'fail' | 'none' | null;
}

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

const NO_AMOUNT = 'no damage amount given: a number or an inline roll, like !damage 12 or !damage [[2d6+3]]';
const AMOUNT = { what: 'the damage amount', missing: NO_AMOUNT, example: '[[2d6+3]]' } as const;
const AMOUNT_OR_NONE = { what: 'the damage amount', missing: NO_AMOUNT, example: '[[2d6+3]]', optional: true } as const;

export function parseSoakDamage(parsed: ParsedLine): SoakDamageOrder {
  // A bare hit (`!damage 12`, most hits): its amount, and every flag as it is when not given.
  if (parsed.flags.size === 0) return plainHit(amountArg(parsed, AMOUNT));
  const instantKill = hasFlag(parsed, 'instant-kill');
  const given = amountArg(parsed, AMOUNT_OR_NONE);
  if (given === undefined && !instantKill) throw new UsageError(NO_AMOUNT);
  const amount = given ?? 0;
  const typeText = flagValue(parsed, 'type');
  const track = typeText === undefined ? 'physical' : TRACK_OF[choiceArg(typeText, '--type', Object.keys(TRACK_OF))]!;
  const toText = flagValue(parsed, 'to');
  const to = toText === undefined ? 'vitality' : choiceArg(toText, '--to', ['vitality', 'soul', 'power'] as const);
  if (instantKill && to !== 'vitality') throw new UsageError('--instant-kill cannot be combined with --to soul or power');
  if (instantKill && given !== undefined) throw new UsageError('--instant-kill takes no amount: it drops Vitality to 0');
  // No armor is read for these hits, so a type or piercing would change nothing (refused, not ignored).
  if ((instantKill || to !== 'vitality') && (hasFlag(parsed, 'type') || hasFlag(parsed, 'pierce'))) {
    throw new UsageError(`--type and --pierce mean nothing with ${instantKill ? '--instant-kill' : `--to ${to}`}: no armor applies`);
  }
  const defenseText = flagValue(parsed, 'defense');
  return {
    amount,
    track,
    piercePercent: optionalInteger(parsed, 'pierce', 0, 100) ?? 0,
    to,
    instantKill,
    defenseOverride: defenseText === undefined ? null : choiceArg(defenseText, '--defense', ['success', 'fail', 'none'] as const),
  };
}

/**
 * A physical hit of `amount` with every flag as it is when not given: a bare `!damage N`, and a hand
 * edit read through armor (commands.md: `!damage` of the loss, physical, using the pending defense).
 */
export function plainHit(amount: number): SoakDamageOrder {
  return { amount, track: 'physical', piercePercent: 0, to: 'vitality', instantKill: false, defenseOverride: null };
}

export function soakDamagePlan(order: SoakDamageOrder): Plan<SoakState, SoakAnswer> {
  const keys = TRACK_KEYS[order.track];
  const hitsArmor = order.to === 'vitality' && !order.instantKill;
  const plan: Plan<SoakState, SoakAnswer> = { values: [], bars: [order.to], dice: [], resolve: (facts) => resolveOne(order, facts) };
  if (hitsArmor) plan.more = (facts) => armorReads(facts, keys, order.defenseOverride);
  return plan;
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
    const blocked = (override ?? facts.answer) === 'success';
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
  const outcome = resolveSoakDamage({
    amount: order.amount,
    track: order.track,
    piercePercent: order.piercePercent,
    to: order.to,
    instantKill: order.instantKill,
    pendingDefense: facts.answer,
    defenseOverride: order.defenseOverride,
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
