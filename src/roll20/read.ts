// Reading the game: one snapshot per token per command (each property read once), and the
// facts a plan names, as plain data read before its rules run: character values looked up through
// the per-character attribute index, worn armor, stance and the token's state in the active
// edition, each with where it lives; what cannot be read is found here, before the rules.
import { readInteger } from '../rules/values';
import type { AnyEdition, BarFact, Condition, Facts, OtherFacts, Plan, Reads, Resource, ValueFact, ValueKey } from '../rules/edition';
import type { BarName, Settings } from '../state/settings';
import type { TokenRecord } from '../state/tokens';
import type { AnswerBox } from '../state/memory';
import type { AttributeIndex } from './attributes';
import { isNpc } from './players';
import { hiddenFromPlayers } from './visible';
import { FormulaSession } from '../text/formula';

export type { Resource } from '../rules/edition';
export { RESOURCES } from '../rules/edition';

export interface BarReading {
  bar: BarName;
  /** The value as Roll20 holds it. */
  raw: unknown;
  /** The value as an integer, or null when the bar holds no integer. */
  value: number | null;
  max: number | null;
  /** The id of the linked attribute, or "". */
  link: string;
}

export interface TokenSnapshot {
  id: string;
  token: Roll20Graphic;
  name: string;
  character: Roll20Character | undefined;
  bars: Record<Resource, BarReading>;
  /** A token whose Vitality bar is linked is a unique character (rules.md). */
  unique: boolean;
  /** Where its memory lives: its character's id for a unique token of a character, else its own id. */
  home: string;
  npc: boolean;
  /** Hidden from the players (the GM layer, a page no player is on): nothing about it goes public. */
  hidden: boolean;
  statusmarkers: string;
}

/** A token's name as chat shows it, or `fallback` when it has none. */
export function tokenName(token: Roll20Graphic, fallback = 'an unnamed token'): string {
  return String(token.get('name') ?? '') || fallback;
}

/** A token by its id, as it is on the table now (undefined: no such graphic). */
export function findToken(id: string): Roll20Graphic | undefined {
  return getObj('graphic', id);
}

/** A character by its id (undefined: no such character). */
export function findCharacter(id: string): Roll20Character | undefined {
  return getObj('character', id);
}

export function characterOf(token: Roll20Graphic): Roll20Character | undefined {
  const id = String(token.get('represents') ?? '');
  return id ? getObj('character', id) : undefined;
}

/**
 * Where a token's memory (edition state, dead for good, stance) lives, as `readToken` says: a token
 * whose Vitality bar is linked is its character's, and shares one memory with every such token of it
 * (rules.md, "One character, several tokens"); any other token keeps its own.
 */
export function homeOf(token: Roll20Graphic, bar: BarName): string {
  const character = barLink(token, bar) ? characterOf(token) : undefined;
  return character ? character.id : token.id;
}

/** `homeOf` by the token's id (undefined: no such token), for the schema-3 migration. */
export function homeOfId(id: string, bar: string): string | undefined {
  const token = findToken(id);
  return token && homeOf(token, bar as BarName);
}

/** A character's tokens on every page whose Vitality bar is linked: the ones sharing its memory. */
export function linkedTokensOf(characterId: string, bar: BarName): Roll20Graphic[] {
  return findObjs({ _type: 'graphic', represents: characterId }).filter((token) => barLink(token as Roll20Graphic, bar) !== '') as Roll20Graphic[];
}

/** Each bar's property names, made once: a name built per read is a new string for every lookup to hash. */
export const BAR_PROPS = {
  bar1: { value: 'bar1_value', max: 'bar1_max', link: 'bar1_link' },
  bar2: { value: 'bar2_value', max: 'bar2_max', link: 'bar2_link' },
  bar3: { value: 'bar3_value', max: 'bar3_max', link: 'bar3_link' },
} as const satisfies Record<BarName, { value: string; max: string; link: string }>;

