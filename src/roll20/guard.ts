// The one error path: no exception ever escapes into the Roll20 sandbox, where it would stop
// every script at the table. The API log gets the details; the sender a short whisper.
import { SCRIPT_NAME, SCRIPT_VERSION } from '../version';
import { escapeChat } from '../text/escape';
import { logLine } from './sandbox';
import { newJob } from './visible';

function lineOffsetNote(): string {
  const meta = typeof API_Meta !== 'undefined' ? API_Meta?.[SCRIPT_NAME] : undefined;
  return meta && Number.isFinite(meta.offset) ? ` (this script's line 1 is line ${meta.offset + 1} of the sandbox)` : '';
}

export function reportFailure(what: string, error: unknown, whisperTo: string | undefined): void {
  try {
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    logLine(`${SCRIPT_NAME} v${SCRIPT_VERSION}: ${what} failed${lineOffsetNote()}: ${detail}`);
    if (whisperTo) {
      sendChat(
        SCRIPT_NAME,
        `/w ${whisperTo} ${escapeChat(`${SCRIPT_NAME} could not finish ${what}: an internal error. Nothing more was changed; the GM can find the details in the API console.`)}`,
        null,
        { noarchive: true },
      );
    }
  } catch {
    // Reporting must never be the thing that crashes the sandbox.
  }
}

/**
 * Wraps a Roll20 handler: a thrown error or a rejected promise is reported, never rethrown.
 * `whisperTarget` names who should hear about a failure (the sender of a command).
 */
export function guarded<A extends unknown[]>(
  what: string | ((...args: A) => string),
  handler: (...args: A) => void | Promise<void>,
  whisperTarget?: (...args: A) => string | undefined,
): (...args: A) => void {
  return (...args: A) => {
    // What failed and who hears of it are worked out only when something failed (every chat message
    // of the game comes through here).
    const fail = (error: unknown) => {
      let label = typeof what === 'string' ? what : 'a command';
      let target: string | undefined;
      try {
        if (typeof what === 'function') label = what(...args);
        target = whisperTarget?.(...args);
      } catch {
        target = undefined;
      }
      reportFailure(label, error, target);
    };
    // Every job starts from the table as it is now (what players see is read once per job).
    newJob();
    try {
      const result = handler(...args);
      if (result && typeof (result as Promise<void>).then === 'function') {
        (result as Promise<void>).then(undefined, fail);
      }
    } catch (error) {
      fail(error);
    }
  };
}
