// The Turn Tracker as Roll20 keeps it: a JSON string in Campaign().get('turnorder').

export function readTurnOrder(): Roll20TurnEntry[] {
  return parseTurnOrder(Campaign().get('turnorder'));
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
  return `${String(entry.id)}|${String(entry.custom ?? '')}`;
}
