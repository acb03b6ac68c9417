// A command line parsed once against the command's spec (issue 31: one generic parser, in the
// pipeline): the flags every edition has and the edition's own, read by text/flags.ts, in one voice.
import { checkFlags, type ParsedLine } from '../text/args';
import { parseAmount, parseFlags, readFlags, toFlagTable, type AmountSpec, type TypedFlagTable } from '../text/flags';
import type { Order } from '../rules/edition';

const merged = new WeakMap<object, Map<string, TypedFlagTable>>();

/** The table `tables` merge into, kept per edition object under `name` (the tables of one name never change). */
export function flagsOf(owner: object, name: string, ...tables: readonly TypedFlagTable[]): TypedFlagTable {
  let byName = merged.get(owner);
  if (!byName) {
    byName = new Map();
    merged.set(owner, byName);
  }
  let table = byName.get(name);
  if (!table) {
    table = Object.assign({}, ...tables) as TypedFlagTable;
    byName.set(name, table);
  }
  return table;
}

const bare = new WeakMap<TypedFlagTable, Record<string, unknown>>();
/** A hit's order has no positional words left once its amount is read. */
const NO_POSITIONALS: readonly string[] = Object.freeze([]);

/** A line with no flag: every flag as it is when not given (most hits), worked out once per table. */
function defaultsOf(line: ParsedLine, table: TypedFlagTable): Record<string, unknown> {
  let values = bare.get(table);
  if (!values) {
    // A required flag refuses here, as it would on every bare line; then nothing is kept.
    values = parseFlags(line, table) as Record<string, unknown>;
    bare.set(table, values);
  }
  return values;
}

/**
 * The line as an order: the flags' shape first (an unknown flag, another edition's), then the amount
 * when the command takes one, then every flag's value and whether it goes with the others.
 */
export function orderOf(line: ParsedLine, table: TypedFlagTable, amount?: AmountSpec, elsewhere?: (name: string) => string | undefined): Order {
  if (line.flags.size > 0) checkFlags(line, toFlagTable(table), elsewhere);
  const optional = amount?.optional === true || (amount?.optionalWith !== undefined && line.flags.has(amount.optionalWith));
  const given = amount === undefined ? undefined : optional ? parseAmount(line, { ...amount, optional: true }) : parseAmount(line, amount);
  // The shape was checked above: the flags are read once.
  const values = line.flags.size === 0 ? defaultsOf(line, table) : (readFlags(line, table) as Record<string, unknown>);
  // One object per command, its keys added in the same order every time (a spread of the values
  // cost a 1-token hit a tenth of its time): the plans read it as a plain record.
  const order: Record<string, unknown> = amount === undefined ? { positionals: line.positionals } : { amount: given, positionals: NO_POSITIONALS };
  for (const name in values) {
    if (name === '__proto__') Object.defineProperty(order, name, { value: values[name], enumerable: true, writable: true, configurable: true });
    else order[name] = values[name];
  }
  return order as Order;
}
