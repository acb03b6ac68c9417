import { describe, it, expect } from 'vitest';
import { withMarkers, hasMarker, markersForCondition, markersForStance } from '../../src/roll20/markers';
import { defaultSettings } from '../../src/state/settings';

describe('status markers', () => {
  it('adds and removes markers, leaving the others (with their numbers) alone', () => {
    expect(withMarkers('blue@3,sleepy,red', ['dead'], ['sleepy'])).toBe('blue@3,red,dead');
    expect(withMarkers('', ['dead'], [])).toBe('dead');
    expect(withMarkers('dead', ['dead'], [])).toBe('dead');
  });

  it('keeps one condition marker at a time', () => {
    const settings = defaultSettings();
    expect(markersForCondition('sleepy,blue', 'dying', settings)).toBe('blue,death-zone');
    expect(markersForCondition('death-zone', 'dead', settings)).toBe('dead');
    expect(markersForCondition('dead,fist', 'none', settings)).toBe('fist');
  });

  it('keeps stance markers apart from condition markers', () => {
    const settings = defaultSettings();
    expect(markersForStance('sleepy', 'defensive', settings)).toBe('sleepy,bolt-shield');
    expect(markersForStance('sleepy,bolt-shield', 'reactive', settings)).toBe('sleepy,fist');
    expect(markersForStance('sleepy,fist', null, settings)).toBe('sleepy');
    expect(hasMarker('a,b@2', 'b')).toBe(true);
  });
});
