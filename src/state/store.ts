// The script's corner of Roll20's `state`: versioned from the first release, migrated step by
// step, and checked on load so garbage is reported and replaced, never thrown on.
import { checkSettings, defaultSettings, isRecord, type Settings } from './settings';
import { checkTokenRecords, isEmptyRecord, type TokenRecord } from './tokens';
import { checkHistory, type Application } from './history';
import { migrateFrom1 } from './migrate1';
import { migrateFrom2 } from './migrate2';
import { migrateFrom3, type HomeOf } from './migrate3';
import { migrateFrom4 } from './migrate4';
import type { AnswerBox } from './memory';
import { checkAttacks, type OpenAttack } from './attacks';
import { editionOf, isEditionId } from '../rules/editions';
import type { EditionId } from '../rules/edition';
import { cutWhole } from '../text/cut';
import { checkSheetLacks } from './sheetLacks';
import { checkTurnStart, type TurnStart } from './turnStart';

export const STATE_KEY = 'DefenseRound';
export const SCHEMA_VERSION = 5;

/** Rows of the Turn Tracker remembered between looks (a hash of 8 characters each, about 11 bytes of `state`). */
export const MAX_SEEN_ROWS = 500;

export interface RoundState {
  /** Rounds counted since the script started tracking. */
  number: number;
  /** The Turn Tracker's rows at the last look, as short hashes, TurnMarker1's row left out (commands/rounds.ts). */
  seen: string[];
  /** Turns the tracker has turned through since this round began (rules.md, "Rounds"). */
  turned: number;
  /** The top row and its initiative when it came to the top (state/turnStart.ts); absent: none known. */
  start?: TurnStart;
}

export interface StoredState {
  schemaVersion: number;
  /** The script version that last ran, to rebuild the help handout when it changes. */
  scriptVersion: string;
  settings: Settings;
  /** Per token; a linked token's memory (edition state, dead for good, stance) under its character's id (`TokenSnapshot.home`). */
  tokens: Record<string, TokenRecord>;
  round: RoundState;
  /** The last damage applications, oldest first, for `!damage --undo`. */
  history: Application[];
  /** The number of the last history entry kept: each entry's key (`U12`) is what its card's Undo button names. */
  lastEntry: number;
  /**
   * The exchange (commands/exchange/): defenses made ahead, each waiting for the next hit on its
   * token; open attacks waiting for their answers; the number of the last attack declared.
   */
  exchange: { waiting: Record<string, AnswerBox>; attacks: Record<string, OpenAttack>; lastAttack: number; lastHiddenAttack: number };
  /** The macros `!defense-round macros` made, by name: their ids (a macro of that name made by hand is not ours). */
  macros: Record<string, string>;
  /** The GM was told once about HealthColors' "dead at 0". */
  healthColorsNoticed: boolean;
  /** Names the game's sheet has no field for, lower-cased (state/sheetLacks.ts); absent in states before it: none. */
  sheetLacks: string[];
  /**
   * The edition before the last switch: a token first met after the switch is judged dead for good
   * as that edition would judge it from its Vitality (rules.md, "Switching editions").
   */
  editionLeft?: EditionId;
}

export function freshState(scriptVersion: string): StoredState {
  return {
    schemaVersion: SCHEMA_VERSION,
    scriptVersion,
    settings: defaultSettings(),
    tokens: {},
    round: { number: 1, seen: [], turned: 0 },
    history: [],
    lastEntry: 0,
    exchange: { waiting: {}, attacks: {}, lastAttack: 0, lastHiddenAttack: 0 },
    macros: {},
    healthColorsNoticed: false,
    sheetLacks: [],
  };
}

