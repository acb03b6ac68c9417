// `!damage --undo [--entry KEY] [--force]`: put back the most recent damage the caller applied (the
// GM: anyone's, hand edits included), or the one a card's Undo button names. Undo is the recorded changes inverted, after a pure "changed since" check;
// if a touched value changed since, say so and change nothing without --force.
import { checkFlags, echo, flagValue, hasFlag, RefusalError, UsageError, type FlagTable } from '../text/args';
import { refuse, reply, type CommandContext } from './context';
import { changedEntries, changedSince, mergeChanges, shiftMerged, type MergedChange } from '../state/changes';
import { readNow } from '../roll20/now';
import { applyUndo } from '../roll20/write';
import { removeEntry, undoCommand } from './history';
import { visibilityOf } from './present';
import { sameData, type Memory } from '../state/memory';
import { attributeOwner, barLink, characterOf, findToken, tokenName } from '../roll20/read';
import { isNpc } from '../roll20/players';
import { hiddenFromPlayers } from '../roll20/visible';
import { nameList, shortList } from './refusals';
import { RESOURCE_LABEL } from '../rules/edition';
import { send, PUBLIC, TO_GM } from '../roll20/send';
import { renderLine } from '../render/card';
import { activeEdition, applyQuietly, senderMaySee, writeContext } from './pipeline';
import type { Plan } from '../rules/edition';
import { onTable } from './targets';
import { cutWhole } from '../text/cut';
import type { App } from './context';
import type { Application, StoredChange } from '../state/history';
import type { Settings } from '../state/settings';

/** The flags `--undo` takes: a card's key, and the GM's overwrite. */
const UNDO_FLAGS: FlagTable = { undo: { kind: 'switch' }, force: { kind: 'switch' }, entry: { kind: 'one' }, help: { kind: 'switch' } };

/** Whether this sender may take the entry back: the GM any; a player her own, but not a save (a failed paid save would be tried again). */
function mayUndo(ctx: CommandContext, entry: Application): boolean {
  return ctx.gm || (entry.by === ctx.playerId && entry.kind !== 'save');
}

/** The entry to undo: the one a card's button names (`--entry U12`), else the sender's latest. */
function entryToUndo(ctx: CommandContext): number {
  const history = ctx.app.store.history;
  const wanted = flagValue(ctx.parsed, 'entry');
  if (wanted !== undefined) {
    const key = wanted.toUpperCase();
    let index = -1;
    for (let i = history.length - 1; i >= 0 && index === -1; i -= 1) if (history[i]!.key === key) index = i;
    if (index === -1) throw new RefusalError(`that damage (${echo(wanted, 12)}) is no longer in the undo history: it was undone already, or later ones pushed it out`);
    if (!mayUndo(ctx, history[index]!)) throw new RefusalError(history[index]!.kind === 'save' && history[index]!.by === ctx.playerId ? 'a save you made is the GM\'s to undo' : 'that damage is its sender\'s or the GM\'s to undo');
    return index;
  }
  for (let i = history.length - 1; i >= 0; i -= 1) if (mayUndo(ctx, history[i]!)) return i;
  throw new RefusalError(ctx.gm ? 'there is no damage to undo' : 'you have applied no damage that can be undone');
}

export function undoDamage(ctx: CommandContext): void {
  if (!hasFlag(ctx.parsed, 'undo')) throw new UsageError(`--${hasFlag(ctx.parsed, 'entry') ? 'entry' : 'force'} goes with --undo`);
  if (hasFlag(ctx.parsed, 'force') && !ctx.gm) throw new RefusalError('--force is the GM\'s: a player\'s undo never overwrites a later change');
  const other = [...ctx.parsed.flags.keys()].find((flag) => !Object.prototype.hasOwnProperty.call(UNDO_FLAGS, flag));
  if (other) throw new UsageError(`--undo takes no --${echo(other, 20)}: it undoes your last damage (or its card's, with --entry), whatever is selected`);
  checkFlags(ctx.parsed, UNDO_FLAGS);
  if (ctx.parsed.positionals.length > 0) throw new UsageError('--undo takes no amount');
  const app = ctx.app;
  const history = app.store.history;
  const index = entryToUndo(ctx);
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
  // Each token on the table is named as the table shows it now, not as the entry kept it (a secret renamed since): once each.
  const names = new Map<string, string>();
  for (const [id, token] of tokens) if (token) names.set(id, nameNow(token));
  for (const entry of merged) entry.name = names.get(entry.tokenId) ?? entry.name;
  const context = writeContext(app);
  const now = readNow(context, merged);
  const describe = (left: Memory, current: Memory) => {
    // The parts a player can see changed first: a stance, then death for good, then the edition's own state.
    if (left.stance !== current.stance) return current.stance === undefined ? 'has dropped its stance since' : `has taken the ${current.stance} stance since`;
    if (left.deadForGood !== current.deadForGood) return 'has died for good since';
    const state = (memory: Memory) => (memory.edition?.id === edition.id ? edition.life.parseState(memory.edition.state) : null) ?? edition.life.enter(null, false);
    return edition.life.describeStateChange(state(left), state(current));
  };
  const changed = changedEntries(merged, now, sameData);
  if (changed.length > 0) {
    // commands.md, "Undo, hardened": --force is the GM's; a player never overwrites anyone else's
    // later change, and hears no numbers of tokens they do not control.
    if (!ctx.gm) {
      // What changed, for the tokens she may read; the others only by name.
      const readable = changed.filter((entry) => {
        const token = tokens.get(entry.tokenId);
        return token !== undefined && senderMaySee(ctx, seenAs(token));
      });
      const names = [...new Set(changed.filter((entry) => !readable.includes(entry)).map((entry) => entry.name))];
      const said = [...changedSince(readable, now, sameData, describe), ...(names.length > 0 ? [`${nameList(names)} changed`] : [])];
      refuse(ctx, `Nothing undone, changed since: ${said.join('; ')}. Only the GM can undo over later changes`);
      return;
    }
    if (!hasFlag(ctx.parsed, 'force')) {
      refuse(ctx, `Nothing undone, changed since: ${changedSince(changed, now, sameData, describe).join('; ')}`, [{ label: 'Undo anyway', command: `${undoCommand(application.key)} --force` }]);
      return;
    }
  }
  applyUndo(context, merged);
  // A forced undo puts back a Vitality someone changed since: the condition is read again from it.
  if (changed.length > 0) settleConditions(app, merged, now);
  removeEntry(app, index);
  sayUndone(ctx, application, merged, now, tokens, names);
  // The entry's names are the GM's to read: a player hears only how many (a name kept then may be a secret now).
  if (gone.length > 0) reply(ctx, ctx.gm ? `Skipped token${gone.length === 1 ? '' : 's'} no longer on the table: ${nameList(gone)}.` : `Skipped ${gone.length} token${gone.length === 1 ? '' : 's'} no longer on the table.`);
}

