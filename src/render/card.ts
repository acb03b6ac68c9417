// Chat cards in Roll20's `default` roll template, which every sheet has. Labels and lines are
// plain text; everything is escaped here, so callers never build chat markup themselves.
import { escapeChat } from '../text/escape';

/** A chat button: the script's own command, with only Roll20-shaped token ids in it (see `isSafeId`). */
export interface Button {
  label: string;
  command: string;
}

export interface Card {
  title: string;
  /** Rows of the card: a label, lines under it, and buttons after them. A repeated label is numbered when rendered. */
  rows: Array<{ label: string; lines: readonly string[]; buttons?: Button[] }>;
}

export function renderCard(card: Card): string {
  // Concatenated in loops: a card of 50 rows is rendered per command, twice (public and GM).
  let out = `&{template:default} {{name=${escapeChat(card.title)}}}`;
  const rows = card.rows;
  // The default template keeps one field per key: rows of the same label are numbered, as result
  // cards' are. Labels are compared as rendered (a few rows a card: no set made per card).
  const used: string[] = [];
  for (let r = 0; r < rows.length; r += 1) {
    const row = rows[r]!;
    const { lines } = row;
    const buttons = row.buttons;
    const buttonCount = buttons === undefined ? 0 : buttons.length;
    if (lines.length === 0 && buttonCount === 0) continue;
    let text = '';
    for (let i = 0; i < lines.length; i += 1) text += (i === 0 ? '' : '<br>') + escapeChat(lines[i]);
    let links = '';
    for (let i = 0; i < buttonCount; i += 1) links += (i === 0 ? '' : ' ') + renderButton(buttons![i]!.label, buttons![i]!.command);
    let label = rowLabel(row.label);
    if (used.includes(label)) {
      let n = 2;
      while (used.includes(`${label} (${n})`)) n += 1;
      label = `${label} (${n})`;
    }
    used.push(label);
    out += ` {{${escapeChat(label)}=${text}${text && links ? ' ' : ''}${links}}}`;
  }
  return out;
}

/**
 * A row's key in the default template. `name` is the template's title key: a row labelled so (a
 * token named "name" on a multi-target card) would take the card's title over; it is quoted instead.
 */
function rowLabel(label: string): string {
  // Only a label of four letters and white space can be "name": most are looked at no further.
  if (label.length < 4 || (label.length > 4 && label.trim().length !== 4)) return label;
  return label.trim().toLowerCase() === 'name' ? `“${label.trim()}”` : label;
}

/** A short line outside any template (public one-liners, refusals, notices). */
export function renderLine(text: string): string {
  return escapeChat(text);
}

/** A short line with buttons after it (a refusal's Help, a public line's Undo, the handout's link). */
export function renderLineWithButtons(text: string, buttons: readonly Button[]): string {
  let out = escapeChat(text);
  for (const button of buttons) out += ` ${renderButton(button.label, button.command)}`;
  return out;
}

const SAFE_ID = /^[-\w]+$/;

/**
 * A chat button that runs a command. The command is the script's own text; only token ids are
 * interpolated, and those must look like Roll20 ids.
 */
export function renderButton(label: string, command: string): string {
  return `[${escapeChat(label)}](${command})`;
}

export function isSafeId(id: string): boolean {
  return SAFE_ID.test(id);
}
