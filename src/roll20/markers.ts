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
 * Runs per token per hit: the lists are a few names, searched as arrays.
 */
export function withMarkers(current: string, add: readonly string[], remove: readonly string[]): string {
  if (current === '') return add.length === 0 ? '' : add.join(',');
  let placed: string[] | undefined;
  let result = '';
  let start = 0;
  for (;;) {
    const comma = current.indexOf(',', start);
    const raw = comma === -1 ? current.slice(start) : current.slice(start, comma);
    const entry = raw.trim();
    if (entry !== '') {
      const name = markerName(entry);
      let keep: boolean;
      if (add.includes(name)) {
        // The plain marker kept in its place, once; a numbered one (dead@2) gives way to it.
        keep = entry === name && !(placed?.includes(name) ?? false);
        if (keep) (placed ??= []).push(name);
      } else keep = !remove.includes(name);
      if (keep) result += result === '' ? entry : `,${entry}`;
    }
    if (comma === -1) break;
    start = comma + 1;
  }
  for (const marker of add) if (!(placed?.includes(marker) ?? false)) result += result === '' ? marker : `,${marker}`;
  // The same markers in the same order, written with spaces or empty entries: left as they were.
  if (result === current || (result.length < current.length && result === tidy(current))) return current;
  return result;
}

/** A marker string without spaces around its entries or empty entries. */
function tidy(markers: string): string {
  return markers
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '')
    .join(',');
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
