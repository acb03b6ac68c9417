// The `opposed` edition (seed 003) on the edition seam: opposed d20 rolls, damage = weapon +
// margin, armor against armor penetration deciding Vitality or stamina, initiative paid for active
// and full defenses in the Turn Tracker, and the counterattack announced.
import type { Edition, Facts, Plan, PlanContext, Resolution, RuleChange, ValueKey } from '../edition';
import { choiceArg, flagValue, integerArg, optionalInteger, UsageError, type FlagTable, type ParsedLine, echo } from '../../text/args';
import { MAX_DAMAGE } from '../values';
import { DEFENSE_MODES, INITIATIVE_COST, resolveOpposedAttack, type DefenseMode } from './attack';
import { opposedText } from './text';

/**
 * seed 003 keeps nothing per token beyond the stance (which the seam stores); `down` only remembers
 * a token shown incapacitated, so an edition switch reads it again.
 */
export interface OpposedState {
  down?: true;
  /** Dead for good in the edition before (rules.md, "Switching editions": it stays dead). */
  dead?: true;
}

/** The one place a state is put together: down at or below 0 Vitality, and dead for good if it was. */
function stateOf(down: boolean, dead: boolean): OpposedState {
  const state: OpposedState = {};
  if (down) state.down = true;
  if (dead) state.dead = true;
  return state;
}

const stateAt = (vitality: number, dead = false): OpposedState => stateOf(vitality <= 0, dead);

function vitalityAfter(changes: readonly RuleChange[]): number | undefined {
  for (const change of changes) if (change.kind === 'bar' && change.resource === 'vitality') return change.to;
  return undefined;
}

const DAMAGE_FLAGS: FlagTable = { attack: { kind: 'one' }, ap: { kind: 'one' }, 'defense-mode': { kind: 'one' }, 'defense-roll': { kind: 'one' } };
const DAMAGE_USAGE =
  '!damage B --attack A [--ap P] [--defense-mode passive|active|full] [--defense-roll R] [--ids ID ...] (B, A, R: whole numbers or inline rolls); !damage --undo [--force]';
const STANCE_USAGE = '!stance passive|active|full [--ids ID ...] (no mode: show the selected tokens\' modes)';

const MODE_EFFECT: Record<DefenseMode, string> = {
  passive: 'passive_defense only; costs no initiative',
  active: 'adds active_defense; costs 5 initiative each time',
  full: 'adds active_defense and full_defense; costs 10 initiative each time',
};

const VALUES: readonly ValueKey[] = ['passive_defense', 'active_defense', 'full_defense', 'armor_score'];

interface AttackOrder {
  weapon: number;
  attack: number;
  ap: number;
  mode: DefenseMode | null;
  roll: number | undefined;
}

function parseAttack(line: ParsedLine): AttackOrder {
  if (line.positionals.length === 0) throw new UsageError('no weapon damage given');
  if (line.positionals.length > 1) throw new UsageError(`one amount only (got "${echo(line.positionals.join(' '))}"); an expression must be an inline roll like [[1d8+2]]`);
  const attackText = flagValue(line, 'attack');
  if (attackText === undefined) throw new UsageError('--attack is required: the attacker\'s result (1d20 + modifiers)');
  const modeText = flagValue(line, 'defense-mode');
  return {
    weapon: integerArg(line.positionals[0]!, 'the weapon damage', 0, MAX_DAMAGE),
    attack: integerArg(attackText, '--attack', -1000, 1000),
    ap: optionalInteger(line, 'ap', 0, 1000) ?? 0,
    mode: modeText === undefined ? null : choiceArg(modeText, '--defense-mode', DEFENSE_MODES),
    roll: optionalInteger(line, 'defense-roll', 1, 20),
  };
}

function isMode(value: string | null): value is DefenseMode {
  return value !== null && (DEFENSE_MODES as readonly string[]).includes(value);
}

/** A defense value or armor score that is there but not a number refuses the token (Clarifications). */
function unreadable(facts: Facts<OpposedState>): ValueKey | undefined {
  return VALUES.find((key) => facts.values[key]?.present === true && facts.values[key]?.current === null);
}

function attackPlan(order: AttackOrder, context: PlanContext): Plan<OpposedState> {
  return {
    values: VALUES,
    // A given --defense-roll is used for every target; without it each target rolls its own d20.
    dice: order.roll === undefined ? [20] : [],
    readsTurnOrder: true,
    resolve(facts, rolls) {
      return resolveAttack(order, context, facts, order.roll ?? rolls[0] ?? 1);
    },
  };
}

