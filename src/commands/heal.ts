// `!heal N [--to vitality|soul|power] [--ids ...]`: restore N to a bar, capped at its max
// (commands.md, "Clarifications": dead tokens are refused; no max means no cap; never lowers).
import { applyHandEdit } from '../rules/soak/life';
import { readToken, type Resource } from '../roll20/read';
import { writeBar } from '../roll20/write';
import { notifyObservers } from '../roll20/observers';
import { describeDamageStep } from '../render/damageSteps';
import { lifeLine } from '../render/damageCard';
import { checkFlags, choiceArg, flagValue, idsArg, integerArg, UsageError, type FlagSpec } from './parse';
import { peekRecord, reply, type CommandContext } from './context';
import type { CommandHandler } from './dispatch';
import { deliver } from './deliver';
import { resolveTargets } from './targets';
import { barProblem } from './barProblem';
import { commitLife, currentLife, resourcesOf } from './tokenLife';
import { MAX_DAMAGE } from './damage';

const USAGE = '!heal N [--to vitality|soul|power] [--ids ID ...] (N: a whole number 0-1000000 or an inline roll)';
const FLAGS: Record<string, FlagSpec> = { to: { kind: 'one' }, ids: { kind: 'list' }, help: { kind: 'switch' } };
const LABEL: Record<Resource, string> = { vitality: 'Vitality', soul: 'Soul', power: 'Power' };

/** The healed value: capped at max, never below where it was (a value already above max stays). */
export function healedValue(before: number, amount: number, max: number | null): number {
  if (max === null) return before + amount;
  return Math.max(before, Math.min(before + amount, max));
}

export const healCommand: CommandHandler = {
  usage: USAGE,
  run(ctx: CommandContext) {
    const parsed = ctx.parsed;
    const settings = ctx.app.store.settings;
    checkFlags(parsed, FLAGS, settings.edition);
    if (parsed.positionals.length === 0) throw new UsageError('no amount to heal given');
    if (parsed.positionals.length > 1) throw new UsageError(`one amount only (got "${parsed.positionals.join(' ')}")`);
    const amount = integerArg(parsed.positionals[0]!, 'the amount to heal', 0, MAX_DAMAGE);
    const resource = choiceArg(flagValue(parsed, 'to') ?? 'vitality', '--to', ['vitality', 'soul', 'power'] as const);
    const { targets, notes } = resolveTargets(ctx, idsArg(parsed));
    const refused = [...notes];
    for (const { token, character } of targets) {
      const snapshot = readToken(token, character, settings);
      const problem = barProblem(snapshot, resource);
      const vitality = snapshot.bars.vitality.value;
      const before = snapshot.bars[resource].value;
      if (problem || before === null) {
        refused.push(problem ?? `${snapshot.name}: not a number`);
        continue;
      }
      // Healing Soul or Power does not need a readable Vitality; the stored condition still counts.
      const lifeBefore =
        vitality === null ? (peekRecord(ctx.app, snapshot.id)?.life ?? { condition: 'none' as const, savesOwed: 0 }) : currentLife(ctx.app, snapshot.id, vitality);
      if (lifeBefore.condition === 'dead') {
        refused.push(`${snapshot.name} is dead: healing does not bring the dead back (the GM raises Vitality above 0 by hand to revive)`);
        continue;
      }
      const max = snapshot.bars[resource].max;
      const after = healedValue(before, amount, max);
      const lines = [`${LABEL[resource]} ${before} -> ${after}${max === null ? ' (the bar has no max: not capped)' : after === max && before + amount > max ? ` (capped at max ${max})` : ''}`];
      let markers = snapshot.statusmarkers;
      let life = lifeBefore;
      if (after !== before) writeBar(snapshot, resource, after);
      if (resource === 'vitality') {
        const result = applyHandEdit(before, after, lifeBefore);
        life = result.life;
        lines.push(...result.steps.filter((step) => step.kind !== 'vitality-change').map(describeDamageStep));
        markers = commitLife(ctx.app, snapshot, life);
      }
      notifyObservers(
        token,
        resourcesOf(snapshot, lifeBefore.condition, snapshot.statusmarkers),
        { ...resourcesOf(snapshot, life.condition, markers), [resource]: after },
        { heal: amount, resource, before, after },
        { [`${snapshot.bars[resource].bar}_value`]: snapshot.bars[resource].raw, statusmarkers: snapshot.statusmarkers },
      );
      const now = lifeLine(life);
      deliver(settings, snapshot, {
        card: { title: `${snapshot.name} is healed: ${LABEL[resource]} +${after - before}`, rows: [{ label: 'Heal', lines }, { label: 'Now', lines: now ? [now] : [] }] },
        shortLine: `${snapshot.name} is healed.`,
      });
    }
    if (refused.length > 0) reply(ctx, `Not applied to every target: ${refused.join('; ')}.`);
  },
};
