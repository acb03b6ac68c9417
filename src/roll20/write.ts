// The one write path for the game (architecture.md, "One writer"), both directions: an outcome's
// changes are applied in one `set` per object (a token's bars and markers together; linked
// attributes with sheet workers), its condition becomes markers, observers hear once with one
// `prev`, and what was changed comes back as data, from -> to, which is the undo record. Undo
// writes those changes inverted, also one `set` per object, through linked bars, and tells observers.
import type { AnyEdition, Outcome } from '../rules/edition';
import type { Settings } from '../state/settings';
import { isEmptyRecord, putRecord, withEntry, type TokenRecord } from '../state/tokens';
import { answerOn, memoryOf, normalMemory, sameData, storeAnswer, storeMemory, type AnswerBox, type Memories, type Memory } from '../state/memory';
import { memoryChanges, memoryKey, undoneMemory, type MergedChange } from '../state/changes';
import type { StoredChange } from '../state/history';
import { BAR_PROPS, characterOf, homeOf, readToken, RESOURCES, tokenName, WORN_TRACK, type Resource, type TokenReading, type TokenSnapshot } from './read';
import { markersForCondition, markersForStance } from './markers';
import { notifyObservers, type TokenResources } from './observers';
import type { HealthColorsApi } from './otherScripts';
import { readTurnOrder, rowNumber, writeTurnOrder, type TurnOrderBatch } from './turnorder';
import { keepPairInStep } from './visible';

export interface WriteContext {
  settings: Settings;
  edition: AnyEdition;
  /** The script's per-token memory and the exchange's answers (`state`), written in place. */
  memories: Memories;
}

export interface WriteOptions {
  /** Where Vitality stood before (a hand edit: the value before the user typed). */
  vitalityFrom?: number;
  /** Tell observers and HealthColors (default: yes). */
  notify?: boolean;
  /** The command's Turn Tracker, written once by the pipeline after every target (one set per object). */
  turnOrder?: TurnOrderBatch;
  /** HealthColors as the command found it, looked up once for all its targets (null: not installed). */
  healthColors?: HealthColorsApi | null;
  /** Token properties to bring in step in the same `set` (a linked bar its attribute has not reached yet). */
  tokenProps?: Record<string, unknown>;
}

export interface WriteResult {
  changes: StoredChange[];
  /** Things to say about what was written (a token joining the Turn Tracker). */
  notes: string[];
}

/** Writes an attribute's current value so the sheet's workers run (plain set where there are none). */
export function writeAttribute(attribute: Roll20Attribute, value: number): void {
  if (typeof attribute.setWithWorker === 'function') attribute.setWithWorker({ current: value });
  else attribute.set('current', value);
}

/** Pending writes for one token: each attribute once, then the token once. */
class TokenWrites {
  /** Attributes to write, by id (made only for a token that has any: most generic tokens have none). */
  private attributes: Map<string, { attribute: Roll20Attribute; value: number }> | undefined;
  readonly props: Record<string, unknown> = {};
  private any = false;
  /** Bars written through a linked attribute: set on the token too if the link did not carry them. */
  private linkedBars: Array<{ key: string; value: number }> | undefined;

  attribute(attribute: Roll20Attribute, value: number): void {
    (this.attributes ??= new Map()).set(attribute.id, { attribute, value });
  }

  prop(key: string, value: unknown): void {
    this.props[key] = value;
    this.any = true;
  }

  bar(snapshot: TokenSnapshot, resource: Resource, value: number, attribute: Roll20Attribute | undefined): void {
    const key = BAR_PROPS[snapshot.bars[resource].bar].value;
    if (attribute) {
      this.attribute(attribute, value);
      (this.linkedBars ??= []).push({ key, value });
    } else {
      this.prop(key, value);
    }
  }

  flush(token: Roll20Graphic): void {
    if (this.attributes) for (const { attribute, value } of this.attributes.values()) writeAttribute(attribute, value);
    if (this.linkedBars) for (const { key, value } of this.linkedBars) if (token.get(key as 'bar1_value') !== value) this.prop(key, value);
    if (this.any) {
      token.set(this.props as Partial<Roll20GraphicProperties>);
      keepPairInStep(token, this.props);
    }
  }
}

