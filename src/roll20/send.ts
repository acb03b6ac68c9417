// The one way the script speaks in chat.
import { SCRIPT_NAME } from '../version';

export type Audience = { kind: 'public' } | { kind: 'whisper'; to: string };

export const PUBLIC: Audience = { kind: 'public' };
export const TO_GM: Audience = { kind: 'whisper', to: 'gm' };

export function whisperTo(target: string): Audience {
  return { kind: 'whisper', to: target };
}

/**
 * Posts already-escaped chat text. Results stay in the chat archive, the GM's whispered cards
 * included (`record`); menus, help and refusals are transient (commands.md, "The record stays").
 */
export function send(audience: Audience, text: string, options: { record?: boolean } = {}): void {
  if (audience.kind === 'public') {
    sendChat(SCRIPT_NAME, text);
  } else if (options.record === true) {
    sendChat(SCRIPT_NAME, `/w ${audience.to} ${text}`);
  } else {
    sendChat(SCRIPT_NAME, `/w ${audience.to} ${text}`, null, { noarchive: true });
  }
}
