// A refusal of an unknown name says what was likely meant: one edit away (two for names longer than
// five letters, a swap of two letters counting as one), or a name the typed text starts.
import { describe, expect, it } from 'vitest';
import { nearestName, suggest } from '../../src/text/args';

const FLAGS = ['type', 'pierce', 'to', 'instant-kill', 'defense', 'ids', 'help'];

describe('the name a typo meant', () => {
  it('finds one edit, a swap, two edits in a long name, and a prefix', () => {
    expect(nearestName('typ', FLAGS)).toBe('type');
    expect(nearestName('tpye', FLAGS)).toBe('type');
    expect(nearestName('peirce', FLAGS)).toBe('pierce');
    expect(nearestName('defnse', FLAGS)).toBe('defense');
    expect(nearestName('instant', FLAGS)).toBe('instant-kill');
  });

  it('suggests nothing when nothing is close, or for a typed text too long to be a name', () => {
    expect(nearestName('zzz', FLAGS)).toBeUndefined();
    expect(nearestName('color', FLAGS)).toBeUndefined();
    expect(nearestName('x'.repeat(41), FLAGS)).toBeUndefined();
  });

  it('words the suggestion, with the flag\'s dashes, or points at Help', () => {
    expect(suggest('typ', FLAGS, 'flags', '--')).toBe('did you mean --type?');
    expect(suggest('VISIBILITY.NCP', ['visibility.npc', 'visibility.pc'], 'settings')).toBe('did you mean visibility.npc?');
    expect(suggest('zzz', FLAGS, 'flags', '--')).toBe('Help lists the flags');
  });
});
