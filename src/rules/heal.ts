// `!heal N [--to BAR]` for every edition (commands.md, "Heal"): capped at the bar's max, no cap
// without one, never lowers a value already above max; the dead are refused. A healed Vitality
// goes through the edition's own `setVitality`, which clears or keeps its conditions.
import { RESOURCE_LABEL, type Edition, type Plan, type Resource } from './edition';


/** The healed value: capped at max, never below where it was (a value already above max stays). */
export function healedValue(before: number, amount: number, max: number | null): number {
  if (max === null) return before + amount;
  return Math.max(before, Math.min(before + amount, max));
}

export function planHeal<S>(edition: Edition<S>, amount: number, resource: Resource): Plan<S> {
  return {
    values: [],
    dice: [],
    resolve(facts) {
      const before = facts.bars[resource].value;
      if (before === null) return { kind: 'bar', resource };
      const vitality = facts.bars.vitality.value;
      // Healing Soul or Power does not need a readable Vitality; the stored condition still counts.
      if (edition.condition(facts.state, vitality) === 'dead') {
        return { kind: 'refused', nameFirst: true, reason: 'is dead: healing does not bring the dead back (the GM raises Vitality above 0 by hand to revive)' };
      }
      const max = facts.bars[resource].max;
      const after = healedValue(before, amount, max);
      const capped = max === null ? ' (the bar has no max: not capped)' : after === max && before + amount > max ? ` (capped at max ${max})` : '';
      const lines = [`${RESOURCE_LABEL[resource]} ${before} -> ${after}${capped}`];
      const set = vitality === null ? undefined : edition.setVitality(vitality, resource === 'vitality' ? after : vitality, facts.state);
      if (resource === 'vitality' && set) lines.push(...set.conditionLines);
      const now = set?.now;
      return {
        headline: 'acts',
        ...(after === before ? { noop: true } : {}),
        steps: set && resource === 'vitality' ? set.steps : [],
        card: { title: `${facts.name} is healed: ${RESOURCE_LABEL[resource]} +${after - before}`, rows: [{ label: 'Heal', lines }, { label: 'Now', lines: now ? [now] : [] }] },
        // Nothing healed (already at its max) says so, on a row of several as on its own card.
        // A short line carries no number (it is what the table sees of an NPC).
        shortLine: after !== before ? `${facts.name} is healed.` : `${facts.name} is not healed${max !== null && before >= max ? ': already at its max' : ''}.`,
        changes: after !== before ? [{ kind: 'bar', resource, to: after }] : [],
        ...(resource === 'vitality' && set ? { state: set.state } : {}),
        detail: { heal: amount, resource, before, after },
      };
    },
  };
}