/**
 * A bar read once, each part on first use (each Roll20 get costs). A linked bar is read from its
 * attribute: in Roll20 a script's attribute write (TokenMod's, a sheet worker's, ours) reaches the
 * token's bar later, not in the same tick, so the attribute is what the bar is about to show.
 */
class TokenBar implements BarReading {
  private rawRead: unknown;
  private valueRead: number | null | undefined;
  private maxRead: number | null | undefined;
  private linkRead: string | undefined;
  private attributeRead: Roll20Attribute | null | undefined;

  constructor(
    private readonly token: Roll20Graphic,
    readonly bar: BarName,
  ) {}

  get link(): string {
    if (this.linkRead === undefined) this.linkRead = String(this.token.get(BAR_PROPS[this.bar].link) ?? '');
    return this.linkRead;
  }

  /** The attribute the bar is linked to, when it still exists. */
  private get attribute(): Roll20Attribute | null {
    if (this.attributeRead === undefined) this.attributeRead = this.link === '' ? null : (getObj('attribute', this.link) ?? null);
    return this.attributeRead;
  }

  get raw(): unknown {
    if (this.valueRead === undefined) {
      const attribute = this.attribute;
      this.rawRead = attribute ? attribute.get('current') : this.token.get(BAR_PROPS[this.bar].value);
      this.valueRead = readInteger(this.rawRead);
    }
    return this.rawRead;
  }

  get value(): number | null {
    if (this.valueRead === undefined) void this.raw;
    return this.valueRead as number | null;
  }

  get max(): number | null {
    if (this.maxRead === undefined) {
      const attribute = this.attribute;
      this.maxRead = readInteger(attribute ? attribute.get('max') : this.token.get(BAR_PROPS[this.bar].max));
    }
    return this.maxRead;
  }
}

/** A token's bar value as a number, read as a command reads it (a linked bar from its attribute). */
export function barValue(token: Roll20Graphic, bar: BarName): number | null {
  return new TokenBar(token, bar).value;
}

export function readToken(token: Roll20Graphic, character: Roll20Character | undefined, settings: Settings): TokenSnapshot {
  const bars = {
    vitality: new TokenBar(token, settings.bars.vitality),
    soul: new TokenBar(token, settings.bars.soul),
    power: new TokenBar(token, settings.bars.power),
  };
  return {
    id: token.id,
    token,
    name: String(token.get('name') ?? '') || String(character?.get('name') ?? '') || 'unnamed token',
    character,
    bars,
    unique: bars.vitality.link !== '',
    home: character && bars.vitality.link ? character.id : token.id,
    npc: isNpc(token, character),
    hidden: hiddenFromPlayers(token),
    statusmarkers: String(token.get('statusmarkers') ?? ''),
  };
}

export type Track = 'physical' | 'magical';

/** The protections that wear: a generic token's wear is kept per token (rules.md, "Unique and generic tokens"). */
export const WORN_TRACK: Partial<Record<ValueKey, Track>> = { armor_physical: 'physical', armor_magical: 'magical' };

/** Where a character value was read from, so the writer puts a change back in the same place. */
export type ValuePlace =
  | { kind: 'attribute'; attribute: Roll20Attribute }
  | { kind: 'worn'; track: Track }
  | { kind: 'override' }
  | { kind: 'none' };

export interface TokenReading<S = unknown> {
  snapshot: TokenSnapshot;
  record: TokenRecord | undefined;
  /** What the rules see: plain data, all read before they run. */
  facts: Facts<S>;
  places: Partial<Record<ValueKey, ValuePlace>>;
  /**
   * Character values the plan named that hold neither a number nor a formula Roll20 could work out:
   * the target is refused before the rules run, nothing written (never read as 0).
   */
  problems: ValueProblem[];
  /** The first bar the plan counts on (`Plan.bars`) that holds no whole number: the target is refused before the rules run. */
  brokenBar?: Resource;
  /** The token's condition as read, before the command (markers and observers compare the one after with it). */
  condition: Condition;
}

