// seed 000: countering a spectator draws it into the battle: it joins the Turn Tracker at 0.
import { readTurnOrder, writeTurnOrder } from '../roll20/turnorder';

/** Adds the token to the Turn Tracker (initiative 0) unless it is there; returns what to say. */
export function drawIntoTurnOrder(tokenId: string): string {
  const token = getObj('graphic', tokenId);
  if (!token) return 'The spectator is drawn into the battle (no token with that id to add to the Turn Tracker).';
  const name = String(token.get('name') ?? '') || 'The spectator';
  const order = readTurnOrder();
  if (order.some((entry) => entry.id === tokenId)) return `${name} is drawn into the battle (already in the Turn Tracker).`;
  order.push({ id: tokenId, pr: 0, custom: '', _pageid: String(token.get('_pageid') ?? '') });
  writeTurnOrder(order);
  return `${name} is drawn into the battle: added to the Turn Tracker at initiative 0.`;
}
