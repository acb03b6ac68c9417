// What an edition of the rules is (architecture.md, "The edition seam"): a folder of pure code
// that parses its commands into plans, resolves them from numbers read once, and says every step
// in its own words. The pipeline, the writer, undo and the renderer know no edition's rules.
import type { AmountSpec, TypedFlagTable } from '../text/flags';

/** An edition's id: the name it is registered under (rules/registry.ts). */
export type EditionId = string;

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

/**
 * One step of an outcome, as data: numbers, enums and opaque ids; the edition's `words` say it.
 * `section` places it on the card (architecture.md, "Layout from steps"): a row by its label, the
 * title, the one public summary line, or an action button; a step with none is not shown.
 */
export interface Step {
  kind: string;
  section?: string;
}

/** The sections that are not rows: the card's title, its one public line, and its buttons. */
export const TITLE = 'title';
export const SUMMARY = 'summary';
export const ACTION = 'action';

/** A button the card offers: a command the edition words itself (a stance to take). */
export interface ButtonStep extends Step {
  kind: 'button';
  label: string;
  command: string;
}

/** A line of a prompt's row, said as it is (why a button the rules would give is not offered now). */
export interface LineStep extends Step {
  kind: 'line';
  label: string;
}

/**
 * Steps put in a section of the card, in place: every resolve makes its steps fresh, and a copy
 * per step per token would cost a 50-token hit hundreds of objects for a tag.
 */
export function placed<T extends Step>(section: string, steps: T[]): T[] {
  for (let i = 0; i < steps.length; i += 1) steps[i]!.section = section;
  return steps;
}

/** One step, put in a section (in place, as `placed`). */
export function at<T extends Step>(section: string, step: T): T {
  step.section = section;
  return step;
}

/** A bar as the rules see it: an integer, or null when it holds no number; its max only when the plan names it (`Plan.maxes`). */
export interface BarFact {
  value: number | null;
  max: number | null;
}

/**
 * A character value: current (worn, for a protection) and max (a protection's undamaged value, only
 * when the plan names it in `maxes`); `present` when something supplied it.
 */
export interface ValueFact {
  current: number | null;
  max: number | null;
  present: boolean;
}

/** What a plan may know of another token it names (an aiding ally, an attacker): never its bars. */
export interface OtherFacts<S, A = unknown> {
  /** Its name as chat says it (its id when it has none), for the words of a refusal. */
  name: string;
  stance: string | null;
  state: S;
  /** Its defense made ahead, waiting for its hit (the exchange's answer on file); null: none. */
  answer: A | null;
  /** Its Vitality (null: not a number), so its condition can be read. */
  vitality?: number | null;
  /** It is on top of the Turn Tracker: its own turn, not its defensive round. */
  acting?: boolean;
}

/**
 * Everything a plan may know of one token: plain data, all read before the rules run (architecture.md,
 * the pipeline's "read once"); nothing in it reads Roll20, so `resolve` is pure.
 */
