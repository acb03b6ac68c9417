// Text cut for chat keeps whole characters: an echo cut through an emoji left half of it (issue 29, hole 19).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { cutWhole } from '../../src/text/cut';

const isHigh = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLow = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** Whether a string holds half a surrogate pair on its own. */
function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (isHigh(code)) {
      if (!isLow(text.charCodeAt(i + 1))) return true;
      i += 1;
    } else if (isLow(code)) return true;
  }
  return false;
}

/** Well-formed text, emoji and other astral characters often: any code point but a lone surrogate. */
const wellFormed = fc
  .array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x1f300, max: 0x1faff }), fc.integer({ min: 0, max: 0xd7ff }), fc.integer({ min: 0xe000, max: 0x10ffff })), { maxLength: 60 })
  .map((points) => String.fromCodePoint(...points));

describe('cutWhole', () => {
  it('cuts well-formed text to a prefix with no lone surrogate, as long as possible within the limit', () => {
    fc.assert(
      fc.property(wellFormed, fc.integer({ min: 0, max: 130 }), (text, max) => {
        const cut = cutWhole(text, max);
        expect(text.startsWith(cut)).toBe(true);
        expect(cut.length).toBeLessThanOrEqual(max);
        expect(hasLoneSurrogate(cut)).toBe(false);
        // As long as possible: all of it, or the limit, or one short where the limit falls inside a pair.
        const longest = Math.min(text.length, max);
        const splitsPair = longest < text.length && longest > 0 && isHigh(text.charCodeAt(longest - 1)) && isLow(text.charCodeAt(longest));
        expect(cut.length).toBe(splitsPair ? longest - 1 : longest);
      }),
      { numRuns: 3000 },
    );
  });

  it('on any text (lone surrogates included), never splits a pair it was given and is as long as possible', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 60 }), fc.integer({ min: 0, max: 130 }), (text, max) => {
        const cut = cutWhole(text, max);
        expect(text.startsWith(cut)).toBe(true);
        const end = cut.length;
        expect(end === text.length || !(end > 0 && isHigh(text.charCodeAt(end - 1)) && isLow(text.charCodeAt(end)))).toBe(true);
        expect(end).toBeGreaterThanOrEqual(Math.min(text.length, max) - 1);
      }),
      { numRuns: 3000 },
    );
  });

  it('keeps or drops a whole emoji at the limit', () => {
    const text = `${'a'.repeat(39)}😀`;
    expect(cutWhole(text, 40)).toBe('a'.repeat(39));
    expect(cutWhole(text, 41)).toBe(text);
    expect(cutWhole('😀😀', 3)).toBe('😀');
    expect(cutWhole('😀', 1)).toBe('');
    expect(cutWhole('abc', 0)).toBe('');
    expect(cutWhole('abc', -5)).toBe('');
  });
});
