// The Turn Tracker as Roll20 keeps it: a JSON string in Campaign().get('turnorder').

export function readTurnOrder(): Roll20TurnEntry[] {
  return parseTurnOrder(Campaign().get('turnorder'));
}

/** The Turn Tracker's text as Roll20 keeps it: compared with the last look before anything is parsed. */
export function readTurnOrderText(): string {
  const raw = Campaign().get('turnorder');
  return typeof raw === 'string' ? raw : '';
}

/** Turn order JSON as Roll20 keeps it; anything unreadable is an empty tracker. */
export function parseTurnOrder(raw: unknown): Roll20TurnEntry[] {
  if (typeof raw !== 'string' || raw.trim() === '') return [];
  try {
    const parsed: unknown = JSON.parse(raw);
    return Array.isArray(parsed) ? parsed.filter((entry): entry is Roll20TurnEntry => typeof entry === 'object' && entry !== null) : [];
  } catch {
    return [];
  }
}

/** One command's Turn Tracker: read once, changed in memory by every target, written once at the end. */
export interface TurnOrderBatch {
  order: Roll20TurnEntry[];
  changed: boolean;
}

export function writeTurnOrder(entries: Roll20TurnEntry[]): void {
  Campaign().set('turnorder', JSON.stringify(entries));
}

/**
 * A row's field as text. The Turn Tracker is anyone's JSON: a field that is an object (one whose
 * toString is not a function makes String() throw) reads as empty, never as an error.
 */
export function rowText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

/** A row's initiative as a number (NaN when it holds none), safely: see rowText. */
export function rowNumber(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '') return Number(value);
  return Number.NaN;
}

/** Whether a row holds only what Roll20 puts there: text or numbers in its id, text and initiative. */
export function isPlainRow(entry: Roll20TurnEntry): boolean {
  const plain = (value: unknown) => value === undefined || value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';
  return plain(entry.id) && plain(entry.custom) && plain(entry.pr);
}

/** A key naming one row, custom rows included (their id is "-1"). */
export function entryKey(entry: Roll20TurnEntry): string {
  const id = rowText(entry.id);
  const custom = rowText(entry.custom);
  // The key is kept in `state`: a custom row's text (anyone may type one) is kept short, a long one by its hash.
  return `${id.length <= 64 ? id : `#${textHash(id)}`}|${custom.length <= 64 ? custom : `${custom.slice(0, 32)}#${textHash(custom)}`}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: enough to tell one long Turn Tracker text from another. */
export function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
