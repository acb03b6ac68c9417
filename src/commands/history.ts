// Undo as data (commands.md, "Clarifications"): each damage application keeps, per token, what it
// touched before and after, so `!damage --undo` can put it back or say what changed since.
import { readInteger } from '../rules/values';
import type { TokenRecord } from '../state/tokens';
import type { Application, TokenValues } from '../state/history';
import { characterOf, readToken, readValue, type Resource } from '../roll20/read';
import { writeAttribute, writeBar } from '../roll20/write';
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
  // Per token: the worn value, or the sheet's (or override's) value it starts from.
  else if (place) {
    const key = place.track === 'physical' ? 'armor_physical' : 'armor_magical';
    protection = record?.wear?.[place.track] ?? readValue(snapshot, key, record, app.store.settings, app.attributes).current;
  }
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

type Entry = Application['tokens'][number];

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The resources the application changed: only those are compared and put back. */
function touchedBars(entry: Entry): Resource[] {
  return (['vitality', 'soul', 'power'] as Resource[]).filter((resource) => entry.before.bars[resource] !== entry.after.bars[resource]);
}

/**
 * What the application changed that differs now from what it left: the values undo would
 * overwrite (commands.md, "Clarifications": changed since).
 */
export function changedSince(entry: Entry, now: TokenValues): string[] {
  const { before, after } = entry;
  const changes: string[] = [];
  for (const resource of touchedBars(entry)) {
    if (now.bars[resource] !== after.bars[resource]) {
      changes.push(`${entry.name} ${resource} is ${now.bars[resource] ?? 'not a number'} (was left at ${after.bars[resource]})`);
    }
  }
  if (after.protection && before.protection?.value !== after.protection.value && now.protection?.value !== after.protection.value) {
    changes.push(`${entry.name} ${after.protection.track} protection is ${now.protection?.value ?? 'unset'} (was left at ${after.protection.value})`);
  }
  if (before.statusmarkers !== after.statusmarkers && now.statusmarkers !== after.statusmarkers) changes.push(`${entry.name} markers changed`);
  if (!same(before.record.life, after.record.life) && !same(now.record.life, after.record.life)) {
    changes.push(`${entry.name} condition or saves changed`);
  }
  if (before.record.pendingDefense !== after.record.pendingDefense && now.record.pendingDefense !== after.record.pendingDefense) {
    changes.push(`${entry.name} has a new pending defense`);
  }
  return changes;
}

/**
 * Puts back what the application changed, and nothing else. A pending defense comes back only
 * within the round it belonged to (a new round clears them all).
 */
export function restoreToken(app: App, entry: Entry, token: Roll20Graphic, sameRound: boolean): void {
  const snapshot = readToken(token, characterOf(token), app.store.settings);
  const { before, after } = entry;
  for (const resource of touchedBars(entry)) {
    const value = before.bars[resource];
    if (value !== null) writeBar(snapshot, resource, value);
  }
  const record = tokenRecord(app, token.id);
  const protection = before.protection;
  if (protection && protection.value !== after.protection?.value) {
    if (protection.attributeId) {
      const attribute = getObj('attribute', protection.attributeId);
      if (attribute && protection.value !== null) writeAttribute(attribute, protection.value);
    } else {
      const wear = { ...record.wear };
      if (protection.value === null) delete wear[protection.track];
      else wear[protection.track] = protection.value;
      record.wear = Object.keys(wear).length > 0 ? wear : undefined;
    }
  }
  if (before.statusmarkers !== after.statusmarkers) token.set('statusmarkers', before.statusmarkers);
  if (!same(before.record.life, after.record.life)) record.life = before.record.life ? { ...before.record.life } : undefined;
  if (sameRound && before.record.pendingDefense !== after.record.pendingDefense) record.pendingDefense = before.record.pendingDefense;
  pruneRecord(app, token.id);
}
