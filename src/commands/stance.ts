// `!stance MODE [--ids ...]`: set the targets' stance in the active edition; with no mode, show it.
import { RefusalError, UsageError, checkFlags, idsArg, type FlagTable, echo } from '../text/args';
import { readToken } from '../roll20/read';
import { reply } from './context';
import type { CommandHandler } from './dispatch';
import { resolveTargets } from './targets';
import { activeEdition, runPlan } from './pipeline';
import { stancePlan } from '../rules/stance';

const FLAGS: FlagTable = { ids: { kind: 'list' }, help: { kind: 'switch' } };

export const stanceCommand: CommandHandler = {
  usage: (app) => activeEdition(app).stance.usage,
  help: (app) => activeEdition(app).stance.help,
  run(ctx) {
    const edition = activeEdition(ctx.app);
    if (edition.stance.modes.length === 0) throw new RefusalError(`the ${edition.id} edition has no stances`);
    checkFlags(ctx.parsed, FLAGS);
    const [word, ...extra] = ctx.parsed.positionals;
    if (extra.length > 0) throw new UsageError(`one stance only (got "${echo(ctx.parsed.positionals.join(' '))}")`);
    const stance = word?.toLowerCase();
    if (stance !== undefined && !edition.stance.modes.includes(stance)) {
      throw new UsageError(`unknown stance "${echo(String(word))}" (stances: ${edition.stance.modes.join(', ')})`);
    }
    // No mode: the usage, with the targets' stances when there are targets (commands.md).
    const nothingTargeted = (ctx.msg.selected ?? []).length === 0 && idsArg(ctx.parsed) === undefined;
    if (stance === undefined && nothingTargeted) throw new UsageError(`no stance given: !stance ${edition.stance.modes.join('|')}`);
    const { targets, notes } = resolveTargets(ctx, idsArg(ctx.parsed));
    if (stance === undefined) {
      const settings = ctx.app.store.settings;
      const fallback = edition.stance.default;
      const lines = targets.map(({ token, character }) => {
        const read = readToken(token, character, settings);
        return `${read.name}: ${ctx.app.store.tokens[read.home]?.stance ?? fallback}`;
      });
      reply(ctx, `Stances: ${lines.join('; ')}.${notes.length ? ` (${notes.join('; ')})` : ''} To change one: !stance ${edition.stance.modes.join('|')}`);
      return;
    }
    return runPlan(ctx, stancePlan(edition.stance, stance), targets, notes, { title: 'Stance', refusals: (refused) => `${refused.join('; ')}.` });
  },
};
