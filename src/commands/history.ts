// Undo as data (commands.md, "Clarifications"): each damage application keeps, per token, what it
// touched before and after, so `!damage --undo` can put it back or say what changed since.
import { readInteger } from '../rules/values';
import type { TokenRecord } from '../state/tokens';
import type { Application, TokenValues } from '../state/history';
import { characterOf, readToken, type Resource } from '../roll20/read';
import { writeBar } from '../roll20/write';
import type { App } from './context';
import { pruneRecord, tokenRecord } from './context';

export const HISTORY_LIMIT = 50;

/** Where a token's protection for one track is kept, to read it again and write it back. */
export interface ProtectionPlace {
  track: 'physical' | 'magical';
  /** The attribute (unique token); absent: per token in state. */
  attributeId?: string;
}

function copyRecordPart(record: TokenRecord | undefined): TokenValues['record'] {
  return {
    ...(record?.life ? { life: { ...record.life } } : {}),
    ...(record?.pendingDefense ? { pendingDefense: record.pendingDefense } : {}),
    ...(record?.wear ? { wear: { ...record.wear } } : {}),
  };
}

/** Reads, live, everything a damage application may change on this token. */
export function captureToken(app: App, token: Roll20Graphic, place: ProtectionPlace | undefined): TokenValues {
  const snapshot = readToken(token, characterOf(token), app.store.settings);
  const record = app.store.tokens[token.id];
  let protection: number | null | undefined;
  if (place?.attributeId) protection = readInteger(getObj('attribute', place.attributeId)?.get('current'));
  else if (place) protection = record?.wear?.[place.track] ?? null;
  return {
    bars: { vitality: snapshot.bars.vitality.value, soul: snapshot.bars.soul.value, power: snapshot.bars.power.value },
    statusmarkers: snapshot.statusmarkers,
    ...(protection !== undefined && place ? { protection: { ...place, value: protection } } : {}),
    record: copyRecordPart(record),
  };
}

export function recordApplication(app: App, application: Application): void {
  const history = app.store.history;
  history.push(application);
  if (history.length > HISTORY_LIMIT) history.splice(0, history.length - HISTORY_LIMIT);
}

/** What differs now from what the application left: the values undo would overwrite. */
export function changedSince(app: App, entry: Application['tokens'][number], token: Roll20Graphic): string[] {
  const now = captureToken(app, token, entry.after.protection);
  const changes: string[] = [];
  for (const resource of ['vitality', 'soul', 'power'] as Resource[]) {
    if (now.bars[resource] !== entry.after.bars[resource]) {
      changes.push(`${entry.name} ${resource} is ${now.bars[resource] ?? 'not a number'} (was left at ${entry.after.bars[resource]})`);
    }
  }
  if (entry.after.protection && now.protection?.value !== entry.after.protection.value) {
    changes.push(`${entry.name} ${entry.after.protection.track} protection is ${now.protection?.value ?? 'unset'} (was left at ${entry.after.protection.value})`);
  }
  if (now.statusmarkers !== entry.after.statusmarkers) changes.push(`${entry.name} markers changed`);
  if (JSON.stringify(now.record.life ?? null) !== JSON.stringify(entry.after.record.life ?? null)) {
    changes.push(`${entry.name} condition or saves changed`);
  }
  return changes;
}

/** Puts back what the application found. */
export function restoreToken(app: App, entry: Application['tokens'][number], token: Roll20Graphic): void {
  const snapshot = readToken(token, characterOf(token), app.store.settings);
  const before = entry.before;
  for (const resource of ['vitality', 'soul', 'power'] as Resource[]) {
    const value = before.bars[resource];
    if (value !== null && value !== entry.after.bars[resource]) writeBar(snapshot, resource, value);
  }
  if (before.protection && before.protection.value !== null) {
    if (before.protection.attributeId) getObj('attribute', before.protection.attributeId)?.setWithWorker({ current: before.protection.value });
  }
  if (snapshot.statusmarkers !== before.statusmarkers) token.set('statusmarkers', before.statusmarkers);
  const record = tokenRecord(app, token.id);
  record.life = before.record.life ? { ...before.record.life } : undefined;
  record.pendingDefense = before.record.pendingDefense;
  record.wear = before.record.wear ? { ...before.record.wear } : undefined;
  pruneRecord(app, token.id);
}
