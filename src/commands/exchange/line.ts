// An attack's declared line: `!attack`'s own flags beside the edition's `!damage` flags, and the
// `!damage` line its hit is (commands.md, "!attack").
import type { ParsedLine } from '../../text/args';
import type { TypedFlagTable } from '../../text/flags';
import type { AnyEdition, Order } from '../../rules/edition';
import type { OpenAttack } from '../../state/attacks';
import { flagElsewhere } from '../../rules/editions';
import { flagsOf, orderOf } from '../orders';

/** Flags of `!attack` in every edition, beside the edition's `!damage` flags. */
export const ATTACK_FLAGS: TypedFlagTable = {
  ids: { kind: 'list' },
  from: { kind: 'token' },
  // The GM's: an attack with no attacker (an unseen archer), said so rather than forgotten.
  unseen: { kind: 'switch' },
  help: { kind: 'switch' },
  resolve: { kind: 'word' },
  cancel: { kind: 'word' },
  list: { kind: 'switch' },
};

/** The declared line parsed once, as the hit and the attack's situation read it: `!damage`'s flags, the answers' and `!attack`'s own. */
export function attackOrderOf(line: ParsedLine, edition: AnyEdition): Order {
  return orderOf(line, flagsOf(edition, '!attack', ATTACK_FLAGS, edition.hit.flags, edition.check.answers.flags), edition.hit.amount, flagElsewhere(edition.id, '!damage'));
}

/** The attack's line as it was declared, from `state`. */
export function lineOf(attack: OpenAttack): ParsedLine {
  return { command: '!attack', positionals: [...attack.positionals], flags: new Map(attack.flags.map(([name, values]) => [name, [...values]])) };
}

