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
