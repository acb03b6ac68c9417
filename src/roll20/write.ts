// The one write path for the game: bars (through the linked attribute when there is one, so the
// sheet and token never disagree), armor protection, and status markers.
import type { TokenRecord } from '../state/tokens';
import type { CharacterValue, Resource, TokenSnapshot } from './read';

/** Writes a resource's new value to its bar, or to the attribute the bar is linked to. */
export function writeBar(snapshot: TokenSnapshot, resource: Resource, value: number): void {
  const reading = snapshot.bars[resource];
  const linked = reading.link ? getObj('attribute', reading.link) : undefined;
  if (linked) {
    linked.setWithWorker({ current: value });
  } else {
    snapshot.token.set(`${reading.bar}_value`, value);
  }
}

export type Track = 'physical' | 'magical';

/**
 * Where a token's armor protection lives: a unique token's on the character's attribute; a generic
 * token's (or an overridden value's) per token in state, starting from the sheet (rules.md).
 */
export function protectionIsPerToken(snapshot: TokenSnapshot, base: CharacterValue): boolean {
  return !snapshot.unique || base.source !== 'attribute';
}

export function currentProtection(
  snapshot: TokenSnapshot,
  track: Track,
  base: CharacterValue,
  record: TokenRecord | undefined,
): number | null {
  if (protectionIsPerToken(snapshot, base)) return record?.wear?.[track] ?? base.current;
  return base.current;
}

export function writeProtection(
  snapshot: TokenSnapshot,
  track: Track,
  base: CharacterValue,
  record: TokenRecord,
  value: number,
): void {
  if (protectionIsPerToken(snapshot, base) || !base.attribute) {
    record.wear = { ...record.wear, [track]: value };
  } else {
    base.attribute.setWithWorker({ current: value });
  }
}

export function writeMarkers(snapshot: TokenSnapshot, markers: string): void {
  if (markers !== snapshot.statusmarkers) snapshot.token.set('statusmarkers', markers);
}
