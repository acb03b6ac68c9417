// `!defense-round macros` (issue: macros made for the table): the docs' macros for the active
// edition, created or refreshed as Roll20 macro objects: the GM's visible to the GM, the players'
// shared with all, token actions where they act on the selection. A macro of the same name the GM
// made by hand is never overwritten (it is named instead); the script knows its own by their ids.
import { macrosNamed, writeMacro } from '../roll20/sandbox';
import type { App, CommandContext } from './context';
import { replyResult } from './context';
import { activeEdition } from './pipeline';

export function refreshMacros(ctx: CommandContext): void {
  const app: App = ctx.app;
  const ours = app.store.macros;
  const made: string[] = [];
  const refreshed: string[] = [];
  const left: string[] = [];
  for (const macro of activeEdition(app).table.macros) {
    const named = macrosNamed(macro.name);
    const mine = ours[macro.name] !== undefined && named.includes(ours[macro.name]!) ? ours[macro.name] : undefined;
    if (mine === undefined && named.length > 0) {
      left.push(macro.name);
      continue;
    }
    const id = writeMacro(mine, { name: macro.name, action: macro.action, visibleto: macro.gm ? '' : 'all', istokenaction: macro.tokenAction === true, playerid: ctx.playerId });
    if (id === undefined) continue;
    ours[macro.name] = id;
    (mine === undefined ? made : refreshed).push(macro.name);
  }
  const parts = [
    made.length > 0 ? `made ${made.join(', ')}` : '',
    refreshed.length > 0 ? `refreshed ${refreshed.join(', ')}` : '',
    left.length > 0 ? `left ${left.join(', ')} as they are (a macro of that name was made by hand: rename it to get this one)` : '',
  ].filter((part) => part !== '');
  replyResult(ctx, `Macros for the ${activeEdition(app).id} edition: ${parts.join('; ')}. The players' are shared with everyone; token actions show when a token is selected.`);
}
