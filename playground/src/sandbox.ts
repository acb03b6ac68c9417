// Runs the shipped bundle the way Roll20 does, without node:vm: one script that sees the API
// globals and nothing of the page. A `with` scope resolves every Roll20 name through the mock
// (`state` stays a getter, as in mocks/vm.ts), and the browser's own globals read as undefined,
// so the script cannot reach the page, its DOM or its console.
import type { MockRoll20 } from '../../mocks/roll20.js';

// Names a page has and Roll20's sandbox has not; `globalThis` is the sandbox itself.
const HIDDEN = [
  'window', 'self', 'document', 'console', 'navigator', 'location', 'history', 'localStorage',
  'sessionStorage', 'fetch', 'XMLHttpRequest', 'WebSocket', 'Worker', 'alert', 'prompt', 'confirm',
  'open', 'parent', 'top', 'frames', 'opener', 'requestAnimationFrame', 'setImmediate',
  'queueMicrotask', 'process', 'require', 'module', 'exports', 'playground',
] as const;

export interface Sandbox {
  /** The scope the script runs in: its `globalThis`. */
  scope: Record<string, unknown>;
  /** What the bundle's top-level `var DefenseRound = ...` holds, if anything. */
  exported: unknown;
}

export function loadScript(mock: MockRoll20, source: string): Sandbox {
  const scope: Record<string, unknown> = {};
  for (const name of HIDDEN) scope[name] = undefined;
  Object.defineProperties(scope, Object.getOwnPropertyDescriptors(mock.globals));
  scope.globalThis = scope;
  // The bundle is evaluated as written; only a trailing line hands its export back. Sloppy mode on
  // purpose: `with` is how one script gets a global object of its own without node:vm.
  // eslint-disable-next-line no-new-func
  const run = new Function('__scope', `with (__scope) {\n${source}\n;return typeof DefenseRound === 'undefined' ? undefined : DefenseRound;\n}`) as (
    scope: Record<string, unknown>,
  ) => unknown;
  let exported: unknown;
  try {
    exported = run(scope);
  } catch (error) {
    mock.crashes.push({
      event: 'script load',
      message: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      stack: error instanceof Error && error.stack ? error.stack : String(error),
      error,
    });
  }
  return { scope, exported };
}
