// `!defend --action A ...`: a defensive check, or an owed Vitality save, for each target in the
// active edition. Rolls are Roll20's own unless given (`--roll`, an inline roll).
import { idsArg } from '../text/args';
import { flagHelp, type TypedFlagTable } from '../text/flags';
import { flagElsewhere } from '../rules/editions';
import { flagsOf, orderOf } from './orders';
import type { CommandHandler } from './dispatch';
import { checkIdFlags, idFlagsAsOriginals, resolveTargets } from './targets';
import { activeEdition, runPlan } from './pipeline';
import { refuse } from './context';
import { tidyRefusals } from './refusals';
import { answerAttack } from './exchange';
import { tokenName } from '../roll20/read';

const COMMON_FLAGS: TypedFlagTable = { ids: { kind: 'list' }, help: { kind: 'switch' } };

/** The answer to an open attack (commands.md, "!attack"), as its prompt's buttons send it. */
function answerUsage(app: Parameters<CommandHandler['usage']>[0]): string {
  const { answers } = activeEdition(app).check;
  return `!defend --answer KEY --ids DEFENDER --${answers.answerFlag} ${[...answers.choices, ...(answers.announced ?? [])].join('|')} [--${answers.rollFlag} R]`;
}

export const defendCommand: CommandHandler = {
  usage: (app) => `${activeEdition(app).check.usage}; ${answerUsage(app)}`,
  help: (app) => [...activeEdition(app).check.help, 'With --answer: one defender\'s answer to an open attack (its prompt\'s buttons send it; the GM may answer for anyone), checked as !defend would check it in the attack\'s situation.'],
  flags: (app) => (activeEdition(app).check.refused ? [] : flagHelp(activeEdition(app).check.flags)),
  run(ctx) {
    // An answer to an open attack (commands.md, "!attack").
    if (ctx.parsed.flags.has('answer')) return answerAttack(ctx);
    const edition = activeEdition(ctx.app);
    const spec = edition.check;
    if (spec.refused) {
      refuse(ctx, `!defend is not used: ${spec.refused}`);
      return;
    }
    const table = flagsOf(edition, '!defend', COMMON_FLAGS, spec.flags);
    // Flags that name another token (the edition marks them): a Bump stand-in names its original; each must be a token on the table.
    const idFlags = Object.keys(spec.flags).filter((flag) => spec.flags[flag]!.kind === 'token');
    idFlagsAsOriginals(ctx, idFlags);
    const plan = edition.check.plan(orderOf(ctx.parsed, table, undefined, flagElsewhere(edition.id, '!defend')));
    checkIdFlags(ctx, idFlags);
    const found = resolveTargets(ctx, idsArg(ctx.parsed));
    const notes = [...found.notes];
    // A token does not react to, guard, or get aid from itself: that target is refused, naming the flag.
    const named = idFlags.map((flag) => ({ flag, id: (ctx.parsed.flags.get(flag) ?? []).join(' ') })).filter(({ id }) => id !== '');
    const targets = found.targets.filter(({ token }) => {
      const self = named.find(({ id }) => id === token.id);
      if (self) notes.push(`${tokenName(token, 'a token')}: --${self.flag} names the token itself`);
      return self === undefined;
    });
    if (targets.length === 0) {
      refuse(ctx, tidyRefusals(notes).join('; '));
      return;
    }
    return runPlan(ctx, plan, targets, notes, {
      title: 'Defense',
      refusals: (refused) => `${refused.join('; ')}.`,
    });
  },
};