function resolveAttack(order: AttackOrder, context: PlanContext, facts: Facts<OpposedState>, roll: number): Resolution<OpposedState> {
  const bad = unreadable(facts);
  if (bad) return { kind: 'refused', reason: `its ${bad} is not a number: set it on the sheet, or !defense-round set ${bad} N` };
  const value = (key: ValueKey) => facts.values[key]?.current ?? 0;
  const mode = order.mode ?? (isMode(facts.stance) ? facts.stance : 'passive');
  const outcome = resolveOpposedAttack({
    weapon: order.weapon,
    attack: order.attack,
    armorPenetration: order.ap,
    mode,
    defenseRoll: roll,
    defense: { passive: value('passive_defense'), active: value('active_defense'), full: value('full_defense') },
    armorScore: value('armor_score'),
    turn: {
      defender: facts.initiative,
      current: facts.currentTurn?.initiative ?? null,
      currentHidden: facts.currentTurn?.hidden === true,
      limit: context.overwhelmLimit,
    },
  });
  const changes: RuleChange[] = [];
  let barLine: string | undefined;
  if (outcome.damage) {
    const resource = outcome.damage.to === 'vitality' ? 'vitality' : context.stamina;
    const before = facts.bars[resource].value;
    // A token refused for its bar pays nothing (Clarifications).
    if (before === null) return { kind: 'bar', resource };
    const after = before - outcome.damage.amount;
    barLine = `${outcome.damage.to === 'vitality' ? 'Vitality' : 'Stamina'} ${before} -> ${after}`;
    if (after !== before) changes.push({ kind: 'bar', resource, to: after });
  }
  if (outcome.initiativeAfter !== null) changes.push({ kind: 'initiative', to: outcome.initiativeAfter });
  const name = facts.name;
  const falls = outcome.damage?.to === 'vitality' && (facts.bars.vitality.value ?? 1) > 0 && (facts.bars.vitality.value ?? 0) - outcome.damage.amount <= 0;
  const counter = outcome.counterattack ? ' and scores a counterattack' : '';
  return {
    headline: !outcome.hits ? 'missed' : falls ? 'falls' : 'hit',
    steps: outcome.steps,
    card: () => {
      const lines = outcome.steps.map((step) => opposedText(step));
      if (barLine) lines.push(barLine);
      return {
        title: `${name} is attacked: ${order.attack} vs ${outcome.mode} defense`,
        rows: [
          { label: 'Breakdown', lines },
          { label: 'Now', lines: falls ? ['Vitality at or below 0 (marked incapacitated; the seed has no death rules)'] : [] },
        ],
      };
    },
    shortLine: outcome.hits
      ? `${name} is hit${outcome.damage?.to === 'stamina' ? ' (stamina)' : ''}${falls ? ' and falls' : ''}${counter}.`
      : `${name} is missed${counter}.`,
    changes,
    state: stateAt(vitalityAfter(changes) ?? facts.bars.vitality.value ?? 1, facts.state.dead === true),
    detail: outcome,
  };
}

/** commands.md, "Hand edits": in opposed the hit is decided; above armor_score it stays on Vitality, otherwise it moves to stamina. */
function handEditPlan(loss: number, context: PlanContext): Plan<OpposedState> {
  return {
    values: ['armor_score'],
    dice: [],
    resolve(facts) {
      const before = facts.bars.vitality.value;
      if (before === null) return { kind: 'bar', resource: 'vitality' };
      const armor = Math.max(0, facts.values.armor_score?.current ?? 0);
      const toStamina = loss <= armor;
      const stamina = facts.bars[context.stamina].value;
      if (toStamina && stamina === null) return { kind: 'bar', resource: context.stamina };
      const lines = [
        `${loss} typed into Vitality, ${loss > armor ? 'above' : 'not above'} armor ${armor}: ${toStamina ? 'stamina damage instead' : 'Vitality damage'}`,
        toStamina ? `Vitality stays ${before}; Stamina ${stamina} -> ${(stamina ?? 0) - loss}` : `Vitality ${before} -> ${before - loss}`,
      ];
      const changes: RuleChange[] = toStamina
        ? [{ kind: 'bar', resource: 'vitality', to: before }, { kind: 'bar', resource: context.stamina, to: (stamina ?? 0) - loss }]
        : [{ kind: 'bar', resource: 'vitality', to: before - loss }];
      return {
        headline: 'hit',
        steps: [],
        card: { title: `${facts.name} loses ${loss}`, rows: [{ label: 'Breakdown', lines }] },
        shortLine: `${facts.name} is hit.`,
        changes,
        state: stateAt(toStamina ? before : before - loss, facts.state.dead === true),
        detail: { loss, toStamina },
      };
    },
  };
}