/** Version 0 was the unreleased layout: settings lay flat at the top, with no schemaVersion. */
function migrateFrom0(old: Record<string, unknown>): Record<string, unknown> {
  const { tokens, round, ...flat } = old;
  const settings: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(flat)) {
    if (key === 'vitalityBar' || key === 'soulBar' || key === 'powerBar') {
      const bars = (settings.bars ??= {}) as Record<string, unknown>;
      bars[key.replace('Bar', '')] = value;
    } else {
      settings[key] = value;
    }
  }
  return { schemaVersion: 1, settings, tokens, round };
}

const MIGRATIONS: Record<number, (old: Record<string, unknown>, homeOf?: HomeOf) => Record<string, unknown>> = {
  0: migrateFrom0,
  1: migrateFrom1,
  2: migrateFrom2,
  3: migrateFrom3,
  4: migrateFrom4,
};

/**
 * Reads whatever `state` holds into a checked StoredState. Never throws: anything unusable is
 * replaced by defaults and named in `problems`, which the caller logs and shows the GM.
 */
export function loadState(raw: unknown, scriptVersion: string, homeOf?: HomeOf): { stored: StoredState; problems: string[]; newer?: number } {
  const problems: string[] = [];
  if (raw === undefined) return { stored: freshState(scriptVersion), problems };
  if (!isRecord(raw)) {
    problems.push(`state was ${typeof raw}, not an object; started from defaults`);
    return { stored: freshState(scriptVersion), problems };
  }
  let data: Record<string, unknown> = raw;
  let version = typeof data.schemaVersion === 'number' ? data.schemaVersion : 0;
  // commands.md, "State from a newer version": never overwritten; the caller leaves it as it is.
  if (Number.isInteger(version) && version > SCHEMA_VERSION) {
    return { stored: freshState(scriptVersion), problems: [`state has schema version ${version}, newer than this script's ${SCHEMA_VERSION}; left as it is`], newer: version };
  }
  if (!Number.isInteger(version) || version < 0) {
    problems.push(`state has unknown schema version ${JSON.stringify(data.schemaVersion)}; started from defaults`);
    return { stored: freshState(scriptVersion), problems };
  }
  while (version < SCHEMA_VERSION) {
    const step = MIGRATIONS[version];
    if (!step) break;
    data = step(data, homeOf);
    version += 1;
  }
  const settingsCheck = checkSettings(data.settings);
  problems.push(...settingsCheck.problems);
  const tokensCheck = checkTokenRecords(data.tokens);
  problems.push(...tokensCheck.problems);
  // Each edition checks its own per-token state.
  for (const [id, record] of Object.entries(tokensCheck.tokens)) {
    if (!record.edition) continue;
    const edition = record.edition.id;
    const state = editionOf(edition).life.parseState(record.edition.state);
    if (state === null) {
      delete record.edition;
      if (isEmptyRecord(record)) delete tokensCheck.tokens[id];
      problems.push(`tokens.${id}.edition: not a valid ${edition} state; forgotten`);
    } else {
      record.edition = { id: edition, state };
    }
  }
  const exchange = checkExchange(data.exchange, problems, settingsCheck.settings.edition);
  const historyCheck = checkHistory(data.history);
  problems.push(...historyCheck.problems);
  return {
    stored: {
      schemaVersion: SCHEMA_VERSION,
      scriptVersion: typeof data.scriptVersion === 'string' ? data.scriptVersion : '',
      settings: settingsCheck.settings,
      tokens: tokensCheck.tokens,
      round: checkRound(data.round, problems),
      history: historyCheck.history,
      lastEntry: lastEntryOf(data.lastEntry, historyCheck.history),
      exchange,
      macros: checkMacros(data.macros),
      healthColorsNoticed: data.healthColorsNoticed === true,
      sheetLacks: checkSheetLacks(data.sheetLacks, problems),
      ...(isEditionId(data.editionLeft) ? { editionLeft: data.editionLeft } : {}),
    },
    problems,
  };
}

