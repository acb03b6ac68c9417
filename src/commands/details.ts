// The full breakdowns behind a multi-target card's rows: kept in memory (not in `state`), a row
// each, and whispered to whoever clicks a row's button, if they may see it. The words are made
// only then. Rows the players' card shows are numbered in one run and hidden tokens' rows (on the
// GM's card only) in another, so the players' keys have no gaps that would count hidden tokens;
// each sender's rows are kept to a share of their own: a player's commands push out only that
// player's older rows, never the GM's fight.
import type { Card } from '../render/card';

export interface Detail {
  tokenId: string;
  name: string;
  /** An NPC's breakdown follows visibility.npc; a PC's visibility.pc. */
  npc: boolean;
  /** On the GM layer when the command ran: hidden from the players, so the breakdown is the GM's. */
  hidden: boolean;
  /** The breakdown's words, made only when someone clicks for them. */
  card(): Card;
}

/** Rows kept for the GM (and hand edits), and for each player: a few hundred at a full table. */
export const GM_ROWS = 400;
export const PLAYER_ROWS = 100;
/** Senders (players) whose rows are kept at once; the longest quiet one goes first. */
const MAX_SENDERS = 20;

export class DetailsStore {
  private nextShown = 1;
  private nextHidden = 1;
  private readonly rows = new Map<string, Detail>();
  /** Each sender's keys, oldest first; a Map keeps senders in order of their last rows. */
  private readonly bySender = new Map<string, string[]>();

  /** Keeps one command's rows for `sender` ("gm" for the GM's and hand edits); returns each row's key. */
  add(sender: string, details: readonly Detail[]): string[] {
    const keys = details.map((detail) => {
      const key = detail.hidden ? `h${(this.nextHidden++).toString(36)}` : (this.nextShown++).toString(36);
      this.rows.set(key, detail);
      return key;
    });
    const mine = this.bySender.get(sender) ?? [];
    this.bySender.delete(sender);
    mine.push(...keys);
    const share = sender === 'gm' ? GM_ROWS : PLAYER_ROWS;
    for (const old of mine.splice(0, Math.max(0, mine.length - share))) this.rows.delete(old);
    this.bySender.set(sender, mine);
    if (this.bySender.size > MAX_SENDERS + 1) {
      for (const [other, otherKeys] of this.bySender) {
        if (other === 'gm' || other === sender) continue;
        for (const old of otherKeys) this.rows.delete(old);
        this.bySender.delete(other);
        break;
      }
    }
    return keys;
  }

  get(key: string): Detail | undefined {
    return this.rows.get(key);
  }
}
