// What chat shows for a command (commands.md, "Output"): one message per audience. One target:
// its full card, buttons inside. Several: one public card with a row per target and at most one
// GM card with the NPCs' numbers, each row with a button that whispers its full breakdown.
// A command that changed nothing posts nothing public: its card goes to the sender only.
import { cardWords, RESOURCE_LABEL, type CardWords, type Outcome } from '../rules/edition';
import type { StoredChange } from '../state/history';
import type { TokenSnapshot } from '../roll20/read';
import { PUBLIC, send, TO_GM, whisperTo } from '../roll20/send';
import { isSafeId, renderCard, renderLine, type Button, type Card } from '../render/card';
import type { App } from './context';

export interface Shown {
  snapshot: TokenSnapshot;
  outcome: Outcome<unknown>;
  changes: StoredChange[];
  /** Lines the writer had to say (a token joining the Turn Tracker). */
  notes: string[];
  /** A title that replaces the outcome's (a hand edit read through armor). */
  title?: string;
  /** Rolls the sender typed as plain numbers instead of rolling (the GM sees which). */
  typed?: string;
}


function buttonsOf(shown: Shown): Button[] {
  const { snapshot, outcome } = shown;
  // Only the script's own commands, with a Roll20-shaped token id, go into a button.
  if (!isSafeId(snapshot.id)) return [];
  return [
    ...(outcome.offerDamageButton ? [{ label: `Apply damage to ${snapshot.name}`, command: `!damage ?{Damage} --ids ${snapshot.id}` }] : []),
    ...(outcome.buttons ?? []),
  ];
}

/** The full card of one target, its buttons inside. */
export function fullCard(shown: Shown): Card {
  const words: CardWords = cardWords(shown.outcome);
  const buttons = buttonsOf(shown);
  return {
    title: shown.title ?? words.title,
    rows: [
      ...words.rows,
      { label: 'Turn Tracker', lines: shown.notes },
      { label: 'Rolls', lines: shown.typed ? [shown.typed] : [] },
      ...(buttons.length > 0 ? [{ label: 'Actions', lines: [], buttons }] : []),
    ],
  };
}

/** Numbers for a row, where its audience may see them: the bars the command moved. */
function numbers(changes: readonly StoredChange[]): string {
  let out = '';
  for (const change of changes) {
    if (change.kind !== 'bar' || change.from === null) continue;
    out += `${out ? ', ' : ''}${RESOURCE_LABEL[change.resource]} ${change.from} -> ${change.to}`;
  }
  return out;
}

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

}

export function present(app: App, shown: readonly Shown[], options: PresentOptions): void {
  if (shown.length === 0) return;
  // A no-op: nothing written, and nothing that happened (a miss, a block, an announcement is news).
  const changedAnything = shown.some((item) => item.changes.length > 0 || !(item.outcome.noop || item.outcome.headline === 'unharmed'));
  const keys = shown.length > 1 ? registerDetails(app, shown, options.sender ?? 'gm') : [];
  if (!changedAnything) {
    // Nothing changed (healing a token at its max): nothing public, the sender hears it.
    const maySee = options.senderMaySee ?? (() => true);
    if (shown.length === 1 && !maySee(shown[0]!.snapshot)) {
      // No NPC number to a player: the short line only.
      send(whisperTo(options.replyTo), renderLine(shown[0]!.outcome.shortLine));
      return;
    }
    const card = shown.length === 1 ? fullCard(shown[0]!) : rowsCard(shown, everyIndex(shown), visibilities(app, shown), `${options.title}: ${tokenCount(shown.length)}`, shown.every((item) => maySee(item.snapshot)) ? 'all' : 'public', keys);
    send(whisperTo(options.replyTo), renderCard(card));
    return;
  }
  if (shown.length === 1) {
    const item = shown[0]!;
    const visibility = visibilityOf(app, item.snapshot);
    send(visibility === 'public' ? PUBLIC : TO_GM, renderCard(fullCard(item)), { record: true });
    if (visibility === 'gm' && !item.snapshot.hidden) send(PUBLIC, renderLine(item.outcome.shortLine));
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
  if (seen.length > 0) send(PUBLIC, renderCard(rowsCard(shown, seen, visibility, `${options.title}: ${tokenCount(seen.length)}${typed}`, 'public', keys)));
  if (forGm.length > 0) send(TO_GM, renderCard(rowsCard(shown, forGm, visibility, `${options.title}: ${tokenCount(shown.length)} (GM)${typed}`, 'all', keys)), { record: true });
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
      return { tokenId: snapshot.id, name: snapshot.name, npc: snapshot.npc, hidden: snapshot.hidden, card: () => fullCard({ ...item, title: item.title ?? cardWords(item.outcome).title }) };
    }),
  );
}

/** One row per target (those at `indices`); `public`: numbers only where the breakdown is public. Each row's button whispers its breakdown. */
function rowsCard(shown: readonly Shown[], indices: readonly number[], visibility: ReadonlyArray<'public' | 'gm'>, title: string, audience: 'public' | 'all', keys: readonly string[]): Card {
  const labels = new Map<string, number>();
  const rows: Card['rows'] = [];
  for (const index of indices) {
    const item = shown[index]!;
    const { snapshot, outcome } = item;
    const seen = (labels.get(snapshot.name) ?? 0) + 1;
    labels.set(snapshot.name, seen);
    const label = seen === 1 ? snapshot.name : `${snapshot.name} (${seen})`;
    const showNumbers = audience === 'all' || visibility[index] === 'public';
    const figures = showNumbers ? numbers(item.changes) : '';
    // A row whose breakdown its audience may not read has no details button there (the GM's card has it).
    const details: Button[] = showNumbers ? [{ label: 'details', command: `!defense-round details ${keys[index]}` }] : [];
    const buttons = showNumbers && (outcome.offerDamageButton || outcome.buttons) ? [...details, ...buttonsOf(item)] : details;
    rows.push({ label, lines: [figures ? `${outcome.shortLine} ${figures}` : outcome.shortLine], buttons });
  }
  return { title, rows };
}
