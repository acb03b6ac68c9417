// `!damage --undo [--force]`: put back the most recent damage the caller applied (the GM: anyone's,
// hand edits included). If a touched value changed since, say so and change nothing without --force.
import { hasFlag, UsageError } from './parse';
import { reply, type CommandContext } from './context';
import { captureToken, changedSince, restoreToken } from './history';
import { notifyObservers, type TokenResources } from '../roll20/observers';
import { send, PUBLIC } from '../roll20/send';
import { renderLine } from '../render/card';
import type { TokenValues } from '../state/history';

function resources(values: TokenValues): TokenResources {
  return { ...values.bars, statusmarkers: values.statusmarkers, condition: values.record.life?.condition ?? 'none' };
}

export function undoDamage(ctx: CommandContext): void {
  if (!hasFlag(ctx.parsed, 'undo')) throw new UsageError('--force goes with --undo');
  const other = [...ctx.parsed.flags.keys()].find((flag) => flag !== 'undo' && flag !== 'force');
  if (other) throw new UsageError(`--undo takes no other flag (got --${other}): it undoes your last damage, whatever is selected`);
  if (ctx.parsed.positionals.length > 0) throw new UsageError('--undo takes no amount');
  const history = ctx.app.store.history;
  let index = -1;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    if (ctx.gm || history[i]!.by === ctx.playerId) {
      index = i;
      break;
    }
  }
  if (index === -1) throw new UsageError(ctx.gm ? 'there is no damage to undo' : 'you have applied no damage that can be undone');
  const application = history[index]!;
  const present = application.tokens.map((entry) => ({ entry, token: getObj('graphic', entry.tokenId) }));
  const gone = present.filter(({ token }) => !token).map(({ entry }) => entry.name);
  const now = new Map(present.map(({ entry, token }) => [entry.tokenId, token ? captureToken(ctx.app, token, entry.after.protection) : undefined]));
  const changes = present.flatMap(({ entry }) => {
    const values = now.get(entry.tokenId);
    return values ? changedSince(entry, values) : [];
  });
  if (changes.length > 0 && !hasFlag(ctx.parsed, 'force')) {
    reply(ctx, `Nothing undone: values changed since that damage: ${changes.join('; ')}. Use !damage --undo --force to overwrite them.`);
    return;
  }
  const names: string[] = [];
  for (const { entry, token } of present) {
    if (!token) continue;
    const found = now.get(entry.tokenId)!;
    restoreToken(ctx.app, entry, token, application.round === undefined || application.round === ctx.app.store.round.number);
    const vitalityBar = ctx.app.store.settings.bars.vitality;
    notifyObservers(token, resources(found), resources(captureToken(ctx.app, token, entry.after.protection)), { undo: true }, {
      [`${vitalityBar}_value`]: found.bars.vitality,
      statusmarkers: found.statusmarkers,
    });
    names.push(entry.name);
  }
  history.splice(index, 1);
  if (names.length > 0) send(PUBLIC, renderLine(`Damage undone: ${names.join(', ')}.`));
  if (gone.length > 0) reply(ctx, `Skipped deleted token${gone.length === 1 ? '' : 's'}: ${gone.join(', ')}.`);
}
