// `!damage --undo [--force]`: put back the most recent damage the caller applied (the GM: anyone's,
// hand edits included). If a touched value changed since, say so and change nothing without --force.
import { checkFlags, hasFlag, UsageError } from './parse';
import { reply, type CommandContext } from './context';
import { changedSince, restoreToken } from './history';
import { notifyObservers, type TokenResources } from '../roll20/observers';
import { send, PUBLIC } from '../roll20/send';
import { renderLine } from '../render/card';
import type { TokenValues } from '../state/history';

function resources(values: TokenValues): TokenResources {
  return { ...values.bars, statusmarkers: values.statusmarkers, condition: values.record.life?.condition ?? 'none' };
}

export function undoDamage(ctx: CommandContext): void {
  checkFlags(ctx.parsed, { undo: { kind: 'switch' }, force: { kind: 'switch' }, help: { kind: 'switch' } }, ctx.app.store.settings.edition);
  if (!hasFlag(ctx.parsed, 'undo')) throw new UsageError('--force goes with --undo');
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
  const changes = present.flatMap(({ entry, token }) => (token ? changedSince(ctx.app, entry, token) : []));
  if (changes.length > 0 && !hasFlag(ctx.parsed, 'force')) {
    reply(ctx, `Nothing undone: values changed since that damage: ${changes.join('; ')}. Use !damage --undo --force to overwrite them.`);
    return;
  }
  const names: string[] = [];
  for (const { entry, token } of present) {
    if (!token) continue;
    restoreToken(ctx.app, entry, token);
    notifyObservers(token, resources(entry.after), resources(entry.before), { undo: true }, {
      statusmarkers: entry.after.statusmarkers,
    });
    names.push(entry.name);
  }
  history.splice(index, 1);
  if (names.length > 0) send(PUBLIC, renderLine(`Damage undone: ${names.join(', ')}.`));
  if (gone.length > 0) reply(ctx, `Skipped deleted token${gone.length === 1 ? '' : 's'}: ${gone.join(', ')}.`);
}
