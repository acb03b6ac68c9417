// The exchange (architecture.md, "The pipeline owns the exchange"): a defense made ahead with
// `!defend` is an answer waiting for its hit, kept in `state.exchange.waiting` by token; the next
// `!damage` on the token takes the answer on file (the edition reads it as `Facts.answer` and says
// whether it is used up). Answers end with their round, and with the edition they were made in.
import type { App } from '../context';
import type { OpenAttack } from '../../state/attacks';
import { activeEdition } from '../pipeline';
import { aheadMisfit } from './asked';

/** rules.md, "Rounds": every defense made ahead ends with the round. */
export function endRoundAnswers(app: App): void {
  app.store.exchange.waiting = {};
}

/** An edition switch: the answers made in another edition answer nothing in this one; how many were cleared. */
export function keepAnswersOf(app: App, edition: string): number {
  const waiting = app.store.exchange.waiting;
  let cleared = 0;
  for (const id of Object.keys(waiting)) {
    if (waiting[id]!.edition === edition) continue;
    delete waiting[id];
    cleared += 1;
  }
  return cleared;
}

/** The defender made its defense ahead (`!defend` before the attack, a guard), and it fits this attack: that answers it. */
export function answeredAhead(app: App, attack: OpenAttack, tokenId: string): boolean {
  if (app.store.exchange.waiting[tokenId]?.edition !== app.store.settings.edition) return false;
  const edition = activeEdition(app);
  return edition.check.answers.fits === undefined || aheadMisfit(app, edition, attack, tokenId) === undefined;
}