export const opposed: Edition<OpposedState> = {
  id: 'opposed',
  playable: true,
  flags: { damage: DAMAGE_FLAGS, defend: {} },
  stances: DEFENSE_MODES,
  settings: ['overwhelm-limit', 'stamina-bar'],
  markers: ['incapacitated', 'active', 'full'],
  usage: { damage: DAMAGE_USAGE, defend: '!defend (none in the opposed edition: the defense is rolled inside !damage)', stance: STANCE_USAGE },
  help: {
    damage: [
      'The defender rolls 1d20 (or --defense-roll) + passive_defense (+ active_defense when active, + full_defense when full); the attack hits when it beats that. Damage = weapon + margin; above armor_score - AP it is Vitality damage, otherwise stamina. Active defense costs 5 initiative, full 10, unless overwhelmed.',
    ],
    defend: ['The defense is rolled inside !damage: choose the mode with !stance or --defense-mode.'],
    stance: [`Passive: ${MODE_EFFECT.passive}. Active: ${MODE_EFFECT.active}. Full: ${MODE_EFFECT.full}.`],
  },
  refuses: { defend: 'in the opposed edition the defense is rolled inside !damage: choose the mode with !stance passive|active|full, or --defense-mode on !damage' },
  planDamage: (line, context) => attackPlan(parseAttack(line), context),
  planDefend: () => {
    throw new UsageError('in the opposed edition the defense is rolled inside !damage');
  },
  planStance: (stance) => ({
    values: [],
    dice: [],
    resolve(facts) {
      const mode = stance as DefenseMode;
      // The same mode again changes nothing: said so, to the sender only (noop).
      const same = (facts.stance ?? 'passive') === mode;
      const title = `${facts.name} ${same ? 'already defends' : 'defends'} ${mode === 'passive' ? 'passively' : mode === 'active' ? 'actively' : 'fully'} by default`;
      return {
        headline: 'acts',
        steps: [],
        card: { title, rows: [{ label: 'Defense mode', lines: [same ? `${mode}, unchanged` : `${facts.stance ?? 'passive'} -> ${mode}`, MODE_EFFECT[mode] ?? ''] }] },
        shortLine: `${title}.`,
        changes: [],
        // Passive is the default: no stance kept, no marker.
        stance: mode === 'passive' ? null : mode,
        ...(same ? { noop: true } : {}),
        observed: false,
        detail: { stance: mode, cost: INITIATIVE_COST[mode] },
      };
    },
  }),
  planHandEdit: handEditPlan,
  setVitality(before, after, state) {
    const lines = [`Vitality ${before} -> ${after}`];
    // A hand edit above 0 is the GM's way to bring back even a token dead for good.
    const dead = state.dead === true && after <= 0;
    return { vitality: after, state: stateAt(after, dead), steps: [], lines, conditionLines: [], now: dead ? 'Dead' : after <= 0 ? 'Vitality at or below 0 (marked incapacitated)' : undefined };
  },
  enter: (vitality, deadForGood) => (deadForGood ? stateOf(false, true) : vitality === null ? {} : stateAt(vitality)),
  endRound: (state) => state,
  // Ruling: at or below 0 shows the incapacitated marker as a visual aid only (the seed has no death rules).
  condition: (state, vitality) => (state.dead ? 'dead' : vitality !== null && vitality <= 0 ? 'incapacitated' : 'none'),
  deadForGood: (state) => state.dead === true,
  parseState: (raw) => {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return null;
    const keys = Object.keys(raw);
    if (keys.length === 0) return {};
    const state = raw as { down?: unknown; dead?: unknown };
    if (!keys.every((key) => key === 'down' || key === 'dead')) return null;
    if ((state.down !== undefined && state.down !== true) || (state.dead !== undefined && state.dead !== true)) return null;
    return stateOf(state.down === true, state.dead === true);
  },
  isEmptyState: (state) => state.down !== true && state.dead !== true,
  describeStateChange: () => 'has changed condition since',
  text: opposedText,
};
