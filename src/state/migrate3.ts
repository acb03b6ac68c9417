// Schema 3 -> 4 (one character, several tokens): a linked token's memory (edition state, dead for
// good, stance) moves from its token's record to its character's, kept in `tokens` under the
// character's id; overrides and worn armor stay with the token, the answer on file in the exchange.
// Two tokens of one character that remembered differently: the worse condition as remembered is
// kept (the first met on a tie), dead for good from either, a stance from the other when the kept
// one has none. The undo history's memory changes move the same way, so an undo after the upgrade
// puts a memory back where it now lives. Which tokens are linked is asked of the table (`homeOf`).
import { isRecord } from './settings';
import { memoryChanges } from './changes';
import { editionOf, isEditionId } from '../rules/editions';
import type { Memory } from './memory';

type Raw = Record<string, unknown>;

/** Where a token's memory lives now (its character's id for a linked token; its own id, or undefined when gone). */
export type HomeOf = (tokenId: string, bar: string) => string | undefined;

const RANK = { none: 0, incapacitated: 1, dying: 2, dead: 3 };

/** How bad a remembered condition is (dead for good worst; no valid state least). */
function rank(memory: Raw): number {
  const box = memory.edition as Raw | undefined;
  const edition = isEditionId(box?.id) ? editionOf(box.id) : undefined;
  const state = edition?.life.parseState(box!.state);
  return memory.deadForGood ? 4 : state ? RANK[edition!.life.condition(state, null)] : -1;
}

/** Each entry of a list mapped (a list of them flattened in); anything not shaped as an entry is left for the checks to drop. */
export const each = (list: unknown, map: (item: Raw) => unknown): unknown => (Array.isArray(list) ? list.flatMap((item) => (isRecord(item) ? map(item) : [item])) : list);

export function migrateFrom3(old: Raw, homeOf: HomeOf = () => undefined): Raw {
  const bars = isRecord(old.settings) && isRecord(old.settings.bars) ? old.settings.bars : {};
  const bar = typeof bars.vitality === 'string' ? bars.vitality : 'bar1';
  const characterOf = (id: string) => {
    const home = homeOf(id, bar);
    return home === id ? undefined : home;
  };
  const tokens: Raw = isRecord(old.tokens) ? { ...old.tokens } : {};
  for (const [id, record] of Object.entries(tokens)) {
    const character = isRecord(record) ? characterOf(id) : undefined;
    if (!character) continue;
    const { edition, deadForGood, stance, ...own } = record as Raw;
    const memory = JSON.parse(JSON.stringify({ edition, deadForGood, stance })) as Raw;
    if (Object.keys(own).length > 0) tokens[id] = own;
    else delete tokens[id];
    const other = tokens[character] as Raw | undefined;
    if (!other) tokens[character] = memory;
    else {
      const [kept, left] = rank(memory) > rank(other) ? [memory, other] : [other, memory];
      tokens[character] = { stance: left.stance, ...kept, ...(left.deadForGood ? { deadForGood: true } : {}) };
    }
  }
  const history = each(old.history, (entry) => ({
    ...entry,
    tokens: each(entry.tokens, (token) => ({
      ...token,
      changes: each(token.changes, (change) => {
        // A linked token's (or ally's) memory change: its character's part, and the answer on file.
        const character = change.kind === 'memory' ? characterOf(String(change.tokenId ?? token.tokenId)) : undefined;
        return character ? memoryChanges(change.from as Memory, change.to as Memory, character, change.tokenId as string | undefined) : change;
      }),
    })),
  }));
  return { ...old, schemaVersion: 4, tokens: isRecord(old.tokens) ? tokens : old.tokens, history };
}
