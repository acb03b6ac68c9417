// Other scripts of the game, found as Roll20 loads them: every script of a game is concatenated
// into one, so another script's top-level `const` (TokenMod) is a bare name in scope but not a
// property of the global object (commands.md, "How Roll20 loads scripts"). Looked up when needed,
// since scripts load in any order.

declare const TokenMod: unknown;
declare const HealthColors: unknown;
declare const GroupInitiative: unknown;
declare const ChatSetAttr: unknown;

export interface TokenModApi {
  ObserveTokenChange?: (observer: (token: Roll20Graphic, prev: Record<string, unknown>) => void) => void;
}

export interface GroupInitiativeApi {
  ObserveTurnOrderChange?: (observer: (turnOrder?: unknown, prev?: unknown) => void) => void;
}

/** ChatSetAttr's README, "Registering observers": `add`, `change` (with the attribute before) and `destroy`. */
export interface ChatSetAttrApi {
  registerObserver?: (event: 'add' | 'change' | 'destroy', observer: (attribute: Roll20Attribute, prev?: Record<string, unknown>) => void) => void;
}

export interface HealthColorsApi {
  Update?: (token: Roll20Graphic, prev: Record<string, unknown>) => void;
}

function objectOrUndefined<T>(value: unknown): T | undefined {
  return value !== null && (typeof value === 'object' || typeof value === 'function') ? (value as T) : undefined;
}

export function tokenMod(): TokenModApi | undefined {
  const bare = typeof TokenMod !== 'undefined' ? TokenMod : undefined;
  return objectOrUndefined<TokenModApi>(bare ?? (globalThis as Record<string, unknown>).TokenMod);
}

export function healthColors(): HealthColorsApi | undefined {
  const bare = typeof HealthColors !== 'undefined' ? HealthColors : undefined;
  return objectOrUndefined<HealthColorsApi>(bare ?? (globalThis as Record<string, unknown>).HealthColors);
}

export function groupInitiative(): GroupInitiativeApi | undefined {
  const bare = typeof GroupInitiative !== 'undefined' ? GroupInitiative : undefined;
  return objectOrUndefined<GroupInitiativeApi>(bare ?? (globalThis as Record<string, unknown>).GroupInitiative);
}

/** Bump's pairs both ways: each stand-in's original, and each original's stand-in, by id. */
export interface BumpPairs {
  original: Map<string, string>;
  standIn: Map<string, string>;
}

/** No pairs (no Bump in the game): one shared empty answer, nothing made per command. */
const NO_PAIRS: BumpPairs = { original: new Map(), standIn: new Map() };

/**
 * Bump keeps `state.Bump.mirrored` as `{ originalId: standInId }` (the stand-in is its invisible
 * token on the other layer). Another script's state may hold anything: only string ids are kept.
 */
export function bumpPairs(): BumpPairs {
  const mirrored = state.Bump?.mirrored;
  if (mirrored === null || typeof mirrored !== 'object') return NO_PAIRS;
  const pairs: BumpPairs = { original: new Map(), standIn: new Map() };
  for (const [id, standIn] of Object.entries<unknown>(mirrored)) {
    if (typeof standIn !== 'string' || standIn === id) continue;
    pairs.original.set(standIn, id);
    pairs.standIn.set(id, standIn);
  }
  return pairs;
}

export function chatSetAttr(): ChatSetAttrApi | undefined {
  const bare = typeof ChatSetAttr !== 'undefined' ? ChatSetAttr : undefined;
  return objectOrUndefined<ChatSetAttrApi>(bare ?? (globalThis as Record<string, unknown>).ChatSetAttr);
}
