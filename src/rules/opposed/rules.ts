// The rules of the `opposed` edition (Opposed Rolls; rules.md, "Edition `opposed`" and
// Clarifications): one attack against one defender, pure (the rolls, modifiers and initiative in,
// every step out), and the plans of `!damage`, a hand edit, an answer to `!attack` and a heal.
import { at, placed, SUMMARY, TITLE, type Order, type Plan, type PlanContext, type RuleChange, type ValueKey, type VitalitySet } from '../edition';
import type { FlagValues } from '../../text/flags';
import type { DAMAGE_FLAGS } from './index';
import { DEFENSE_MODES, stateAt, type DefenseMode, type OpposedAnswer, type OpposedState } from './state';
import type { AttackStep, OpposedStep } from './words';

// Opposed Rolls: active defense "reduces the defender's initiative score by 5 ... (total defense gives -10 instead)".
export const INITIATIVE_COST: Record<DefenseMode, number> = { passive: 0, active: 5, full: 10 };
// Opposed Rolls: "defense result exceeds the attacker's result by at least 10, they score a counterattack".
export const COUNTERATTACK_MARGIN = 10;

export interface OpposedDefense {
  passive: number;
  active: number;
  full: number;
}

/** The Turn Tracker as the attack sees it. */
export interface OpposedTurn {
  /** The defender's initiative; null: no entry, or not a number (defends without cost). */
  defender: number | null;
  /** The current turn's (top entry's) initiative; null: not a number (costs paid, no limit). */
  current: number | null;
  /** The current turn's token is hidden from the players: its initiative is not said. */
  currentHidden?: boolean;
  /** Opposed Rolls's "hard limit" below the current initiative (Ruling: a setting, 20 by default). */
  limit: number;
}

export interface OpposedAttackInput {
  weapon: number;
  attack: number;
  armorPenetration: number;
  mode: DefenseMode;
  defenseRoll: number;
  defense: OpposedDefense;
  armorScore: number;
  turn: OpposedTurn;
}

export interface OpposedAttackOutcome {
  mode: DefenseMode;
  hits: boolean;
  /** The damage and where it goes; null on a miss. */
  damage: { amount: number; to: 'vitality' | 'stamina' } | null;
  /** The defender's initiative after paying; null when nothing is paid. */
  initiativeAfter: number | null;
  counterattack: boolean;
  steps: AttackStep[];
}

/** Initiative arithmetic without binary-fraction noise: Roll20 tie-breakers are short decimals (12.1 - 5 is 7.1). */
export function initiativeSum(a: number, b: number): number {
  return Math.round((a + b) * 1e6) / 1e6;
}

/** The mode the defender can afford: the one wanted, else active, else passive (Ruling: per mode). */
export function affordableMode(wanted: DefenseMode, turn: OpposedTurn): DefenseMode {
  if (turn.defender === null || turn.current === null) return wanted;
  const floor = initiativeSum(turn.current, -turn.limit);
  const order: DefenseMode[] = wanted === 'full' ? ['full', 'active', 'passive'] : wanted === 'active' ? ['active', 'passive'] : ['passive'];
  // Exactly at the limit is allowed; more than the limit below the current initiative is overwhelmed.
  return order.find((mode) => initiativeSum(turn.defender as number, -INITIATIVE_COST[mode]) >= floor) ?? 'passive';
}

