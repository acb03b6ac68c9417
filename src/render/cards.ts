// Every card and short line of a command, laid out from its steps (architecture.md, "Layout from
// steps"): the title step, the rows in the order their sections first come, the Turn Tracker
// notes, the rolls a player typed, and the buttons; and the one public line. Words come from the
// steps' own words; nothing here knows an edition.
import { ACTION, RESOURCE_LABEL, SUMMARY, TITLE, type ButtonStep, type Outcome, type Step, type WordsContext } from '../rules/edition';
import type { StoredChange } from '../state/history';
import type { TokenSnapshot } from '../roll20/read';
import { isSafeId, type Button, type Card } from './card';

/** What one target's full card is laid out from: its name and id, its steps, and their words. */
export interface CardSource {
  snapshot: Pick<TokenSnapshot, 'id' | 'name'>;
  outcome: Pick<Outcome<unknown>, 'steps'>;
  /** Lines the writer had to say (a token joining the Turn Tracker). */
  notes: readonly string[];
  /** A title step that replaces the outcome's (a hand edit read through armor). */
  title?: Step;
  /** Rolls the sender typed as plain numbers instead of rolling (the GM sees which). */
  typed?: string;
  /** How its defender answered an attack, with the roll. */
  answer?: string;
  /** The words of a step (the shared ones, then the edition's), with names for ids; `told`: in place of what the words were told. */
  say(step: Step, told?: WordsContext): string;
}

/** One target's outcome as chat shows it. */
export interface Shown extends CardSource {
  /** The token as read: its id (for buttons), name, and who may see its numbers. */
  snapshot: TokenSnapshot;
  outcome: Outcome<unknown>;
  changes: StoredChange[];
  notes: string[];
  /** What the pipeline tells its words (an attack's answer said on its own row). */
  readonly told: WordsContext;
  /** The public line, once worded (a row of several is said on the public card and the GM's). */
  summary?: string;
  /**
   * What its details button needs later: the card's source without the token as read, its state or
   * its changes (rows are kept for hundreds of tokens; the less each holds, the less the garbage
   * collector copies at every hit).
   */
  forDetails(): CardSource;
}

/** The one public line (no numbers), for a breakdown the GM alone reads and for rows of several. */
export function summaryOf(shown: Shown): string {
  if (shown.summary !== undefined) return shown.summary;
  const steps = shown.outcome.steps;
  for (let i = 0; i < steps.length; i += 1) if (steps[i]!.section === SUMMARY) return (shown.summary = shown.say(steps[i]!));
  return (shown.summary = `${shown.snapshot.name}.`);
}

/** The buttons the card offers: only the script's own commands, with a Roll20-shaped token id. */
function buttonsOf(shown: CardSource): Button[] {
  if (!isSafeId(shown.snapshot.id)) return [];
  const buttons: Button[] = [];
  for (const step of shown.outcome.steps) {
    if (step.section !== ACTION) continue;
    const button = buttonOf(shown, step);
    if (button) buttons.push(button);
  }
  return buttons;
}

/** The button of one ACTION step, or undefined for a step that offers none. */
function buttonOf(shown: CardSource, step: Step): Button | undefined {
  const { snapshot } = shown;
  // commands.md, "Output": a failed defense offers the button that applies damage.
  // The query inside an inline roll takes a number or dice (2d6+3); its brackets are entities, or
  // Roll20 would roll them when the card is sent rather than when the button is clicked.
  if (step.kind === 'offer-damage') return { label: `Apply damage to ${snapshot.name}`, command: `!damage &#91;&#91;?{Damage}&#93;&#93; --ids ${snapshot.id}` };
  if (step.kind === 'button') return { label: shown.say(step), command: (step as ButtonStep).command };
  return undefined;
}

/**
 * The full card of one target, its buttons inside (`extra`: the command's own, such as its Undo): the
 * title step, then a row per section in the order sections first come (each step a line; a step
 * whose words are empty has nothing to say, a row left with no line is left out), the Turn Tracker
 * notes, the rolls typed, the buttons. One pass over the steps.
 */
