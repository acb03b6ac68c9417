// Chat cards in Roll20's `default` roll template, which every sheet has. Labels and lines are
// plain text; everything is escaped here, so callers never build chat markup themselves.
import { escapeChat } from '../text/escape';

export interface Card {
  title: string;
  /** Rows of the card: a label and one or more lines under it. Labels must be unique per card. */
  rows: Array<{ label: string; lines: string[] }>;
}

export function renderCard(card: Card): string {
  const parts = [`&{template:default} {{name=${escapeChat(card.title)}}}`];
  for (const row of card.rows) {
    if (row.lines.length === 0) continue;
    parts.push(`{{${escapeChat(row.label)}=${row.lines.map(escapeChat).join('<br>')}}}`);
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
