// The registry of editions: the one place that knows which editions exist. Everything else asks
// it for the active one, or for the edition that owns a flag; no edition id is written elsewhere.
import type { AnyDeclaredEdition, AnyEdition, AttackAsked, Edition, EditionId, Order, RegisteredEdition } from './edition';
import { REGISTERED } from './registry';
import { defendOrder, keepFiled } from './shared';

/** A word as a button says it: "defend" -> "Defend"; "none" -> "No defense". */
const labelOf = (word: string): string => (word === 'none' ? 'No defense' : `${word.charAt(0).toUpperCase()}${word.slice(1)}`);

/**
 * An edition with the pipeline's defaults for what it left out (architecture.md, "The edition seam"):
 * a round changes nothing, dead is dead for good, an empty state has no keys, a stored answer is
 * none; an answer to an attack is `!defend --action WORD` (its `--roll` given), labelled by its word,
 * in the attack's `--situation` if it has one, and keeps the defense its check left.
 */
export function withDefaults(edition: AnyDeclaredEdition, id: EditionId = edition.id): AnyEdition {
  const { life, check } = edition;
  const answerFlag = check.answers.answerFlag ?? 'action';
  return {
    ...edition,
    id,
    life: {
      endRound: (state) => state,
      deadForGood: (state, vitality) => life.condition(state, vitality) === 'dead',
      isEmptyState: (state) => Object.keys(state as object).length === 0,
      describeStateChange: () => 'has changed condition since',
      parseAnswer: () => null,
      ...life,
    },
    check: {
      ...check,
      answers: {
        flags: {},
        answerFlags: {},
        answerFlag,
        rollFlag: 'roll',
        label: labelOf,
        // The attack's situation is its `--situation`, where the edition's hit or answers take one.
        situation: (order) => (typeof order.situation === 'string' ? order.situation : null),
        situationWords: (situation) => situation,
        forDefender: (order) => order,
        planAnswer: (word) => check.plan(defendOrder({ [answerFlag]: word }, check.flags)),
        keep: (word, outcome) => keepFiled(word, outcome),
        ...check.answers,
      },
    },
  };
}

const EDITIONS = new Map<EditionId, AnyEdition>();
for (const [id, edition] of Object.entries(REGISTERED) as Array<[string, AnyDeclaredEdition]>) EDITIONS.set(id, withDefaults(edition, id));

/** The edition of a new game: the first one registered. */
export const DEFAULT_EDITION: EditionId = EDITIONS.keys().next().value as EditionId;

/**
 * The edition schema-1 saves belong to: the only one the first release played (The Defensive Round),
 * named here, not taken from the registry's order (a reordered menu must not move old saves).
 */
export const FIRST_RELEASE_EDITION: EditionId = 'soak';

/**
 * Adds an edition to the registry (or replaces the one of its id). The shipped script registers
 * its editions above; tests register editions that exist only in the test.
 */
export function registerEdition(edition: AnyDeclaredEdition): void {
  EDITIONS.set(edition.id, withDefaults(edition));
  stancesKnown = undefined;
}

/** Forgets an edition a test registered; a shipped one a test replaced is put back as shipped. */
export function unregisterEdition(id: EditionId): void {
  if (Object.prototype.hasOwnProperty.call(REGISTERED, id)) EDITIONS.set(id, withDefaults((REGISTERED as Record<string, AnyDeclaredEdition>)[id]!, id));
  else EDITIONS.delete(id);
  stancesKnown = undefined;
}

export function isEditionId(id: unknown): id is EditionId {
  return typeof id === 'string' && EDITIONS.has(id);
}

export function editionIds(): EditionId[] {
  return [...EDITIONS.keys()];
}

export function allEditions(): AnyEdition[] {
  return [...EDITIONS.values()];
}

/** The edition of a stored id; an id no edition has (checked where it came in) reads as the default. */
export function editionOf(id: EditionId): AnyEdition {
  return EDITIONS.get(id) ?? EDITIONS.get(DEFAULT_EDITION)!;
}

export function playableEditions(): EditionId[] {
  return allEditions().filter((edition) => edition.table.playable).map((edition) => edition.id);
}

let stancesKnown: Set<string> | undefined;
/** Whether some edition has this stance (a remembered stance must be one of them). */
export function isKnownStance(name: string): boolean {
  stancesKnown ??= new Set(allEditions().flatMap((edition) => edition.stance.modes));
  return stancesKnown.has(name);
}

/**
 * For a flag the active edition does not know: the active edition's name when another edition
 * has the flag, so the refusal names the edition (commands.md: never silently ignored).
 */
export function flagElsewhere(active: EditionId, command: '!damage' | '!defend'): (name: string) => string | undefined {
  return (name) => {
    const owned = allEditions().some(
      (edition) => edition.id !== active && Object.prototype.hasOwnProperty.call((command === '!damage' ? edition.hit : edition.check).flags, name),
    );
    return owned ? active : undefined;
  };
}

/** One edition as the registry plays it (its defaults filled in), keeping its own types: for tests that call its members directly. */
export function registered<S, A>(edition: Edition<S, A>): RegisteredEdition<S, A> {
  return withDefaults(edition) as RegisteredEdition<S, A>;
}

/** An attack as a defender meets it, from its situation alone (for tests, the fuzzer and docs: no declared line). */
export function plainAttack(situation: string | null, attacker: string | null = null, defender = 'defender'): AttackAsked {
  const order: Order = situation === null ? { positionals: [] } : { positionals: [], situation };
  return { key: 'A1', order, situation, attacker, defender, defenders: [defender] };
}
