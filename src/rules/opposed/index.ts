// The `opposed` edition (seed 003): a skeleton on the edition seam, not yet playable. It holds its
// stances (default defense modes), its flags and the seed's worked example of an opposed roll
// (damage = weapon + margin, Vitality or stamina by armor), with the initiative an active or
// full defense costs; overwhelm, counterattacks and the Turn Tracker format come with its issue.
import type { Edition, Plan, RuleChange, Step } from '../edition';
import { MAX_DAMAGE } from '../values';
import { flagValue, integerArg, optionalInteger, UsageError, type ParsedLine } from '../../text/args';

/** seed 003 keeps nothing per token beyond the stance, which the seam stores for every edition. */
export type OpposedState = Record<string, never>;

const MODES = ['passive', 'active', 'full'] as const;
type Mode = (typeof MODES)[number];
// seed 003: an active defense costs 5 initiative, a full defense 10.
const INITIATIVE_COST: Record<Mode, number> = { passive: 0, active: 5, full: 10 };

type OpposedStep =
  | { kind: 'defense-roll'; mode: Mode; roll: number; bonus: number; total: number }
  | { kind: 'attack'; attack: number; defense: number; hits: boolean }
  | { kind: 'damage'; weapon: number; margin: number; damage: number; armor: number; bar: 'vitality' | 'stamina' }
  | { kind: 'bar-change'; bar: 'vitality' | 'stamina'; before: number; after: number }
  | { kind: 'initiative'; cost: number; before: number; after: number };

function text(step: Step): string {
  const s = step as OpposedStep;
  switch (s.kind) {
    case 'defense-roll':
      return `Defense (${s.mode}) ${s.roll} + ${s.bonus} = ${s.total}`;
    case 'attack':
      return s.hits ? `Attack ${s.attack} beats defense ${s.defense}: a hit` : `Attack ${s.attack} does not beat defense ${s.defense}: no hit`;
    case 'damage':
      return `Damage ${s.weapon} + ${s.margin} = ${s.damage}, ${s.damage > s.armor ? 'above' : 'not above'} armor ${s.armor}: ${s.bar === 'vitality' ? 'Vitality' : 'stamina'}`;
    case 'bar-change':
      return `${s.bar === 'vitality' ? 'Vitality' : 'Stamina'} ${s.before} -> ${s.after}`;
    case 'initiative':
      return `Initiative ${s.before} -> ${s.after} (costs ${s.cost})`;
  }
}

function notYet(what: string): never {
  throw new UsageError(`${what} is not built yet in the opposed edition`);
}

