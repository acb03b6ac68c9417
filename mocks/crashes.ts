// In real Roll20 an exception escaping a handler, a sendChat callback or a timer stops every
// script in the game; the mock records it instead, so tests can fail loudly with the details.

export interface Crash {
  /** What was running: an event name, 'sendChat callback', 'setTimeout callback', 'script load'. */
  event: string;
  message: string;
  stack: string;
  error: unknown;
}

export class CrashRecorder {
  readonly list: Crash[] = [];

  record(event: string, error: unknown): void {
    this.list.push(crashOf(event, error));
  }

  /** Runs fn; an exception becomes a recorded crash. */
  guard(event: string, fn: () => void): void {
    try {
      fn();
    } catch (error) {
      this.record(event, error);
    }
  }

  describe(): string {
    return this.list.map((c, i) => `#${i + 1} in ${c.event}: ${c.stack}`).join('\n');
  }

  assertNone(): void {
    if (this.list.length === 0) return;
    throw new Error(`The Roll20 sandbox would have crashed (${this.list.length}):\n${this.describe()}`);
  }

  take(): Crash[] {
    return this.list.splice(0, this.list.length);
  }
}

/** Reads an error by shape: errors thrown inside a vm context are not this realm's Error instances. */
export function crashOf(event: string, error: unknown): Crash {
  const shaped = error as { name?: unknown; message?: unknown; stack?: unknown } | null;
  const isError = typeof shaped === 'object' && shaped !== null && typeof shaped.message === 'string';
  const message = isError ? `${String(shaped.name ?? 'Error')}: ${String(shaped.message)}` : String(error);
  const stack = isError && typeof shaped.stack === 'string' ? shaped.stack : message;
  return { event, message, stack, error };
}
