// Schema 1 -> 2 (the edition seam): per-token memory moves into `{ overrides, worn, stance,
// deadForGood, edition: { id, state } }` and each undo entry's before/after snapshot becomes the
// list of changes it made. Nothing a GM set up is lost: settings pass through untouched.
import { isRecord } from './settings';
import { FIRST_RELEASE_EDITION } from '../rules/editions';

type Raw = Record<string, unknown>;

const SOAK_FIELDS = ['life', 'pendingDefense', 'reactions', 'skillsVs'] as const;
const DEFAULT_BARS: Raw = { vitality: 'bar1', soul: 'bar2', power: 'bar3' };

function soakMemory(part: Raw, stance: unknown): Raw {
  const state: Raw = {};
  for (const field of SOAK_FIELDS) if (part[field] !== undefined) state[field] = part[field];
  const memory: Raw = {};
  if (Object.keys(state).length > 0) memory.edition = { id: FIRST_RELEASE_EDITION, state };
  if (isRecord(part.life) && part.life.condition === 'dead') memory.deadForGood = true;
  if (typeof stance === 'string') memory.stance = stance;
  return memory;
}

function migrateToken(old: unknown): unknown {
  if (!isRecord(old)) return old;
  const record: Raw = {};
  if (old.overrides !== undefined) record.overrides = old.overrides;
  if (old.wear !== undefined) record.worn = old.wear;
  Object.assign(record, soakMemory(old, old.stance));
  return record;
}

function pick(part: Raw): Raw {
  return { life: part.life, pendingDefense: part.pendingDefense };
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** One token of a schema-1 undo entry: its before/after snapshots as changes. */
function migrateEntry(entry: unknown, bars: Raw, tokens: Raw): unknown {
  if (!isRecord(entry) || !isRecord(entry.before) || !isRecord(entry.after)) return entry;
  const { before, after } = entry as { before: Raw; after: Raw };
  const changes: Raw[] = [];
  const beforeBars = isRecord(before.bars) ? before.bars : {};
  const afterBars = isRecord(after.bars) ? after.bars : {};
  for (const resource of ['vitality', 'soul', 'power']) {
    const to = afterBars[resource];
    if (beforeBars[resource] !== to && typeof to === 'number') {
      changes.push({ kind: 'bar', resource, bar: bars[resource] ?? DEFAULT_BARS[resource], from: beforeBars[resource] ?? null, to });
    }
  }
  const from = isRecord(before.protection) ? before.protection : undefined;
  const to = isRecord(after.protection) ? after.protection : undefined;
  if (to && typeof to.value === 'number' && from?.value !== to.value) {
    changes.push(
      typeof to.attributeId === 'string'
        ? { kind: 'attribute', key: to.track === 'magical' ? 'armor_magical' : 'armor_physical', attributeId: to.attributeId, from: from?.value ?? null, to: to.value }
        : { kind: 'worn', track: to.track, from: from?.value ?? null, to: to.value },
    );
  }
  if (before.statusmarkers !== after.statusmarkers) changes.push({ kind: 'markers', from: before.statusmarkers, to: after.statusmarkers });
  const beforePart = isRecord(before.record) ? before.record : {};
  const afterPart = isRecord(after.record) ? after.record : {};
  if (!same(beforePart.life, afterPart.life) || !same(beforePart.pendingDefense, afterPart.pendingDefense)) {
    // Schema 1 kept only life and the pending defense: the rest (stance, this round's reactions)
    // is taken as it stands now, which is what the damage left of it.
    const key = typeof entry.tokenId === 'string' ? entry.tokenId : '';
    const current = key !== '' && isRecord(tokens[key]) ? (tokens[key] as Raw) : {};
    const untouched = { reactions: current.reactions, skillsVs: current.skillsVs };
    changes.push({
      kind: 'memory',
      from: soakMemory({ ...untouched, ...pick(beforePart) }, current.stance),
      to: soakMemory({ ...untouched, ...pick(afterPart) }, current.stance),
    });
  }
  return { tokenId: entry.tokenId, name: entry.name, changes };
}

export function migrateFrom1(old: Raw): Raw {
  const settings = isRecord(old.settings) ? old.settings : {};
  const bars = isRecord(settings.bars) ? settings.bars : DEFAULT_BARS;
  const tokens = isRecord(old.tokens) ? old.tokens : {};
  const round = isRecord(old.round) && typeof old.round.number === 'number' ? old.round.number : 1;
  const migrated: Raw = { ...old, schemaVersion: 2 };
  if (isRecord(old.tokens)) migrated.tokens = Object.fromEntries(Object.entries(old.tokens).map(([id, record]) => [id, migrateToken(record)]));
  if (Array.isArray(old.history)) {
    migrated.history = old.history.map((application) =>
      isRecord(application) && Array.isArray(application.tokens)
        ? {
            by: application.by,
            kind: application.kind,
            round: typeof application.round === 'number' ? application.round : round,
            tokens: application.tokens.map((entry) => migrateEntry(entry, bars, tokens)),
          }
        : application,
    );
  }
  return migrated;
}
