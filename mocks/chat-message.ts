// Turns a chat line into the message Roll20 would build: inline rolls, whispers, emotes, /roll,
// roll templates. Shared by the API's sendChat and a player typing in the chat box.
import type { Dice } from './dice.js';

/** One message as the mock's chat log keeps it. */
export interface ChatRecord {
  who: string;
  playerid: string;
  type: Roll20ChatMessage['type'];
  content: string;
  /** 'gm' or the recipient's name, quotes removed. */
  whisperTo?: string;
  rolltemplate?: string;
  /** The line as sent, before inline rolls were replaced. */
  raw: string;
  inlinerolls?: Roll20InlineRoll[];
  selected?: Roll20SelectedObject[];
  /** Sent with /direct: HTML posted as is. */
  direct?: boolean;
  noarchive?: boolean;
}

export interface ComposeInput {
  who: string;
  playerid: string;
  raw: string;
  selected?: Roll20SelectedObject[];
}

export interface Composed {
  message: Roll20ChatMessage;
  record: ChatRecord;
  warnings: string[];
}

// Chat commands whose body Roll20 posts with another message type.
const SIMPLE_COMMANDS: Record<string, { type: Roll20ChatMessage['type']; direct?: boolean }> = {
  em: { type: 'emote' },
  me: { type: 'emote' },
  emote: { type: 'emote' },
  desc: { type: 'desc' },
  direct: { type: 'general', direct: true },
  ooc: { type: 'general' },
};

export function composeMessage(input: ComposeInput, dice: Dice): Composed {
  const warnings: string[] = [];
  let body = input.raw;
  let type: Roll20ChatMessage['type'] = 'general';
  let whisperTo: string | undefined;
  let direct = false;
  let origRoll: string | undefined;

  const command = /^\/([a-z]+)(?:\s+|$)/i.exec(body);
  if (body.startsWith('!')) {
    type = 'api';
  } else if (command) {
    const name = (command[1] ?? '').toLowerCase();
    const rest = body.slice(command[0].length);
    if (name === 'w' || name === 'whisper') {
      const target = /^"([^"]*)"\s*|^(\S+)\s*/.exec(rest);
      whisperTo = target ? (target[1] ?? target[2] ?? '') : '';
      if (whisperTo.toLowerCase() === 'gm') whisperTo = 'gm';
      body = target ? rest.slice(target[0].length) : '';
      type = 'whisper';
    } else if (name === 'r' || name === 'roll' || name === 'gr' || name === 'gmroll') {
      type = name.startsWith('g') ? 'gmrollresult' : 'rollresult';
      origRoll = rest;
      const roll = dice.evaluate(rest);
      body = JSON.stringify({ type: 'V', resultType: 'sum', total: roll.total, rolls: rollDetail(roll.faces) });
    } else if (SIMPLE_COMMANDS[name]) {
      type = SIMPLE_COMMANDS[name].type;
      direct = SIMPLE_COMMANDS[name].direct === true;
      body = rest;
    } else {
      warnings.push(`chat command /${name} is not simulated; sent as plain text`);
    }
  }

  let rolltemplate: string | undefined;
  body = body.replace(/&\{template:([^}]*)\}/g, (_all, name: string) => {
    rolltemplate = name.trim();
    return '';
  });
  body = body.replace(/&\{noerror\}/g, '');

  const inlinerolls: Roll20InlineRoll[] = [];
  if (origRoll === undefined) body = replaceInlineRolls(body, dice, inlinerolls);

  const message: Roll20ChatMessage = { who: input.who, playerid: input.playerid, type, content: body };
  if (inlinerolls.length > 0) message.inlinerolls = inlinerolls;
  if (rolltemplate !== undefined) message.rolltemplate = rolltemplate;
  if (origRoll !== undefined) message.origRoll = origRoll;
  if (input.selected && input.selected.length > 0) message.selected = input.selected;
  if (whisperTo !== undefined) message.target_name = whisperTo;

  const record: ChatRecord = { who: input.who, playerid: input.playerid, type, content: body, raw: input.raw };
  if (whisperTo !== undefined) record.whisperTo = whisperTo;
  if (rolltemplate !== undefined) record.rolltemplate = rolltemplate;
  if (inlinerolls.length > 0) record.inlinerolls = inlinerolls;
  if (message.selected) record.selected = message.selected;
  if (direct) record.direct = true;
  return { message, record, warnings };
}

/** Replaces each top-level [[expr]] by $[[n]]; nested rolls are rolled first and their totals substituted. */
function replaceInlineRolls(text: string, dice: Dice, out: Roll20InlineRoll[]): string {
  let result = '';
  let index = 0;
  for (;;) {
    const start = text.indexOf('[[', index);
    if (start < 0) return result + text.slice(index);
    const end = matchingClose(text, start);
    if (end < 0) throw new Error(`unclosed inline roll in: ${text}`);
    const inner = text.slice(start + 2, end);
    const expression = substituteNested(inner, dice, out);
    const roll = dice.evaluate(expression);
    out.push({
      expression: roll.expression,
      results: { type: 'V', total: roll.total, rolls: rollDetail(roll.faces) },
      rollid: `-roll${out.length}`,
      signature: 'mock',
    });
    result += `${text.slice(index, start)}$[[${out.length - 1}]]`;
    index = end + 2;
  }
}

function substituteNested(inner: string, dice: Dice, out: Roll20InlineRoll[]): string {
  if (!inner.includes('[[')) return inner;
  const placeholders = replaceInlineRolls(inner, dice, out);
  return placeholders.replace(/\$\[\[(\d+)\]\]/g, (_all, n: string) => String(out[Number(n)]?.results.total ?? 0));
}

/** Where the roll opening at `start` closes (the index of its "]]"), nested rolls counted; -1 when it does not. */
export function matchingClose(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length - 1; i++) {
    if (text.startsWith('[[', i)) {
      depth++;
      i++;
    } else if (text.startsWith(']]', i)) {
      depth--;
      if (depth === 0) return i;
      i++;
    }
  }
  return -1;
}

// A simplified form of Roll20's roll detail: one entry with every face rolled.
function rollDetail(faces: number[]): unknown[] {
  return faces.length === 0 ? [] : [{ type: 'R', results: faces.map((v) => ({ v })) }];
}
