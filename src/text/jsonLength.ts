// How long a string is once JSON writes it: `state` is saved as JSON, and players name tokens.

/**
 * A string's length as JSON writes it, quotes included: `"` and `\\` take 2, \b \f \n \r \t 2, the
 * other control characters and lone surrogates 6 (\u001b). Names are players' text: counted exactly.
 */
export function jsonLength(text: string): number {
  let size = 2;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === 0x22 || code === 0x5c || code === 0x08 || code === 0x0c || code === 0x0a || code === 0x0d || code === 0x09) size += 2;
    else if (code < 0x20) size += 6;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        size += 2;
        i += 1;
      } else size += 6;
    } else if (code >= 0xdc00 && code <= 0xdfff) size += 6;
    else size += 1;
  }
  return size;
}
