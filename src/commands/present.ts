// What chat shows for a command (commands.md, "Output"): one message per audience. One target:
// its full card, buttons inside. Several: one public card with a row per target and at most one
// GM card with the NPCs' numbers, each row with a button that whispers its full breakdown.
// A command that changed nothing posts nothing public: its card goes to the sender only.
import { TITLE, type WordsContext } from '../rules/edition';
import type { TokenSnapshot } from '../roll20/read';
import { PUBLIC, send, TO_GM, whisperTo } from '../roll20/send';
import { renderCard, renderLine, renderLineWithButtons, type Button } from '../render/card';
import { fullCard, rowsCard, summaryOf, type Shown } from '../render/cards';
import type { App } from './context';

export type { Shown } from '../render/cards';

/** A result stays in the chat archive (one options object for every card). */
const RECORDED = Object.freeze({ record: true });

/** Who may read a token's breakdown: public by the visibility setting, unless the token is hidden. */
export function visibilityOf(app: App, token: { npc: boolean; hidden: boolean }): 'public' | 'gm' {
  if (token.hidden) return 'gm';
  return token.npc ? app.store.settings.visibility.npc : app.store.settings.visibility.pc;
}

export interface PresentOptions {
  /** The multi-target cards' title, e.g. "Damage" (each card adds how many tokens it holds). */
  title: string;
  /** Who sent the command, for a command that changed nothing. */
  replyTo: string;
  /** Whether the sender may read this token's numbers (a player hitting an NPC may not). */
  senderMaySee?: (snapshot: TokenSnapshot) => boolean;
  /** Whose rows the details buttons keep ("gm" for the GM and hand edits, else the player's id): each sender has a share. */
  sender?: string;
  /** The Undo button of what was written, for whoever applied it (`byGm`: the GM applied it; a player's rides on what she reads too). */
  undo?: { command: string; byGm: boolean };
  /** An attack's result: its titles (and one Undo for the GM, who reads the public one too). */
  attack?: AttackTitles;
}

/** An attack's result: its key, and its attacker as each audience knows it (a hidden one is unseen to players), for the cards' titles. */
export interface AttackTitles {
  key: string;
  attacker(gm: boolean): string;
}

/** A headline that says the hit did not land: the title says the attacker "attacks" (else "hits"). */
const NOT_LANDED = new Set(['blocked', 'missed', 'unharmed']);

/** An attack's full card title, as its audience knows the attacker: "Goblin 1 hits Bob: 200 physical, Bob loses 30 Vitality". */
function attackTitle(options: PresentOptions, item: Shown, gm: boolean): WordsContext | undefined {
  const { attack } = options;
  if (!attack) return undefined;
  const verb = NOT_LANDED.has(item.outcome.headline) ? 'attacks' : 'hits';
  return { title: (what, hit) => `${attack.attacker(gm)} ${verb} ${item.snapshot.name}: ${hit}, ${what}` };
}

/** The hit as the first row's title says it ("200 physical"), for an attack's card of several; undefined: its title has none. */
function hitOf(item: Shown): string | undefined {
  let hit: string | undefined;
  const step = item.title ?? item.outcome.steps.find((one) => one.section === TITLE);
  if (step) item.say(step, { title: (_, said) => (hit = said) });
  return hit;
}

