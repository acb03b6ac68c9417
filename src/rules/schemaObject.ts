// valibot's object schema, over entries that have no prototype. valibot walks a schema's entries
// with for-in, which also visits enumerable properties another script put on Object.prototype (all
// of a game's scripts share one sandbox); with no prototype, only the schema's own entries are seen.
import * as v from 'valibot';

export function objectSchema<const T extends v.ObjectEntries>(entries: T): v.ObjectSchema<T, undefined> {
  return v.object(Object.assign(Object.create(null) as T, entries));
}
