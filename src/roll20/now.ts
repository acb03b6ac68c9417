// Undo's "now": what each place an application changed holds today, read once (a linked bar from
// its attribute: a script's write reaches the bar later). Reading only; the writer puts things back.
import { readInteger } from '../rules/values';
import type { AnyEdition } from '../rules/edition';
import { memoryKey, type MergedChange } from '../state/changes';
import { answerOn, memoryOf, normalMemory, type Memories } from '../state/memory';
import { attributeCurrent, barValue } from './read';
import { readTurnOrder, rowNumber } from './turnorder';

export interface NowContext {
  edition: AnyEdition;
  memories: Memories;
}

/** What each place holds now. Deleted tokens' places are left out. */
export function readNow(context: NowContext, merged: readonly MergedChange[]): Map<string, unknown> {
  const now = new Map<string, unknown>();
  let order: Roll20TurnEntry[] | undefined;
  for (const { place, tokenId, change } of merged) {
    switch (change.kind) {
      case 'bar': {
        const attribute = change.attributeId ? getObj('attribute', change.attributeId) : undefined;
        const token = attribute ? undefined : getObj('graphic', tokenId);
        // A bar linked now is read from its attribute (a script's write reaches the bar later).
        now.set(place, attribute ? readInteger(attribute.get('current')) : token ? barValue(token, change.bar) : null);
        break;
      }
      case 'attribute':
        now.set(place, readInteger(attributeCurrent(change.attributeId)));
        break;
      case 'worn':
        now.set(place, context.memories.tokens[tokenId]?.worn?.[change.track] ?? null);
        break;
      case 'override':
        now.set(place, context.memories.tokens[tokenId]?.overrides?.[change.key] ?? null);
        break;
      case 'markers':
        now.set(place, String(getObj('graphic', tokenId)?.get('statusmarkers') ?? ''));
        break;
      case 'memory':
        now.set(place, normalMemory(memoryOf(context.memories, memoryKey(tokenId, change)), context.edition));
        break;
      case 'answer':
        now.set(place, answerOn(context.memories, change.tokenId ?? tokenId));
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
