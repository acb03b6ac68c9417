// `!damage` and `!stance` of the `opposed` edition as plans: parse, name what to read and roll,
// and resolve one token (Opposed Rolls: opposed d20 rolls, damage = weapon + margin, armor
// against armor penetration deciding Vitality or stamina, initiative paid for active and full
// defenses, the counterattack announced).
import { at, placed, SUMMARY, TITLE, type Facts, type Plan, type PlanContext, type Resolution, type RuleChange, type Step, type ValueKey } from '../edition';
import { choiceArg, flagValue, integerArg, optionalInteger, UsageError, type FlagTable, type ParsedLine } from '../../text/args';
import { DEFENSE_MODES, INITIATIVE_COST, resolveOpposedAttack, type DefenseMode } from './attack';
import { stateAt, type OpposedState } from './state';
import { amountArg, stancePlan } from '../shared';

function vitalityAfter(changes: readonly RuleChange[]): number | undefined {
  for (const change of changes) if (change.kind === 'bar' && change.resource === 'vitality') return change.to;
  return undefined;
}

export const DAMAGE_FLAGS: FlagTable = {
  attack: { kind: 'one' },
  ap: { kind: 'one' },
  // Opposed Rolls: "the opponent can choose" the defense mode, and rolls the defense.
  'defense-mode': { kind: 'one', decides: 'chooses its defense mode (--defense-mode)' },
  'defense-roll': { kind: 'one', decides: 'rolls its defense (--defense-roll)' },
};
export const DAMAGE_USAGE =
  '!damage B --attack A [--ap P] [--defense-mode passive|active|full] [--defense-roll R] [--ids ID ...] (B, A, R: whole numbers or inline rolls); !damage --undo [--force]';
export const STANCE_USAGE = '!stance passive|active|full [--ids ID ...] (no mode: show the selected tokens\' modes)';

const VALUES: readonly ValueKey[] = ['passive_defense', 'active_defense', 'full_defense', 'armor_score'];

interface AttackOrder {
  weapon: number;
  attack: number;
  ap: number;
  mode: DefenseMode | null;
}

function parseAttack(line: ParsedLine): AttackOrder {
  const weapon = amountArg(line, { what: 'the weapon damage', missing: 'no weapon damage given: a number or an inline roll, like !damage [[1d8+2]] --attack 15', example: '[[1d8+2]]' });
  const attackText = flagValue(line, 'attack');
  if (attackText === undefined) throw new UsageError('--attack is required: the attacker\'s result (1d20 + modifiers)');
  const modeText = flagValue(line, 'defense-mode');
  return {
    weapon,
    attack: integerArg(attackText, '--attack', -1000, 1000),
    ap: optionalInteger(line, 'ap', 0, 1000) ?? 0,
    mode: modeText === undefined ? null : choiceArg(modeText, '--defense-mode', DEFENSE_MODES),
  };
}

export function isMode(value: string | null): value is DefenseMode {
  return value !== null && (DEFENSE_MODES as readonly string[]).includes(value);
}

/** A defense value or armor score that is there but not a number refuses the token (Clarifications). */
function unreadable(facts: Facts<OpposedState, never>): ValueKey | undefined {
  return VALUES.find((key) => facts.values[key]?.present === true && facts.values[key]?.current === null);
}

function attackPlan(order: AttackOrder, context: PlanContext): Plan<OpposedState, never> {
  return {
    values: VALUES,
    // A given --defense-roll is used for every target; without it each target rolls its own d20.
    dice: [{ name: 'defense', sides: 20, flag: 'defense-roll' }],
    readsTurnOrder: true,
    resolve(facts, rolls) {
      return resolveAttack(order, context, facts, rolls.defense ?? 1);
    },
  };
}

function resolveAttack(order: AttackOrder, context: PlanContext, facts: Facts<OpposedState, never>, roll: number): Resolution<OpposedState, never> {
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
  let barMoved: Step | undefined;
  if (outcome.damage) {
    const resource = outcome.damage.to === 'vitality' ? 'vitality' : context.stamina;
    const before = facts.bars[resource].value;
    // A token refused for its bar pays nothing (Clarifications).
    if (before === null) return { kind: 'bar', resource };
    const after = before - outcome.damage.amount;
    barMoved = { kind: 'bar-moved', to: outcome.damage.to, before, after } as Step;
    if (after !== before) changes.push({ kind: 'bar', resource, to: after });
  }
  if (outcome.initiativeAfter !== null) changes.push({ kind: 'initiative', to: outcome.initiativeAfter });
  const who = facts.id;
  const falls = outcome.damage?.to === 'vitality' && (facts.bars.vitality.value ?? 1) > 0 && (facts.bars.vitality.value ?? 0) - outcome.damage.amount <= 0;
  return {
    headline: !outcome.hits ? 'missed' : falls ? 'falls' : 'hit',
    steps: [
      at(TITLE, { kind: 'attack-title', who, attack: order.attack, mode: outcome.mode, ...(outcome.damage ? { damage: outcome.damage.amount, to: outcome.damage.to, falls } : { missed: true }) }),
      at(SUMMARY, { kind: 'attack-summary', who, hits: outcome.hits, stamina: outcome.damage?.to === 'stamina', falls, counter: outcome.counterattack }),
      ...placed('Breakdown', barMoved ? [...outcome.steps, barMoved] : outcome.steps),
      ...(falls ? [at('Now', { kind: 'down-now' })] : []),
    ],
    changes,
    state: stateAt(vitalityAfter(changes) ?? facts.bars.vitality.value ?? 1, facts.state.dead === true),
    detail: outcome,
  };
}

/** commands.md, "Hand edits": in opposed the hit is decided; above armor_score it stays on Vitality, otherwise it moves to stamina. */
export function handEditPlan(loss: number, context: PlanContext): Plan<OpposedState, never> {
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


export function parseOpposedDamage(line: ParsedLine, context: PlanContext): Plan<OpposedState, never> {
  return attackPlan(parseAttack(line), context);
}

export function opposedStancePlan(stance: string): Plan<OpposedState, never> {
  return stancePlan(stance, {
    fallback: 'passive',
    row: 'Defense mode',
    title: 'mode-title',
    change: 'mode-change',
    effect: 'mode-effect',
    // Passive is the default: no stance kept, no marker.
    keep: (mode) => (mode === 'passive' ? null : mode),
    detail: (mode) => ({ stance: mode, cost: INITIATIVE_COST[mode as DefenseMode] }),
  });
}
