// `!heal N [--to BAR]` for every edition (commands.md, "Heal"): capped at the bar's max, no cap
// without one, never lowers a value already above max; the dead are refused. A healed Vitality
// goes through the edition's own `setVitality`, which clears or keeps its conditions.
import { at, placed, SUMMARY, TITLE, type Edition, type Plan, type Resource } from './edition';

/** The healed value: capped at max, never below where it was (a value already above max stays). */
export function healedValue(before: number, amount: number, max: number | null): number {
  if (max === null) return before + amount;
  return Math.max(before, Math.min(before + amount, max));
}

export function planHeal<S, A>(edition: Edition<S, A>, amount: number, resource: Resource): Plan<S, A> {
  return {
    values: [],
    bars: [resource],
    // Capped at the bar's max (commands.md, "Heal").
    maxes: [resource],
    dice: [],
    resolve(facts) {
      const before = facts.bars[resource].value;
      if (before === null) return { kind: 'bar', resource };
      const vitality = facts.bars.vitality.value;
      // Healing Soul or Power does not need a readable Vitality; the stored condition still counts.
      if (edition.life.condition(facts.state, vitality) === 'dead') {
        return { kind: 'refused', nameFirst: true, reason: 'is dead: healing does not bring the dead back (the GM raises Vitality above 0 by hand to revive)' };
      }
      const max = facts.bars[resource].max;
      const after = healedValue(before, amount, max);
      const capped = max !== null && after === max && before + amount > max;
      const set = vitality === null ? undefined : edition.life.setVitality(vitality, resource === 'vitality' ? after : vitality, facts.state);
      const who = facts.id;
      return {
        headline: 'acts',
        ...(after === before ? { noop: true } : {}),
        steps: [
          at(TITLE, { kind: 'heal-title', who, resource, amount: after - before }),
          // Nothing healed (already at its max) says so, on a row of several as on its own card.
          at(SUMMARY, { kind: 'heal-summary', who, healed: after !== before, atMax: max !== null && before >= max }),
          at('Heal', { kind: 'healed', resource, before, after, max, capped }),
          ...(resource === 'vitality' && set ? placed('Heal', set.conditions) : []),
          ...(set?.now ? [at('Now', set.now)] : []),
        ],
        changes: after !== before ? [{ kind: 'bar', resource, to: after }] : [],
        ...(resource === 'vitality' && set ? { state: set.state } : {}),
        ...(resource === 'vitality' && set?.dropsAnswer ? { answer: null } : {}),
        detail: { heal: amount, resource, before, after },
      };
    },
  };
}
