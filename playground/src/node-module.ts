// Stands in for `node:module` in the browser bundle: mocks/dice.ts loads the dice parser with
// createRequire(import.meta.url)('@3d-dice/dice-roller-parser') because Node's ESM loader sees
// no named exports in it. Here esbuild has bundled the package, and require hands it over.
import * as diceParser from '@3d-dice/dice-roller-parser';

const modules: Record<string, unknown> = { '@3d-dice/dice-roller-parser': diceParser };

export function createRequire(_from: string | URL): (id: string) => unknown {
  return (id: string) => {
    if (!(id in modules)) throw new Error(`the playground bundles no module "${id}"`);
    return modules[id];
  };
}
