// The JavaScript built-ins the bundle uses, looked up once at load. Injected by build.mjs (esbuild's
// `inject`): every `Math`, `String`, `Object`... in the bundle then reads one of these module-level
// constants instead of the sandbox's global object. Roll20 runs scripts in a sandbox whose global
// object answers each lookup through an interceptor (about 90 ns a lookup in Node's vm, against
// about 1 ns for a constant), and the code that runs per token makes dozens of them.
// Only built-ins, which never change: Roll20's own functions (getObj, sendChat, state...) stay
// live global lookups. Named plainly (not through `globalThis`): a sandbox's `globalThis` may be
// a scope object of its own that does not carry them.
const math = Math;
const number = Number;
const string = String;
const object = Object;
const array = Array;
const json = JSON;
const map = Map;
const set = Set;
const weakMap = WeakMap;
const error = Error;
const rangeError = RangeError;
const promise = Promise;
const date = Date;
const parseIntOf = parseInt;
const isNaNOf = isNaN;

export {
  math as Math,
  number as Number,
  string as String,
  object as Object,
  array as Array,
  json as JSON,
  map as Map,
  set as Set,
  weakMap as WeakMap,
  error as Error,
  rangeError as RangeError,
  promise as Promise,
  date as Date,
  parseIntOf as parseInt,
  isNaNOf as isNaN,
};
