// `!defense-round macros` (issue: macros made for the table): the docs' macros for the active
// edition, created or refreshed as Roll20 macro objects: the GM's visible to the GM, the players'
// shared with all, token actions where they act on the selection. A macro of the same name the GM
// made by hand is never overwritten (it is named instead); the script knows its own by their ids,
// and removes those of its own the active edition does not use (they would only be refused).
import { macrosNamed, removeMacro, writeMacro } from '../roll20/sandbox';
import type { AnyEdition } from '../rules/edition';
import type { App, CommandContext } from './context';
import { replyResult } from './context';
import { activeEdition } from './pipeline';
import { allEditions } from '../rules/editions';

export function refreshMacros(ctx: CommandContext): void {
  const parts = syncMacros(ctx.app, ctx.playerId);
  replyResult(ctx, `Macros for the ${activeEdition(ctx.app).id} edition: ${parts.join('; ')}. The players' are shared with everyone; token actions show when a token is selected.`);
}

/** Whether a macro the script made is still in the game under its name (an edition switch then keeps them in step). */
export function hasOwnMacros(app: App): boolean {
  return Object.entries(app.store.macros).some(([name, id]) => macrosNamed(name).includes(id));
}

/** Makes, refreshes and removes the script's own macros for the active edition; what it did, clause by clause. */
export function syncMacros(app: App, playerId: string): string[] {
  const edition = activeEdition(app);
  const ours = app.store.macros;
  const made: string[] = [];
  const refreshed: string[] = [];
  const left: string[] = [];
  for (const macro of edition.table.macros) {
    const named = macrosNamed(macro.name);
    const mine = ours[macro.name] !== undefined && named.includes(ours[macro.name]!) ? ours[macro.name] : undefined;
    if (mine === undefined && named.length > 0) {
      left.push(macro.name);
      continue;
    }
    const id = writeMacro(mine, { name: macro.name, action: macro.action, visibleto: macro.gm ? '' : 'all', istokenaction: macro.tokenAction === true, playerid: playerId });
    if (id === undefined) continue;
    ours[macro.name] = id;
    (mine === undefined ? made : refreshed).push(macro.name);
  }
  const removed: string[] = [];
  for (const name of Object.keys(ours)) {
    if (edition.table.macros.some((macro) => macro.name === name)) continue;
    // Forgotten either way: one renamed since is the GM's now.
    if (removeMacro(ours[name]!, name)) removed.push(`${name} (${whyUnused(edition, name)})`);
    delete ours[name];
  }
  return [
    made.length > 0 ? `made ${made.join(', ')}` : '',
    refreshed.length > 0 ? `refreshed ${refreshed.join(', ')}` : '',
    removed.length > 0 ? `removed ${removed.join(', ')}` : '',
    left.length > 0 ? `left ${left.join(', ')} as they are (a macro of that name was made by hand: rename it to get this one)` : '',
  ].filter((part) => part !== '');
}

/** Why the edition has no use for a macro: the refusal its command (as another edition writes it) gets there, in a few words. */
function whyUnused(edition: AnyEdition, name: string): string {
  const command = allEditions().flatMap((other) => other.table.macros).find((macro) => macro.name === name)?.action.split(' ')[0];
  const spec = command === '!defend' ? edition.check : command === '!stance' ? edition.stance : undefined;
  const refused = spec?.refused ?? (spec === edition.stance && edition.stance.modes.length === 0 ? `the ${edition.id} edition has no stances` : undefined);
  return refused?.split(':')[0] ?? `the ${edition.id} edition has no such macro`;
}
