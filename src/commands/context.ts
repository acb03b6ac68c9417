// What every command handler is given: the script's memory, the sender, and one way to reply.
import type { StoredState } from '../state/store';
import type { OpenAttack } from '../state/attacks';
import type { TokenRecord } from '../state/tokens';
import { isEmptyRecord } from '../state/tokens';
import type { AttributeIndex } from '../roll20/attributes';
import type { DetailsStore } from './details';
import { displayName, isGM, nameAddressable, RELAYED, relayedFor, whisperTargetOf } from '../roll20/players';
import { send, whisperTo } from '../roll20/send';
import { renderLine, renderLineWithButtons, type Button } from '../render/card';
import { echo, type ParsedLine } from '../text/args';
import { cutWhole } from '../text/cut';

export interface App {
  store: StoredState;
  attributes: AttributeIndex;
  /** Problems found when state was loaded, shown to the GM by `!defense-round`. */
  loadProblems: string[];
  /**
   * Hand edits of a linked Vitality read through armor, by attribute id: the other tokens linked to
   * the same attribute report the same edit, and it must be read through armor only once.
   */
  /** The last hand edit of each linked attribute, for its other tokens' reports of it (`plain`: not read through armor). */
  linkedEdits: Map<string, { from: number; typed: number; to: number; by: string; echoed: Set<string>; plain?: true }>;
  /** The full breakdowns behind multi-target rows, for their details buttons (memory only). */
  details: DetailsStore;
  /** The Turn Tracker's text at the last look (memory only): another script's change fires no event. */
  turnOrderSeen?: string;
  /** The GM was told (this session) of a Turn Tracker row that is not Roll20's. */
  oddTurnRowsTold?: boolean;
  /** Open attacks whose resolution is under way, their roll out (memory only: a restart leaves them open). */
  resolving?: Set<OpenAttack>;
  /** The attacks the last edition switch cancelled, by key (memory only): a late click on their buttons is told so. */
  cancelled?: Map<string, OpenAttack>;
  /** Each player's last attack declared, for a double click (memory only). */
  lastAttacks?: Map<string, { line: string; key: string; at: number }>;
  /** `state` was written by a newer version (its schema number): left untouched, commands paused. */
  newerState?: number;
}

export interface CommandContext {
  app: App;
  msg: Roll20ChatMessage;
  parsed: ParsedLine;
  playerId: string;
  gm: boolean;
  senderName: string;
  /** The `/w` target reaching only the sender (the GM, when the sender's name cannot be addressed). */
  replyTo: string;
  /** Set when replies go to the GM in the sender's place: the sender's display name. */
  replyFor?: string;
  /** Sent by another script (playerid "API"): `playerId` is then the `--api-as` player (under `api-commands api-as` only), or "API". */
  relayed: boolean;
  /** A relayed command the settings give no one to act for (no player, and not the GM's): refused whole. */
  relayRefused?: boolean;
  /** The command's own `--help` (a sub-command's where it has one): the button every refusal carries; worked out when a refusal needs it. */
  help: () => string;
}

export function commandContext(app: App, msg: Roll20ChatMessage, parsed: ParsedLine, help: () => string = () => `${parsed.command} --help`): CommandContext {
  const playerId = String(msg.playerid ?? '');
  return playerId === RELAYED ? relayedContext(app, msg, parsed, help) : playerContext(app, msg, parsed, help, playerId, isGM(playerId), false);
}

/** A command that acts for a player (the GM or not): who they are, asked of Roll20 once each. */
function playerContext(app: App, msg: Roll20ChatMessage, parsed: ParsedLine, help: () => string, playerId: string, gm: boolean, relayed: boolean): CommandContext {
  // The GM is answered as "gm" whatever the name: the name is asked of Roll20 for a player only.
  const senderName = gm ? 'the GM' : displayName(playerId);
  const ctx: CommandContext = { app, msg, parsed, playerId, gm, senderName, replyTo: whisperTargetOf(gm, senderName), relayed, help };
  // A name that cannot be whispered to: replies go to the GM, saying whom they are for.
  if (!gm && !nameAddressable(senderName)) ctx.replyFor = echo(senderName, 60);
  return ctx;
}

