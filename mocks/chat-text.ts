// Chat messages as readable terminal text for the local sandbox: HTML flattened, entities
// decoded, roll templates as titled blocks, inline rolls as their totals, buttons numbered.
import type { ChatRecord } from './chat-message.js';

export interface ChatButton {
  label: string;
  /** The chat line the button sends, entities decoded (as Roll20 sends it when clicked). */
  command: string;
}

export interface RenderedMessage {
  lines: string[];
  buttons: ChatButton[];
}

const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (all, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n >= 0 && n <= 0x10ffff ? String.fromCodePoint(n) : all;
    }
    return NAMED_ENTITIES[code.toLowerCase()] ?? all;
  });
}

/** HTML to lines: <br> and block elements break lines, other tags vanish, entities decode. */
export function htmlToText(html: string): string {
  const text = html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<li[^>]*>/gi, '\n• ')
    .replace(/<\/t[dh]>/gi, '  ')
    .replace(/<\/?(div|p|h[1-6]|ul|ol|li|tr|table|thead|tbody|blockquote|pre|hr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '');
  return decodeEntities(text)
    .split('\n')
    .map((line) => line.replace(/[ \t]+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}

/** Renders one chat record; buttons are numbered from firstButton. */
export function renderMessage(record: ChatRecord, firstButton = 1): RenderedMessage {
  const buttons: ChatButton[] = [];
  let content = record.content.replace(/\$\[\[(\d+)\]\]/g, (all, n: string) => {
    const roll = record.inlinerolls?.[Number(n)];
    return roll ? String(roll.results.total) : all;
  });
  if (record.type === 'rollresult' || record.type === 'gmrollresult') content = describeRoll(record, content);

  const button = (label: string, command: string): string => {
    buttons.push({ label: htmlToText(label), command: decodeEntities(command).trim() });
    return `[${firstButton + buttons.length - 1}: ${htmlToText(label)}]`;
  };
  // One pass, so buttons are numbered in the order they appear: [Label](!cmd) or <a href="!cmd">Label</a>.
  content = content.replace(
    /<a\b[^>]*href\s*=\s*"([^"]*)"[^>]*>([\s\S]*?)<\/a>|\[([^\]]*)\]\(([^)]*)\)/gi,
    (_all, href: string | undefined, anchorLabel: string, label: string, command: string) =>
      href !== undefined ? button(anchorLabel, href) : button(label, command),
  );

  const body = record.rolltemplate !== undefined ? templateLines(content) : htmlToText(content).split('\n');
  const heading = header(record);
  const lines = body.length === 1 && record.rolltemplate === undefined
    ? [`${heading} ${body[0]}`]
    : [heading, ...body.map((line) => `  ${line}`)];
  return { lines, buttons };
}

function header(record: ChatRecord): string {
  if (record.type === 'emote') return `* ${record.who}`;
  if (record.type === 'desc') return '~';
  const to = record.whisperTo === undefined ? '' : record.whisperTo === 'gm' ? ' (to GM)' : ` (to ${record.whisperTo})`;
  const gmRoll = record.type === 'gmrollresult' ? ' (GM roll)' : '';
  return `${record.who}${to}${gmRoll}:`;
}

// &{template:default} {{name=Title}} {{Key=Value}} -> "[ Title ]" then "Key: Value" lines.
function templateLines(content: string): string[] {
  const lines: string[] = [];
  let title: string | undefined;
  const rest = content.replace(/\{\{([\s\S]*?)\}\}/g, (_all, field: string) => {
    const eq = field.indexOf('=');
    const key = eq < 0 ? field : field.slice(0, eq);
    const value = eq < 0 ? '' : field.slice(eq + 1);
    if (key.trim().toLowerCase() === 'name') title = htmlToText(value);
    else if (eq < 0) lines.push(htmlToText(key));
    else {
      // A value of several lines continues under its first line, aligned after "Key: ".
      const label = `${htmlToText(key)}: `;
      const [first = '', ...more] = htmlToText(value).split('\n');
      lines.push(label + first, ...more.map((line) => ' '.repeat(label.length) + line));
    }
    return '';
  });
  const extra = htmlToText(rest);
  return [...(title !== undefined ? [`[ ${title} ]`] : []), ...lines, ...(extra ? extra.split('\n') : [])];
}

function describeRoll(record: ChatRecord, content: string): string {
  try {
    const parsed = JSON.parse(content) as { total?: unknown };
    const expression = /^\/\w+\s+(.*)$/s.exec(record.raw)?.[1] ?? '';
    return `rolls ${expression} = ${String(parsed.total)}`;
  } catch {
    return content;
  }
}

/**
 * A message's content on one line, as a person reads it: template braces and tags dropped, rows as
 * `label: text |`, entities decoded. `buttons: 'label'` shows a chat button by its label only (the
 * fuzzer's leak checks must not read the ids inside a button's command); by default buttons stay.
 */
export function flatText(content: string, options: { buttons?: 'keep' | 'label' } = {}): string {
  const text = options.buttons === 'label' ? content.replace(/\[([^\][]*)\]\(![^()]*\)/g, '$1') : content;
  return decodeEntities(
    text
      .replace(/&\{template:[^}]*\}/g, '')
      .replace(/\{\{name=/g, '')
      .replace(/\{\{([^=}]*)=/g, '$1: ')
      .replace(/\}\}/g, ' |')
      .replace(/<br\s*\/?>/g, ' / ')
      .replace(/<[^>]+>/g, ''),
  ).trim();
}
