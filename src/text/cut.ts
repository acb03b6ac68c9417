// Cutting text that reaches chat: lengths count UTF-16 units, and a cut between the two halves of
// an emoji (a surrogate pair) leaves half a character, which chat shows as garbage.

/**
 * `text` cut to at most `max` UTF-16 units on a whole character: when the cut would fall between the
 * two halves of a surrogate pair, the whole pair goes. The longest such prefix; `text` itself when it fits.
 */
export function cutWhole(text: string, max: number): string {
  if (text.length <= max) return text;
  const at = Math.floor(max);
  if (!(at > 0)) return '';
  const high = text.charCodeAt(at - 1);
  const low = text.charCodeAt(at);
  // A high half whose low half would be cut off is left out with it.
  const split = high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
  return text.slice(0, split ? at - 1 : at);
}