/** How one command reads a token besides what its plan names. */
export interface ReadOptions {
  /** Vitality as it stood before (a hand edit: the value before the user typed): the bar the rules see, and where a token first met enters. */
  vitality?: number;
  /** The defense the rules read instead of the one on file (an attack's answer; null: none). */
  answerGiven?: { answer: unknown };
}

/** A character value that is not a number: which, where, and why, for the refusal. */
export interface ValueProblem {
  key: ValueKey;
  attribute: string;
  which: 'current' | 'max';
  problem: string;
}

/** The edition state of a token: stored for this edition, or entered now (first seen, or an edition switch). */
export function editionStateOf<S>(edition: AnyEdition, record: TokenRecord | undefined, vitality: number | null, left?: AnyEdition): S {
  // The stored state was checked by its edition at start-up and written by it since: no parse per command.
  if (record?.edition?.id === edition.id) return record.edition.state as S;
  return edition.life.enter(vitality, deadForGoodWhenMet(record, vitality, left)) as S;
}

/**
 * rules.md, "Switching editions": dead for good stays dead. A token met for the first time since a
 * switch (the switch re-read only the tokens the script remembered) is judged by its Vitality as
 * the edition left behind would judge it: at -12, soak's dead is dead for good in threshold too.
 */
export function deadForGoodWhenMet(record: TokenRecord | undefined, vitality: number | null, left: AnyEdition | undefined): boolean {
  if (record?.deadForGood === true) return true;
  if (left === undefined || record !== undefined) return false;
  return left.life.deadForGood(left.life.enter(vitality, false), vitality);
}

export interface ReadContext {
  settings: Settings;
  attributes: AttributeIndex;
  edition: AnyEdition;
  /** The script's per-token memory (edition state, stance), by where it lives. */
  tokens: Readonly<Record<string, TokenRecord>>;
  /** The Turn Tracker, read once per command when a plan needs it. */
  turnOrder?: readonly Roll20TurnEntry[];
  /** The row whose turn it is (the top one, past TurnMarker1's own row), found once with `turnOrder`. */
  turnRow?: Roll20TurnEntry;
  /** The current turn's token is on the GM layer. */
  turnRowHidden?: boolean;
  /** The initiative at which the current turn began (`turnRow`'s when it came to the top), when known. */
  turnStart?: number;
  /** The edition before the last switch, for tokens first met since (see `deadForGoodWhenMet`). */
  editionLeft?: AnyEdition;
  /** The exchange's answers on file (defenses made ahead), by token id. */
  waiting: Readonly<Record<string, AnswerBox>>;
}

/** A token's answer on file, when it was made in this edition (one made in another is none here). */
export function answerOf(edition: AnyEdition, box: AnswerBox | undefined): unknown {
  return box !== undefined && box.edition === edition.id ? box.answer : null;
}

// Places shared by every token (only an attribute's place names an object of its own).
const OVERRIDE_PLACE: ValuePlace = { kind: 'override' };
const NO_PLACE: ValuePlace = { kind: 'none' };
const WORN_PLACE: Record<Track, ValuePlace> = { physical: { kind: 'worn', track: 'physical' }, magical: { kind: 'worn', track: 'magical' } };
const NO_OTHERS = Object.freeze({});
const NO_KEYS: readonly never[] = [];
/** No value read (a plan that names none): nothing in it, nothing ever put in it. */
const NO_VALUES = Object.freeze({});
const ABSENT: ValueFact = Object.freeze({ current: null, max: null, present: false });

const NO_PROBLEMS: ValueProblem[] = [];

/** Nothing stored: no value (not a 0, not a problem). */
function isBlank(raw: unknown): boolean {
  return raw === undefined || raw === null || (typeof raw === 'string' && raw.trim() === '');
}