/** A token's memory with only the fields it has. */
function memory(box: Memory['edition'], dead: boolean, stance: string | undefined): Memory {
  const out: Memory = {};
  if (box) out.edition = box;
  if (dead) out.deadForGood = true;
  if (stance !== undefined) out.stance = stance;
  return out;
}

/** Files a token's answer (or takes it off file: null), recorded from -> to; nothing when it is what is on file. */
function fileAnswer(memories: Memories, changes: StoredChange[], tokenId: string, to: AnswerBox | null, other?: string): void {
  const from = answerOn(memories, tokenId);
  if (sameData(from, to)) return;
  changes.push(other === undefined ? { kind: 'answer', from, to } : { kind: 'answer', tokenId: other, from, to });
  storeAnswer(memories, tokenId, to);
}


/** Applies one token's outcome. */
export function applyOutcome<S>(context: WriteContext, reading: TokenReading<S>, outcome: Outcome<S>, options: WriteOptions = {}): WriteResult {
  const { snapshot, facts, places } = reading;
  const { edition, settings, memories } = context;
  const tokens = memories.tokens;
  const token = snapshot.token;
  const changes: StoredChange[] = [];
  const notes: string[] = [];
  const writes = new TokenWrites();
  // The token's record, changed in place (made only when something is kept).
  const recordOf = (): TokenRecord => (tokens[snapshot.id] ??= {});
  const vitalityFrom = options.vitalityFrom ?? snapshot.bars.vitality.value;
  // What the bars hold after the command: as read (a hand edit: as typed), then as changed.
  const barsAfter: Record<Resource, number | null> = {
    vitality: snapshot.bars.vitality.value,
    soul: snapshot.bars.soul.value,
    power: snapshot.bars.power.value,
  };

  for (const change of outcome.changes) {
    switch (change.kind) {
      case 'bar': {
        const reading = snapshot.bars[change.resource];
        const from = change.resource === 'vitality' ? vitalityFrom : reading.value;
        const linked = reading.link ? getObj('attribute', reading.link) : undefined;
        const stored: StoredChange = { kind: 'bar', resource: change.resource, bar: reading.bar, from, to: change.to };
        if (linked) stored.attributeId = linked.id;
        changes.push(stored);
        if (reading.value !== change.to || reading.raw !== change.to) writes.bar(snapshot, change.resource, change.to, linked);
        barsAfter[change.resource] = change.to;
        break;
      }
      case 'value': {
        const place = places[change.key];
        const from = facts.values[change.key]?.current ?? null;
        if (place?.kind === 'attribute') {
          changes.push({ kind: 'attribute', key: change.key, attributeId: place.attribute.id, from, to: change.to });
          writes.attribute(place.attribute, change.to);
        } else if (place?.kind === 'worn') {
          // From what the token kept (null: not worn yet, the sheet's value), so undo forgets a wear it started.
          changes.push({ kind: 'worn', track: place.track, from: tokens[snapshot.id]?.worn?.[place.track] ?? null, to: change.to });
          const record = recordOf();
          record.worn = { ...record.worn, [place.track]: change.to };
        } else if (WORN_TRACK[change.key] === undefined && place?.kind === 'override') {
          // A value supplied by a per-token override (EXP set with !defense-round set) changes the override.
          changes.push({ kind: 'override', key: change.key, from, to: change.to });
          const record = recordOf();
          record.overrides = { ...record.overrides, [change.key]: change.to };
        }
        break;
      }
      case 'initiative': {
        const order = options.turnOrder?.order ?? readTurnOrder();
        const entry = order.find((row) => row.id === snapshot.id);
        const from = rowNumber(entry?.pr);
        if (entry && Number.isFinite(from) && from !== change.to) {
          entry.pr = change.to;
          saveTurnOrder(order, options.turnOrder);
          changes.push({ kind: 'initiative', from, to: change.to });
        }
        break;
      }
      case 'join-turn-order': {
        const joined = joinTurnOrder(change.tokenId, change.initiative, options.turnOrder);
        notes.push(joined.note);
        if (joined.added) changes.push({ kind: 'turn-order', tokenId: change.tokenId });
        break;
      }
      case 'ally-state': {
        // An ally's state lives where its memory does (its character's, when linked).
        const ally = getObj('graphic', change.tokenId);
        const home = ally ? homeOf(ally, settings.bars.vitality) : change.tokenId;
        const from = normalMemory(memoryOf(memories, home), edition);
        const to = normalMemory({ ...from, edition: { id: edition.id, state: change.state } }, edition);
        for (const stored of memoryChanges(from, to, home === change.tokenId ? undefined : home, change.tokenId)) {
          changes.push(stored);
          storeMemory(memories, home, to);
        }
        break;
      }
      case 'ally-answer':
        // A guard's defense filed for the guarded ally: the ally's own answer on file.
        fileAnswer(memories, changes, change.tokenId, { edition: edition.id, answer: change.answer }, change.tokenId);
        break;
    }
  }

  // The token's condition, asked of the edition once: as read before the command, after it only when its state changed.
  const conditionBefore = reading.condition;
  const conditionAfter = outcome.state !== undefined ? edition.life.condition(outcome.state, barsAfter.vitality) : conditionBefore;

  // The token's own memory: edition state (and whether it is dead for good) and stance, a linked
  // token's its character's (`snapshot.home`); then its answer on file, always its own.
  if (outcome.state !== undefined || outcome.stance !== undefined) {
    const home = snapshot.home;
    const stored = tokens[home];
    const oldBox = stored?.edition && !(stored.edition.id === edition.id && edition.life.isEmptyState(stored.edition.state)) ? stored.edition : undefined;
    const newBox = outcome.state === undefined ? oldBox : edition.life.isEmptyState(outcome.state) ? undefined : { id: edition.id, state: outcome.state };
    const oldDead = stored?.deadForGood === true;
    const newDead = outcome.state === undefined ? oldDead : edition.life.deadForGood(outcome.state, barsAfter.vitality);
    const oldStance = stored?.stance;
    const newStance = outcome.stance === undefined ? oldStance : (outcome.stance ?? undefined);
    for (const change of memoryChanges(memory(oldBox, oldDead, oldStance), memory(newBox, newDead, newStance), home === snapshot.id ? undefined : home)) {
      changes.push(change);
      storeMemory(memories, memoryKey(snapshot.id, change), change.to);
    }
  }
  if (outcome.answer !== undefined) fileAnswer(memories, changes, snapshot.id, outcome.answer === null ? null : { edition: edition.id, answer: outcome.answer });
  const kept = tokens[snapshot.id];
  if (kept && isEmptyRecord(kept)) delete tokens[snapshot.id];

  // Markers follow the condition and the stance.
  let markers = snapshot.statusmarkers;
  if (outcome.state !== undefined) markers = markersForCondition(markers, conditionAfter, settings);
  if (outcome.stance !== undefined) markers = markersForStance(markers, outcome.stance, settings);
  if (markers !== snapshot.statusmarkers) {
    changes.push({ kind: 'markers', from: snapshot.statusmarkers, to: markers });
    writes.prop('statusmarkers', markers);
  }

  if (options.tokenProps) {
    for (const key of Object.keys(options.tokenProps)) {
      const value = options.tokenProps[key];
      if (!(key in writes.props) && token.get(key as 'bar1_value') !== value) writes.prop(key, value);
    }
  }
  writes.flush(token);

  if (options.notify ?? true) {
    const { bars } = snapshot;
    const before: TokenResources = { vitality: vitalityFrom, soul: bars.soul.value, power: bars.power.value, statusmarkers: snapshot.statusmarkers, condition: conditionBefore };
    const after: TokenResources = { vitality: barsAfter.vitality, soul: barsAfter.soul, power: barsAfter.power, statusmarkers: markers, condition: conditionAfter };
    notifyObservers(token, before, after, outcome.detail, () => previousProperties(snapshot, vitalityFrom), options.healthColors);
  }
  return { changes, notes };
}

