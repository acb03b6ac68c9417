// The full breakdowns behind a multi-target card's rows: kept in memory (not in `state`) for the
// last few hundred rows, and whispered to whoever clicks a row's button, if they may see it.
import type { CardWords } from '../rules/edition';

export interface Detail {
  tokenId: string;
  name: string;
  /** An NPC's breakdown follows visibility.npc; a PC's visibility.pc. */
  npc: boolean;
  /** The breakdown's words, made only when someone clicks for them. */
  card(): CardWords;
}

const KEEP = 500;

export class DetailsStore {
  private readonly details = new Map<string, Detail>();
  private next = 1;

  add(detail: Detail): string {
    const key = (this.next++).toString(36);
    this.details.set(key, detail);
    if (this.details.size > KEEP) this.details.delete(this.details.keys().next().value as string);
    return key;
  }

  get(key: string): Detail | undefined {
    return this.details.get(key);
  }
}
