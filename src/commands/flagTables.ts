// A command's whole flag table in one edition (the flags every edition has, then the edition's):
// merged once per edition, not per command (a hit on one token is a few dozen microseconds).
import type { FlagTable } from '../text/args';

const merged = new WeakMap<object, Map<string, FlagTable>>();

/** The table `tables` merge into, kept for this edition under `name` (the tables of one name never change). */
export function flagsOf(edition: object, name: string, ...tables: readonly FlagTable[]): FlagTable {
  let byName = merged.get(edition);
  if (!byName) {
    byName = new Map();
    merged.set(edition, byName);
  }
  let table = byName.get(name);
  if (!table) {
    table = Object.assign({}, ...tables) as FlagTable;
    byName.set(name, table);
  }
  return table;
}
