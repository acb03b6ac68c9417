// `!heal N [--to vitality|soul|power] [--ids ...]`: restore N to a bar on each target.
import { checkFlags, choiceArg, flagValue, idsArg, integerArg, UsageError, type FlagTable, echo } from '../text/args';
import { planHeal } from '../rules/heal';
import { MAX_DAMAGE } from '../rules/values';
import type { CommandHandler } from './dispatch';
import { resolveTargets } from './targets';
import { activeEdition, runPlan } from './pipeline';

const USAGE = '!heal N [--to vitality|soul|power] [--ids ID ...] (N: a whole number 0-1000000 or an inline roll)';
const FLAGS: FlagTable = { to: { kind: 'one' }, ids: { kind: 'list' }, help: { kind: 'switch' } };

export const healCommand: CommandHandler = {
  usage: () => USAGE,
  run(ctx) {
    const parsed = ctx.parsed;
    checkFlags(parsed, FLAGS);
    if (parsed.positionals.length === 0) throw new UsageError('no amount to heal given');
    if (parsed.positionals.length > 1) throw new UsageError(`one amount only (got "${echo(parsed.positionals.join(' '))}")`);
    const amount = integerArg(parsed.positionals[0]!, 'the amount to heal', 0, MAX_DAMAGE);
    const resource = choiceArg(flagValue(parsed, 'to') ?? 'vitality', '--to', ['vitality', 'soul', 'power'] as const);
    const { targets, notes } = resolveTargets(ctx, idsArg(parsed));
    return runPlan(ctx, planHeal(activeEdition(ctx.app), amount, resource), targets, notes, {
      title: 'Heal',
      refusals: (refused, anyApplied) => `${anyApplied ? 'Not applied to every target' : 'Not applied'}: ${refused.join('; ')}.`,
    });
  },
};