/**
 * The token's properties before the command, as HealthColors reads Roll20's `prev`: its size, bars
 * and markers (HealthColors compares the size too, and takes a changed size for a resize, which
 * applies its name settings), with what the command changed as it was.
 */
export function previousProperties(snapshot: TokenSnapshot, vitalityFrom: number | null): Record<string, unknown> {
  const prev = plainCopy(snapshot.token);
  prev.statusmarkers = snapshot.statusmarkers;
  const { vitality, soul, power } = snapshot.bars;
  prev[BAR_PROPS[vitality.bar].value] = vitality.raw;
  prev[BAR_PROPS[soul.bar].value] = soul.raw;
  prev[BAR_PROPS[power.bar].value] = power.raw;
  if (vitalityFrom !== null) prev[BAR_PROPS[vitality.bar].value] = vitalityFrom;
  return prev;
}


/** What HealthColors reads of `prev` besides the bars: the size (a changed one is a resize to it). */
const PREV_PROPERTIES = ['width', 'height'] as const;

/** The token's properties that no command changes, read now: they are as they were. */
function plainCopy(token: Roll20Graphic): Record<string, unknown> {
  const copy: Record<string, unknown> = { _id: token.id, _type: 'graphic' };
  for (const key of PREV_PROPERTIES) copy[key] = token.get(key);
  return copy;
}

