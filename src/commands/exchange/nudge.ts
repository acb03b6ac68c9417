// The nudge (commands.md, "!attack", ping-defenders): when the prompts go out, each defender still
// to answer is pinged for the players who control it, so the right player looks up. A token no
// player controls (the GM's NPC) is not pinged: its prompt is the GM's, who runs the fight anyway.
import type { OpenAttack } from '../../state/attacks';
import { characterOf, findToken } from '../../roll20/read';
import { controllersOf } from '../../roll20/players';
import { pingTokenFor } from '../../roll20/ping';
import type { App } from '../context';
import { unanswered } from './attacks';

/** Pings each prompted defender for its controllers, when the GM turned ping-defenders on. */
export function pingDefenders(app: App, attack: OpenAttack): void {
  if (!app.store.settings.pingDefenders) return;
  for (const tokenId of unanswered(app, attack)) {
    const token = findToken(tokenId);
    if (token) pingTokenFor(token, controllersOf(token, characterOf(token)));
  }
}
