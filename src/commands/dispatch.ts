// Chat message -> the handler of its command. Every command goes through here, so parsing
// errors, --help and refusals are handled once.
import { commandContext, refuse, reply, type App, type CommandContext } from './context';
import { isSpace, parseLine, wordEnd, RefusalError, substituteInlineRolls, UsageError, type ParsedLine } from '../text/args';
import { send, whisperTo } from '../roll20/send';
import { renderCard } from '../render/card';
import { handoutButton } from './helpHandout';
import { SCRIPT_NAME } from '../version';

export interface CommandHandler {
  /** The usage line shown with every refusal and for --help (the active edition's, where it differs). */
  usage(app: App): string;
  /** Extra lines for --help. */
  help?(app: App): string[];
  /** One line per flag for --help, read from the command's typed flags (text/flags.ts, `flagHelp`). */
  flags?(app: App): string[];
  /** --help for a sub-command or mode (`!damage --undo --help`, `!defense-round config --help`). */
  helpFor?(app: App, parsed: ParsedLine): { title: string; usage: string; what: string[] } | undefined;
  run(ctx: CommandContext): void | Promise<void>;
}

export type CommandTable = Record<string, CommandHandler>;

/** The command word of an API message, or undefined when it is not one of ours. */
export function commandWord(msg: Roll20ChatMessage, table: CommandTable): string | undefined {
  if (msg.type !== 'api' || typeof msg.content !== 'string') return undefined;
  const content = msg.content;
  // The first word, up to the first white space (every message of every script comes here).
  let start = 0;
  while (start < content.length && isSpace(content.charCodeAt(start))) start += 1;
  const word = content.slice(start, wordEnd(content, start)).toLowerCase();
  return Object.prototype.hasOwnProperty.call(table, word) ? word : undefined;
}


/**
 * The one line a relayed command gets when the settings give it no one to act for. A relay can carry
 * any player's text, so how to allow relays names what each setting trusts.
 */
function relayRefusal(app: App, word: string): string {
  if (app.store.settings.apiCommands === 'api-as') {
    return `Another script relayed ${word} without --api-as naming a player (not a GM): refused, nothing changed. Relay it with --api-as PLAYERID, or let relays act as the GM: !defense-round config api-commands gm.`;
  }
  return `Another script relayed ${word}, and a relay names no player it can vouch for: refused, nothing changed. To allow relays: !defense-round config api-commands gm (they act as the GM), or !defense-round config api-commands api-as (--api-as PLAYERID acts as that player; only if no player can make a script relay text).`;
}

/** The `--help` a refusal's button sends: the sub-command's (`!damage --undo --help`) where it has its own help. */
function helpCommand(app: App, handler: CommandHandler, parsed: ParsedLine, word: string): string {
  const own = handler.helpFor?.(app, parsed);
  return `${own?.title ?? word} --help`;
}

export async function dispatch(app: App, msg: Roll20ChatMessage, table: CommandTable, word: string | undefined = commandWord(msg, table)): Promise<void> {
  if (!word) return;
  const handler = table[word]!;
  const content = substituteInlineRolls(msg.content, msg.inlinerolls);
  let ctx: CommandContext | undefined;
  try {
    const parsed = parseLine(content);
    ctx = commandContext(app, msg, parsed, () => helpCommand(app, handler, parsed, word));
    if (ctx.relayRefused) {
      // One line to the GM (a relay has nobody else to answer): what came, and how to allow it.
      reply(ctx, relayRefusal(app, word));
      return;
    }
    if (!ctx.relayed && ctx.parsed.flags.has('api-as')) throw new UsageError('--api-as is read only on a command another script relays');
    // A newer version's state is left alone: every command answers so, but the GM's way out.
    if (app.newerState !== undefined && !(word === '!defense-round' && ctx.gm && (ctx.parsed.positionals[0] ?? '').toLowerCase() === 'reset-state')) {
      reply(ctx, `The saved state was written by a newer version of ${SCRIPT_NAME} (schema ${app.newerState}): commands are paused until the script is updated${ctx.gm ? ', or until you discard that state with !defense-round reset-state' : ''}.`);
      return;
    }
    if (ctx.parsed.flags.has('help')) {
      // A short card: the usage, then what it does.
      const special = handler.helpFor?.(app, ctx.parsed);
      const help = special ?? { title: word, usage: handler.usage(app), what: handler.help?.(app) ?? [] };
      // Sent to the GM in the sender's place (a name that cannot be whispered to): the title says for whom.
      const forWhom = ctx.replyFor === undefined ? '' : ` (for ${ctx.replyFor})`;
      const link = handoutButton();
      const flags = special === undefined ? (handler.flags?.(app) ?? []) : [];
      const rows = [{ label: 'Usage', lines: [help.usage] }, { label: 'What it does', lines: help.what }, ...(flags.length > 0 ? [{ label: 'Flags', lines: flags }] : [])];
      send(whisperTo(ctx.replyTo), renderCard({ title: `Help: ${help.title}${forWhom}`, rows: [...rows, ...(link ? [{ label: 'Every command', lines: [], buttons: [link] }] : [])] }));
      return;
    }
    // Most commands run to their end at once; only one that waits on a roll gives a promise.
    const running = handler.run(ctx);
    if (running) await running;
  } catch (error) {
    if (error instanceof UsageError || error instanceof RefusalError) {
      ctx ??= commandContext(app, msg, { command: word, positionals: [], flags: new Map() });
      if (ctx.relayRefused) {
        reply(ctx, relayRefusal(app, word));
        return;
      }
      // One line and a button to --help, which keeps the usage (commands.md, "Output").
      refuse(ctx, error.message);
      return;
    }
    throw error;
  }
}