function checkRound(raw: unknown, problems: string[]): RoundState {
  const fallback: RoundState = { number: 1, seen: [], turned: 0 };
  if (raw === undefined) return fallback;
  if (!isRecord(raw)) {
    problems.push('round: not an object; round tracking restarted');
    return fallback;
  }
  const number = typeof raw.number === 'number' && Number.isSafeInteger(raw.number) && raw.number > 0 && raw.number < 1e9 ? raw.number : 1;
  // Rows are 8 hex digits each; anything else (or a layout before this one's) starts counting afresh.
  const seen = Array.isArray(raw.seen) && raw.seen.length <= MAX_SEEN_ROWS && raw.seen.every((key) => typeof key === 'string' && /^[0-9a-f]{8}$/.test(key)) ? (raw.seen as string[]) : [];
  const turned = typeof raw.turned === 'number' && Number.isSafeInteger(raw.turned) && raw.turned >= 0 && raw.turned <= MAX_SEEN_ROWS && seen.length > 0 ? raw.turned : 0;
  const start = checkTurnStart(raw.start);
  return start === undefined ? { number, seen, turned } : { number, seen, turned, start };
}

/** Each answer waiting for its hit, checked by the edition it was made in; a bad one is dropped and named. */
function checkExchange(raw: unknown, problems: string[], edition: string): StoredState['exchange'] {
  const waiting: Record<string, AnswerBox> = {};
  const empty = { waiting, attacks: {}, lastAttack: 0, lastHiddenAttack: 0 };
  if (raw === undefined) return empty;
  const entries = isRecord(raw) && isRecord(raw.waiting) ? raw.waiting : undefined;
  if (!entries) {
    problems.push('exchange: not an object; defenses made ahead forgotten');
    return empty;
  }
  for (const [id, box] of Object.entries(entries)) {
    const answer = id.length > 0 && id.length <= 64 && isRecord(box) && isEditionId(box.edition) ? editionOf(box.edition).life.parseAnswer(box.answer) : null;
    if (answer === null) problems.push(`exchange.waiting.${cutWhole(id, 64)}: not a valid defense made ahead; forgotten`);
    else waiting[id] = { edition: (box as { edition: string }).edition, answer };
  }
  const attacks = checkAttacks(isRecord(raw) ? raw.attacks : undefined, problems, edition);
  return { waiting, attacks, lastAttack: lastKeyOf(raw, 'lastAttack', 'A', attacks), lastHiddenAttack: lastKeyOf(raw, 'lastHiddenAttack', 'G', attacks) };
}

/** A key counter as stored, never below an attack still open under it: a tampered or lost number would hand out its key again. */
function lastKeyOf(raw: unknown, field: string, prefix: string, attacks: Record<string, OpenAttack>): number {
  const last = isRecord(raw) ? raw[field] : undefined;
  let counter = typeof last === 'number' && Number.isSafeInteger(last) && last >= 0 && last < 1e6 ? last : 0;
  for (const key of Object.keys(attacks)) if (key.startsWith(prefix)) counter = Math.max(counter, Number(key.slice(1)));
  return counter;
}

/** The ids of the macros the script made, by name (a bad entry is only forgotten: the macro stays the GM's to keep). */
function checkMacros(raw: unknown): Record<string, string> {
  const macros: Record<string, string> = {};
  if (!isRecord(raw)) return macros;
  for (const [name, id] of Object.entries(raw)) if (name.length <= 40 && typeof id === 'string' && id.length > 0 && id.length <= 64) macros[name] = id;
  return macros;
}

/**
 * The number of the last entry kept: the stored one, but never below a key the history still holds
 * (a tampered or lost number would hand out a key an older card's Undo button still names).
 */
function lastEntryOf(raw: unknown, history: readonly Application[]): number {
  let last = typeof raw === 'number' && Number.isSafeInteger(raw) && raw >= 0 && raw < 1e7 ? raw : 0;
  for (const entry of history) if (entry.key !== undefined) last = Math.max(last, Number(entry.key.slice(1)));
  return last;
}
