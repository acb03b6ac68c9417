// A chat record as Roll20 shows it, as data the page draws with text nodes only (never innerHTML):
// roll templates as titled tables, [label](!command) as buttons, $[[n]] as inline rolls, <br> as
// line breaks, whispers marked. Text from the script counts as markup only after a check that it
// is the script's escaped output: each run of text must be what src/text/escape.ts makes of its
// own decoding, so a player's raw text that slipped through unescaped is caught and shown as the
// literal characters, flagged. Players' text is never markup: its entities decode to characters.
import type { ChatRecord } from '../../mocks/chat-message.js';
import { decodeEntities } from '../../mocks/chat-text.js';
import { escapeChat } from '../../src/text/escape.js';

export type Inline =
  | { t: 'text'; text: string }
  | { t: 'br' }
  | { t: 'roll'; total: string; expression: string; faces: number[] }
  | { t: 'button'; label: Inline[]; command: string };

export interface TemplateView {
  name: string;
  title?: Inline[];
  rows: Array<{ label: Inline[]; value: Inline[] }>;
  /** Text outside the {{fields}}. */
  extra: Inline[];
}

export type MessageKind = 'general' | 'whisper' | 'emote' | 'desc' | 'roll' | 'gmroll' | 'api';

export interface MessageView {
  who: string;
  kind: MessageKind;
  /** Sent by the script (sendChat), not typed by a player. */
  fromScript: boolean;
  /** 'gm' or a name. */
  whisperTo?: string;
  template?: TemplateView;
  body: Inline[];
  /** Set when the script's text failed the escape check: why; the body is then the raw text. */
  unescaped?: string;
  /** Transient (a menu or help, kept out of the archive). */
  transient: boolean;
}

class Unescaped extends Error {}

interface Parse {
  trusted: boolean;
  rolls: Roll20InlineRoll[];
}

const PIECES = /\$\[\[(\d+)\]\]|\[([^\]\n]*)\]\(([^)\n]*)\)|<br\s*\/?>/gi;

/** One run of text: the script's is checked, then decoded; a player's is decoded. */
function textOf(run: string, p: Parse): Inline[] {
  if (run === '') return [];
  if (p.trusted && escapeChat(decodeEntities(run)) !== run) {
    throw new Unescaped(`"${run.length > 60 ? `${run.slice(0, 60)}…` : run}" is not the script's escaped text`);
  }
  return [{ t: 'text', text: decodeEntities(run) }];
}

export function parseInline(source: string, p: Parse): Inline[] {
  const out: Inline[] = [];
  let at = 0;
  for (const match of source.matchAll(PIECES)) {
    const index = match.index ?? 0;
    const [all, roll, label, command] = match;
    if (all.startsWith('<') && !p.trusted) continue; // a player's <br> stays text
    out.push(...textOf(source.slice(at, index), p));
    at = index + all.length;
    if (roll !== undefined) {
      const found = p.rolls[Number(roll)];
      out.push(
        found
          ? { t: 'roll', total: String(found.results.total), expression: found.expression, faces: facesOf(found.results.rolls) }
          : { t: 'text', text: all },
      );
    } else if (label !== undefined && command !== undefined) {
      const decoded = decodeEntities(command).trim();
      // Only chat commands are buttons; any other link shows as its text.
      if (decoded.startsWith('!')) out.push({ t: 'button', label: parseInline(label, p), command: decoded });
      else out.push(...textOf(all, { ...p, trusted: false }));
    } else {
      out.push({ t: 'br' });
    }
  }
  out.push(...textOf(source.slice(at), p));
  return out;
}

function facesOf(rolls: unknown): number[] {
  if (!Array.isArray(rolls)) return [];
  const faces: number[] = [];
  for (const roll of rolls as Array<{ results?: Array<{ v?: unknown }> }>) {
    for (const result of roll.results ?? []) if (typeof result.v === 'number') faces.push(result.v);
  }
  return faces;
}

function parseTemplate(name: string, content: string, p: Parse): TemplateView {
  const view: TemplateView = { name, rows: [], extra: [] };
  let rest = '';
  let at = 0;
  for (const match of content.matchAll(/\{\{([\s\S]*?)\}\}/g)) {
    rest += content.slice(at, match.index ?? 0);
    at = (match.index ?? 0) + match[0].length;
    const field = match[1] ?? '';
    const eq = field.indexOf('=');
    const key = eq < 0 ? field : field.slice(0, eq);
    const value = eq < 0 ? '' : field.slice(eq + 1);
    if (key.trim().toLowerCase() === 'name') view.title = parseInline(value.trim(), p);
    else view.rows.push({ label: parseInline(key.trim(), p), value: parseInline(value.trim(), p) });
  }
  rest += content.slice(at);
  view.extra = parseInline(rest.trim(), p);
  return view;
}

function kindOf(record: ChatRecord): MessageKind {
  switch (record.type) {
    case 'whisper':
      return 'whisper';
    case 'emote':
      return 'emote';
    case 'desc':
      return 'desc';
    case 'rollresult':
      return 'roll';
    case 'gmrollresult':
      return 'gmroll';
    case 'api':
      return 'api';
    default:
      return 'general';
  }
}

export function viewOf(record: ChatRecord): MessageView {
  const fromScript = record.playerid === 'API';
  const kind = kindOf(record);
  const view: MessageView = { who: record.who, kind, fromScript, body: [], transient: record.noarchive === true };
  if (record.whisperTo !== undefined) view.whisperTo = record.whisperTo;
  if (kind === 'api') {
    // A command as typed: Roll20 does not show it; the page shows it muted, as plain text.
    view.body = [{ t: 'text', text: record.raw }];
    return view;
  }
  if (kind === 'roll' || kind === 'gmroll') {
    view.body = describeRoll(record);
    return view;
  }
  const p: Parse = { trusted: fromScript, rolls: record.inlinerolls ?? [] };
  try {
    if (record.rolltemplate !== undefined) view.template = parseTemplate(record.rolltemplate, record.content, p);
    else view.body = parseInline(record.content.trim(), p);
  } catch (error) {
    if (!(error instanceof Unescaped)) throw error;
    delete view.template;
    view.unescaped = error.message;
    view.body = [{ t: 'text', text: record.content }];
  }
  return view;
}

function describeRoll(record: ChatRecord): Inline[] {
  const expression = /^\/\w+\s+([\s\S]*)$/.exec(record.raw)?.[1] ?? '';
  try {
    const parsed = JSON.parse(record.content) as { total?: unknown; rolls?: unknown };
    return [
      { t: 'text', text: `rolling ${expression} = ` },
      { t: 'roll', total: String(parsed.total), expression, faces: facesOf(parsed.rolls) },
    ];
  } catch {
    return [{ t: 'text', text: record.content }];
  }
}

/** Plain text of inline content (for labels and tests). */
export function plain(inlines: readonly Inline[]): string {
  return inlines
    .map((i) => (i.t === 'text' ? i.text : i.t === 'br' ? '\n' : i.t === 'roll' ? i.total : plain(i.label)))
    .join('');
}

/** A whisper the speaker would not see in Roll20: to someone else, and not sent by them. */
export function hiddenFrom(view: MessageView, speaker: string, speakerIsGM: boolean, sentBy: string): boolean {
  if (view.whisperTo === undefined) return false;
  const to = view.whisperTo.toLowerCase();
  if (to === 'gm') return !speakerIsGM && sentBy !== speaker;
  return to !== speaker.toLowerCase() && sentBy !== speaker;
}
