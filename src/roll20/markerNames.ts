// Status markers a setting may name: Roll20's built-in ones, or the campaign's own token markers.

const BUILT_IN = new Set(
  (
    'red blue green brown purple pink yellow dead skull sleepy half-heart half-haze interdiction snail ' +
    'lightning-helix spanner chained-heart chemical-bolt death-zone drink-me edge-crack ninja-mask ' +
    'stopwatch fishing-net overdrive strong fist padlock three-leaves fluffy-wing pummeled tread ' +
    'arrowed aura back-pain black-flag bleeding-eye bolt-shield broken-heart cobweb broken-shield ' +
    'flying-flag radioactive trophy broken-skull frozen-orb rolling-bomb white-tower grab screaming ' +
    'grenade sentry-gun all-for-one angel-outfit archery-target'
  ).split(' '),
);

/** Reads Campaign().get('token_markers') only when a marker is not built in (settings changes only). */
export function isKnownMarker(name: string): boolean {
  if (BUILT_IN.has(name)) return true;
  try {
    const custom: unknown = JSON.parse(String(Campaign().get('token_markers') ?? '[]'));
    return (
      Array.isArray(custom) &&
      custom.some((marker) => typeof marker === 'object' && marker !== null && (marker as { tag?: unknown }).tag === name)
    );
  } catch {
    return false;
  }
}