/** Whether a stored value is a formula or other text rather than a number or nothing. */
function holdsText(raw: unknown): boolean {
  return !isBlank(raw) && readInteger(raw) === null;
}

/**
 * One token's character values as plain numbers: each value the plan names read once (its max when
 * named), a per-token override before the sheet, the sheet's attributes before its defaults, and
 * every value that is not a number noted as a problem as it is read. (Its members' notes are line
 * comments: esbuild keeps a class member's doc comment in the shipped file, which has a size budget.)
 */
class SheetValues {
  readonly values: Partial<Record<ValueKey, ValueFact>> = {};
  readonly places: Partial<Record<ValueKey, ValuePlace>> = {};
  // Problems found, made on the first (most tokens have none).
  problems: ValueProblem[] = NO_PROBLEMS;
  // This read's formulas: each attribute worked out once, within one budget (made on the first formula).
  private formulas: FormulaSession | undefined;
  // The protections whose max was read (made on the first).
  private maxesRead: ValueKey[] | undefined;

  constructor(
    private readonly snapshot: TokenSnapshot,
    private readonly record: TokenRecord | undefined,
    private readonly context: ReadContext,
  ) {}

  // Reads what is named and not read yet (a max named is of a value named); whether anything was.
  read(keys: readonly ValueKey[], maxes: Reads['maxes'] = NO_KEYS): boolean {
    let any = false;
    for (let i = 0; i < keys.length; i += 1) {
      const key = keys[i]!;
      if (this.values[key] === undefined) {
        this.readOne(key);
        any = true;
      }
    }
    // Only a protection read from the sheet has a max still to read (an override's is the override, a bar's the bar's).
    for (let i = 0; i < maxes.length; i += 1) {
      const key = maxes[i] as ValueKey;
      const value = this.values[key];
      if (value === undefined || !value.present || WORN_TRACK[key] === undefined || this.record?.overrides?.[key] !== undefined || this.maxesRead?.includes(key)) continue;
      (this.maxesRead ??= []).push(key);
      value.max = this.maxOf(key);
      any = true;
    }
    return any;
  }

  private readOne(key: ValueKey): void {
    const { snapshot, record } = this;
    const track = WORN_TRACK[key];
    // A per-token override wins over the character's attribute.
    const override = record?.overrides?.[key];
    if (override !== undefined) {
      // A generic token's protection wears per token, from the override.
      this.values[key] = { current: track ? (record?.worn?.[track] ?? override) : override, max: override, present: true };
      this.places[key] = track ? WORN_PLACE[track] : OVERRIDE_PLACE;
      return;
    }
    const character = snapshot.character;
    const index = this.context.attributes;
    const name = this.context.settings.attributes[key];
    const attribute = character && index.find(character.id, name);
    let raw: unknown;
    // A unique token's protection wears on the sheet; a generic one's per token.
    let perToken = track !== undefined && !snapshot.unique;
    if (attribute) {
      // A unique token's protection that is a formula wears per token: the formula is never overwritten.
      if (track !== undefined && !perToken) perToken = holdsText((raw = attribute.get('current')));
    } else if (character && !isBlank((raw = index.sheetDefault(character.id, name, 'current')))) {
      // No attribute object yet: the sheet's default, as Roll20 gives it; a protection then wears per token.
      perToken = track !== undefined;
    } else {
      this.values[key] = track ? { current: record?.worn?.[track] ?? null, max: null, present: false } : ABSENT;
      this.places[key] = track ? WORN_PLACE[track] : NO_PLACE;
      return;
    }
    const worn = perToken ? record?.worn?.[track!] : undefined;
    this.values[key] = { current: worn !== undefined ? worn : this.number(raw !== undefined ? raw : attribute!.get('current'), key, 'current'), max: null, present: true };
    this.places[key] = perToken ? WORN_PLACE[track!] : attribute ? { kind: 'attribute', attribute } : NO_PLACE;
  }

