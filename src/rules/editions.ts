// The registry of editions: the one place that knows which editions exist. Everything else asks
// it for the active one, or for the edition that owns a flag.
import type { AnyEdition, EditionId } from './edition';
import type { FlagTable } from '../text/args';
import { soak } from './soak';
import { threshold } from './threshold';
import { opposed } from './opposed';

export const EDITIONS: Record<EditionId, AnyEdition> = { soak, threshold, opposed };

export function editionOf(id: EditionId): AnyEdition {
  return EDITIONS[id];
}

export function playableEditions(): EditionId[] {
  return (Object.values(EDITIONS) as AnyEdition[]).filter((edition) => edition.playable).map((edition) => edition.id);
}

/**
 * For a flag the active edition does not know: the active edition's name when another edition
 * has the flag, so the refusal names the edition (commands.md: never silently ignored).
 */
export function flagElsewhere(active: EditionId, command: 'damage' | 'defend'): (name: string) => string | undefined {
  return (name) => {
    const owned = (Object.values(EDITIONS) as AnyEdition[]).some(
      (edition) => edition.id !== active && Object.prototype.hasOwnProperty.call(edition.flags[command] as FlagTable, name),
    );
    return owned ? active : undefined;
  };
}
