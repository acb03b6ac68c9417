// `!damage --undo [--force]`: put back the most recent damage the caller applied (the GM: anyone's,
// hand edits included). Undo is the recorded changes inverted, after a pure "changed since" check;
// if a touched value changed since, say so and change nothing without --force.
import { hasFlag, RefusalError, UsageError } from '../text/args';
import { reply, type CommandContext } from './context';
import { changedEntries, changedSince, mergeChanges, shiftMerged, type MergedChange } from '../state/changes';
import { readNow } from '../roll20/now';
import { applyUndo } from '../roll20/write';
import { sameData, type Memory } from '../state/memory';
import { attributeOwner, barLink, characterOf, findToken } from '../roll20/read';
import { send, PUBLIC, TO_GM } from '../roll20/send';
import { renderLine } from '../render/card';
import { activeEdition, applyQuietly, memoriesOf } from './pipeline';
import { describeAnswerChange } from './exchange';
import type { Plan } from '../rules/edition';
import { onTable } from './targets';
import type { App } from './context';
import type { StoredChange } from '../state/history';
import type { Settings } from '../state/settings';

export function undoDamage(ctx: CommandContext): void {
  if (!hasFlag(ctx.parsed, 'undo')) throw new UsageError('--force goes with --undo');
  if (hasFlag(ctx.parsed, 'force') && !ctx.gm) throw new RefusalError('--force is the GM\'s: a player\'s undo never overwrites a later change');
  const other = [...ctx.parsed.flags.keys()].find((flag) => flag !== 'undo' && flag !== 'force');
  if (other) throw new UsageError(`--undo takes no other flag (got --${other}): it undoes your last damage, whatever is selected`);
  if (ctx.parsed.positionals.length > 0) throw new UsageError('--undo takes no amount');
  const app = ctx.app;
  const history = app.store.history;
  let index = -1;
  for (let i = history.length - 1; i >= 0; i -= 1) {
    // A save a player made is not hers to take back (a failed paid save would be tried again); the GM's undo can.
    if (ctx.gm || (history[i]!.by === ctx.playerId && history[i]!.kind !== 'save')) {
      index = i;
      break;
    }
  }
  if (index === -1) throw new RefusalError(ctx.gm ? 'there is no damage to undo' : 'you have applied no damage that can be undone');
  const application = history[index]!;
  const edition = activeEdition(app);
  // For a player, a token now on the GM layer is as gone as a deleted one: undo never confirms a hidden token.
  const tokens = new Map(application.tokens.map((entry) => [entry.tokenId, onTable(entry.tokenId, ctx.gm)]));
  const present = application.tokens.filter((entry) => tokens.get(entry.tokenId) !== undefined);
  const gone = application.tokens.filter((entry) => !present.includes(entry)).map((entry) => entry.name);
  // A new round since clears what it clears (a used-up pending defense does not come back).
  // A sheet value only a token gone since changed is still put back through a token of the entry that holds it.
  const adopt = (change: StoredChange) =>
    sheetValue(change) ? present.find((entry) => stillOwned({ place: '', tokenId: entry.tokenId, name: entry.name, change }, app.store.settings)) : undefined;
  const merged = shiftMerged(mergeChanges(application.tokens, (id) => tokens.get(id) !== undefined, adopt), edition, app.store.round.number - application.round).filter((entry) => stillOwned(entry, app.store.settings));
  const context = { settings: app.store.settings, edition, memories: memoriesOf(app) };
  const now = readNow(context, merged);
  const describe = (left: Memory, current: Memory) => {
    // The parts a player can see changed first: a stance, then death for good, then a new defense
    // made ahead, then the edition's own state, then a defense made ahead that is gone.
    if (left.stance !== current.stance) return current.stance === undefined ? 'has dropped its stance since' : `has taken the ${current.stance} stance since`;
    if (left.deadForGood !== current.deadForGood) return 'has died for good since';
    const answer = describeAnswerChange(left, current, sameData);
    if (answer !== undefined && current.answer !== undefined) return answer;
    if (answer !== undefined && sameData(left.edition, current.edition)) return answer;
    const state = (memory: Memory) => (memory.edition?.id === edition.id ? edition.parseState(memory.edition.state) : null) ?? edition.enter(null, false);
    return edition.describeStateChange(state(left), state(current));
  };
  const changed = changedEntries(merged, now, sameData);
  if (changed.length > 0) {
    // commands.md, "Undo, hardened": --force is the GM's; a player never overwrites anyone else's
    // later change, and hears no numbers of tokens they do not control.
    if (!ctx.gm) {
      const names = [...new Set(changed.map((entry) => entry.name))];
      reply(ctx, `Nothing undone: ${names.join(', ')} changed since that damage. Only the GM can undo over later changes: ask the GM.`);
      return;
    }
    if (!hasFlag(ctx.parsed, 'force')) {
      reply(ctx, `Nothing undone: values changed since that damage: ${changedSince(changed, now, sameData, describe).join('; ')}. Use !damage --undo --force to overwrite them.`);
      return;
    }
  }
  applyUndo(context, merged);
  // A forced undo puts back a Vitality someone changed since: the condition is read again from it.
  if (changed.length > 0) settleConditions(app, merged, now);
  history.splice(index, 1);
  const what = application.kind === 'save' ? 'Save undone' : 'Damage undone';
  // Hidden tokens are named to the GM only, never in the public line.
  const hidden = (entry: { tokenId: string }) => tokens.get(entry.tokenId)?.get('layer') === 'gmlayer';
  const seen = present.filter((entry) => !hidden(entry)).map((entry) => entry.name);
  const unseen = present.filter(hidden).map((entry) => entry.name);
  if (seen.length > 0) send(PUBLIC, renderLine(`${what}: ${seen.join(', ')}.`));
  if (unseen.length > 0) send(TO_GM, renderLine(`${what} on hidden token${unseen.length === 1 ? '' : 's'}: ${unseen.join(', ')}.`), { record: true });
  if (gone.length > 0) reply(ctx, `Skipped token${gone.length === 1 ? '' : 's'} no longer on the table: ${gone.join(', ')}.`);
}

