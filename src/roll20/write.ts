// The one write path for the game: bars (through the linked attribute when there is one, so the
// sheet and token never disagree), armor protection, and status markers.
import type { TokenRecord } from '../state/tokens';
import type { CharacterValue, Resource, TokenSnapshot } from './read';

/** Writes an attribute's current value so the sheet's workers run (plain set where there are none). */
export function writeAttribute(attribute: Roll20Attribute, value: number): void {
  if (typeof attribute.setWithWorker === 'function') attribute.setWithWorker({ current: value });
  else attribute.set('current', value);
}

/**
 * Writes a resource's new value through the attribute its bar is linked to, then to the bar
 * itself if the link has not already carried it there, so token and sheet always agree.
 */
export function writeBar(snapshot: TokenSnapshot, resource: Resource, value: number): void {
  const reading = snapshot.bars[resource];
  const key = `${reading.bar}_value` as const;
  const linked = reading.link ? getObj('attribute', reading.link) : undefined;
  if (linked) writeAttribute(linked, value);
  if (!linked || snapshot.token.get(key) !== value) snapshot.token.set(key, value);
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
    writeAttribute(base.attribute, value);
  }
}

export function writeMarkers(snapshot: TokenSnapshot, markers: string): void {
  if (markers !== snapshot.statusmarkers) snapshot.token.set('statusmarkers', markers);
}