export function resolveOpposedAttack(input: OpposedAttackInput): OpposedAttackOutcome {
  const steps: AttackStep[] = [];
  const { turn } = input;
  let mode = input.mode;
  if (INITIATIVE_COST[mode] > 0) {
    if (turn.defender === null) steps.push({ kind: 'no-initiative-entry', mode });
    else if (turn.current === null) steps.push({ kind: 'current-not-a-number', mode });
    else {
      const used = affordableMode(mode, turn);
      if (used !== mode) {
        steps.push({ kind: 'overwhelmed', wanted: mode, cost: INITIATIVE_COST[mode], initiative: turn.defender, current: turn.current, ...(turn.currentHidden ? { currentHidden: true as const } : {}), limit: turn.limit, used });
        mode = used;
      }
    }
  }
  // Ruling: passive uses passive_defense, active adds active_defense, full adds full_defense on top.
  const active = mode !== 'passive' ? input.defense.active : 0;
  const full = mode === 'full' ? input.defense.full : 0;
  const defense = input.defenseRoll + input.defense.passive + active + full;
  steps.push({ kind: 'defense-roll', mode, roll: input.defenseRoll, passive: input.defense.passive, active, full, total: defense });
  // Opposed Rolls: "If the attacker's result exceeds the defender's, the attack is a hit."
  const hits = input.attack > defense;
  steps.push({ kind: 'attack', attack: input.attack, defense, hits });

  let damage: OpposedAttackOutcome['damage'] = null;
  if (hits) {
    const margin = input.attack - defense;
    const amount = Math.max(0, input.weapon) + margin;
    steps.push({ kind: 'damage', weapon: input.weapon, margin, damage: amount });
    const effective = Math.max(0, input.armorScore - input.armorPenetration);
    // Opposed Rolls: "If the damage exceeds the effective armor score, the attack pierces ... Otherwise ... stamina damage".
    const pierces = amount > effective;
    steps.push({ kind: 'armor', armorScore: input.armorScore, penetration: input.armorPenetration, effective, damage: amount, pierces });
    damage = { amount, to: pierces ? 'vitality' : 'stamina' };
  }

  // The cost is paid whether the attack hits or not (Clarifications).
  const cost = INITIATIVE_COST[mode];
  let initiativeAfter: number | null = null;
  if (cost > 0 && turn.defender !== null) {
    initiativeAfter = initiativeSum(turn.defender, -cost);
    steps.push({ kind: 'initiative', mode, cost, before: turn.defender, after: initiativeAfter });
  }
  const counterattack = mode !== 'passive' && defense - input.attack >= COUNTERATTACK_MARGIN;
  if (counterattack) steps.push({ kind: 'counterattack', margin: defense - input.attack });
  return { mode, hits, damage, initiativeAfter, counterattack, steps };
}

const VALUES: readonly ValueKey[] = ['passive_defense', 'active_defense', 'full_defense', 'armor_score'];

const isMode = (value: string | null): value is DefenseMode => value !== null && (DEFENSE_MODES as readonly string[]).includes(value);

/** `!damage`: each target's defense rolled against the attack, its damage to Vitality or stamina, its initiative paid. */
export function damagePlan(order: Order, context: PlanContext): Plan<OpposedState, OpposedAnswer> {
  const flags = order as FlagValues<typeof DAMAGE_FLAGS> & Order;
  const weapon = order.amount ?? 0;
  return {
    values: VALUES,
    // A given --defense-roll is used for every target; without it each target rolls its own d20.
    dice: [{ name: 'defense', sides: 20, flag: 'defense-roll' }],
    readsTurnOrder: true,
    resolve(facts, rolls) {
      // A defense value or armor score that is there but not a number refuses the token (Clarifications).
      const bad = VALUES.find((key) => facts.values[key]?.present === true && facts.values[key]?.current === null);
      if (bad) return { kind: 'refused', reason: `its ${bad} is not a number: set it on the sheet, or !defense-round set ${bad} N` };
      const value = (key: ValueKey) => facts.values[key]?.current ?? 0;
      // An attack's answer is the defender's choice (its d20 comes as the roll); else --defense-mode, else its stance.
      const mode = facts.answer?.mode ?? flags['defense-mode'] ?? (isMode(facts.stance) ? facts.stance : 'passive');
      const outcome = resolveOpposedAttack({
        weapon,
        attack: flags.attack,
        armorPenetration: flags.ap ?? 0,
        mode,
        defenseRoll: rolls.defense ?? 1,
        defense: { passive: value('passive_defense'), active: value('active_defense'), full: value('full_defense') },
        armorScore: value('armor_score'),
        turn: { defender: facts.initiative, current: facts.currentTurn?.initiative ?? null, currentHidden: facts.currentTurn?.hidden === true, limit: context.overwhelmLimit },
      });
      const changes: RuleChange[] = [];
      // The bar moved joins the card's breakdown, not the outcome observers get.
      const steps: OpposedStep[] = [...outcome.steps];
      let vitality = facts.bars.vitality.value ?? 1;
      if (outcome.damage) {
        const resource = outcome.damage.to === 'vitality' ? 'vitality' : context.stamina;
        const before = facts.bars[resource].value;
        // A token refused for its bar pays nothing (Clarifications).
        if (before === null) return { kind: 'bar', resource };
        const after = before - outcome.damage.amount;
        steps.push({ kind: 'bar-moved', to: outcome.damage.to, before, after });
        if (after !== before) changes.push({ kind: 'bar', resource, to: after });
        if (resource === 'vitality') vitality = after;
      }
      if (outcome.initiativeAfter !== null) changes.push({ kind: 'initiative', to: outcome.initiativeAfter });
      const who = facts.id;
      const falls = outcome.damage?.to === 'vitality' && (facts.bars.vitality.value ?? 1) > 0 && (facts.bars.vitality.value ?? 0) - outcome.damage.amount <= 0;
      return {
        headline: !outcome.hits ? 'missed' : falls ? 'falls' : 'hit',
        steps: [
          at(TITLE, { kind: 'attack-title', who, attack: flags.attack, mode: outcome.mode, ...(outcome.damage ? { damage: outcome.damage.amount, to: outcome.damage.to, falls } : { missed: true }) }),
          at(SUMMARY, { kind: 'attack-summary', who, hits: outcome.hits, stamina: outcome.damage?.to === 'stamina', falls, counter: outcome.counterattack }),
          ...placed('Breakdown', steps),
          ...(falls ? [at('Now', { kind: 'down-now' })] : []),
        ],
        changes,
        state: stateAt(vitality, facts.state.dead === true),
        detail: outcome,
      };
    },
  };
}

