// Status markers: Roll20 keeps them as one comma-separated string ("dead,blue@3").
import type { Condition } from '../rules/edition';
import type { Settings } from '../state/settings';

function markerName(entry: string): string {
  const at = entry.indexOf('@');
  return at === -1 ? entry : entry.slice(0, at);
}

/** The marker string with `remove` taken out and `add` put in (each once), others untouched. */
export function withMarkers(current: string, add: readonly string[], remove: readonly string[]): string {
  if (current === '') return add.length === 0 ? '' : add.join(',');
  const drop = new Set([...remove, ...add]);
  const kept = current
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '' && !drop.has(markerName(entry)));
  return [...kept, ...add].join(',');
}

export function hasMarker(current: string, marker: string): boolean {
  return current.split(',').some((entry) => markerName(entry.trim()) === marker);
}

/** One condition marker at a time; stance markers are left alone (rules.md, "Markers"). */
export function markersForCondition(current: string, condition: Condition, settings: Settings): string {
  const { incapacitated, dying, dead } = settings.markers;
  const wanted = condition === 'none' ? [] : [settings.markers[condition]];
  return withMarkers(current, wanted, [incapacitated, dying, dead]);
}

const STANCE_MARKER_KEYS = ['defensive', 'reactive', 'active', 'full'] as const;

/** One stance marker at a time (a stance with no marker, like `passive` or none, shows none). */
export function markersForStance(current: string, stance: string | null, settings: Settings): string {
  const key = STANCE_MARKER_KEYS.find((name) => name === stance);
  return withMarkers(current, key ? [settings.markers[key]] : [], STANCE_MARKER_KEYS.map((name) => settings.markers[name]));
}
