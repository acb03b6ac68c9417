// `!heal N [--to vitality|soul|power] [--ids ...]`: restore N to a bar on each target.
import { checkFlags, choiceArg, flagValue, idsArg, type FlagTable } from '../text/args';
import { planHeal } from '../rules/heal';
import { parseAmount } from '../text/flags';
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
    const amount = parseAmount(parsed, { what: 'the amount to heal', missing: 'no amount to heal given' });
    const resource = choiceArg(flagValue(parsed, 'to') ?? 'vitality', '--to', ['vitality', 'soul', 'power'] as const);
    const { targets, notes } = resolveTargets(ctx, idsArg(parsed));
    return runPlan(ctx, planHeal(activeEdition(ctx.app), amount, resource), targets, notes, {
      title: 'Heal',
      refusals: (refused, anyApplied) => `${anyApplied ? 'Not applied to every target' : 'Not applied'}: ${refused.join('; ')}.`,
    });
  },
};
