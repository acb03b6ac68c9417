// What the chat box suggests for the active edition, read from its command specs (issue 31: "the
// playground reads the specs"): each command's own examples, a `!stance` per mode, an `!attack`
// per `!damage` example, and the flags `!damage` and `!defend` take, as their --help says them.
// No DOM and no edition named here: everything comes from the registry.
import { editionOf } from '../../src/rules/editions.js';
import type { EditionId } from '../../src/rules/edition.js';
import { flagHelp } from '../../src/text/flags.js';

/** The defender of a suggested `!attack`: a token Roll20 asks for (queries.ts fills it in). */
export const ATTACK_TARGET = '--ids @{target|Defender|token_id}';

/** `!damage N ...` as an attack on one defender picked on the map (commands.md, "!attack"). */
export function attackOf(hit: string): string {
  return `${hit.replace(/^!damage\b/, '!attack')} ${ATTACK_TARGET}`;
}

/** The lines the chat box offers in this edition, each once, in the order the specs give them. */
export function suggestionsOf(id: EditionId): string[] {
  const edition = editionOf(id);
  const hits = edition.hit.examples ?? [];
  const checks = edition.check.refused === undefined ? (edition.check.examples ?? []) : [];
  const stances = edition.stance.modes.map((mode) => `!stance ${mode}`);
  return [...new Set([...hits, ...checks, ...stances, ...hits.map(attackOf)])];
}

/** The flags of `!damage` and `!defend` in this edition, one line each ( `!defend` left out when the edition refuses it). */
export function flagHintsOf(id: EditionId): Array<{ command: string; lines: string[] }> {
  const edition = editionOf(id);
  const hints = [{ command: '!damage', lines: flagHelp(edition.hit.flags) }];
  if (edition.check.refused === undefined) hints.push({ command: '!defend', lines: flagHelp(edition.check.flags) });
  return hints.filter((hint) => hint.lines.length > 0);
}
