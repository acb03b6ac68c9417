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

/** A key naming one row, custom rows included (their id is "-1"). */
export function entryKey(entry: Roll20TurnEntry): string {
  const id = String(entry.id);
  const custom = String(entry.custom ?? '');
  // The key is kept in `state`: a custom row's text (anyone may type one) is kept short, a long one by its hash.
  return `${id.length <= 64 ? id : `#${textHash(id)}`}|${custom.length <= 64 ? custom : `${custom.slice(0, 32)}#${textHash(custom)}`}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: enough to tell one long Turn Tracker text from another. */
function textHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}
