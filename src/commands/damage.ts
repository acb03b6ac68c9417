// `!damage N ... [--ids ...]`: one hit of N on each target through the active edition's plan
// (commands.md); `!damage --undo [--force]` puts the caller's last damage back.
import { checkFlags, hasFlag, idsArg, type FlagTable } from '../text/args';
import { flagElsewhere } from '../rules/editions';
import type { CommandHandler } from './dispatch';
import type { CommandContext } from './context';
import { undoDamage } from './undo';
import { resolveTargets } from './targets';
import { activeEdition, runPlan } from './pipeline';

/** Flags of `!damage` in every edition. */
const COMMON_FLAGS: FlagTable = { ids: { kind: 'list' }, help: { kind: 'switch' }, undo: { kind: 'switch' }, force: { kind: 'switch' } };

export const damageCommand: CommandHandler = {
  usage: (app) => activeEdition(app).usage.damage,
  help: (app) => activeEdition(app).help.damage,
  run(ctx: CommandContext) {
    if (hasFlag(ctx.parsed, 'undo') || hasFlag(ctx.parsed, 'force')) {
      undoDamage(ctx);
      return;
    }
    const edition = activeEdition(ctx.app);
    checkFlags(ctx.parsed, { ...COMMON_FLAGS, ...edition.flags.damage }, flagElsewhere(edition.id, 'damage'));
    const plan = edition.planDamage(ctx.parsed);
    const anyTarget = ctx.gm || ctx.app.store.settings.playersTargetAny;
    const { targets, notes } = resolveTargets(ctx, idsArg(ctx.parsed), { anyTarget });
    return runPlan(ctx, plan, targets, notes, {
      record: true,
      refusals: (refused) => `Not applied to every target: ${refused.join('; ')}.`,
    });
  },
};
