// Undo, the Roll20 part: read once what each changed value holds now, and write the merged
// changes back inverted, one `set` per object, telling observers once per token.
import { readInteger } from '../rules/values';
import type { AnyEdition } from '../rules/edition';
import { undoneMemory, type MergedChange } from '../state/changes';
import { memoryOf, putRecord, withEntry, type Memory, type TokenRecord } from '../state/tokens';
import type { Settings } from '../state/settings';
import { barValue, characterOf, readToken, RESOURCES, type Resource } from './read';
import { normalMemory, previousProperties, sameData, storeMemory, writeAttribute } from './write';
import { notifyObservers, type TokenResources } from './observers';
import { readTurnOrder, rowNumber, writeTurnOrder } from './turnorder';
import { markersForStance } from './markers';

export interface RestoreContext {
  settings: Settings;
  edition: AnyEdition;
  tokens: Record<string, TokenRecord>;
}

/** What each place holds now. Deleted tokens' places are left out. */
export function readNow(context: RestoreContext, merged: readonly MergedChange[]): Map<string, unknown> {
  const now = new Map<string, unknown>();
  let order: Roll20TurnEntry[] | undefined;
  for (const { place, tokenId, change } of merged) {
    const token = getObj('graphic', tokenId);
    switch (change.kind) {
      case 'bar': {
        const attribute = change.attributeId ? getObj('attribute', change.attributeId) : undefined;
        // A bar linked now is read from its attribute (a script's write reaches the bar later).
        now.set(place, attribute ? readInteger(attribute.get('current')) : token ? barValue(token, change.bar) : null);
        break;
      }
      case 'attribute':
        now.set(place, readInteger(getObj('attribute', change.attributeId)?.get('current')));
        break;
      case 'worn':
        now.set(place, context.tokens[tokenId]?.worn?.[change.track] ?? null);
        break;
      case 'override':
        now.set(place, context.tokens[tokenId]?.overrides?.[change.key] ?? null);
        break;
      case 'markers':
        now.set(place, String(token?.get('statusmarkers') ?? ''));
        break;
      case 'memory':
        now.set(place, normalMemory(memoryOf(context.tokens[change.tokenId ?? tokenId]), context.edition));
        break;
      case 'initiative': {
        order ??= readTurnOrder();
        const pr = rowNumber(order.find((entry) => entry.id === tokenId)?.pr);
        now.set(place, Number.isFinite(pr) ? pr : null);
        break;
      }
      case 'turn-order':
        break;
    }
  }
  return now;
}

/** Writes every merged change back to its `from`, one set per object, and tells observers. */
export function restore(context: RestoreContext, merged: readonly MergedChange[], now: ReadonlyMap<string, unknown>): void {
  const attributes = new Map<string, number>();
  const tokenProps = new Map<string, Record<string, unknown>>();
  const touched = new Set<string>();
  const props = (tokenId: string) => {
    let found = tokenProps.get(tokenId);
    if (!found) tokenProps.set(tokenId, (found = {}));
    return found;
  };
  let order: Roll20TurnEntry[] | undefined;
  let orderChanged = false;
  const befores = new Map<string, { snapshot: ReturnType<typeof readToken>; memory: Memory }>();

  for (const { tokenId, change } of merged) {
    const token = getObj('graphic', tokenId);
    if (!token) continue;
    if (!befores.has(tokenId)) {
      befores.set(tokenId, { snapshot: readToken(token, characterOf(token), context.settings), memory: normalMemory(memoryOf(context.tokens[tokenId]), context.edition) });
    }
    touched.add(tokenId);
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
        const record: TokenRecord = { ...context.tokens[tokenId] };
        record.worn = withEntry(record.worn, change.track, change.from);
        putRecord(context.tokens, tokenId, record);
        break;
      }
      case 'override': {
        const record: TokenRecord = { ...context.tokens[tokenId] };
        record.overrides = withEntry(record.overrides, change.key, change.from);
        putRecord(context.tokens, tokenId, record);
        break;
      }
      case 'markers':
        props(tokenId).statusmarkers = change.from;
        break;
      case 'memory': {
        const id = change.tokenId ?? tokenId;
        const current = normalMemory(memoryOf(context.tokens[id]), context.edition);
        storeMemory(context.tokens, id, undoneMemory(change.from, change.to, current, sameData));
        break;
      }
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
  for (const tokenId of touched) {
    const token = getObj('graphic', tokenId);
    const before = befores.get(tokenId);
    if (!token || !before) continue;
    const pending = tokenProps.get(tokenId) ?? {};
    // Markers put back show the stance the token keeps (a stance taken since the hit stays, with its marker).
    if (typeof pending.statusmarkers === 'string') pending.statusmarkers = markersForStance(pending.statusmarkers, context.tokens[tokenId]?.stance ?? null, context.settings);
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
    if (Object.keys(pending).length > 0) token.set(pending as Partial<Roll20GraphicProperties>);
    const markersAfter = typeof pending.statusmarkers === 'string' ? pending.statusmarkers : before.snapshot.statusmarkers;
    tellObservers(context, token, before.snapshot, before.memory, { ...barsAfter, statusmarkers: markersAfter });
  }
  if (order && orderChanged) writeTurnOrder(order);
}

function tellObservers(
  context: RestoreContext,
  token: Roll20Graphic,
  snapshot: ReturnType<typeof readToken>,
  memoryBefore: Memory,
  after: Record<Resource, number | null> & { statusmarkers: string },
): void {
  const condition = (memory: Memory, vitality: number | null) => {
    const state = memory.edition?.id === context.edition.id ? context.edition.parseState(memory.edition.state) : null;
    return context.edition.condition(state ?? context.edition.enter(vitality, memory.deadForGood === true), vitality);
  };
  const memoryAfter = normalMemory(memoryOf(context.tokens[token.id]), context.edition);
  const before: TokenResources = {
    vitality: snapshot.bars.vitality.value,
    soul: snapshot.bars.soul.value,
    power: snapshot.bars.power.value,
    statusmarkers: snapshot.statusmarkers,
    condition: condition(memoryBefore, snapshot.bars.vitality.value),
  };
  notifyObservers(token, before, { ...after, condition: condition(memoryAfter, after.vitality) }, { undo: true }, () => previousProperties(snapshot, snapshot.bars.vitality.value));
}