/** commands.md, "Hand edits": in opposed the hit is decided; above armor_score it stays on Vitality, otherwise it moves to stamina. */
export function handEditPlan(loss: number, context: PlanContext): Plan<OpposedState, OpposedAnswer> {
  return {
    values: ['armor_score'],
    bars: ['vitality'],
    dice: [],
    resolve(facts) {
      const before = facts.bars.vitality.value;
      if (before === null) return { kind: 'bar', resource: 'vitality' };
      const armor = Math.max(0, facts.values.armor_score?.current ?? 0);
      const toStamina = loss <= armor;
      const stamina = facts.bars[context.stamina].value;
      if (toStamina && stamina === null) return { kind: 'bar', resource: context.stamina };
      const changes: RuleChange[] = toStamina
        ? [{ kind: 'bar', resource: 'vitality', to: before }, { kind: 'bar', resource: context.stamina, to: (stamina ?? 0) - loss }]
        : [{ kind: 'bar', resource: 'vitality', to: before - loss }];
      const who = facts.id;
      return {
        headline: 'hit',
        steps: [
          at(TITLE, { kind: 'loss-title', who, loss }),
          at(SUMMARY, { kind: 'attack-summary', who, hits: true, stamina: false, falls: false, counter: false }),
          at('Breakdown', { kind: 'typed-loss', loss, armor, toStamina }),
          at('Breakdown', { kind: 'typed-loss-result', toStamina, vitality: before, stamina, loss }),
        ],
        changes,
        state: stateAt(toStamina ? before : before - loss, facts.state.dead === true),
        detail: { loss, toStamina },
      };
    },
  };
}

/**
 * An answer to `!attack`: the defender's mode (Opposed Rolls: "the opponent can choose") and its
 * d20; a mode the overwhelm limit refuses now is not offered (rules.md, "an answer the limit forbids").
 */
export function modeAnswerPlan(word: string, context: PlanContext): Plan<OpposedState, OpposedAnswer> {
  const mode = word as DefenseMode;
  return {
    values: [],
    dice: [{ name: 'defense', sides: 20, flag: 'roll' }],
    readsTurnOrder: true,
    resolve(facts, rolls) {
      const turn = { defender: facts.initiative, current: facts.currentTurn?.initiative ?? null, limit: context.overwhelmLimit };
      if (affordableMode(mode, turn) !== mode) {
        return { kind: 'refused', reason: `${mode} defense costs ${INITIATIVE_COST[mode]} initiative, more than the overwhelm limit allows now` };
      }
      const roll = rolls.defense ?? 1;
      return {
        headline: 'acts',
        steps: [at(SUMMARY, { kind: 'mode-answer', who: facts.id, mode, roll }), at('Check', { kind: 'mode-roll', mode, roll })],
        changes: [],
        observed: false,
        detail: { mode, roll },
      };
    },
  };
}

/** Heals and plain hand edits: Vitality moves, and at or below 0 the token shows incapacitated. */
export function setVitality(before: number, after: number, state: OpposedState): VitalitySet<OpposedState> {
  // A hand edit above 0 is the GM's way to bring back even a token dead for good.
  const dead = state.dead === true && after <= 0;
  const change: OpposedStep = { kind: 'vitality-change', before, after };
  return {
    vitality: after,
    state: stateAt(after, dead),
    steps: [change],
    conditions: [],
    now: after <= 0 ? at('Now', dead ? { kind: 'down-now', dead: true } : { kind: 'down-now', typed: true }) : undefined,
  };
}
