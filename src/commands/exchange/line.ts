// An attack's declared line: `!attack`'s own flags beside the edition's `!damage` flags, and the
// `!damage` line its hit is (commands.md, "!attack").
import type { FlagTable, ParsedLine } from '../../text/args';
import type { AnyEdition } from '../../rules/edition';
import type { OpenAttack } from '../../state/attacks';

/** Flags of `!attack` in every edition, beside the edition's `!damage` flags. */
export const ATTACK_FLAGS: FlagTable = {
  ids: { kind: 'list' },
  from: { kind: 'one' },
  help: { kind: 'switch' },
  resolve: { kind: 'one' },
  cancel: { kind: 'one' },
  list: { kind: 'switch' },
};

/** The declared line without `!attack`'s own flags: what `!damage` would have been sent. */
export function damageLineOf(line: ParsedLine, edition: AnyEdition): ParsedLine {
  const flags = new Map<string, string[]>();
  for (const [name, values] of line.flags) {
    if (Object.prototype.hasOwnProperty.call(ATTACK_FLAGS, name) || Object.prototype.hasOwnProperty.call(edition.check.answers.flags, name)) continue;
    flags.set(name, values);
  }
  return { command: '!damage', positionals: line.positionals, flags };
}

/** The attack's line as it was declared, from `state`. */
export function lineOf(attack: OpenAttack): ParsedLine {
  return { command: '!attack', positionals: [...attack.positionals], flags: new Map(attack.flags.map(([name, values]) => [name, [...values]])) };
}

