// An edition's plans from a typed line, as the pipeline makes them: the line parsed once against the
// command's flags (src/commands/orders.ts), then the edition's plan of that order.
import type { Plan, PlanContext, RegisteredEdition } from '../../src/rules/edition';
import type { ParsedLine } from '../../src/text/args';
import type { TypedFlagTable } from '../../src/text/flags';
import { flagsOf, orderOf } from '../../src/commands/orders';

const COMMON: TypedFlagTable = { ids: { kind: 'list' }, help: { kind: 'switch' } };

/** `!damage` as the pipeline plans it (its flags, and the flags every command has). */
export function planHit<S, A>(edition: RegisteredEdition<S, A>, line: ParsedLine, context: PlanContext): Plan<S, A> {
  return edition.hit.plan(orderOf(line, flagsOf(edition, 'test-hit', COMMON, edition.hit.flags), edition.hit.amount), context);
}

/** `!defend` as the pipeline plans it. */
export function planCheck<S, A>(edition: RegisteredEdition<S, A>, line: ParsedLine): Plan<S, A> {
  return edition.check.plan(orderOf(line, flagsOf(edition, 'test-check', COMMON, edition.check.flags)));
}
