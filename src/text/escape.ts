// The one escaper: everything the game or a player supplies passes here before it reaches chat.
// HTML, and Roll20's own syntax: [[ ]] starts a roll, {{ }} breaks a roll template, @{ } and %{ }
// call attributes and abilities, ?{ } asks a query, &{ } starts a template, and a leading `!` or
// `/` would make the text a command.

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '[': '&#91;',
  ']': '&#93;',
  '{': '&#123;',
  '}': '&#125;',
  '@': '&#64;',
  '%': '&#37;',
  '?': '&#63;',
  '|': '&#124;',
  '*': '&#42;',
  '`': '&#96;',
  '!': '&#33;',
  '/': '&#47;',
  '=': '&#61;',
  '$': '&#36;',
  ':': '&#58;',
  '\\': '&#92;',
};


// Line breaks of every kind become spaces (a card line is one line, `\r\n` one space); NUL, other
// control characters and the bidirectional overrides that could reverse what a reader sees are
// dropped. One table for the ASCII range: what each character becomes, or undefined to keep it.
const ASCII: Array<string | undefined> = [];
for (let code = 0; code < 128; code += 1) {
  const ch = String.fromCharCode(code);
  if (ENTITIES[ch] !== undefined) ASCII[code] = ENTITIES[ch];
  else if (ch === '\n' || ch === '\r') ASCII[code] = ' ';
  else if ((code < 32 && ch !== '\t') || code === 127) ASCII[code] = '';
  else ASCII[code] = undefined;
}

/** What a character above ASCII becomes, or undefined to keep it. */
function wide(code: number): string | undefined {
  if (code === 0x85 || code === 0x2028 || code === 0x2029) return ' ';
  if (code === 0x200e || code === 0x200f || (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069)) return '';
  return undefined;
}

// One pass over the characters, copying only when something changes (most card text needs
// nothing, and a row's `->` one entity): no regex and no callback per character.
export function escapeChat(text: unknown): string {
  const value = typeof text === 'string' ? text : String(text ?? '');
  let out = '';
  let from = 0;
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    const becomes = code < 128 ? ASCII[code] : wide(code);
    if (becomes === undefined) continue;
    out += value.slice(from, i) + becomes;
    // `\r\n` is one line break: one space.
    if (code === 13 && value.charCodeAt(i + 1) === 10) i += 1;
    from = i + 1;
  }
  return from === 0 ? value : out + value.slice(from);
}