/**
 * What an undone change put back, for the "undone" line: a bar, the initiative, worn armor (its
 * name and the number it is again); undefined where there is no number to say (a generic token's
 * first wear goes back to reading the sheet).
 */
function cameBack(change: StoredChange): { label: string; to: number } | undefined {
  switch (change.kind) {
    case 'bar':
      return change.from === null ? undefined : { label: RESOURCE_LABEL[change.resource], to: change.from };
    case 'initiative':
      return { label: 'Initiative', to: change.from };
    case 'worn':
      return change.from === null ? undefined : { label: change.track === 'physical' ? 'Physical' : 'Magical', to: change.from };
    case 'attribute':
      if (change.from === null || (change.key !== 'armor_physical' && change.key !== 'armor_magical')) return undefined;
      return { label: change.key === 'armor_physical' ? 'Physical' : 'Magical', to: change.from };
    default:
      return undefined;
  }
}

/** A token's name as the table shows it now (its character's for a token with none, as cards name it), at most 200 characters. */
function nameNow(token: Roll20Graphic): string {
  return cutWhole(tokenName(token, String(characterOf(token)?.get('name') ?? '') || 'an unnamed token'), 200);
}

/** The token as the visibility rules read it (who controls it, whether it is hidden), for `senderMaySee`. */
function seenAs(token: Roll20Graphic): { token: Roll20Graphic; character: Roll20Character | undefined; npc: boolean; hidden: boolean } {
  const character = characterOf(token);
  return { token, character, npc: isNpc(token, character), hidden: hiddenFromPlayers(token) };
}

/**
 * What came back, said once per audience: the public line names every token players can see, with
 * the bars that came back where its numbers are public; the GM's line holds the rest (NPCs, hidden).
 */
function sayUndone(ctx: CommandContext, application: Application, merged: readonly MergedChange[], now: ReadonlyMap<string, unknown>, tokens: ReadonlyMap<string, Roll20Graphic | undefined>, names: ReadonlyMap<string, string>): void {
  const what = application.kind === 'save' ? 'Save undone' : 'Damage undone';
  const back = new Map<string, string[]>();
  for (const { place, tokenId, change } of merged) {
    const back1 = cameBack(change);
    if (back1 === undefined) continue;
    const before = now.get(place);
    // A value that is what the undo puts back (a hand edit read through armor set the bar back to 70) is not said.
    if (before === back1.to) continue;
    const lines = back.get(tokenId) ?? [];
    if (!back.has(tokenId)) back.set(tokenId, lines);
    const said = `${back1.label} ${typeof before === 'number' ? before : '?'} -> ${back1.to}`;
    if (!lines.includes(said)) lines.push(said);
  }
  const publicParts: string[] = [];
  const gmParts: string[] = [];
  for (const entry of application.tokens) {
    const token = tokens.get(entry.tokenId);
    if (!token) continue;
    const numbers = (back.get(entry.tokenId) ?? []).join(', ');
    // The name players see on the table now: the one kept at hit time may be a secret renamed since.
    const name = names.get(entry.tokenId) ?? entry.name;
    const withNumbers = numbers ? `${name} (${numbers})` : name;
    const seen = seenAs(token);
    // Numbers in the public line where the token's breakdowns are public (never a hidden token's).
    const inPublic = visibilityOf(ctx.app, seen) === 'public';
    if (!seen.hidden) publicParts.push(inPublic ? withNumbers : name);
    if (seen.hidden || (!inPublic && numbers)) gmParts.push(seen.hidden ? `${withNumbers} (hidden)` : withNumbers);
  }
  if (publicParts.length > 0) send(PUBLIC, renderLine(`${what}: ${shortList(publicParts, 8)}.`));
  if (gmParts.length > 0) send(TO_GM, renderLine(`${what} (GM): ${shortList(gmParts, 8)}.`), { record: true });
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
    case 'answer': {
      // Another token named must be on the table; a character's memory, still the one its token represents.
      const owner = change.tokenId === undefined ? token : findToken(change.tokenId);
      return owner !== undefined && (change.kind === 'answer' || change.character === undefined || owner.get('represents') === change.character);
    }
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
      resolve: (facts) => ({ headline: 'acts', steps: [], changes: [], state: edition.life.setVitality(before, putBack, facts.state).state, detail: { undo: true } }),
    };
    applyQuietly(app, [{ token, character: characterOf(token) }], settle);
  }
}