export function present(app: App, shown: readonly Shown[], options: PresentOptions): void {
  if (shown.length === 0) return;
  // A no-op: nothing written, and nothing that happened (a miss, a block, an announcement is news).
  let changedAnything = false;
  for (let i = 0; i < shown.length && !changedAnything; i += 1) {
    const item = shown[i]!;
    changedAnything = item.changes.length > 0 || !(item.outcome.noop || item.outcome.headline === 'unharmed');
  }
  const keys = shown.length > 1 ? registerDetails(app, shown, options.sender ?? 'gm') : [];
  // A card of several: an attack's names its attacker and the hit (to players, only where a row shows numbers); another counts its tokens.
  const { attack } = options;
  const hit = attack && shown.length > 1 ? hitOf(shown[0]!) : undefined;
  const severalTitle = (count: number, gm: boolean, numbers: boolean): string =>
    attack ? `${attack.attacker(gm)}'s attack ${attack.key}${hit !== undefined && numbers ? `: ${hit}` : ''}` : `${options.title}: ${tokenCount(count)}`;
  if (!changedAnything) {
    // Nothing changed (healing a token at its max): nothing public, the sender hears it.
    const maySee = options.senderMaySee ?? (() => true);
    if (shown.length === 1 && !maySee(shown[0]!.snapshot)) {
      // No NPC number to a player: the short line only.
      send(whisperTo(options.replyTo), renderLine(summaryOf(shown[0]!)));
      return;
    }
    const gm = options.replyTo === 'gm';
    const all = shown.every((item) => maySee(item.snapshot));
    const card = shown.length === 1 ? fullCard(shown[0]!, [], attackTitle(options, shown[0]!, gm)) : rowsCard(shown, everyIndex(shown), visibilities(app, shown), severalTitle(shown.length, gm, all), all ? 'all' : 'public', keys);
    send(whisperTo(options.replyTo), renderCard(card));
    return;
  }
  // Every card of what was written carries its Undo (the GM may undo anything); a player's also
  // rides on the public line or card she reads when the full card is the GM's.
  const undo: Button[] = options.undo ? [{ label: 'Undo', command: options.undo.command }] : [];
  const playersUndo = options.undo !== undefined && !options.undo.byGm;
  if (shown.length === 1) {
    const item = shown[0]!;
    const visibility = visibilityOf(app, item.snapshot);
    const line = visibility === 'gm' && !item.snapshot.hidden;
    send(visibility === 'public' ? PUBLIC : TO_GM, renderCard(fullCard(item, attack && line && playersUndo ? [] : undo, attackTitle(options, item, visibility === 'gm'))), RECORDED);
    if (line) send(PUBLIC, renderLineWithButtons(summaryOf(item), playersUndo ? undo : []));
    return;
  }
  // Each token's visibility once; the public card leaves out hidden tokens, the GM card holds the rest.
  const visibility = visibilities(app, shown);
  const seen: number[] = [];
  const forGm: number[] = [];
  for (let index = 0; index < shown.length; index += 1) {
    if (!shown[index]!.snapshot.hidden) seen.push(index);
    if (visibility[index] === 'gm') forGm.push(index);
  }
  // Rolls a player typed as plain numbers are said in the titles: whoever reads the rows knows they
  // were not rolled. The public title counts only the tokens it shows (a hidden one is not hinted at).
  const typed = shown[0]!.typed ? ` (${shown[0]!.typed})` : '';
  const publicUndo = playersUndo || forGm.length === 0;
  if (seen.length > 0) send(PUBLIC, renderCard(rowsCard(shown, seen, visibility, `${severalTitle(seen.length, false, seen.some((index) => visibility[index] === 'public'))}${typed}`, 'public', keys, publicUndo ? undo : [])));
  if (forGm.length > 0) send(TO_GM, renderCard(rowsCard(shown, forGm, visibility, `${severalTitle(shown.length, true, true)} (GM)${typed}`, 'all', keys, attack && publicUndo && seen.length > 0 ? [] : undo)), RECORDED);
}

function tokenCount(count: number): string {
  return `${count} token${count === 1 ? '' : 's'}`;
}

function visibilities(app: App, shown: readonly Shown[]): Array<'public' | 'gm'> {
  return shown.map((item) => visibilityOf(app, item.snapshot));
}

function everyIndex(shown: readonly Shown[]): number[] {
  return shown.map((_, index) => index);
}

/** The command's rows, kept once for their details buttons (`!defense-round details KEY`): one key per row, in order. */
function registerDetails(app: App, shown: readonly Shown[], sender: string): string[] {
  return app.details.add(
    sender,
    shown.map((item) => {
      const { snapshot } = item;
      // The row keeps only what its card is laid out from, not the token as read.
      const source = item.forDetails();
      return { tokenId: snapshot.id, name: snapshot.name, npc: snapshot.npc, hidden: snapshot.hidden, card: () => fullCard(source) };
    }),
  );
}
