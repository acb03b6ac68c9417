// Who is speaking, whether they are the GM, and which tokens they control.

/** The playerid Roll20 gives a command another script sent: it names no player (commands.md, "Commands relayed by other scripts"). */
export const RELAYED = 'API';

/** Whether this player id is a GM's. A relayed command's "API" is nobody's: never the GM's by itself. */
export function isGM(playerId: string): boolean {
  return playerId !== RELAYED && playerId !== '' && playerIsGM(playerId) === true;
}

/**
 * Who a relayed command acts for, from its `--api-as PLAYERID` (TokenMod's flag): that player, with
 * that player's rights only. A GM's id, or no such player, names nobody: a relay can carry
 * whatever a player typed, so `--api-as` may only lower rights, never raise them.
 */
export function relayedFor(apiAs: string | undefined): string | undefined {
  if (apiAs === undefined || apiAs === '' || apiAs === RELAYED) return undefined;
  const player = getObj('player', apiAs);
  if (!player || isGM(apiAs)) return undefined;
  return apiAs;
}

export function displayName(playerId: string): string {
  if (playerId === RELAYED) return 'another script';
  return String(getObj('player', playerId)?.get('_displayname') ?? 'player');
}

// A display name that `/w "..."` cannot address exactly: quotes, line breaks, control characters,
// or Roll20's own syntax ([[ ]], {{ }}, @{ }, %{ }, ?{ }, &{ }) that the /w line would run.
const UNADDRESSABLE = /["\u0000-\u001f\u007f\u0085\u2028\u2029\u202a-\u202e\u2066-\u2069]|\[\[|\]\]|\{\{|\}\}|[@%?&]\{/;

/** Whether a display name can be whispered to exactly (commands.md, "Replies"). */
export function nameAddressable(name: string): boolean {
  return !UNADDRESSABLE.test(name);
}

/** The `/w` target that reaches a sender only, from what is known of them; the GM when the name cannot be addressed exactly. */
export function whisperTargetOf(gm: boolean, name: string): string {
  return gm || !nameAddressable(name) ? 'gm' : `"${name}"`;
}

/** The `/w` target that reaches this sender only; the GM when the name cannot be addressed exactly. */
export function whisperTarget(playerId: string): string {
  // A relayed command has nobody to whisper to but the GM.
  if (playerId === RELAYED) return 'gm';
  return whisperTargetOf(isGM(playerId), displayName(playerId));
}

function listsPlayer(controlledBy: unknown, playerId: string): boolean {
  return String(controlledBy ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .some((entry) => entry === playerId || entry === 'all');
}

/** A player controls a token when the token, or the character it represents, lists them or `all`. */
export function controls(playerId: string, token: Roll20Graphic, character: Roll20Character | undefined): boolean {
  if (isGM(playerId)) return true;
  return listsPlayer(token.get('controlledby'), playerId) || listsPlayer(character?.get('controlledby'), playerId);
}

/** An NPC is a token no player controls (`all` counts as players), for chat visibility. */
// Anyone listed: any character but commas and spaces (`all` counts as a player).
const SOMEONE = /[^,\s]/;

export function isNpc(token: Roll20Graphic, character: Roll20Character | undefined): boolean {
  return !SOMEONE.test(String(token.get('controlledby') ?? '')) && !SOMEONE.test(String(character?.get('controlledby') ?? ''));
}

/** The players a token's or its character's `controlledby` lists by id (`all` names no one in particular). */
export function controllersOf(token: Roll20Graphic, character: Roll20Character | undefined): string[] {
  const ids = new Set<string>();
  for (const list of [token.get('controlledby'), character?.get('controlledby')]) {
    for (const entry of String(list ?? '').split(',')) {
      const id = entry.trim();
      if (id !== '' && id !== 'all' && !isGM(id)) ids.add(id);
    }
  }
  return [...ids];
}
