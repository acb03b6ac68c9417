// What the players see of a token (commands.md, "Output"): a token on a layer they see (objects,
// map, foreground; not the GM layer or the walls) of a page a player is on (the player page, or a
// page a player was moved to). A Bump stand-in is seen as the token it stands for. The Campaign
// and Bump's pairs are read once per job (a command, an event, a roll come back), not per token.
import { bumpPairs, type BumpPairs } from './otherScripts';

/** What players see of the table, for one job: the player page, the pages players were moved to (most games: none), Bump's pairs. */
interface Look {
  page: string;
  moved: Set<string> | undefined;
  bump: BumpPairs;
}
let look: Look | undefined;

/** A new job begins (a Roll20 event, or a roll come back): the table is looked at afresh when next needed. */
export function newJob(): void {
  look = undefined;
}

function table(): Look {
  if (look !== undefined) return look;
  const campaign = Campaign();
  // An object of player id -> page id (a JSON string in some API versions), or false.
  let split: unknown = campaign.get('playerspecificpages');
  let moved: Set<string> | undefined;
  if (typeof split === 'string') {
    try {
      split = JSON.parse(split);
    } catch {
      split = undefined;
    }
  }
  if (split !== null && typeof split === 'object') {
    for (const [player, page] of Object.entries(split)) if (!playerIsGM(player)) (moved ??= new Set()).add(String(page));
  }
  look = { page: String(campaign.get('playerpageid')), moved, bump: bumpPairs() };
  return look;
}

/** The token a Bump stand-in stands for; any other token (or a stand-in whose original is gone) is itself. */
export function originalOf(token: Roll20Graphic): Roll20Graphic {
  const { original } = table().bump;
  // Most games have no Bump: no look-up per token then.
  if (original.size === 0) return token;
  const id = original.get(token.id);
  return (id !== undefined && getObj('graphic', id)) || token;
}

/** Nothing about this token goes public: players do not see it (a stand-in: its original). */
export function hiddenFromPlayers(token: Roll20Graphic): boolean {
  const seen = originalOf(token);
  const layer = seen.get('layer');
  if (layer !== 'objects' && layer !== 'map' && layer !== 'foreground') return true;
  const { page, moved } = table();
  const on = String(seen.get('_pageid'));
  return on !== page && moved?.has(on) !== true;
}

/**
 * Bump copies a pair's bars from one token to the other only on a user's edit: the bars a script
 * writes on one are written on the other too, or Bump's next copy would undo them.
 */
export function keepPairInStep(token: Roll20Graphic, props: Record<string, unknown>): void {
  const { bump } = table();
  if (bump.original.size === 0) return;
  const other = getObj('graphic', bump.standIn.get(token.id) ?? bump.original.get(token.id) ?? '');
  if (!other) return;
  const bars: Record<string, unknown> = {};
  for (const key of ['bar1_value', 'bar2_value', 'bar3_value']) if (key in props) bars[key] = props[key];
  if (Object.keys(bars).length > 0) other.set(bars as Partial<Roll20GraphicProperties>);
}

/**
 * A hand edit of a Bump stand-in's bar is an edit of the token it stands for: the original is given
 * the typed bars (a script's write: no event), so the edit is read, remembered and undone there.
 * Returns the token whose edit it is.
 */
export function editedToken(token: Roll20Graphic): Roll20Graphic {
  const original = originalOf(token);
  if (original === token) return token;
  const typed: Record<string, unknown> = {};
  let any = false;
  for (const key of ['bar1_value', 'bar2_value', 'bar3_value'] as const) {
    const value = token.get(key);
    if (value !== original.get(key)) {
      typed[key] = value;
      any = true;
    }
  }
  if (any) original.set(typed as Partial<Roll20GraphicProperties>);
  return original;
}
