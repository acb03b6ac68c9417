// The one way the script speaks in chat.
import { SCRIPT_NAME } from '../version';

export type Audience = { kind: 'public' } | { kind: 'whisper'; to: string };

export const PUBLIC: Audience = { kind: 'public' };
export const TO_GM: Audience = { kind: 'whisper', to: 'gm' };

export function whisperTo(target: string): Audience {
  return { kind: 'whisper', to: target };
}

/** Posts already-escaped chat text. Whispers are not archived twice; results stay in the log. */
export function send(audience: Audience, text: string): void {
  if (audience.kind === 'public') {
    sendChat(SCRIPT_NAME, text);
  } else {
    sendChat(SCRIPT_NAME, `/w ${audience.to} ${text}`, null, { noarchive: true });
  }
}
