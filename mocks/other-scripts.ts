// Stand-ins for other Roll20 scripts, declared as those scripts declare themselves. Roll20
// concatenates every script of a game into one, so put one of these before the bundle's source:
// TokenMod's top-level `const` is then a bare name in scope but not a property of the global
// object, and HealthColors' `var` is both.

/** TokenMod: a top-level const with its observer registry; `edited` is what TokenMod does after its own bar edit. */
export const TOKENMOD_STAND_IN = `
const TokenMod = (() => {
  const observers = [];
  return {
    ObserveTokenChange: (fn) => { observers.push(fn); },
    edited: (token, prev) => observers.forEach((fn) => fn(token, prev)),
  };
})();
`;

/** HealthColors: a top-level var counting its updates and keeping each token's name and prev Vitality (bar1). */
export const HEALTHCOLORS_STAND_IN = `
var HealthColors = { calls: 0, updates: [], Update(token, prev) { this.calls += 1; this.updates.push([token.get('name'), prev.bar1_value]); } };
`;