  // A protection's undamaged value: its max; a unique token's formula or a sheet default with no
  // max of its own is undamaged at its current value.
  private maxOf(key: ValueKey): number | null {
    const characterId = this.snapshot.character!.id;
    const index = this.context.attributes;
    const name = this.context.settings.attributes[key];
    const attribute = index.find(characterId, name);
    if (attribute === undefined) {
      const raw = index.sheetDefault(characterId, name, 'max');
      return isBlank(raw) ? this.number(index.sheetDefault(characterId, name, 'current'), key, 'current') : this.number(raw, key, 'max');
    }
    const raw = attribute.get('max');
    if (isBlank(raw) && this.snapshot.unique) {
      const current = attribute.get('current');
      if (holdsText(current)) return this.number(current, key, 'current');
    }
    return this.number(raw, key, 'max');
  }

  // An attribute's raw value by name, as a formula refers to it: the attribute, else the sheet's default.
  private lookup(name: string, which: 'current' | 'max'): unknown {
    const characterId = this.snapshot.character!.id;
    const attribute = this.context.attributes.find(characterId, name);
    return attribute ? attribute.get(which) : this.context.attributes.sheetDefault(characterId, name, which);
  }

  // A stored value as a number: an integer as it is, "" or nothing as no value, a formula worked out
  // as Roll20 would; anything else is a problem (noted) and no value.
  private number(raw: unknown, key: ValueKey, which: 'current' | 'max'): number | null {
    const whole = readInteger(raw);
    if (whole !== null) return whole;
    if (isBlank(raw)) return null;
    this.formulas ??= new FormulaSession((name, part) => this.lookup(name, part));
    const worked = this.formulas.evaluate(String(raw));
    if (worked.ok && Number.isSafeInteger(worked.value)) return worked.value;
    const problem = !worked.ok
      ? worked.problem
      : Number.isInteger(worked.value)
        ? `works out to ${worked.value}, too big a number to count exactly` // past 2^53, not a fraction
        : `works out to ${worked.value}, not a whole number (wrap it in floor())`;
    if (this.problems === NO_PROBLEMS) this.problems = [];
    this.problems.push({ key, attribute: this.context.settings.attributes[key], which, problem });
    return null;
  }
}

/** A bar as the rules see it: its value as read (or as given), its max only when the plan names it. */
function barFact(reading: BarReading, resource: Resource, maxes: Reads['maxes'], value: number | null = reading.value): BarFact {
  return { value, max: maxes !== undefined && maxes.includes(resource) ? reading.max : null };
}

/** Another token a plan names (an aiding ally, an attacker), read as plain data; undefined when it is not on the table. */
export function readOther(id: string, context: ReadContext): OtherFacts<unknown> | undefined {
  const token = findToken(id);
  if (!token || token.get('_subtype') === 'card') return undefined;
  const bar = context.settings.bars.vitality;
  const record = context.tokens[homeOf(token, bar)];
  const vitality = barValue(token, bar);
  return {
    name: tokenName(token, id),
    stance: record?.stance ?? null,
    state: editionStateOf(context.edition, record, vitality, context.editionLeft),
    answer: answerOf(context.edition, context.waiting[id]),
    vitality,
    acting: context.turnRow !== undefined && context.turnRow.id === id,
  };
}

/**
 * Everything one plan needs of one token, read once and before its rules run: the bars, the values
 * it names (and those `more` names from them), the Turn Tracker and the other tokens it names.
 */
