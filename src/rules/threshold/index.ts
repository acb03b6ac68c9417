// The `threshold` edition (seed 001, "The Defensive Turn"): a skeleton on the edition seam, not
// yet playable. It holds its flags, its per-token state and the seed's worked example of a hit
// (hit chance against armor, a successful defense taking the armor's Defense off, death at 0);
// situations, defense checks and paid saves come with the edition's own issue.
import * as v from 'valibot';
import type { Edition, Plan, RuleChange, Step } from '../edition';
import { MAX_DAMAGE } from '../values';
import { choiceArg, flagValue, integerArg, optionalInteger, UsageError, type ParsedLine } from '../../text/args';

const ThresholdStateSchema = v.object({
  pendingDefense: v.optional(v.picklist(['success', 'fail'] as const)),
  /** Rounds ended since the token died (rules.md: no more saves after the fourth round). */
  roundsDead: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});
export type ThresholdState = v.InferOutput<typeof ThresholdStateSchema>;

// seed 001: "after 4 rounds you are simply dead".
const SAVE_ROUNDS = 4;

type ThresholdStep =
  | { kind: 'hit-check'; hit: number; armor: number; hits: boolean }
  | { kind: 'armor-defense'; before: number; defense: number; after: number }
  | { kind: 'vitality-change'; before: number; after: number }
  | { kind: 'dead-at-0' };

function text(step: Step): string {
  const s = step as ThresholdStep;
  switch (s.kind) {
    case 'hit-check':
      return s.hits ? `Hit chance ${s.hit} beats armor ${s.armor}: a hit` : `Hit chance ${s.hit} does not beat armor ${s.armor}: no damage`;
    case 'armor-defense':
      return `${s.before} - ${s.defense} Defense = ${s.after}`;
    case 'vitality-change':
      return `Vitality ${s.before} -> ${s.after}`;
    case 'dead-at-0':
      return 'Dead: Vitality at or below 0 (a Vitality Save may bring it back)';
  }
}

function notYet(what: string): never {
  throw new UsageError(`${what} is not built yet in the threshold edition`);
}

function planDamage(line: ParsedLine): Plan<ThresholdState> {
  if (line.positionals.length !== 1) throw new UsageError('one damage amount is needed');
  const amount = integerArg(line.positionals[0]!, 'the damage amount', 0, MAX_DAMAGE);
  const hit = optionalInteger(line, 'hit', -1000, 1000);
  const track = choiceArg(flagValue(line, 'type') ?? 'physical', '--type', ['physical', 'magical'] as const);
  const override = flagValue(line, 'defense');
  const defenseOverride = override === undefined ? null : choiceArg(override, '--defense', ['success', 'fail', 'none'] as const);
  const armorKey = track === 'physical' ? 'armor_physical' : 'armor_magical';
  return {
    values: [armorKey, 'armor_defense'],
    dice: [],
    resolve(facts) {
      const vitality = facts.bars.vitality.value;
      if (vitality === null) return { kind: 'bar', resource: 'vitality' };
      const { pendingDefense, ...rest } = facts.state;
      const steps: ThresholdStep[] = [];
      const armor = Math.max(0, facts.values[armorKey]?.current ?? 0);
      // seed 001: a hit chance at or under the armor does nothing.
      if (hit !== undefined) {
        steps.push({ kind: 'hit-check', hit, armor, hits: hit > armor });
        if (hit <= armor) {
          return { headline: 'missed', steps, card: { title: `${facts.name} is missed`, rows: [{ label: 'Hit', lines: steps.map(text) }] }, shortLine: `${facts.name} is missed.`, changes: [], state: rest, detail: { steps } };
        }
      }
      let damage = amount;
      const defense = defenseOverride ?? pendingDefense ?? 'none';
      if (defense === 'success') {
        // seed 001: on a successful defense check the armor's Defense comes off the damage.
        const reduction = Math.max(0, facts.values.armor_defense?.current ?? 0);
        const after = Math.max(0, damage - reduction);
        steps.push({ kind: 'armor-defense', before: damage, defense: reduction, after });
        damage = after;
      }
      const after = vitality - damage;
      steps.push({ kind: 'vitality-change', before: vitality, after });
      const dies = vitality > 0 && after <= 0;
      if (dies) steps.push({ kind: 'dead-at-0' });
      const changes: RuleChange[] = after !== vitality ? [{ kind: 'bar', resource: 'vitality', to: after }] : [];
      return {
        headline: dies ? 'dies' : damage > 0 ? 'hit' : 'unharmed',
        steps,
        card: { title: `${facts.name} takes ${amount}`, rows: [{ label: 'Breakdown', lines: steps.map(text) }] },
        shortLine: dies ? `${facts.name} is hit and dies.` : `${facts.name} is hit.`,
        changes,
        state: dies ? { ...rest, roundsDead: 0 } : rest,
        detail: { steps },
      };
    },
  };
}

