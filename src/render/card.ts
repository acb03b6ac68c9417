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
  /** Rows of the card: a label, lines under it, and buttons after them. Labels must be unique per card. */
  rows: Array<{ label: string; lines: string[]; buttons?: Button[] }>;
}

export function renderCard(card: Card): string {
  const parts = [`&{template:default} {{name=${escapeChat(card.title)}}}`];
  for (const row of card.rows) {
    const buttons = row.buttons ?? [];
    if (row.lines.length === 0 && buttons.length === 0) continue;
    const text = row.lines.map(escapeChat).join('<br>');
    const links = buttons.map((button) => renderButton(button.label, button.command)).join(' ');
    parts.push(`{{${escapeChat(row.label)}=${text}${text && links ? ' ' : ''}${links}}}`);
  }
  return parts.join(' ');
}

/** A short line outside any template (public one-liners, refusals, notices). */
export function renderLine(text: string): string {
  return escapeChat(text);
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
