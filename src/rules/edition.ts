// What an edition of the rules is (architecture.md, "The edition seam"): a folder of pure code
// that parses its commands into plans, resolves them from numbers read once, and says every step
// in its own words. The pipeline, the writer, undo and the renderer know no edition's rules.
import type { FlagTable, ParsedLine } from '../text/args';

export const EDITION_IDS = ['soak', 'threshold', 'opposed'] as const;
export type EditionId = (typeof EDITION_IDS)[number];

export type Resource = 'vitality' | 'soul' | 'power';
export const RESOURCES: readonly Resource[] = ['vitality', 'soul', 'power'];
/** Each bar's name as a card says it. */
export const RESOURCE_LABEL: Record<Resource, string> = { vitality: 'Vitality', soul: 'Soul', power: 'Power' };

/** What markers and observers see of a token's life, in every edition. */
export type Condition = 'none' | 'incapacitated' | 'dying' | 'dead';

/** The character values the rules read, each by a remappable attribute name (rules.md, "Default attribute names"). */
export const VALUE_KEYS = [
  'armor_soak',
  'armor_physical',
  'armor_magical',
  'armor_defense',
  'armor_spirit',
  'natural_defense',
  'natural_spirit',
  'fortitude',
  'defend_check',
  'evade_check',
  'perception_check',
  'mental_check',
  'reaction_check',
  'save_check',
  'exp',
  'passive_defense',
  'active_defense',
  'full_defense',
  'armor_score',
] as const;
export type ValueKey = (typeof VALUE_KEYS)[number];

/** One step of an outcome, as data: numbers, enums and opaque ids; the edition's `text` words it. */
export interface Step {
  kind: string;
}

/** A bar as the rules see it: an integer, or null when it holds no number. */
export interface BarFact {
  value: number | null;
  max: number | null;
}

/** A character value: current (worn, for a protection) and max; `present` when something supplied it. */
export interface ValueFact {
  current: number | null;
  max: number | null;
  present: boolean;
}

/** What a plan may know of another token it names (an aiding ally): never its bars. */
export interface OtherFacts<S> {
  name: string;
  stance: string | null;
  state: S;
  /** Its Vitality (null: not a number), so its condition can be read. */
  vitality?: number | null;
  /** It is on top of the Turn Tracker: its own turn, not its defensive round. */
  acting?: boolean;
}

/** Everything a plan may know of one token, read once per command. */
export interface Facts<S> {
  /** The token's id, for the commands of a chat button (never shown). */
  id: string;
  name: string;
  bars: Record<Resource, BarFact>;
  /** Only the values the plan asked for. */
  values: Partial<Record<ValueKey, ValueFact>>;
  /** The token represents a character or carries overrides: it has armor and check targets to read. */
  armorSource: boolean;
  stance: string | null;
  /** The token's state in this edition (entered when the token is first seen or the edition changed). */
  state: S;
  /** The token's initiative in the Turn Tracker, when the plan asked for it (null: no entry, or not a number). */
  initiative: number | null;
  /** The token is on top of a non-empty Turn Tracker: its own turn (when the plan asked for the Turn Tracker). */
  acting: boolean;
  /** The current turn (the top entry, even a custom row): its initiative, null when not a number; null: an empty Turn Tracker. */
  /** The current turn's initiative; `hidden` when its token is on the GM layer (its number is not said in public). */
  currentTurn: { initiative: number | null; hidden: boolean } | null;
  /** The other tokens the plan named (`Plan.others`); absent: no such token on the table. */
  others: Record<string, OtherFacts<S> | undefined>;
  /** Names other tokens (an attacker, an ally) for the words of a step. */
  nameOf(id: string): string;
}

/** What an outcome asks the writer to change, besides the token's own edition state and stance. */
export type RuleChange =
  | { kind: 'bar'; resource: Resource; to: number }
  /** A character value: worn armor, EXP. Written where it was read from (sheet, or per token). */
  | { kind: 'value'; key: ValueKey; to: number }
  /** This token's initiative in the Turn Tracker. */
  | { kind: 'initiative'; to: number }
  /** Another token joins the Turn Tracker (a spectator drawn into battle). */
  | { kind: 'join-turn-order'; tokenId: string; initiative: number }
  /** Another token's edition state (an ally's pending defense). */
  | { kind: 'ally-state'; tokenId: string; state: unknown };

/** One word for what happened, for short lines and multi-target rows. */
export type Headline = 'blocked' | 'missed' | 'unharmed' | 'hit' | 'falls' | 'dies' | 'saved' | 'acts';

export interface CardWords {
  title: string;
  /** Rows of plain lines (the edition's words); empty rows are left out. */
  rows: Array<{ label: string; lines: string[] }>;
}

export interface Outcome<S> {
  headline: Headline;
  steps: Step[];
  /** The card's words, or a function that makes them when a card is shown (a multi-target row needs none); read with `cardWords`. */
  card: CardWords | (() => CardWords);
  /** The public line when the breakdown is for the GM only: who, and any new condition, no numbers. */
  shortLine: string;
  changes: RuleChange[];
  /** The token's new edition state; absent: left as it was (and its condition markers too). */
  state?: S;
  /** The token's new stance (null: none); absent: unchanged. */
  stance?: string | null;
  /** Nothing happened worth telling the table (a heal at max, the same stance again): the sender hears it alone. */
  noop?: boolean;
  /** `!damage --undo` can take it back (a save that paid EXP); damage is always undoable. */
  undoable?: boolean;
  /** Observers hear of it (default): damage, heals, saves, hand edits; not checks or stances. */
  observed?: boolean;
  /** A failed defense offers the button that applies damage (commands.md, "Output"). */
  offerDamageButton?: boolean;
  /** Chat buttons that belong with the card (label and the command they send). */
  buttons?: Array<{ label: string; command: string }>;
  /** What `onDamage` observers get as the outcome. */
  detail: unknown;
}