export function readFacts<S>(
  snapshot: TokenSnapshot,
  record: TokenRecord | undefined,
  plan: Pick<Plan<S>, 'values' | 'maxes' | 'bars' | 'others' | 'more'>,
  context: ReadContext,
  /** The record its memory lives in (`snapshot.home`'s): the character's, for a linked token. */
  home = record,
  options?: ReadOptions,
): TokenReading<S> {
  // A plan that names no value (a heal, a stance) reads no sheet.
  const sheet = plan.values.length > 0 || plan.more !== undefined ? new SheetValues(snapshot, record, context) : undefined;
  sheet?.read(plan.values, plan.maxes);
  const order = context.turnOrder;
  let initiative: number | null = null;
  if (order && order.length > 0) {
    const entry = order.find((row) => row.id === snapshot.id);
    if (entry !== undefined) initiative = numberOrNull(entry.pr);
  }
  let others: Facts<S>['others'] = NO_OTHERS;
  if (plan.others && plan.others.length > 0) {
    others = {};
    for (const id of plan.others) others[id] = readOther(id, context) as OtherFacts<S> | undefined;
  }
  const bars = snapshot.bars;
  const maxes = plan.maxes;
  // A hand edit: the rules start from the value before the user typed, and a token first met enters there.
  const vitality = options?.vitality ?? bars.vitality.value;
  const state = editionStateOf<S>(context.edition, home, vitality, context.editionLeft);
  const facts: Facts<S> = {
    id: snapshot.id,
    name: snapshot.name,
    bars: { vitality: barFact(bars.vitality, 'vitality', maxes, vitality), soul: barFact(bars.soul, 'soul', maxes), power: barFact(bars.power, 'power', maxes) },
    values: sheet?.values ?? NO_VALUES,
    armorSource: snapshot.character !== undefined || record?.overrides !== undefined,
    stance: home?.stance ?? null,
    state,
    answer: options?.answerGiven !== undefined ? options.answerGiven.answer : answerOf(context.edition, context.waiting[snapshot.id]),
    initiative,
    // The Defensive Round / The Defensive Turn: the token on top of a non-empty Turn Tracker is in its own active round.
    acting: context.turnRow !== undefined && context.turnRow.id === snapshot.id,
    // The count the turn began at, not what the token on top has paid since (rules.md, "Rounds").
    currentTurn: context.turnRow === undefined ? null : { initiative: context.turnStart ?? numberOrNull(context.turnRow.pr), hidden: context.turnRowHidden === true },
    others,
  };
  // Values named from the first ones (a standing armor's Soak, a fallen one's natural defense), until none is new.
  if (sheet !== undefined && plan.more) {
    for (let more = plan.more(facts); more !== undefined && sheet.read(more.values, more.maxes); more = plan.more(facts));
  }
  const reading: TokenReading<S> = { snapshot, record, facts, places: sheet?.places ?? NO_VALUES, problems: sheet?.problems ?? NO_PROBLEMS, condition: context.edition.life.condition(state, vitality) };
  const counted = plan.bars;
  if (counted !== undefined) {
    for (let i = 0; i < counted.length; i += 1) {
      if (facts.bars[counted[i]!].value === null) {
        reading.brokenBar = counted[i]!;
        break;
      }
    }
  }
  return reading;
}

/** An initiative as Roll20 keeps it (a number or numeric text, decimals allowed), or null. */
function numberOrNull(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string' || value.trim() === '') return null;
  const parsed = Number(value.trim());
  return Number.isFinite(parsed) ? parsed : null;
}

/** An attribute's current value as Roll20 holds it now (undefined: no such attribute). */
export function attributeCurrent(attributeId: string): unknown {
  return getObj('attribute', attributeId)?.get('current');
}

/** The attribute a token's bar is linked to ('' when none). */
export function barLink(token: Roll20Graphic, bar: BarName): string {
  return String(token.get(BAR_PROPS[bar].link) ?? '');
}

/** Whose attribute this is, and its name (undefined: no such attribute). */
export function attributeOwner(attributeId: string): { characterId: string; name: string } | undefined {
  const attribute = getObj('attribute', attributeId);
  return attribute ? { characterId: String(attribute.get('_characterid') ?? ''), name: String(attribute.get('name') ?? '') } : undefined;
}