/**
 * commands.md, "Commands relayed by other scripts": another script's command is nobody's. A relay can
 * carry any player's text, so the player its `--api-as` names proves nothing: that player's rights
 * are used only where the GM said no player can make a script relay text (`api-commands api-as`);
 * otherwise the line acts as the GM where the GM allowed it (`api-commands gm`), else is refused.
 * SelectManager gives back the real playerid, so such a message never gets here.
 */
function relayedContext(app: App, msg: Roll20ChatMessage, parsed: ParsedLine, help: () => string): CommandContext {
  const apiAs = parsed.flags.get('api-as');
  parsed.flags.delete('api-as');
  const allowed = app.store.settings.apiCommands;
  if (allowed === 'api-as') {
    const player = relayedFor(apiAs?.length === 1 ? apiAs[0] : undefined);
    if (player !== undefined) return playerContext(app, msg, parsed, help, player, false, true);
  }
  const gm = allowed === 'gm';
  const ctx: CommandContext = { app, msg, parsed, playerId: RELAYED, gm, senderName: displayName(RELAYED), replyTo: 'gm', relayed: true, help };
  if (!gm) ctx.relayRefused = true;
  return ctx;
}

/** The longest reply whispered: whatever a command echoes, a refusal stays a few lines of chat. */
const MAX_REPLY = 2000;

/** Whispers plain text (escaped here) to the sender only. */
export function reply(ctx: CommandContext, text: string): void {
  send(whisperTo(ctx.replyTo), renderLine(replyLine(ctx, text)));
}

/** Whispers a result to the sender, kept in the chat archive (a change the GM made is a result, not a menu). */
export function replyResult(ctx: CommandContext, text: string): void {
  send(whisperTo(ctx.replyTo), renderLine(replyLine(ctx, text)), { record: true });
}

/** A reply's line: cut to its length, and saying whom it is for when it goes to the GM in the sender's place. */
function replyLine(ctx: CommandContext, text: string): string {
  const line = text.length > MAX_REPLY ? `${cutWhole(text, MAX_REPLY - 12)}... (cut)` : text;
  return ctx.replyFor === undefined ? line : `For ${ctx.replyFor}: ${line}`;
}

/** A refusal's longest text, in characters a reader sees: a line or two of Roll20's narrow chat. */
export const MAX_REFUSAL = 200;

/**
 * Whispers a refusal (nothing was changed): one line saying what is wrong and what to do, cut to
 * MAX_REFUSAL, and a button to the command's `--help`, which keeps the full usage.
 */
export function refuse(ctx: CommandContext, problem: string, buttons: readonly Button[] = []): void {
  // The speaker is already DefenseRound: the sentence starts with the problem itself.
  let line = `${problem.charAt(0).toUpperCase()}${problem.slice(1)}`;
  if (!/[.!?]$/.test(line)) line += '.';
  if (ctx.replyFor !== undefined) line = `For ${ctx.replyFor}: ${line}`;
  // The buttons count too, as the labels a reader sees ("[Help]").
  let budget = MAX_REFUSAL - ' [Help]'.length;
  for (const button of buttons) budget -= button.label.length + 3;
  if (line.length > budget) line = `${cutWhole(line, budget - 9)}... (cut)`;
  send(whisperTo(ctx.replyTo), renderLineWithButtons(line, [...buttons, { label: 'Help', command: ctx.help() }]));
}

export function tokenRecord(app: App, tokenId: string): TokenRecord {
  const existing = app.store.tokens[tokenId];
  if (existing) return existing;
  const created: TokenRecord = {};
  app.store.tokens[tokenId] = created;
  return created;
}


/** Drops a token's record once nothing in it is worth keeping, so state stays small. */
export function pruneRecord(app: App, tokenId: string): void {
  const record = app.store.tokens[tokenId];
  if (record && isEmptyRecord(record)) delete app.store.tokens[tokenId];
}