function planDamage(line: ParsedLine): Plan<OpposedState> {
  if (line.positionals.length !== 1) throw new UsageError('one weapon damage amount is needed');
  const weapon = integerArg(line.positionals[0]!, 'the damage amount', 0, MAX_DAMAGE);
  const attackText = flagValue(line, 'attack');
  if (attackText === undefined) throw new UsageError('--attack is required');
  const attack = integerArg(attackText, '--attack', -1000, 1000);
  const given = optionalInteger(line, 'defense-roll', 1, 20);
  return {
    values: ['passive_defense', 'active_defense', 'full_defense', 'armor_score'],
    dice: given === undefined ? [20] : [],
    readsTurnOrder: true,
    resolve(facts, rolls) {
      const value = (key: 'passive_defense' | 'active_defense' | 'full_defense' | 'armor_score') => facts.values[key]?.current ?? 0;
      const mode: Mode = (MODES as readonly string[]).includes(facts.stance ?? '') ? (facts.stance as Mode) : 'passive';
      const roll = given ?? rolls[0] ?? 1;
      // Ruling: passive uses passive_defense, active adds active_defense, full adds full_defense on top.
      const bonus = value('passive_defense') + (mode !== 'passive' ? value('active_defense') : 0) + (mode === 'full' ? value('full_defense') : 0);
      const defense = roll + bonus;
      const steps: OpposedStep[] = [{ kind: 'defense-roll', mode, roll, bonus, total: defense }, { kind: 'attack', attack, defense, hits: attack > defense }];
      const changes: RuleChange[] = [];
      const cost = INITIATIVE_COST[mode];
      if (cost > 0 && facts.initiative !== null) {
        steps.push({ kind: 'initiative', cost, before: facts.initiative, after: facts.initiative - cost });
        changes.push({ kind: 'initiative', to: facts.initiative - cost });
      }
      if (attack > defense) {
        const margin = attack - defense;
        const damage = weapon + margin;
        const armor = Math.max(0, value('armor_score'));
        const bar = damage > armor ? 'vitality' : 'stamina';
        steps.push({ kind: 'damage', weapon, margin, damage, armor, bar });
        const resource = bar === 'vitality' ? 'vitality' : 'power';
        const before = facts.bars[resource].value;
        if (before === null) return { kind: 'bar', resource };
        steps.push({ kind: 'bar-change', bar, before, after: before - damage });
        if (damage !== 0) changes.push({ kind: 'bar', resource, to: before - damage });
      }
      return {
        headline: attack > defense ? 'hit' : 'missed',
        steps,
        card: { title: `${facts.name} is attacked (${attack})`, rows: [{ label: 'Breakdown', lines: steps.map(text) }] },
        shortLine: attack > defense ? `${facts.name} is hit.` : `${facts.name} is missed.`,
        changes,
        state: {},
        detail: { steps },
      };
    },
  };
}

export const opposed: Edition<OpposedState> = {
  id: 'opposed',
  playable: false,
  flags: {
    damage: { attack: { kind: 'one' }, ap: { kind: 'one' }, 'defense-mode': { kind: 'one' }, 'defense-roll': { kind: 'one' } },
    defend: {},
  },
  stances: MODES,
  settings: ['overwhelm-limit', 'stamina-bar'],
  markers: ['incapacitated', 'active', 'full'],
  usage: {
    damage: '!damage B --attack A [--ap P] [--defense-mode passive|active|full] [--defense-roll R] [--ids ID ...]',
    defend: '!defend (the defense is rolled inside !damage in this edition)',
    stance: '!stance passive|active|full [--ids ID ...]',
  },
  help: { damage: ['Opposed d20 rolls: damage is the weapon plus the margin.'], defend: [], stance: [] },
  planDamage,
  planDefend: () => notYet('!defend'),
  planStance: () => notYet('!stance'),
  planHandEdit: (loss) => ({
    values: [],
    dice: [],
    resolve: (facts) => {
      const before = facts.bars.vitality.value;
      if (before === null) return { kind: 'bar', resource: 'vitality' };
      const steps: OpposedStep[] = [{ kind: 'bar-change', bar: 'vitality', before, after: before - loss }];
      return { headline: 'hit', steps, card: { title: `${facts.name} loses ${loss}`, rows: [{ label: 'Breakdown', lines: steps.map(text) }] }, shortLine: `${facts.name} is hit.`, changes: [{ kind: 'bar', resource: 'vitality', to: before - loss }], state: {}, detail: { steps } };
    },
  }),
  setVitality(before, after, state) {
    const steps: OpposedStep[] = [{ kind: 'bar-change', bar: 'vitality', before, after }];
    return { vitality: after, state, steps, lines: steps.map(text), conditionLines: [], now: after <= 0 ? 'Incapacitated' : undefined };
  },
  enter: () => ({}),
  endRound: (state) => state,
  // Ruling: at or below 0 shows the incapacitated marker as a visual aid only.
  condition: (_state, vitality) => (vitality !== null && vitality <= 0 ? 'incapacitated' : 'none'),
  deadForGood: () => false,
  parseState: (raw) => (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && Object.keys(raw).length === 0 ? {} : null),
  isEmptyState: () => true,
  describeStateChange: () => 'its state changed',
  text,
};
