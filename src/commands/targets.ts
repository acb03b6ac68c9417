// Which tokens a command acts on, and which of those the sender may touch (commands.md,
// "Targets and permissions").
import { characterOf, findToken, tokenName } from '../roll20/read';
import { controls } from '../roll20/players';
import { hiddenFromPlayers, originalOf } from '../roll20/visible';
import { RefusalError, UsageError } from '../text/args';
import type { CommandContext } from './context';
import { nameList, shortList, tidyRefusals } from './refusals';
import { cutWhole } from '../text/cut';

export interface Target {
  token: Roll20Graphic;
  character: Roll20Character | undefined;
}

export interface Targets {
  targets: Target[];
  /** Said back to the sender: ignored selections, unknown ids, tokens they do not control. */
  notes: string[];
}

/** Graphics are tokens or cards; only cards are not targets. */
export function isCard(graphic: Roll20Graphic): boolean {
  return graphic.get('_subtype') === 'card';
}

/**
 * The selected tokens, or the tokens named by `--ids`. Refuses (UsageError) when none is left to
 * act on at all; otherwise names each refused one in `notes`.
 */
export function resolveTargets(ctx: CommandContext, ids: string[] | undefined, options: { anyTarget?: boolean } = {}): Targets {
  const notes: string[] = [];
  const seen = new Set<string>();
  const found: Roll20Graphic[] = [];
  const take = (picked: Roll20Graphic) => {
    // A hit on a Bump stand-in is a hit on the token it stands for.
    const token = originalOf(picked);
    if (!seen.has(token.id)) {
      seen.add(token.id);
      found.push(token);
    }
  };
  if (ids !== undefined) {
    if (ids.length === 0) throw new UsageError('--ids needs at least one token id');
    const unknown: string[] = [];
    for (const id of ids) {
      const token = onTable(id, ctx.gm);
      if (!token) unknown.push(shortId(id));
      else take(token);
    }
    // One note for every unknown id, the list cut short: 5,000 bogus ids are not 5,000 lines.
    if (unknown.length === 1) notes.push(`--ids: no token on the table has the id "${unknown[0]}"`);
    else if (unknown.length > 1) notes.push(`--ids: no token on the table has the ids ${shortList(unknown.map((id) => `"${id}"`))}`);
  } else {
    let ignored = 0;
    for (const selected of ctx.msg.selected ?? []) {
      const token = selected._type === 'graphic' ? findToken(selected._id) : undefined;
      if (token && !isCard(token)) take(token);
      else ignored += 1;
    }
    if (ignored > 0) notes.push(`${ignored} selected object${ignored === 1 ? ' is' : 's are'} not a token and ${ignored === 1 ? 'was' : 'were'} ignored`);
  }
  if (found.length === 0) {
    if (notes.length > 0) throw new RefusalError(`no token to act on (${notes.join('; ')})`);
    throw new RefusalError('no token selected: select one or more tokens, or name them with --ids');
  }
  const targets: Target[] = [];
  const notYours: string[] = [];
  for (const token of found) {
    const character = characterOf(token);
    if (ctx.gm || options.anyTarget || controls(ctx.playerId, token, character)) targets.push({ token, character });
    else notYours.push(tokenName(token));
  }
  // One sentence for all of them: "you do not control Goblin 1, Goblin 2, Raider (3 tokens)".
  if (notYours.length > 0) notes.push(`you do not control ${nameList(notYours)}`);
  if (targets.length === 0) throw new RefusalError(tidyRefusals(notes).join('; '));
  return { targets, notes };
}

/** An id as it may be shown back: never more than 24 characters of it. */
export function shortId(id: string): string {
  return id.length > 24 ? `${cutWhole(id, 24)}...` : id;
}

/**
 * The token an id names, if it is on the table for this sender: a player naming a token players do
 * not see gets the same answer as for one that does not exist (commands.md, "Ids in flags").
 */
export function onTable(id: string, gm: boolean): Roll20Graphic | undefined {
  if (id.length === 0 || id.length > 64) return undefined;
  const token = findToken(id);
  if (!token || isCard(token)) return undefined;
  if (!gm && hiddenFromPlayers(token)) return undefined;
  return token;
}

/** Flags naming another token name a Bump stand-in's original (the token it stands for), as targets do. */
export function idFlagsAsOriginals(ctx: CommandContext, flags: readonly string[]): void {
  for (const flag of flags) {
    const values = ctx.parsed.flags.get(flag);
    if (!values || values.length !== 1) continue;
    const token = findToken(values[0]!);
    const original = token && originalOf(token);
    if (original && original !== token) ctx.parsed.flags.set(flag, [original.id]);
  }
}

/** `--vs`, `--ally`, `--aided-by` must name a token on the table; anything else is refused naming the flag. */
export function checkIdFlags(ctx: CommandContext, flags: readonly string[]): void {
  for (const flag of flags) {
    const values = ctx.parsed.flags.get(flag);
    if (!values || values.length === 0) continue;
    if (!onTable(values.join(' '), ctx.gm)) throw new RefusalError(`--${flag}: no token on the table has that id`);
  }
}

/** Whether a player controls a token still on the table. */
export function controlsToken(playerId: string, tokenId: string): boolean {
  const token = findToken(tokenId);
  return token !== undefined && controls(playerId, token, characterOf(token));
}
