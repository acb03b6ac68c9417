import fc from 'fast-check';
import { describe, it, expect } from 'vitest';
import { escapeChat } from '../../src/text/escape';
import { renderButton, renderCard } from '../../src/render/card';

describe('escaping what the game supplies', () => {
  it('turns HTML into entities', () => {
    expect(escapeChat('<img src=x onerror=alert(1)>')).not.toMatch(/[<>]/);
  });

  it.each(['[[1d20]]', '{{name=x}}', '@{Bob|hp}', '%{Bob|attack}', '?{Amount}', '&{template:default}', '!damage 5', '/w gm hi'])(
    'neutralises Roll20 syntax in %s',
    (text) => {
      const escaped = escapeChat(text);
      for (const danger of ['[[', ']]', '{{', '}}', '@{', '%{', '?{', '&{']) expect(escaped).not.toContain(danger);
      expect(escaped.startsWith('!')).toBe(false);
      expect(escaped.startsWith('/')).toBe(false);
    },
  );

  it('keeps plain words readable', () => {
    expect(escapeChat('Goblin 1')).toBe('Goblin 1');
  });

  it('escapes every title, label and line of a card, keeping the template markup', () => {
    const card = renderCard({ title: 'Evil}} {{x=1', rows: [{ label: 'A=B', lines: ['[[1d6]]', 'ok'] }] });
    expect(card.startsWith('&{template:default} {{name=')).toBe(true);
    expect(card.match(/\{\{/g)).toHaveLength(2);
    expect(card.match(/\}\}/g)).toHaveLength(2);
    expect(card).toContain('<br>');
  });

  it('escapes a button label but keeps its command', () => {
    const button = renderButton('Hit <b>Bob</b>', '!damage ?{Damage} --ids -Abc');
    expect(button).toBe('[Hit &lt;b&gt;Bob&lt;&#47;b&gt;](!damage ?{Damage} --ids -Abc)');
  });
});

describe('control characters from game text', () => {
  it('turns every kind of line break into a space and drops NUL and bidirectional overrides', () => {
    expect(escapeChat('a\rb\nc\r\nd\u0085e\u2028f\u2029g')).toBe('a b c d e f g');
    expect(escapeChat('evil\u202Egnp.exe\u0000')).toBe('evilgnp.exe');
    expect(escapeChat('tab\there')).toBe('tab\there');
  });
});

describe('the one-pass escaper matches the rule it implements', () => {
  // The rule as a plain regex replace: entities, every line break one space, invisible characters dropped.
  const ENTITY: Record<string, string> = {
    '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '[': '&#91;', ']': '&#93;', '{': '&#123;', '}': '&#125;',
    '@': '&#64;', '%': '&#37;', '?': '&#63;', '|': '&#124;', '*': '&#42;', '`': '&#96;', '!': '&#33;', '/': '&#47;', '=': '&#61;',
    '$': '&#36;', ':': '&#58;', '\\': '&#92;',
  };
  const reference = (text: string): string =>
    text
      .replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, ' ')
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '')
      .replace(/[&<>"'[\]{}@%?|*`!/=$:\\]/g, (ch) => ENTITY[ch]!);
  const alphabet = ['a', 'Z', '7', ' ', '\t', '\r', '\n', '\u0000', '\u001f', '\u007f', '\u0085', '\u2028', '\u2029', '\u200e', '\u202e', '\u2066', '\u2069', 'é', '→', '😀', ...Object.keys(ENTITY)];

  it('on any mix of plain, special and invisible characters', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...alphabet), { maxLength: 40 }), (chars) => {
        const text = chars.join('');
        expect(escapeChat(text)).toBe(reference(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('on any string at all', () => {
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
      expect(escapeChat(text)).toBe(reference(text));
    }), { numRuns: 2000 });
  });

  it('returns plain text as it came, and text made of nothing but specials fully replaced', () => {
    expect(escapeChat('Goblin 3 falls')).toBe('Goblin 3 falls');
    expect(escapeChat('\r\n')).toBe(' ');
    expect(escapeChat('<>')).toBe('&lt;&gt;');
    expect(escapeChat(undefined)).toBe('');
    expect(escapeChat(12)).toBe('12');
  });
});
