// One attack against one defender in the `opposed` edition (Opposed Rolls; rules.md, "Edition
// `opposed`" and Clarifications). Pure: the rolls, modifiers and initiative in, every step out.

export const DEFENSE_MODES = ['passive', 'active', 'full'] as const;
export type DefenseMode = (typeof DEFENSE_MODES)[number];

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

export type OpposedStep =
  | { kind: 'overwhelmed'; wanted: DefenseMode; cost: number; initiative: number; current: number; currentHidden?: true; limit: number; used: DefenseMode }
  | { kind: 'no-initiative-entry'; mode: DefenseMode }
  | { kind: 'current-not-a-number'; mode: DefenseMode }
  | { kind: 'defense-roll'; mode: DefenseMode; roll: number; passive: number; active: number; full: number; total: number }
  | { kind: 'attack'; attack: number; defense: number; hits: boolean }
  | { kind: 'damage'; weapon: number; margin: number; damage: number }
  | { kind: 'armor'; armorScore: number; penetration: number; effective: number; damage: number; pierces: boolean }
  | { kind: 'initiative'; mode: DefenseMode; cost: number; before: number; after: number }
  | { kind: 'counterattack'; margin: number };

export interface OpposedAttackOutcome {
  mode: DefenseMode;
  hits: boolean;
  /** The damage and where it goes; null on a miss. */
  damage: { amount: number; to: 'vitality' | 'stamina' } | null;
  /** The defender's initiative after paying; null when nothing is paid. */
  initiativeAfter: number | null;
  counterattack: boolean;
  steps: OpposedStep[];
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
  const steps: OpposedStep[] = [];
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
