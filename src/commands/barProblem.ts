// A bar that holds no whole number is never overwritten by arithmetic on it (rules.md, "Reading
// values"): the token is refused, with the reason.
import type { Resource, TokenSnapshot } from '../roll20/read';
import { RESOURCE_LABEL } from '../rules/edition';


export function barProblem(snapshot: TokenSnapshot, resource: Resource): string | undefined {
  const reading = snapshot.bars[resource];
  if (reading.value !== null) return undefined;
  const shown = reading.raw === '' || reading.raw === undefined || reading.raw === null ? 'nothing' : `"${String(reading.raw)}"`;
  return `${snapshot.name}: its ${RESOURCE_LABEL[resource]} bar (${reading.bar}) holds ${shown}, not a whole number; left as it was`;
}
