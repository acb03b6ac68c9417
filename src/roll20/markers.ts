// Status markers: Roll20 keeps them as one comma-separated string ("dead,blue@3").
import type { Condition } from '../rules/edition';
import type { Settings } from '../state/settings';

function markerName(entry: string): string {
  const at = entry.indexOf('@');
  return at === -1 ? entry : entry.slice(0, at);
}

/**
 * The marker string with `remove` taken out and `add` put in (each once), others untouched. A
 * marker to add that is there already stays where it is, and a string that would come out the same
 * is given back as it was: a hit that changes no condition changes no marker (nothing to undo).
 */
export function withMarkers(current: string, add: readonly string[], remove: readonly string[]): string {
  if (current === '') return add.length === 0 ? '' : add.join(',');
  const wanted = new Set(add);
  const drop = new Set(remove);
  const placed = new Set<string>();
  const kept: string[] = [];
  for (const raw of current.split(',')) {
    const entry = raw.trim();
    if (entry === '') continue;
    const name = markerName(entry);
    if (wanted.has(name)) {
      // The plain marker kept in its place, once; a numbered one (dead@2) gives way to it.
      if (entry === name && !placed.has(name)) {
        placed.add(name);
        kept.push(entry);
      }
      continue;
    }
    if (!drop.has(name)) kept.push(entry);
  }
  for (const marker of add) if (!placed.has(marker)) kept.push(marker);
  const result = kept.join(',');
  return sameMarkers(current, result) ? current : result;
}

/** Whether two marker strings hold the same markers in the same order (spaces and empty entries aside). */
function sameMarkers(a: string, b: string): boolean {
  const list = (text: string) => text.split(',').map((entry) => entry.trim()).filter((entry) => entry !== '');
  const left = list(a);
  const right = list(b);
  return left.length === right.length && left.every((entry, index) => entry === right[index]);
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
