// Who sees a result (commands.md, "Output"): a PC's full breakdown is public by default; an NPC's
// goes to the GM only, while the table sees a short line with no numbers. The GM sets both.
import type { Settings } from '../state/settings';
import type { TokenSnapshot } from '../roll20/read';
import { PUBLIC, send, TO_GM } from '../roll20/send';
import { renderCard, renderLine, type Card } from '../render/card';

export interface Result {
  card: Card;
  /** The public line shown when the breakdown is for the GM only: who, and any new condition. */
  shortLine: string;
  /** Chat text sent after the card to the same audience (e.g. a damage button). */
  extra?: string;
}

export function deliver(settings: Settings, snapshot: TokenSnapshot, result: Result): void {
  const visibility = snapshot.npc ? settings.visibility.npc : settings.visibility.pc;
  const audience = visibility === 'public' ? PUBLIC : TO_GM;
  send(audience, renderCard(result.card), { record: true });
  if (result.extra) send(audience, result.extra, { record: true });
  if (visibility === 'gm') send(PUBLIC, renderLine(result.shortLine));
}
