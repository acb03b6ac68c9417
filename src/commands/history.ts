// The undo history: the last damage applications, each kept as the changes it made.
import type { Application } from '../state/history';
import type { App } from './context';

export const HISTORY_LIMIT = 50;

export function recordApplication(app: App, application: Application): void {
  const history = app.store.history;
  history.push(application);
  if (history.length > HISTORY_LIMIT) history.splice(0, history.length - HISTORY_LIMIT);
}
