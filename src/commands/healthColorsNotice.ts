// HealthColors marks tokens dead at 0 by default; in `soak` 0 is only incapacitated. When it is
// installed with that on, the GM hears once, with buttons for HealthColors' own toggles.
import { send, TO_GM } from '../roll20/send';
import { renderButton, renderLine } from '../render/card';
import type { App } from './context';
import { activeEdition } from './pipeline';
import { healthColors } from '../roll20/otherScripts';
import { savedState } from '../roll20/sandbox';

interface HealthColorsState {
  auraDead?: unknown;
  auraDeadPC?: unknown;
}

export function healthColorsNotice(app: App): void {
  // Only an edition where a token at 0 is not dead needs HealthColors told otherwise.
  const edition = activeEdition(app);
  if (app.store.healthColorsNoticed || edition.life.condition(edition.life.enter(0, false), 0) === 'dead') return;
  const installed = healthColors() !== undefined;
  const theirs = savedState('HealthColors') as HealthColorsState | undefined;
  if (!installed || !theirs || (theirs.auraDead !== true && theirs.auraDeadPC !== true)) return;
  app.store.healthColorsNoticed = true;
  send(
    TO_GM,
    [
      renderLine('HealthColors marks tokens dead at 0 Vitality, but in this edition 0 is incapacitated and death comes at -10. Turn that off in HealthColors:'),
      theirs.auraDead === true ? renderButton('NPCs: dead at 0 off', '!aura dead') : '',
      theirs.auraDeadPC === true ? renderButton('PCs: dead at 0 off', '!aura deadPC') : '',
    ]
      .filter((part) => part !== '')
      .join(' '),
  );
}
