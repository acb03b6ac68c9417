// Loads the built bundle the way Roll20 runs it: one script in a context holding only the API
// globals (no require, process, module or console), sharing objects and state with the mock.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import vm from 'node:vm';
import { crashOf } from './crashes.js';
import type { MockRoll20 } from './roll20.js';

export type SandboxContext = vm.Context & Record<string, any>;

export function loadBundle(mock: MockRoll20, file = 'dist/defense-round.js'): SandboxContext {
  const path = resolve(file);
  return loadBundleSource(mock, readFileSync(path, 'utf8'), path);
}

export function loadBundleSource(mock: MockRoll20, source: string, filename = 'defense-round.js'): SandboxContext {
  const sandbox: Record<string, unknown> = {};
  // Copy descriptors, not values: `state` stays a getter, so a restart's fresh state is seen.
  Object.defineProperties(sandbox, Object.getOwnPropertyDescriptors(mock.globals));
  const context = vm.createContext(sandbox, { name: 'Roll20 API sandbox' }) as SandboxContext;
  // V8 puts its own `console` on every new context; Roll20 scripts have only log().
  vm.runInContext('delete globalThis.console;', context);
  try {
    new vm.Script(source, { filename }).runInContext(context);
  } catch (error) {
    mock.crashes.push(crashOf('script load', error));
  }
  mock.assertNoCrash();
  return context;
}

/** Runs an expression inside the sandbox, e.g. `typeof require` or a script's top-level `const`. */
export function evaluateIn(context: SandboxContext, code: string): unknown {
  return vm.runInContext(code, context);
}
