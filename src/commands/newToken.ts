// A character dropped onto a page as a new token (rules.md, "One character, several tokens"): its
// memory is the character's already, so the new token shows the character's condition and stance
// markers at once, as its other tokens do. Nothing is said and nothing is kept for undo.
import type { Plan } from '../rules/edition';
import { characterOf, homeOf } from '../roll20/read';
import type { App } from './context';
import { applyQuietly } from './pipeline';
import { isCard } from './targets';

/** Plays the character's remembered state and stance onto the token's markers, changing nothing else. */
const SHOW_MEMORY: Plan<unknown> = {
  values: [],
  dice: [],
  resolve: (facts) => ({ headline: 'acts', steps: [], changes: [], state: facts.state, stance: facts.stance, detail: {} }),
};

export function onTokenAdded(app: App, token: Roll20Graphic): void {
  if (isCard(token)) return;
  const home = homeOf(token, app.store.settings.bars.vitality);
  // Only a token of a character that has a memory (a generic token starts with none of its own).
  if (home === token.id || app.store.tokens[home] === undefined) return;
  applyQuietly(app, [{ token, character: characterOf(token) }], SHOW_MEMORY);
}
