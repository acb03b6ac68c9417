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


// Line breaks of every kind become spaces (a card line is one line); NUL, other control characters
// and the bidirectional overrides that could reverse what a reader sees are dropped.
const LINE_BREAKS = /^(?:\r\n|[\r\n\u0085\u2028\u2029])$/;

// One pass over the text for all three: entities, line breaks to spaces, invisible characters dropped.
const ANY = /\r\n|[\r\n\u0085\u2028\u2029]|[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]|[&<>"'[\]{}@%?|*`!/=$:\\]/g;

function replacement(ch: string): string {
  const entity = ENTITIES[ch];
  if (entity !== undefined) return entity;
  return LINE_BREAKS.test(ch) ? ' ' : '';
}

// The same pattern without `g`, so `test` keeps no position between calls.
const NEEDS = new RegExp(ANY.source);

export function escapeChat(text: unknown): string {
  const value = String(text ?? '');
  // Test before escaping: most lines of a card need nothing.
  return NEEDS.test(value) ? value.replace(ANY, replacement) : value;
}
