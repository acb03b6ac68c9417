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

/**
 * The tags a marker setting may mean by what the GM typed: a built-in marker's name, a campaign
 * marker's tag (`Unconscious::4567`, as a token holds it), or else the name Roll20's marker menu
 * shows (`Unconscious`, any case), which several custom markers may share. None: no such marker.
 * Reads Campaign().get('token_markers') only when a marker is not built in (settings changes only).
 */
export function markerTags(typed: string): string[] {
  if (BUILT_IN.has(typed)) return [typed];
  const named: string[] = [];
  try {
    const custom: unknown = JSON.parse(String(Campaign().get('token_markers') ?? '[]'));
    for (const marker of Array.isArray(custom) ? custom : []) {
      const { tag, name } = (marker ?? {}) as { tag?: unknown; name?: unknown };
      if (typeof tag !== 'string') continue;
      if (tag === typed) return [tag];
      if (typeof name === 'string' && name.toLowerCase() === typed.toLowerCase() && !named.includes(tag)) named.push(tag);
    }
  } catch {
    // Not JSON: no campaign markers to name.
  }
  return named;
}