export interface Facts<S, A = unknown> {
  /** The token's id, for the commands of a chat button (never shown). */
  id: string;
  name: string;
  bars: Record<Resource, BarFact>;
  /** Only the values the plan named (`Plan.values`, and `Plan.more`'s). */
  values: Partial<Record<ValueKey, ValueFact>>;
  /** The token represents a character or carries overrides: it has armor and check targets to read. */
  armorSource: boolean;
  stance: string | null;
  /** The token's state in this edition (entered when the token is first seen or the edition changed). */
  state: S;
  /** Its defense made ahead (`!defend`), waiting for its hit: the exchange's answer on file; null: none. */
  answer: A | null;
  /** The token's initiative in the Turn Tracker, when the plan asked for it (null: no entry, or not a number). */
  initiative: number | null;
  /** The token is on top of a non-empty Turn Tracker: its own turn (when the plan asked for the Turn Tracker). */
  acting: boolean;
  /**
   * The current turn (the top entry, even a custom row): the initiative at which it began (the top
   * entry's when it came to the top, not lowered by what that token pays since), null when not a
   * number; `hidden` when its token is on the GM layer (its number is not said in public); null: an empty Turn Tracker.
   */
  currentTurn: { initiative: number | null; hidden: boolean } | null;
  /** The other tokens the plan named (`Plan.others`); absent: no such token on the table. */
  others: Record<string, OtherFacts<S, A> | undefined>;
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
  /** Another token's edition state (an aiding ally's spent reaction). */
  | { kind: 'ally-state'; tokenId: string; state: unknown }
  /** Another token's answer on file (a guard's defense for the guarded ally). */
  | { kind: 'ally-answer'; tokenId: string; answer: unknown };

/** One word for what happened, for short lines and multi-target rows. */
export type Headline = 'blocked' | 'missed' | 'unharmed' | 'hit' | 'falls' | 'dies' | 'saved' | 'acts';

export interface Outcome<S, A = unknown> {
  headline: Headline;
  /** Every step, each placed on the card by its section; the renderer lays the card out from them. */
  steps: Step[];
  changes: RuleChange[];
  /** The token's new edition state; absent: left as it was (and its condition markers too). */
  state?: S;
  /** The token's new answer on file (a defense made ahead); null: the one it had is used up or gone; absent: unchanged. */
  answer?: A | null;
  /** The token's new stance (null: none); absent: unchanged. */
  stance?: string | null;
  /** Nothing happened worth telling the table (a heal at max, the same stance again): the sender hears it alone. */
  noop?: boolean;
  /** `!damage --undo` can take it back (a save that paid EXP); damage is always undoable. */
  undoable?: boolean;
  /** Observers hear of it (default): damage, heals, saves, hand edits; not checks or stances. */
  observed?: boolean;
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

export type Resolution<S, A = unknown> = Outcome<S, A> | Refusal;

export function isRefusal<S, A>(resolution: Resolution<S, A>): resolution is Refusal {
  return 'kind' in resolution;
}

/** A die a plan needs: its name (how `resolve` reads it), its sides, and the flag that may give its roll instead. */
export interface Die {
  name: string;
  sides: number;
  /** `--FLAG N` gives this die's roll (1 to `sides`); the pipeline marks it typed unless it was a real inline roll. */
  flag?: string;
}

/** The dice a plan asked for, by name: rolled by Roll20, or given with their flag. */
export type Rolls = Readonly<Record<string, number>>;

/** Character values a plan reads of each target: their current values, and of some their max too (a bar's or a protection's). */
export interface Reads {
  values: readonly ValueKey[];
  maxes?: readonly (ValueKey | Resource)[];
}

/**
 * A command parsed for one edition: what to read, what to roll, and a pure resolve. Everything it
 * names is read before `resolve` runs; a read that fails refuses the target first (the pipeline's).
 */
export interface Plan<S, A = unknown> extends Reads {
  /** The bars the rules count on: one that holds no whole number refuses the target before they run (rules.md, "Reading values"). */
  bars?: readonly Resource[];
  /**
   * More values to read, named from the plain facts read so far (asked again until it names nothing
   * new): soak reads its armor's Soak only while the armor stands, its natural defense once it is down.
   */
  more?(facts: Facts<S, A>): Reads | undefined;
  /** The dice each target needs (each rolled per target unless its flag gives it). */
  dice: readonly Die[];
  /** The plan reads the Turn Tracker (`Facts.initiative`, `Facts.acting`). */
  readsTurnOrder?: boolean;
  /** Other tokens whose name, stance, state and answer the plan needs (`Facts.others`). */
  others?: readonly string[];
  resolve(facts: Facts<S, A>, rolls: Rolls): Resolution<S, A>;
}

/** A heal or a plain hand edit of Vitality, as steps (unplaced: the command places them). */
export interface VitalitySet<S> {
  /** What the bar should hold (a dead token's lowered bar is set back). */
  vitality: number;
  state: S;
  /** Every step, in order. */
  steps: Step[];
  /** The steps but the plain change of the bar ("Vitality a -> b"), which a heal says in its own words. */
  conditions: Step[];
  /** The token's condition now, or undefined when it stands. */
  now: Step | undefined;
  /** The answer on file is gone with it (a token that died makes no defense). */
  dropsAnswer?: true;
}

/** What a plan may need of the GM's settings. */
export interface PlanContext {
  /** Opposed Rolls' hard limit below the current initiative (`overwhelm-limit`). */
  overwhelmLimit: number;
  /** The resource that holds stamina (`stamina-bar`). */
  stamina: Resource;
  /** The sender may choose each target's defense mode (the GM); otherwise only for tokens they control. */
  gm: boolean;
}

/**
 * A command line as the pipeline parsed it against the command's spec (text/flags.ts, one parser for
 * every edition): each flag's typed value (a switch false, a flag not given undefined unless it has a
 * default), the positional amount of a hit, and any other positional words.
 */
export type Order = Readonly<Record<string, unknown>> & { readonly amount?: number; readonly positionals: readonly string[] };

/** One command of an edition, declared: its typed flags (what each takes, who may give it, which go together), usage and help. */
export interface CommandSpec {
  flags: TypedFlagTable;
  usage: string;
  help: string[];
  /** The edition refuses the command whole, with why (Opposed Rolls: `!defend`). */
  refused?: string;
  /** A few real lines of the command that its plan takes (the conformance suite plans each one). */
  examples?: readonly string[];
}

/**
 * An answer as an open attack keeps it until it resolves: its word, the edition's answer typed (as
 * `life.parseAnswer` checks it at start-up), which the hit reads as `Facts.answer` in place of the
 * one on file, and the answer's own check for the result's row.
 */
export interface KeptAnswer<A = unknown> {
  word: string;
  /** The answer the hit reads (a defense rolled ahead; Opposed Rolls: the mode and its d20); absent: none. */
  answer?: A;
  /** The answer's own check: its roll, and whether it succeeded (absent: no check was made). */
  roll?: number;
  success?: boolean;
  /** Another token whose help the answer used (an aider), settled with the hit by `settle`. */
  helper?: string;
  /** Another defender of the attack this answer answers for too (a guard's success): the attack keeps `kept` as that one's answer, in place of any. */
  answersFor?: { defender: string; kept: KeptAnswer<A> };
}

/**
 * An attack as one defender meets it (rules.md, "The exchange"): the declared order as it applies to
 * this defender (an area attack's edge, say), its situation, who attacks and who else defends.
 */
export interface AttackAsked {
  /** The attack's key (A1), for buttons that answer it. */
  key: string;
  order: Order;
  situation: string | null;
  attacker: string | null;
  defender: string;
  defenders: readonly string[];
}

/** What `!attack` needs of an edition (commands.md, "!attack"): its answers and how each joins the hit. */
export interface AttackSpec<S, A> {
  /** Flags `!attack` takes beyond the edition's `!damage` flags (The Defensive Round: `--situation`). */
  flags: TypedFlagTable;
  /** Flags `!defend --answer` takes beyond the answer's word and roll: what the defender brings to it (an aid). */
  answerFlags: TypedFlagTable;
  /** The flag of `!defend --answer` that carries the answer's word, and the one that gives its roll. */
  answerFlag: string;
  rollFlag: string;
  /** The answers a defender may give, in button order: the words `!defend --answer` sends ("none" takes no defense). */
  choices: readonly string[];
  /** Answer words `!defend --answer` takes that the prompt offers only through `extra`'s buttons (a guard, per ally). */
  announced?: readonly string[];
  /** An answer's button label: the check that is rolled in the attack's situation, with its target ("React (30)"). */
  label(word: string, facts: Facts<S, A>, attack: AttackAsked): string;
  /** The attack's situation, from its declared line (checked by the edition's own parse); null: none given. */
  situation(order: Order): string | null;
  /** The situation and its effect in a few words, for the prompts ("Behind: a hard perceive check first, +5 to hit"). */
  situationWords(situation: string): string;
  /** The declared order as it applies to one defender (identity: the same for all); the same object for defenders it treats alike. */
  forDefender(order: Order, defender: string): Order;
  /** Why the declared attack cannot be kept as declared (a flag naming a token that is no defender); null: it can. */
  refuseDeclared?(order: Order, defenders: readonly string[]): string | null;
  /** A plan run on the attacker before the attack is kept: its refusal refuses the attack (out of turn). */
  declarer?(order: Order, defenders: readonly string[]): Plan<S, A> | undefined;
  /** What the attack costs its attacker, from its facts when the hit is applied, written with the hit and undone with it (a counter attack's reaction). */
  spend?(attacker: OtherFacts<S, A>, attack: AttackAsked): RuleChange[];
  /** The plan of one answer, rolled as `!defend` would in the attack's situation; a refusal says why it is not allowed now. */
  planAnswer(word: string, attack: AttackAsked, context: PlanContext, answer: Order): Plan<S, A>;
  /** What the attack keeps of an answer's outcome. */
  keep(word: string, outcome: Outcome<S, A>, rolls: Rolls): KeptAnswer<A>;
  /** The hit's dice an answer rolled already, by name (Opposed Rolls: the answer's d20 is the hit's defense roll). */
  rolled?(answer: A): Rolls;
  /**
   * Buttons the prompt offers beside the answers, plain commands of their own (a reaction check, an announced action),
   * and lines saying why one is not offered; `nameOf` names a token the card's reader sees (undefined: one she does not).
   */
  extra?(facts: Facts<S, A>, attack: AttackAsked, nameOf: (id: string) => string | undefined): Array<ButtonStep | LineStep>;
  /** Why a defense made ahead does not stand in for this attack (made for another situation); null: it answers it. */
  fits?(answer: A, attack: AttackAsked): string | null;
  /** Why this defender needs no answer (the hit cannot touch it whatever it does); null: it is prompted. Reads what the hit's plan reads. */
  spared?(facts: Facts<S, A>, attack: AttackAsked): string | null;
  /** What an answer helped by another token does to it when the attack resolves, from its facts then (an aid spends the aider's reaction). */
  settle?(kept: KeptAnswer<A>, helper: OtherFacts<S, A>, attack: AttackAsked): RuleChange[];
}

/** A macro the table gets with `!defense-round macros` (the docs' own, for this edition). */
export interface TableMacro {
  name: string;
  action: string;
  /** For the GM only (else shared with every player). */
  gm?: true;
  /** Acts on the selected token: shown as a token action. */
  tokenAction?: true;
}

/** `!damage`: its flags, usage and help, and its plans (architecture.md, "The edition seam"). */
export interface HitSpec<S, A> extends CommandSpec {
  /** The hit's positional amount (`!damage N`). */
  amount: AmountSpec;
  /** Throws UsageError for a malformed command (what the flags' declarations cannot say). */
  plan(order: Order, context: PlanContext): Plan<S, A>;
  /** A hand edit read through armor: the loss as a hit (commands.md, "Hand edits"). */
  handEdit(loss: number, context: PlanContext): Plan<S, A>;
}

/** `!defend` (a check made ahead) and the answers a defender gives to `!attack`. */
export interface CheckSpec<S, A> extends CommandSpec {
  /** Throws UsageError for a malformed command (what the flags' declarations cannot say). */
  plan(order: Order): Plan<S, A>;
  /** `!attack` and `!defend --answer`: the answers, and what differs from the pipeline's way of playing them. */
  answers: AnswersDeclared<S, A>;
}

/**
 * The answers as an edition declares them: its choices, and only what differs from the defaults
 * (rules/editions.ts, `withDefaults`): no flags of its own, `--action WORD` and `--roll`, the word as
 * the label, the attack's `--situation` if any, the answer planned as `!defend --action WORD`, the defense it left kept.
 */
export type AnswersDeclared<S, A> = Pick<AttackSpec<S, A>, 'choices'> & Partial<AttackSpec<S, A>>;

/** What one stance mode is said as: taking it, being in it already, and what it does. */
export interface StanceMode {
  /** "takes the defensive stance", "defends actively by default". */
  takes: string;
  /** "is already in the defensive stance". */
  already: string;
  /** Its effect in a few words, for the card's row and the help. */
  effect: string;
}

/**
 * `!stance`, as table data the pipeline plays (rules/stance.ts): the modes and their words. The
 * stance lasts until changed; the default is never kept (no marker); no modes: `!stance` is refused.
 */
export interface StanceSpec extends CommandSpec {
  modes: readonly string[];
  /** The mode a token that never chose one is in. */
  default: string;
  /** The card's row label ("Stance", "Defense mode"). */
  row: string;
  says: Readonly<Record<string, StanceMode>>;
}

/**
 * How a token enters, lives, dies and ends a round, and what of it is stored. The optional members
 * have the pipeline's default (rules/editions.ts, `withDefaults`): an edition says only what differs.
 */
export interface Life<S, A> {
  /** A token first seen, or met again after an edition switch. */
  enter(vitality: number | null, deadForGood: boolean): S;
  /** What markers and observers see; `vitality` fills in what the state leaves to it. */
  condition(state: S, vitality: number | null): Condition;
  /** Heals and plain hand edits: Vitality moves from `before` to `after`. */
  setVitality(before: number, after: number, state: S): VitalitySet<S>;
  /** Its stored per-token state, checked; null when unusable. */
  parseState(raw: unknown): S | null;
  /** Default: the state is kept as it is. */
  endRound?(state: S): S;
  /** Default: its condition is dead. */
  deadForGood?(state: S, vitality: number | null): boolean;
  /** Nothing in it is worth keeping in `state`. Default: it has no keys. */
  isEmptyState?(state: S): boolean;
  /** Undo's "changed since": what differs in words, said after the token's name. Default: "has changed condition since". */
  describeStateChange?(left: S, now: S): string;
  /** A stored answer (a defense made ahead, or one an attack keeps), checked; null when unusable. Default: the edition keeps none. */
  parseAnswer?(raw: unknown): A | null;
}

/** The edition's table data: what the menus, the status card and `!defense-round macros` read. */
export interface EditionTable {
  /** The GM may switch to it (`!defense-round config edition`). */
  playable: boolean;
  /** Every character value its rules read (a test keeps it honest; the companion sheet shows these). */
  reads: readonly ValueKey[];
  /** The GM settings that matter only in some editions, shown in the menu when this one plays. */
  settings: readonly ('overwhelm-limit' | 'stamina-bar')[];
  /** The status markers it shows (condition and stance markers), for the status card. */
  markers: readonly ('incapacitated' | 'dying' | 'dead' | 'defensive' | 'reactive' | 'active' | 'full')[];
  /** The macros `!defense-round macros` makes for a table playing this edition. */
  macros: readonly TableMacro[];
  /** The edition at the demo table, for the tools around the script; none: they use the table as it is. */
  sample?: EditionSample;
}

/** A token's numbers in a sample: its Vitality, and values the rules read. */
export type SampleValues = Partial<Record<'vitality' | ValueKey, number>>;

/**
 * The edition at the demo table (Bob, the goblins), read only by the tools around the script: the
 * playground's sheets and worked example, the demos, the bench's timed hit and the fuzzer's attacks.
 */
export interface EditionSample {
  /** The values a token's sheet shows, in order, each by its name in the rules text. */
  sheet: Partial<Record<ValueKey, string>>;
  /** The worked example's hero (the table's PC) and a foe to match (its NPCs), set by the GM's hand. */
  hero: SampleValues;
  foe: SampleValues;
  /** A hit as typed that harms a token with these numbers (the bench times it; attacks are drawn from it). */
  hit: string;
  /** The rules text's worked example: its title, and its moves as typed, each with what the rules say comes out. */
  example: { title: string; moves: ReadonlyArray<{ says: string; line: string; expect: string }> };
}

/**
 * An edition: rules and words only (architecture.md, "The edition seam"). Seven members: its id,
 * table data, the three commands' specs, its life group and its words. Everything else (targets,
 * reading, dice, writing, undo, the exchange, cards) is the pipeline's.
 */
export interface Edition<S, A = unknown> {
  /** The name it is registered under (rules/registry.ts). */
  id: EditionId;
  table: EditionTable;
  hit: HitSpec<S, A>;
  check: CheckSpec<S, A>;
  stance: StanceSpec;
  life: Life<S, A>;
  /** The plain words of one step; ids (the token's own too) go through `nameOf`; `context`: what the pipeline tells them. */
  words(step: Step, nameOf: (id: string) => string, context?: WordsContext): string;
}

/**
 * What the pipeline tells an outcome's words (an attack's result): how a hit's title is put
 * together (naming its attacker), and that the defense the hit read is an answer its card says on
 * a row of its own (said once: not again, nor as "from !defend").
 */
export interface WordsContext {
  /** A hit's title from what the hit did and the hit itself ("Goblin 1 hits Bob: 200 physical, Bob loses 30 Vitality"). */
  title?(what: string, hit: string): string;
  answered?: boolean;
}

/** A hit's title: what it did, then the hit ("Bob loses 30 Vitality (200 physical)"), or as the context puts them; `plain`: said otherwise outside one. */
export function hitTitle(what: string, hit: string, context: WordsContext | undefined, plain = `${what} (${hit})`): string {
  return context?.title ? context.title(what, hit) : plain;
}

/** An edition as the registry holds it: its life group with the pipeline's defaults filled in. */
export type RegisteredEdition<S, A> = Omit<Edition<S, A>, 'life' | 'check'> & {
  life: Required<Life<S, A>>;
  check: Omit<CheckSpec<S, A>, 'answers'> & { answers: AttackSpec<S, A> };
};

// The registry holds editions of any state type.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyEdition = RegisteredEdition<any, any>;
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyDeclaredEdition = Edition<any, any>;
