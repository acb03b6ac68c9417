// `!damage N ... [--ids ...]`: one hit of N on each target through the active edition's plan
// (commands.md); `!damage --undo [--force]` puts the caller's last damage back.
import { hasFlag, idsArg } from '../text/args';
import { flagHelp, type TypedFlagTable } from '../text/flags';
import { flagElsewhere } from '../rules/editions';
import { flagsOf, orderOf } from './orders';
import type { CommandHandler } from './dispatch';
import { refuse, type CommandContext } from './context';
import { undoDamage } from './undo';
import { resolveTargets } from './targets';
import { activeEdition, planContext, runPlan, type RunOptions } from './pipeline';
import { controls } from '../roll20/players';
import { tokenName } from '../roll20/read';
import { nameList } from './refusals';

/** Flags of `!damage` in every edition. */
const COMMON_FLAGS: TypedFlagTable = { ids: { kind: 'list' }, help: { kind: 'switch' }, undo: { kind: 'switch' }, force: { kind: 'switch' } };


/** How a hit runs through the pipeline (the same for every hit but whether it may touch any token). */
const refusals = (refused: string[], anyApplied: boolean): string => `${anyApplied ? 'Not applied to every target' : 'Not applied'}: ${refused.join('; ')}.`;
const ANY_TARGET_RUN: RunOptions = { title: 'Damage', anyTarget: true, record: true, refusals };
const OWN_TARGET_RUN: RunOptions = { title: 'Damage', anyTarget: false, record: true, refusals };

export const damageCommand: CommandHandler = {
  usage: (app) => activeEdition(app).hit.usage,
  help: (app) => activeEdition(app).hit.help,
  flags: (app) => flagHelp(activeEdition(app).hit.flags),
  helpFor: (_app, parsed) =>
    hasFlag(parsed, 'undo') || hasFlag(parsed, 'force') || hasFlag(parsed, 'entry')
      ? {
          title: '!damage --undo',
          usage: '!damage --undo [--entry KEY] [--force]',
          what: [
            'Puts back the last damage you applied (the GM: anyone\'s), for all its targets: bars, worn armor, markers, conditions and what it used up.',
            'Every damage card has an Undo button: it sends --entry with that card\'s key, to put back that damage whatever came after.',
            'If a value changed since, nothing is undone and you are told what; --force overwrites it.',
          ],
        }
      : undefined,
  run(ctx: CommandContext) {
    if (ctx.parsed.flags.size > 0 && (hasFlag(ctx.parsed, 'undo') || hasFlag(ctx.parsed, 'force') || hasFlag(ctx.parsed, 'entry'))) {
      undoDamage(ctx);
      return;
    }
    const edition = activeEdition(ctx.app);
    const flags = edition.hit.flags;
    const order = orderOf(ctx.parsed, flagsOf(edition, '!damage', COMMON_FLAGS, flags), edition.hit.amount, flagElsewhere(edition.id, '!damage'));
    const plan = edition.hit.plan(order, planContext(ctx.app, ctx.gm));
    const anyTarget = ctx.gm || ctx.app.store.settings.playersTargetAny;
    const found = resolveTargets(ctx, idsArg(ctx.parsed), { anyTarget });
    let { targets } = found;
    const notes = found.notes; // this command's own list
    // A target's defense is its side's to decide: only the GM or the defender's controller gives a
    // flag the edition marks as the defender's (a player hitting an NPC must not erase its success).
    // (Only looked for when a flag was given at all.)
    const chooser = ctx.parsed.flags.size === 0 ? undefined : Object.keys(flags).find((flag) => flags[flag]!.decides !== undefined && hasFlag(ctx.parsed, flag));
    if (chooser !== undefined && !ctx.gm) {
      const what = flags[chooser]!.decides!;
      const chooses = targets.filter(({ token, character }) => controls(ctx.playerId, token, character));
      // One reason for all of them, said once before their names.
      const others = targets.filter((target) => !chooses.includes(target)).map(({ token }) => tokenName(token, 'a token'));
      if (others.length > 0) notes.push(`${nameList(others)}: only the GM or its controller ${what}`);
      targets = chooses;
      if (targets.length === 0) {
        refuse(ctx, `Not applied: ${notes.join('; ')}`);
        return;
      }
    }
    return runPlan(ctx, plan, targets, notes, anyTarget ? ANY_TARGET_RUN : OWN_TARGET_RUN);
  },
};
