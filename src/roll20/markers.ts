// Status markers: Roll20 keeps them as one comma-separated string ("dead,blue@3").

function markerName(entry: string): string {
  const at = entry.indexOf('@');
  return at === -1 ? entry : entry.slice(0, at);
}

/** The marker string with `remove` taken out and `add` put in (each once), others untouched. */
export function withMarkers(current: string, add: readonly string[], remove: readonly string[]): string {
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
