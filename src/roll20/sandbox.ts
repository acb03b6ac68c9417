// Roll20's sandbox itself: its events, its log, its `state` (saved for the whole game), the GM's
// install options (One-Click `globalconfig`), timers, and the journal's handouts. The rest of the
// script reaches these only through here.

/** Subscribes to a Roll20 event. */
export function onEvent(event: string, handler: (...args: any[]) => void): void {
  on(event, handler);
}

/** A line in the API log. */
export function logLine(text: string): void {
  log(text);
}

/** What Roll20's `state` holds under a script's key (undefined: nothing yet). */
export function savedState(key: string): unknown {
  return state[key];
}

/** Puts a script's corner of Roll20's `state` (kept by reference: later changes are saved too). */
export function saveState(key: string, value: unknown): void {
  state[key] = value;
}

/** The One-Click install options for a script (undefined: none, or not installed that way). */
export function installConfig(name: string): Record<string, unknown> | undefined {
  return typeof globalconfig !== 'undefined' ? globalconfig?.[name] : undefined;
}

/** Runs a function after the current event (another script's command has then run). */
export function later(run: () => void): void {
  setTimeout(run, 0);
}

/** Roll20's clock, in ms since 1970 (what a time limit counts on: it goes on while the sandbox is down). */
export function clockNow(): number {
  return Date.now();
}

/** Runs a function once, `ms` from now (a time limit); the timer's id, to cancel it. */
export function runIn(run: () => void, ms: number): unknown {
  return setTimeout(run, ms);
}

/** Cancels a timer of `runIn` (undefined: none). */
export function cancelRun(id: unknown): void {
  if (id !== undefined) clearTimeout(id as Parameters<typeof clearTimeout>[0]);
}

/** Writes a handout's notes, creating it (in every journal) when it does not exist and `create` allows; its id (undefined: none). */
export function writeHandout(name: string, notes: string, create: boolean): string | undefined {
  const existing = findObjs({ _type: 'handout', name })[0];
  if (existing) {
    existing.set('notes', notes);
    return existing.id;
  }
  if (!create) return undefined;
  const created = createObj('handout', { name, inplayerjournals: 'all', archived: false });
  created?.set('notes', notes);
  return created?.id;
}

/** The id of the handout with this name, when it exists (`known`: the id last seen, checked first). */
export function handoutId(name: string, known: string | undefined): string | undefined {
  if (known !== undefined && getObj('handout', known)?.get('name') === name) return known;
  return findObjs({ _type: 'handout', name })[0]?.id;
}

/** The macros of the game with this name (their ids). */
export function macrosNamed(name: string): string[] {
  return findObjs({ _type: 'macro', name }).map((macro) => macro.id);
}

/** Removes the macro of this id when it still has this name; whether there was one to remove. */
export function removeMacro(id: string, name: string): boolean {
  const macro = getObj('macro', id);
  if (macro?.get('name') !== name) return false;
  macro.remove();
  return true;
}

/**
 * Writes a macro (the GM's, as Roll20 keeps every macro under a player): creates it, or rewrites the
 * one of this id; returns its id (undefined when Roll20 made none).
 */
export function writeMacro(id: string | undefined, macro: { name: string; action: string; visibleto: string; istokenaction: boolean; playerid: string }): string | undefined {
  const existing = id === undefined ? undefined : getObj('macro', id);
  if (existing) {
    existing.set({ action: macro.action, visibleto: macro.visibleto, istokenaction: macro.istokenaction });
    return existing.id;
  }
  const created = createObj('macro', { name: macro.name, action: macro.action, visibleto: macro.visibleto, istokenaction: macro.istokenaction, playerid: macro.playerid });
  return created?.id;
}