/** A value on the character's sheet (a linked bar's attribute, an armor attribute), which every token of that sheet holds. */
function sheetValue(change: StoredChange): boolean {
  return (change.kind === 'bar' && change.attributeId !== undefined) || change.kind === 'attribute';
}

/**
 * commands.md, "Undo, hardened": nothing from `state` is written unchecked. A bar's attribute must
 * still be the one the token's bar is linked to; a worn armor attribute must belong to the token's
 * character; another token named must still be on the table.
 */
function stillOwned({ tokenId, change }: MergedChange, settings: Settings): boolean {
  const token = findToken(tokenId);
  if (!token) return false;
  switch (change.kind) {
    case 'bar':
      return change.attributeId === undefined || barLink(token, change.bar) === change.attributeId;
    case 'attribute': {
      // The token's character's attribute, and the one its value is read from (not another of the sheet's).
      const owner = attributeOwner(change.attributeId);
      return owner !== undefined && owner.characterId === String(token.get('represents') ?? '') && owner.name.toLowerCase() === settings.attributes[change.key].toLowerCase();
    }
    case 'memory':
      return change.tokenId === undefined || findToken(change.tokenId) !== undefined;
    default:
      return true;
  }
}


/** After a forced undo, each token whose Vitality was put back settles its condition from it, as a hand edit would. */
function settleConditions(app: App, merged: readonly MergedChange[], now: ReadonlyMap<string, unknown>): void {
  const edition = activeEdition(app);
  for (const { place, tokenId, change } of merged) {
    if (change.kind !== 'bar' || change.resource !== 'vitality' || change.from === null) continue;
    const before = now.get(place);
    const token = findToken(tokenId);
    if (!token || typeof before !== 'number') continue;
    const putBack = change.from;
    const settle: Plan<unknown> = {
      values: [],
      dice: [],
      resolve: (facts) => ({ headline: 'acts', steps: [], changes: [], state: edition.setVitality(before, putBack, facts.state).state, detail: { undo: true } }),
    };
    applyQuietly(app, [{ token, character: characterOf(token) }], settle);
  }
}
