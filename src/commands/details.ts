// The full breakdowns behind a multi-target card's rows: kept in memory (not in `state`) for the
// last commands, one entry per command, and whispered to whoever clicks a row's button, if they
// may see it. The words are made only then.
import type { CardWords } from '../rules/edition';

export interface Detail {
  tokenId: string;
  name: string;
  /** An NPC's breakdown follows visibility.npc; a PC's visibility.pc. */
  npc: boolean;
  /** On the GM layer when the command ran: hidden from the players, so the breakdown is the GM's. */
  hidden: boolean;
  /** The breakdown's words, made only when someone clicks for them. */
  card(): CardWords;
}

/** The commands whose rows stay clickable (a few hundred rows at a full table). */
const KEEP_COMMANDS = 20;

export class DetailsStore {
  private readonly commands = new Map<string, (index: number) => Detail | undefined>();
  private next = 1;

  /** Registers one command's rows; a row's key is `<command>.<index>`. */
  addCommand(detailOf: (index: number) => Detail | undefined): string {
    const key = (this.next++).toString(36);
    this.commands.set(key, detailOf);
    if (this.commands.size > KEEP_COMMANDS) this.commands.delete(this.commands.keys().next().value as string);
    return key;
  }

  get(key: string): Detail | undefined {
    const dot = key.indexOf('.');
    if (dot <= 0) return undefined;
    const index = Number(key.slice(dot + 1));
    if (!Number.isSafeInteger(index) || index < 0) return undefined;
    return this.commands.get(key.slice(0, dot))?.(index);
  }
}
