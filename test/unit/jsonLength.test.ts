// The undo history's size is counted without writing JSON: jsonLength must be JSON's own length.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { jsonLength } from '../../src/text/jsonLength';

describe('jsonLength', () => {
  it('is the length JSON.stringify writes, for any string (control characters, quotes, lone surrogates)', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (text) => jsonLength(text) === JSON.stringify(text).length), { numRuns: 2000 });
    for (const text of ['', '"', '\\', '\u0000\u0007\u001b', '\b\f\n\r\t', '\ud800', '\udc00x', '\ud83d\ude00', '\u2028']) {
      expect(jsonLength(text)).toBe(JSON.stringify(text).length);
    }
  });
});
