// `!defend --action A ...`: a defensive check, or an owed Vitality save, for each target in the
// active edition. Rolls are Roll20's own unless given (`--roll`, an inline roll).
import { checkFlags, idsArg, type FlagTable } from '../text/args';
import { flagElsewhere } from '../rules/editions';
import type { CommandHandler } from './dispatch';
import { checkIdFlags, resolveTargets } from './targets';
import { activeEdition, runPlan } from './pipeline';
import { reply } from './context';

const COMMON_FLAGS: FlagTable = { ids: { kind: 'list' }, help: { kind: 'switch' } };

export const defendCommand: CommandHandler = {
  usage: (app) => activeEdition(app).usage.defend,
  help: (app) => activeEdition(app).help.defend,
  run(ctx) {
    const edition = activeEdition(ctx.app);
    if (edition.refuses?.defend) {
      reply(ctx, `!defend is not used: ${edition.refuses.defend}.`);
      return;
    }
    checkFlags(ctx.parsed, { ...COMMON_FLAGS, ...edition.flags.defend }, flagElsewhere(edition.id, 'defend'));
    const plan = edition.planDefend(ctx.parsed);
    checkIdFlags(ctx, ['vs', 'ally', 'aided-by']);
    const { targets, notes } = resolveTargets(ctx, idsArg(ctx.parsed));
    return runPlan(ctx, plan, targets, notes, {
      title: 'Defense',
      refusals: (refused) => `${refused.join('; ')}.`,
    });
  },
};
