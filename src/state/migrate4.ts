// Schema 4 -> 5 (the exchange owns its answers): an answer on file is a change of its own in the
// undo history (`answer`, from -> to), no longer a part of a memory change; an open attack keeps
// each answer typed as its edition's answer (`answer`, once `file`). An answer kept as the hit's
// flags in text (the defense mode and roll) is forgotten: its defender answers again.
import { isRecord } from './settings';
import { sameData } from './memory';
import { each } from './migrate3';

type Raw = Record<string, unknown>;

/** A memory change with its answer on file taken out as an answer change (the token's own, or `tokenId`'s). */
function splitChange(change: unknown): unknown[] {
  if (!isRecord(change) || change.kind !== 'memory' || !isRecord(change.from) || !isRecord(change.to)) return [change];
  const { answer: was = null, ...from } = change.from;
  const { answer: is = null, ...to } = change.to;
  const out: unknown[] = [];
  if (!sameData(from, to)) out.push({ ...change, from, to });
  if (!sameData(was, is)) out.push(change.tokenId === undefined ? { kind: 'answer', from: was, to: is } : { kind: 'answer', tokenId: change.tokenId, from: was, to: is });
  return out;
}

/** An open attack's answers, each typed. */
function typedAnswers(attack: unknown): unknown {
  if (!isRecord(attack) || !isRecord(attack.answers)) return attack;
  const answers: Raw = {};
  for (const [id, kept] of Object.entries(attack.answers)) {
    if (!isRecord(kept)) answers[id] = kept;
    else if (kept.flags === undefined) {
      const { file, ...rest } = kept;
      answers[id] = file === undefined ? rest : { ...rest, answer: file };
    }
  }
  return { ...attack, answers };
}

export function migrateFrom4(old: Raw): Raw {
  const history = each(old.history, (entry) => ({ ...entry, tokens: each(entry.tokens, (token) => ({ ...token, changes: each(token.changes, splitChange) })) }));
  const exchange = old.exchange;
  if (!isRecord(exchange) || !isRecord(exchange.attacks)) return { ...old, schemaVersion: 5, history };
  const attacks: Raw = {};
  for (const [key, attack] of Object.entries(exchange.attacks)) attacks[key] = typedAnswers(attack);
  return { ...old, schemaVersion: 5, history, exchange: { ...exchange, attacks } };
}