/** Into the command's batch when there is one (the pipeline writes it once), else straight to Roll20. */
function saveTurnOrder(order: Roll20TurnEntry[], batch: TurnOrderBatch | undefined): void {
  if (batch) batch.changed = true;
  else writeTurnOrder(order);
}

/** The Defensive Round: countering a spectator draws it into the battle: it joins the Turn Tracker (initiative 0). */
function joinTurnOrder(tokenId: string, initiative: number, batch: TurnOrderBatch | undefined): { added: boolean; note: string } {
  const token = getObj('graphic', tokenId);
  if (!token) return { added: false, note: 'The spectator is drawn into the battle (no token with that id to add to the Turn Tracker).' };
  const name = tokenName(token, 'The spectator');
  const order = batch?.order ?? readTurnOrder();
  if (order.some((entry) => entry.id === tokenId)) return { added: false, note: `${name} is drawn into the battle (already in the Turn Tracker).` };
  order.push({ id: tokenId, pr: initiative, custom: '', _pageid: String(token.get('_pageid') ?? '') });
  saveTurnOrder(order, batch);
  return { added: true, note: `${name} is drawn into the battle: added to the Turn Tracker at initiative ${initiative}.` };
}

/** Undo: writes every merged change back to its `from`, one set per object, and tells observers once per token. */
export function applyUndo(context: WriteContext, merged: readonly MergedChange[]): void {
  const attributes = new Map<string, number>();
  const tokenProps = new Map<string, Record<string, unknown>>();
  const props = (tokenId: string) => {
    let found = tokenProps.get(tokenId);
    if (!found) tokenProps.set(tokenId, (found = {}));
    return found;
  };
  let order: Roll20TurnEntry[] | undefined;
  let orderChanged = false;
  // Each token touched, found and read once (in the order first touched): what it was before.
  const befores = new Map<string, { token: Roll20Graphic; snapshot: TokenSnapshot; memory: Memory } | null>();
  const memoryNow = (snapshot: TokenSnapshot) => normalMemory(memoryOf(context.memories, snapshot.home), context.edition);

  for (const { tokenId, change } of merged) {
    let before = befores.get(tokenId);
    if (before === undefined) {
      const token = getObj('graphic', tokenId);
      const snapshot = token && readToken(token, characterOf(token), context.settings);
      before = snapshot ? { token: snapshot.token, snapshot, memory: memoryNow(snapshot) } : null;
      befores.set(tokenId, before);
    }
    if (!before) continue;
    switch (change.kind) {
      case 'bar':
        if (change.from === null) break; // nothing numeric to put back
        if (change.attributeId && getObj('attribute', change.attributeId)) attributes.set(change.attributeId, change.from);
        else props(tokenId)[`${change.bar}_value`] = change.from;
        break;
      case 'attribute':
        if (change.from !== null) attributes.set(change.attributeId, change.from);
        break;
      case 'worn': {
        const record: TokenRecord = { ...context.memories.tokens[tokenId] };
        record.worn = withEntry(record.worn, change.track, change.from);
        putRecord(context.memories.tokens, tokenId, record);
        break;
      }
      case 'override': {
        const record: TokenRecord = { ...context.memories.tokens[tokenId] };
        record.overrides = withEntry(record.overrides, change.key, change.from);
        putRecord(context.memories.tokens, tokenId, record);
        break;
      }
      case 'markers':
        props(tokenId).statusmarkers = change.from;
        break;
      case 'memory': {
        const id = memoryKey(tokenId, change);
        const current = normalMemory(memoryOf(context.memories, id), context.edition);
        storeMemory(context.memories, id, undoneMemory(change.from, change.to, current, sameData));
        break;
      }
      case 'answer':
        // An answer the command did not change (its round ended since: neither side is on file) stays as it is now.
        if (!sameData(change.from, change.to)) storeAnswer(context.memories, change.tokenId ?? tokenId, change.from);
        break;
      case 'initiative': {
        order ??= readTurnOrder();
        const entry = order.find((row) => row.id === tokenId);
        if (entry) {
          entry.pr = change.from;
          orderChanged = true;
        }
        break;
      }
      case 'turn-order': {
        order ??= readTurnOrder();
        const kept = order.filter((row) => row.id !== change.tokenId);
        if (kept.length !== order.length) {
          order = kept;
          orderChanged = true;
        }
        break;
      }
    }
  }
  for (const [id, value] of attributes) {
    const attribute = getObj('attribute', id);
    if (attribute) writeAttribute(attribute, value);
  }
  for (const [tokenId, before] of befores) {
    if (!before) continue;
    const { token } = before;
    const pending = tokenProps.get(tokenId) ?? {};
    // Markers put back show the stance the token keeps (a stance taken since the hit stays, with its marker).
    if (typeof pending.statusmarkers === 'string') pending.statusmarkers = markersForStance(pending.statusmarkers, context.memories.tokens[before.snapshot.home]?.stance ?? null, context.settings);
    const barsAfter = {} as Record<Resource, number | null>;
    for (const resource of RESOURCES) {
      const reading = before.snapshot.bars[resource];
      const key = `${reading.bar}_value`;
      // A bar put back through its linked attribute is set on the token too if the link did not carry it.
      const restored = reading.link ? attributes.get(reading.link) : undefined;
      if (restored !== undefined && token.get(key as 'bar1_value') !== restored) pending[key] = restored;
      const written = restored ?? pending[key];
      barsAfter[resource] = typeof written === 'number' ? written : reading.value;
    }
    if (Object.keys(pending).length > 0) {
      token.set(pending as Partial<Roll20GraphicProperties>);
      keepPairInStep(token, pending);
    }
    const markersAfter = typeof pending.statusmarkers === 'string' ? pending.statusmarkers : before.snapshot.statusmarkers;
    tellObservers(context, token, before.snapshot, before.memory, memoryNow(before.snapshot), { ...barsAfter, statusmarkers: markersAfter });
  }
  if (order && orderChanged) writeTurnOrder(order);
}

function tellObservers(
  context: WriteContext,
  token: Roll20Graphic,
  snapshot: TokenSnapshot,
  memoryBefore: Memory,
  memoryAfter: Memory,
  after: Record<Resource, number | null> & { statusmarkers: string },
): void {
  const condition = (memory: Memory, vitality: number | null) => {
    const state = memory.edition?.id === context.edition.id ? context.edition.life.parseState(memory.edition.state) : null;
    return context.edition.life.condition(state ?? context.edition.life.enter(vitality, memory.deadForGood === true), vitality);
  };
  const before: TokenResources = {
    vitality: snapshot.bars.vitality.value,
    soul: snapshot.bars.soul.value,
    power: snapshot.bars.power.value,
    statusmarkers: snapshot.statusmarkers,
    condition: condition(memoryBefore, snapshot.bars.vitality.value),
  };
  notifyObservers(token, before, { ...after, condition: condition(memoryAfter, after.vitality) }, { undo: true }, () => previousProperties(snapshot, snapshot.bars.vitality.value));
}
