// on(event, handler) and firing, in registration order, each handler guarded against crashes.
import type { CrashRecorder } from './crashes.js';
import { KNOWN_TYPES } from './objects.js';

export type Handler = (...args: any[]) => void;

// Event names Roll20 understands: a typo like 'change:graphics' would silently never fire.
const EVENT_NAME = /^(ready|chat:message|(change|add|destroy):([a-z]+)(:[a-z0-9_]+)?)$/;

export class EventBus {
  private handlers = new Map<string, Handler[]>();

  constructor(private readonly crashes: CrashRecorder, private readonly warn: (message: string) => void) {}

  on(event: string, handler: Handler): void {
    if (typeof handler !== 'function') {
      this.warn(`on('${event}') was given no function`);
      return;
    }
    const match = EVENT_NAME.exec(event);
    if (!match || (match[3] !== undefined && !KNOWN_TYPES.has(match[3]))) {
      this.warn(`on('${event}'): Roll20 fires no such event`);
    }
    const list = this.handlers.get(event) ?? [];
    list.push(handler);
    this.handlers.set(event, list);
  }

  fire(event: string, ...args: unknown[]): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) {
      this.crashes.guard(event, () => handler(...args));
    }
  }

  count(event: string): number {
    return this.handlers.get(event)?.length ?? 0;
  }

  clear(): void {
    this.handlers = new Map();
  }
}
