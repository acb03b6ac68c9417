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

const SPECIAL = /[&<>"'[\]{}@%?|*`!/=$:\\]/g;

export function escapeChat(text: unknown): string {
  return String(text ?? '')
    .replace(SPECIAL, (ch) => ENTITIES[ch] ?? ch)
    .replace(/\r?\n/g, ' ');
}