/** Why a plan did nothing for one token. */
export type Refusal =
  /** Said as "Name: reason", or "Name reason" when `nameFirst` (the reason goes on from the name). */
  | { kind: 'refused'; reason: string; nameFirst?: boolean }
  /** A check target (or another needed value) is missing: the pipeline names the attribute. */
  | { kind: 'missing-value'; key: ValueKey }
  /** A bar the plan must do arithmetic on holds no number. */
  | { kind: 'bar'; resource: Resource };

export type Resolution<S> = Outcome<S> | Refusal;

/** An outcome's card words, made now if they were left to be made when shown. */
export function cardWords(outcome: Pick<Outcome<unknown>, 'card'>): CardWords {
  return typeof outcome.card === 'function' ? outcome.card() : outcome.card;
}

export function isRefusal<S>(resolution: Resolution<S>): resolution is Refusal {
  return 'kind' in resolution;
}

/** A command parsed for one edition: what to read, what to roll, and a pure resolve. */
export interface Plan<S> {
  values: readonly ValueKey[];
  /** The dice each target needs from Roll20, by sides (`[100, 100]`: two d100s), in the order `resolve` reads them. */
  dice: readonly number[];
  /** The plan reads the Turn Tracker (`Facts.initiative`, `Facts.acting`). */
  readsTurnOrder?: boolean;
  /** Other tokens whose stance and state the plan needs (`Facts.others`). */
  others?: readonly string[];
  resolve(facts: Facts<S>, rolls: readonly number[]): Resolution<S>;
}

/** Words for a heal or a plain hand edit of Vitality. */
export interface VitalitySet<S> {
  /** What the bar should hold (a dead token's lowered bar is set back). */
  vitality: number;
  state: S;
  steps: Step[];
  /** Every step in words. */
  lines: string[];
  /** The steps in words, leaving out the plain "Vitality a -> b" line (what a heal adds to its own). */
  conditionLines: string[];
  /** The token's condition in one line, or undefined when it stands. */
  now: string | undefined;
}

/** What a plan may need of the GM's settings. */
export interface PlanContext {
  /** seed 003's hard limit below the current initiative (`overwhelm-limit`). */
  overwhelmLimit: number;
  /** The resource that holds stamina (`stamina-bar`). */
  stamina: Resource;
  /** The sender may choose each target's defense mode (the GM); otherwise only for tokens they control. */
  gm: boolean;
}

export interface Edition<S> {
  id: EditionId;
  /** The GM may switch to it (`!defense-round config edition`). */
  playable: boolean;
  flags: { damage: FlagTable; defend: FlagTable };
  /** `!stance` modes; empty: the edition has none and `!stance` is refused naming it. */
  stances: readonly string[];
  usage: { damage: string; defend: string; stance: string };
  /** The GM settings that matter only in some editions, shown in the menu when this one plays. */
  settings: readonly ('overwhelm-limit' | 'stamina-bar')[];
  /** The status markers it shows (condition and stance markers), for the status card. */
  markers: readonly ('incapacitated' | 'dying' | 'dead' | 'defensive' | 'reactive' | 'active' | 'full')[];
  help: { damage: string[]; defend: string[]; stance: string[] };
  /** Throws UsageError for a malformed command. */
  planDamage(line: ParsedLine, context: PlanContext): Plan<S>;
  planDefend(line: ParsedLine): Plan<S>;
  planStance(stance: string): Plan<S>;
  /** A hand edit read through armor: the loss as a hit (commands.md, "Hand edits"). */
  planHandEdit(loss: number, context: PlanContext): Plan<S>;
  /** A command the edition refuses whole, with why (opposed: `!defend`). */
  refuses?: { defend?: string };
  /** Heals and plain hand edits: Vitality moves from `before` to `after`. */
  setVitality(before: number, after: number, state: S): VitalitySet<S>;
  /** A token first seen, or met again after an edition switch. */
  enter(vitality: number | null, deadForGood: boolean): S;
  endRound(state: S): S;
  /** What markers and observers see; `vitality` fills in what the state leaves to it. */
  condition(state: S, vitality: number | null): Condition;
  deadForGood(state: S, vitality: number | null): boolean;
  /** Its stored per-token state, checked; null when unusable. */
  parseState(raw: unknown): S | null;
  /** Nothing in it is worth keeping in `state`. */
  isEmptyState(state: S): boolean;
  /** Undo's "changed since": what differs in words, said after the token's name, e.g. "has a new pending defense". */
  describeStateChange(left: S, now: S): string;
  /** The plain words of one step; ids go through `nameOf`. */
  text(step: Step, nameOf?: (id: string) => string): string;
}

// eslint-style escape hatch for the registry: an edition of any state type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEdition = Edition<any>;
