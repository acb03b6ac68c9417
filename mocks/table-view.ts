// What one player may do and read at the demo table, as Roll20 and the script decide it (the local
// sandbox and the playground both ask): a player selects only the tokens she controls and sees
// (the GM any token), and reads a token's numbers only where the script shows them to her: her
// own tokens always, others by the GM's `visibility.npc` / `visibility.pc`, a hidden token never
// (src/commands/pipeline.ts, `senderMaySee`; docs/commands.md, "Output").
import type { MockObject, MockRoll20 } from './roll20.js';

type Visibility = 'gm' | 'public';

/** The player ids (or 'all') an object's controlledby lists. */
export function controllersOf(obj: MockObject | undefined): string[] {
  return String(obj?.get('controlledby') ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function characterOf(mock: MockRoll20, token: MockObject): MockObject | undefined {
  const id = String(token.get('represents') ?? '');
  return id === '' ? undefined : (mock.globals.getObj('character', id) as unknown as MockObject | undefined);
}

function isGM(mock: MockRoll20, playerId: string): boolean {
  return mock.globals.playerIsGM(playerId) === true;
}

/** Whether the player controls the token: the GM always; else the token or its character lists her, or everyone. */
export function controls(mock: MockRoll20, playerId: string, token: MockObject): boolean {
  if (isGM(mock, playerId)) return true;
  return [token, characterOf(mock, token)].some((obj) => controllersOf(obj).some((id) => id === playerId || id === 'all'));
}

/** Players do not see it: a layer of the GM's (not the tokens', the map's or the foreground), or a page they are not on. */
export function hiddenFromPlayers(mock: MockRoll20, token: MockObject): boolean {
  const layer = String(token.get('layer') || 'objects');
  if (layer !== 'objects' && layer !== 'map' && layer !== 'foreground') return true;
  return String(token.get('_pageid' as never)) !== String(mock.globals.Campaign().get('playerpageid'));
}

/** Why this player may not select the token (undefined: she may), in a few words. */
export function whyNotSelectable(mock: MockRoll20, playerId: string, token: MockObject): string | undefined {
  if (isGM(mock, playerId)) return undefined;
  if (hiddenFromPlayers(mock, token)) return 'is hidden from the players';
  return controls(mock, playerId, token) ? undefined : 'is not hers: a player selects only the tokens she controls';
}

/** The GM's visibility settings as the script keeps them (its defaults before it stored any). */
function visibility(mock: MockRoll20): { npc: Visibility; pc: Visibility } {
  const stored = (mock.state.DefenseRound as { settings?: { visibility?: Partial<Record<'npc' | 'pc', unknown>> } } | undefined)?.settings?.visibility;
  const read = (value: unknown, fallback: Visibility): Visibility => (value === 'gm' || value === 'public' ? value : fallback);
  return { npc: read(stored?.npc, 'gm'), pc: read(stored?.pc, 'public') };
}

/**
 * Whether the script keeps this token's numbers (bars, armor) from this player: not hers, and the
 * GM's setting for its kind (an NPC: nobody but the GM controls it) is `gm`, or the token is hidden.
 */
export function numbersHiddenFrom(mock: MockRoll20, playerId: string, token: MockObject): boolean {
  if (controls(mock, playerId, token)) return false;
  if (hiddenFromPlayers(mock, token)) return true;
  const someone = (obj: MockObject | undefined) => controllersOf(obj).length > 0;
  const npc = !someone(token) && !someone(characterOf(mock, token));
  return visibility(mock)[npc ? 'npc' : 'pc'] === 'gm';
}
