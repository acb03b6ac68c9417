// Schema 2 -> 3 (the exchange): a defense made ahead no longer lives in the token's edition state
// (`pendingDefense`) but in `exchange.waiting`, as an answer waiting for its hit; the undo
// history's memories move the same way, so an undo made after the upgrade puts it back where it
// now lives. Nothing else changes.
import { isRecord } from './settings';

type Raw = Record<string, unknown>;

/** A memory (a token record, or an undo entry's from/to) with its pending defense taken out as an answer. */
function splitMemory(memory: Raw): { memory: Raw; answer?: Raw } {
  const box = memory.edition;
  if (!isRecord(box) || !isRecord(box.state) || box.state.pendingDefense === undefined) return { memory };
  const { pendingDefense, ...state } = box.state;
  const answer = { edition: box.id, answer: pendingDefense };
  // An edition state that held only the defense is no longer kept (an empty state never is).
  if (Object.keys(state).length > 0) return { memory: { ...memory, edition: { ...box, state } }, answer };
  const { edition: _gone, ...rest } = memory;
  return { memory: rest, answer };
}

function migrateChange(change: unknown): unknown {
  if (!isRecord(change) || change.kind !== 'memory') return change;
  const out: Raw = { ...change };
  for (const side of ['from', 'to'] as const) {
    const memory = change[side];
    if (!isRecord(memory)) continue;
    const split = splitMemory(memory);
    out[side] = split.answer ? { ...split.memory, answer: split.answer } : split.memory;
  }
  return out;
}

export function migrateFrom2(old: Raw): Raw {
  const waiting: Raw = {};
  const tokens: Raw = {};
  if (isRecord(old.tokens)) {
    for (const [id, record] of Object.entries(old.tokens)) {
      if (!isRecord(record)) {
        tokens[id] = record;
        continue;
      }
      const split = splitMemory(record);
      // A record that held only the defense is no longer kept.
      if (Object.keys(split.memory).length > 0) tokens[id] = split.memory;
      if (split.answer) waiting[id] = split.answer;
    }
  }
  const history = Array.isArray(old.history)
    ? old.history.map((entry) =>
        isRecord(entry) && Array.isArray(entry.tokens)
          ? { ...entry, tokens: entry.tokens.map((token) => (isRecord(token) && Array.isArray(token.changes) ? { ...token, changes: token.changes.map(migrateChange) } : token)) }
          : entry,
      )
    : old.history;
  return { ...old, schemaVersion: 3, tokens: isRecord(old.tokens) ? tokens : old.tokens, history, exchange: { waiting } };
}