export function fullCard(shown: CardSource, extra: readonly Button[] = [], titled?: WordsContext): Card {
  const rows: Card['rows'] = [];
  if (shown.answer) rows.push({ label: 'Answer', lines: [shown.answer] });
  const first = rows.length;
  let title = shown.title;
  let buttons: Button[] | undefined;
  const safe = isSafeId(shown.snapshot.id);
  const steps = shown.outcome.steps;
  for (let i = 0; i < steps.length; i += 1) {
    const step = steps[i]!;
    const section = step.section;
    if (section === undefined || section === SUMMARY) continue;
    if (section === TITLE) {
      title ??= step;
      continue;
    }
    if (section === ACTION) {
      const button = safe ? buttonOf(shown, step) : undefined;
      if (button) (buttons ??= []).push(button);
      continue;
    }
    let row: Card['rows'][number] | undefined;
    for (let r = first; r < rows.length; r += 1) if (rows[r]!.label === section) row = rows[r];
    if (!row) rows.push((row = { label: section, lines: [] }));
    const line = shown.say(step);
    if (line !== '') (row.lines as string[]).push(line);
  }
  let kept = first;
  for (let r = first; r < rows.length; r += 1) if (rows[r]!.lines.length > 0) rows[kept++] = rows[r]!;
  rows.length = kept;
  if (shown.notes.length > 0) rows.push({ label: 'Turn Tracker', lines: shown.notes });
  if (shown.typed) rows.push({ label: 'Rolls', lines: [shown.typed] });
  for (const button of extra) (buttons ??= []).push(button);
  if (buttons) rows.push({ label: 'Actions', lines: [], buttons });
  return { title: title ? shown.say(title, titled) : shown.snapshot.name, rows };
}

/** Whether any step is a button (a loop: this runs for every row of a card of 50). */
function offersButtons(steps: readonly Step[]): boolean {
  for (let i = 0; i < steps.length; i += 1) if (steps[i]!.section === ACTION) return true;
  return false;
}

/** Numbers for a row, where its audience may see them: the bars the command moved. */
function numbers(changes: readonly StoredChange[]): string {
  let out = '';
  for (const change of changes) {
    // A value that did not change is left out (a hand edit read through armor sets the bar back: from 70 to 70).
    if (change.kind !== 'bar' || change.from === null || change.from === change.to) continue;
    out += `${out ? ', ' : ''}${RESOURCE_LABEL[change.resource]} ${change.from} -> ${change.to}`;
  }
  return out;
}

/** A row's line under the token's name: the sentence without the name it starts with ("Goblin 1: is hit."). */
function withoutName(summary: string, name: string): string {
  if (summary.startsWith(`${name}: `)) return summary.slice(name.length + 2);
  return summary.startsWith(`${name} `) ? summary.slice(name.length + 1) : summary;
}

/**
 * One row per target (those at `indices`); `all`: numbers on every row, `public`: only where the
 * breakdown is public. Each row's details button whispers its breakdown (`keys`, one per row).
 */
export function rowsCard(shown: readonly Shown[], indices: readonly number[], visibility: ReadonlyArray<'public' | 'gm'>, title: string, audience: 'public' | 'all', keys: readonly string[], extra: readonly Button[] = []): Card {
  const labels = new Map<string, number>();
  const rows: Card['rows'] = [];
  for (const index of indices) {
    const item = shown[index]!;
    const { snapshot } = item;
    const seen = (labels.get(snapshot.name) ?? 0) + 1;
    labels.set(snapshot.name, seen);
    const label = seen === 1 ? snapshot.name : `${snapshot.name} (${seen})`;
    const showNumbers = audience === 'all' || visibility[index] === 'public';
    const figures = showNumbers ? numbers(item.changes) : '';
    // A row whose breakdown its audience may not read has no details button there (the GM's card has it).
    const details: Button[] = showNumbers ? [{ label: 'details', command: `!defense-round details ${keys[index]}` }] : [];
    const offers = showNumbers && offersButtons(item.outcome.steps);
    const buttons = offers ? [...details, ...buttonsOf(item)] : details;
    const summary = withoutName(summaryOf(item), snapshot.name);
    const line = figures ? `${summary} ${figures}` : summary;
    // How it answered is part of its breakdown: an NPC's defense roll stays off the public card.
    rows.push({ label, lines: item.answer && showNumbers ? [`${item.answer}; ${line}`] : [line], buttons });
  }
  if (extra.length > 0) rows.push({ label: 'Actions', lines: [], buttons: [...extra] });
  return { title, rows };
}
