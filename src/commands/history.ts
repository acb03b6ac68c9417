// The undo history: the last damage applications, each kept as the changes it made. Bounded by
// count and by size, so `state` (saved for the whole game) stays small after a long evening.
import type { Application } from '../state/history';
import type { App } from './context';

export const HISTORY_LIMIT = 50;
/** The history's share of `state`, in characters of JSON (commands.md: state stays small). */
export const HISTORY_BYTES = 60_000;

/** Each entry's size, measured once when it is recorded (kept in memory, beside `state`). */
const sizes = new WeakMap<Application, number>();

function sizeOf(application: Application): number {
  let size = sizes.get(application);
  if (size === undefined) {
    size = JSON.stringify(application).length;
    sizes.set(application, size);
  }
  return size;
}

export function recordApplication(app: App, application: Application): void {
  const history = app.store.history;
  history.push(application);
  if (history.length > HISTORY_LIMIT) history.splice(0, history.length - HISTORY_LIMIT);
  // The newest entry always stays undoable; older ones go first when the budget is spent.
  let total = 0;
  for (const entry of history) total += sizeOf(entry);
  while (total > HISTORY_BYTES && history.length > 1) total -= sizeOf(history.shift()!);
}