export const threshold: Edition<ThresholdState> = {
  id: 'threshold',
  playable: false,
  flags: {
    damage: { type: { kind: 'one' }, defense: { kind: 'one' }, hit: { kind: 'one' }, situation: { kind: 'one' }, mod: { kind: 'one' } },
    defend: {
      action: { kind: 'one' }, situation: { kind: 'one' }, roll: { kind: 'one' }, mod: { kind: 'one' }, vs: { kind: 'one' },
      ally: { kind: 'one' }, 'perception-roll': { kind: 'one' }, 'perception-mod': { kind: 'one' }, 'react-roll': { kind: 'one' },
      difficulty: { kind: 'one' }, skill: { kind: 'text' },
    },
  },
  stances: [],
  usage: {
    damage: '!damage N [--hit H] [--type physical|magical] [--situation S] [--mod M] [--defense success|fail|none] [--ids ID ...]',
    defend: '!defend --action defend|guard|skill|counter|opportunity|save [--situation S] [--roll R] ...',
    stance: '!stance (no stances in this edition)',
  },
  help: { damage: ['Hit chance against armor; a successful defense takes the armor\'s Defense off.'], defend: [], stance: [] },
  planDamage,
  planDefend: () => notYet('!defend'),
  planStance: () => notYet('!stance'),
  planHandEdit: (loss) => planDamage({ command: '!damage', positionals: [String(loss)], flags: new Map() }),
  setVitality(before, after, state) {
    const steps: ThresholdStep[] = [{ kind: 'vitality-change', before, after }];
    const dies = before > 0 && after <= 0;
    if (dies) steps.push({ kind: 'dead-at-0' });
    const next = after > 0 ? { ...state, roundsDead: undefined } : dies ? { ...state, roundsDead: 0 } : state;
    return { vitality: after, state: next, steps, lines: steps.map(text), conditionLines: steps.slice(1).map(text), now: after <= 0 ? 'Dead' : undefined };
  },
  // rules.md, "Switching editions": at or below 0 a token entering threshold is dead, its window starting now.
  enter: (vitality) => (vitality !== null && vitality <= 0 ? { roundsDead: 0 } : {}),
  endRound: (state) => {
    const { pendingDefense: _ended, ...rest } = state;
    return rest.roundsDead === undefined ? rest : { ...rest, roundsDead: rest.roundsDead + 1 };
  },
  condition: (_state, vitality) => (vitality !== null && vitality <= 0 ? 'dead' : 'none'),
  deadForGood: (state, vitality) => vitality !== null && vitality <= 0 && (state.roundsDead ?? 0) >= SAVE_ROUNDS,
  parseState(raw) {
    const parsed = v.safeParse(ThresholdStateSchema, raw);
    return parsed.success ? parsed.output : null;
  },
  isEmptyState: (state) => Object.values(state).every((value) => value === undefined),
  describeStateChange: (left, now) => (left.pendingDefense !== now.pendingDefense ? 'has a new pending defense' : 'its death rounds changed'),
  text,
};
