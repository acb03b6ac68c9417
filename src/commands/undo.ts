// `!damage --undo [--force]`: put back the most recent damage the caller applied (the GM: anyone's,
// hand edits included). Undo is the recorded changes inverted, after a pure "changed since" check;
// if a touched value changed since, say so and change nothing without --force.
import { hasFlag, RefusalError, UsageError } from '../text/args';
import { reply, type CommandContext } from './context';
import { changedSince, mergeChanges, shiftMerged } from '../state/changes';
import { readNow, restore } from '../roll20/restore';
import { sameData } from '../roll20/write';
import { send, PUBLIC } from '../roll20/send';
import { renderLine } from '../render/card';
import { activeEdition } from './pipeline';
import type { Memory } from '../state/tokens';

export function undoDamage(ctx: CommandContext): void {
  if (!hasFlag(ctx.parsed, 'undo')) throw new UsageError('--force goes with --undo');
  const other = [...ctx.parsed.flags.keys()].find((flag) => flag !== 'undo' && flag !== 'force');
  if (other) throw new UsageError(`--undo takes no other flag (got --${other}): it undoes your last damage, whatever is selected`);
  if (ctx.parsed.positionals.length > 0) throw new UsageError('--undo takes no amount');
  const app = ctx.app;
  const history = app.store.history;
  let index = -1;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    if (ctx.gm || history[i]!.by === ctx.playerId) {
      index = i;
      break;
    }
  }
  if (index === -1) throw new RefusalError(ctx.gm ? 'there is no damage to undo' : 'you have applied no damage that can be undone');
  const application = history[index]!;
  const edition = activeEdition(app);
  const present = application.tokens.filter((entry) => getObj('graphic', entry.tokenId) !== undefined);
  const gone = application.tokens.filter((entry) => !present.includes(entry)).map((entry) => entry.name);
  // A new round since clears what it clears (a used-up pending defense does not come back).
  const merged = shiftMerged(mergeChanges(present), edition, app.store.round.number - application.round);
  const context = { settings: app.store.settings, edition, tokens: app.store.tokens };
  const now = readNow(context, merged);
  const describe = (left: Memory, current: Memory) => {
    const state = (memory: Memory) => (memory.edition?.id === edition.id ? edition.parseState(memory.edition.state) : null) ?? edition.enter(null, false);
    return edition.describeStateChange(state(left), state(current));
  };
  const changes = changedSince(merged, now, sameData, describe);
  if (changes.length > 0 && !hasFlag(ctx.parsed, 'force')) {
    reply(ctx, `Nothing undone: values changed since that damage: ${changes.join('; ')}. Use !damage --undo --force to overwrite them.`);
    return;
  }
  restore(context, merged, now);
  history.splice(index, 1);
  const what = application.kind === 'save' ? 'Save undone' : 'Damage undone';
  if (present.length > 0) send(PUBLIC, renderLine(`${what}: ${present.map((entry) => entry.name).join(', ')}.`));
  if (gone.length > 0) reply(ctx, `Skipped deleted token${gone.length === 1 ? '' : 's'}: ${gone.join(', ')}.`);
}
