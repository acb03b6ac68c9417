// Random chat commands, valid and invalid, for every edition: amounts, flags, ids and values drawn
// from pools that mix what a careful GM types with what an attacker or a slip of the finger does.
// Each command is drawn from the playing edition's own spec (its flags, its usage, its plan's dice,
// its answers and stances, its sample's hit): a new edition is fuzzed as it is registered.
import { Rng } from './rng';
import { controls, type Actor, type World } from './world';
import { allEditions, editionIds, editionOf, plainAttack } from '../src/rules/editions';
import type { AnyEdition, Die } from '../src/rules/edition';
import { diceOf, flagShapes, PLAN_CONTEXT, type FlagShape } from './spec';

export type CommandKind = 'damage' | 'defend' | 'stance' | 'heal' | 'undo' | 'admin' | 'details' | 'attack' | 'answer';

export interface Command {
  kind: CommandKind;
  actor: Actor;
  text: string;
  /** Ids in msg.selected. */
  selected: string[];
  /** Ids given to --ally and --aided-by: a guard or an aid may change that token's pending defense. */
  named: string[];
  /** The command carries a flag that decides the defender's side (its spec's `decides`: --defense-mode): only the GM or the defender's controller gives it. */
  defenseMode: boolean;
  force: boolean;
  /** The admin sub-command, lower case ('' for none). */
  sub: string;
}

// Rolls of dice, and numbers in brackets: [[1]], [[1d1*20]] and [[ 50 ]] are typed, not rolled (the card must say so).
const INLINE_ROLLS = ['[[2d6+3]]', '[[1d100]]', '[[1d20+5]]', '[[4d6kh3]]', '[[0]]', '[[-3]]', '[[5/2]]', '[[1000001]]', '[[3*1000000]]', '[[9007199254740993]]', '[[10-30]]', '[[1]]', '[[1d1*20]]', '[[ 50 ]]', '[[1d20*0+20]]'];
const GARBAGE_WORDS = ['abc', '1e3', '0x10', 'five', '<b>X</b>', '{{y}}', '@{z}', '%{w}', '?{q}', '\u202E9', '12.5', '-0', '+7', 'NaN', 'Infinity', '9007199254740993', '1,000'];
/** The Special Defense Situations of the rules texts, as players type them (each edition refuses those it has not). */
const SITUATIONS = ['front', 'thrown-object', 'spell-seen', 'behind', 'distracted', 'side', 'projectile', 'gun', 'aoe', 'aoe-edge', 'spell-unseen', 'spell-fast', 'spell-invisible', 'covert', 'spectator'];
/** Words no edition's choice has, for a choice typed wrong. */
const WRONG_WORDS = ['psychic', 'maybe', 'reckless', 'stamina', 'fly'];
const SKILL_NAMES = ['"Reactive Guard"', 'Parry', '"Iron Wall"', '<b>X</b>', '[[1d20]]'];
const VALUE_KEYS = [
  'armor_soak', 'armor_physical', 'armor_magical', 'armor_defense', 'armor_spirit', 'natural_defense', 'natural_spirit', 'fortitude',
  'defend_check', 'evade_check', 'perception_check', 'mental_check', 'reaction_check', 'save_check', 'exp', 'passive_defense',
  'active_defense', 'full_defense', 'armor_score',
];
const MARKERS = ['skull', 'dead', 'sleepy', 'red', 'death-zone', 'fist', 'Poisoned::1234', 'Evil<b>X</b>{{y}}', 'no-such-marker', 'a,b', '<b>X</b>'];
/** Every edition's flags of one command, and some no edition has: a flag of another edition, or none's. */
const allFlags = (of: (edition: AnyEdition) => object, extra: string[]) => [...new Set([...allEditions().flatMap((edition) => Object.keys(of(edition))), ...extra])];
const ALL_DAMAGE_FLAGS = allFlags((edition) => edition.hit.flags, ['ids', 'help', 'bogus']);
const ALL_DEFEND_FLAGS = allFlags((edition) => edition.check.flags, ['ids', 'help', 'x<b>X</b>']);
/** What a status marker may mean, in any edition (`marker.MEANING`). */
const MEANINGS = () => [...new Set(allEditions().flatMap((edition) => edition.table.markers))];
/** How often a flag of the spec is given, by what it is (a second token flag is rarer: most actions name one token). */
const GIVEN = { required: 0.95, situation: 0.35, token: 0.3, moreTokens: 0.08, switch: 0.08, text: 0.1, other: 0.18 };

export interface RollOptions {
  /** Leave the dice to the script (no --roll, --defense-roll ...): its roll is then in flight. */
  rolls?: boolean;
  /** Targets by selection only (no --ids), and no slip: the command surely reaches its targets. */
  selectedOnly?: boolean;
}

/** Builds one command line as flag/value pairs, then joins them the way a player types. */
class Line {
  readonly parts: string[] = [];
  constructor(word: string) {
    this.parts.push(word);
  }
  add(...words: string[]): this {
    this.parts.push(...words.filter((w) => w !== undefined));
    return this;
  }
  flag(name: string, value?: string): this {
    this.parts.push(`--${name}`);
    if (value !== undefined) this.parts.push(value);
    return this;
  }
  text(): string {
    return this.parts.join(' ');
  }
}

export class Generator {
  constructor(private readonly world: World, private readonly rng: Rng) {}

  // ---- values ----

  /** Mostly one of the valid words, sometimes a wrong one. */
  choice(valid: readonly string[], wrong: readonly string[]): string {
    return this.rng.chance(0.92) ? this.rng.pick(valid) : this.rng.pick(wrong);
  }

  /** A whole number as typed, mostly sensible, sometimes not. */
  number(low: number, high: number): string {
    const rng = this.rng;
    switch (rng.weighted({ fine: 14, edge: 1.5, roll: 2, garbage: 1, huge: 0.5 })) {
      case 'fine':
        return String(rng.int(low, high));
      case 'edge':
        return String(rng.pick([low, high, low - 1, high + 1, 0, -1]));
      case 'roll':
        return rng.pick(INLINE_ROLLS);
      case 'garbage':
        return rng.pick(GARBAGE_WORDS);
      default:
        return rng.pick(['1000000', '1000001', '99999999999', '9007199254740991', '-9007199254740991', '1e300', String(2 ** 60)]);
    }
  }

  /**
   * A player's sheet formulas (issue 29): `top` refers `width` times to the first field of a chain,
   * each field to the next, down to a number, a loop back to `top`, a missing attribute, a word that
   * is no function (`constructor(7)`), or nothing. Each field is one a player could type (at most
   * 2,000 characters); before the script worked each attribute out once, 7 wide and 14 deep hung it.
   */
  formulaGraph(top: string): Array<{ name: string; current: string; max: string }> {
    const rng = this.rng;
    const depth = rng.int(1, 14);
    const width = rng.int(1, 7);
    const ref = (level: number) => (rng.chance(0.2) ? `@{f${level}|max}` : `@{f${level}}`);
    const field = (level: number) => {
      const refs = Array.from({ length: width }, () => ref(level)).join(rng.pick(['+', '*', '-']));
      return rng.chance(0.2) ? `floor(${refs}/2)` : rng.chance(0.1) ? `[[${refs}]]` : refs;
    };
    const bottom = rng.pick(['0', '1', '3', `@{${top}}`, '@{f1}', '@{no_such_field}', 'constructor(7)+0', 'toString(1)', '']);
    const fields = [{ name: top, current: field(1), max: '' }];
    for (let level = 1; level < depth; level += 1) fields.push({ name: `f${level}`, current: field(level + 1), max: field(level + 1) });
    fields.push({ name: `f${depth}`, current: bottom, max: bottom });
    return fields;
  }

  amount(): string {
    return this.rng.chance(0.92) ? this.number(0, this.rng.chance(0.8) ? 60 : 600) : this.number(-10, 2_000_000);
  }

  /** A token id as a command names it: own, others', hidden, deleted, not a token, malformed, huge. */
  id(actor: Actor): string {
    const rng = this.rng;
    const world = this.world;
    const tokens = world.tokens();
    const own = tokens.filter((t) => controls(world, actor, t) && t.id !== world.hiddenId);
    switch (rng.weighted({ own: actor.gm ? 0 : 5, any: 6, hidden: 0.8, deleted: 1, other: 0.6, malformed: 0.8, huge: 0.2 })) {
      case 'own':
        if (own.length > 0) return rng.pick(own).id;
        return rng.pick(tokens).id;
      case 'any':
        return rng.pick(tokens).id;
      case 'hidden':
        return world.hiddenId;
      case 'deleted':
        return world.deleted.length > 0 ? rng.pick(world.deleted) : 'no-such-token';
      case 'other':
        return rng.pick(world.nonTokens);
      case 'malformed':
        return rng.pick(['no-such-token', '-N', '<b>X</b>', '{{y}}', '@{z}', '%{w}', '\u202E', 'x'.repeat(65), '-NAAAAAAAAAAAAAAAAAA', '[[1d20]]', '""', 'gm', 'all']);
      default:
        return 'x'.repeat(rng.int(1_000, 20_000));
    }
  }

  ids(actor: Actor): string {
    const n = this.rng.int(1, 4);
    const ids = Array.from({ length: n }, () => this.id(actor));
    return ids.join(this.rng.chance(0.3) ? ',' : ' ');
  }

  /** What a player has selected: tokens they can see (never the hidden NPC), sometimes other objects. */
  selection(actor: Actor): string[] {
    const rng = this.rng;
    const world = this.world;
    if (actor.api) return [];
    const visible = world.graphics().filter((g) => actor.gm || (g.props.layer !== 'gmlayer' && g.id !== world.hiddenId));
    const own = visible.filter((g) => controls(world, actor, g));
    const chosen = new Set<string>();
    if (!actor.gm && own.length > 0 && rng.chance(0.6)) for (const g of rng.some(own, 2)) chosen.add(g.id);
    // Sometimes everything in sight (a player's big hit under players-target-any: a large undo entry).
    if (rng.chance(0.05)) for (const g of visible) chosen.add(g.id);
    else if (rng.chance(0.9) || chosen.size > 0) for (const g of rng.some(visible, rng.chance(0.85) ? 2 : 8, 1)) chosen.add(g.id);
    if (rng.chance(0.05)) chosen.add(rng.pick(world.nonTokens));
    if (rng.chance(0.03) && world.deleted.length > 0) chosen.add(rng.pick(world.deleted));
    return [...chosen];
  }

  /** Targets: the selection, or --ids (always --ids for another script, which selects nothing). */
  private target(line: Line, actor: Actor, selected: string[]): string[] {
    if (actor.api || this.rng.chance(0.3)) {
      line.flag('ids', this.ids(actor));
      return this.rng.chance(0.2) ? selected : [];
    }
    return selected;
  }

  /** Sometimes a slip: a foreign or unknown flag, a flag twice, a value missing, --help. */
  private mess(line: Line, flags: readonly string[]): void {
    const rng = this.rng;
    if (!rng.chance(0.12)) return;
    switch (rng.weighted({ foreign: 3, twice: 1, bare: 1, help: 0.5, positional: 1 })) {
      case 'foreign':
        line.flag(rng.pick(flags), rng.chance(0.7) ? this.number(-5, 50) : undefined);
        return;
      case 'twice': {
        const present = line.parts.filter((p) => p.startsWith('--'));
        if (present.length > 0) line.add(rng.pick(present), this.number(0, 20));
        return;
      }
      case 'bare':
        line.add('--');
        line.flag(rng.pick(flags));
        return;
      case 'help':
        line.flag('help');
        return;
      default:
        line.add(rng.pick(GARBAGE_WORDS));
    }
  }

  // ---- commands ----

  command(actor: Actor): Command {
    const kind = this.rng.weighted({ damage: 10, defend: 6, stance: 3, heal: 3, attack: 5, answer: 8 });
    switch (kind) {
      case 'attack':
        return this.attack(actor);
      case 'answer':
        return this.answer(actor);
      case 'defend':
        return this.defend(actor);
      case 'stance':
        return this.stance(actor);
      case 'heal':
        return this.heal(actor);
      default:
        return this.damage(actor);
    }
  }

  /** The playing edition, as the registry holds it. */
  private edition(): AnyEdition {
    return editionOf(this.world.edition());
  }

  /** A value for one of the spec's flags: its usage's words or range, a token, a skill, a situation, a number. */
  private valueOf(shape: FlagShape, actor: Actor, named: string[]): string | undefined {
    const rng = this.rng;
    if (shape.spec.kind === 'switch') return undefined;
    if (shape.spec.token) {
      const id = this.id(actor);
      named.push(id);
      return id;
    }
    if (shape.spec.kind === 'text') return rng.pick(SKILL_NAMES);
    if (shape.spec.kind === 'list') return this.ids(actor);
    if (shape.words) return this.choice(shape.words, WRONG_WORDS);
    if (shape.range) return this.number(shape.range[0], shape.range[1]);
    if (shape.name === 'situation' || shape.placeholder === 'S') return rng.pick(SITUATIONS);
    // A modifier goes both ways; any other number (a hit chance, an attack, armor penetration) is mostly small.
    return shape.placeholder === 'M' ? this.number(-30, 30) : this.number(0, 40);
  }

  /** How likely the flag is given: required ones nearly always, others by what they are. */
  private odds(shape: FlagShape, tokens: number): number {
    if (shape.required) return GIVEN.required;
    if (shape.name === 'situation') return GIVEN.situation;
    if (shape.spec.token) return tokens === 0 ? GIVEN.token : GIVEN.moreTokens;
    return shape.spec.kind === 'switch' ? GIVEN.switch : shape.spec.kind === 'text' ? GIVEN.text : GIVEN.other;
  }

  /**
   * A command's flags drawn from its spec, then the dice its plan rolls: each die's roll given with
   * its flag (1 to its sides, mostly) unless the dice are left to the script, and sometimes the
   * die's own modifier (`--perception-mod` beside `--perception-roll`). A die's flags come only with its die.
   */
  private specFlags(line: Line, shapes: readonly FlagShape[], dice: (text: string) => readonly Die[], actor: Actor, named: string[], options: RollOptions, giveDie = 0.55): void {
    const rng = this.rng;
    const dieModifier = (shape: FlagShape) => shapes.some((other) => other.roll && shape.name === other.name.replace(/-roll$/, '-mod'));
    const given: Array<[string, string | undefined]> = [];
    let tokens = 0;
    for (const shape of shapes) {
      if (shape.roll || dieModifier(shape) || !rng.chance(this.odds(shape, tokens))) continue;
      if (shape.spec.token) tokens += 1;
      given.push([shape.name, this.valueOf(shape, actor, named)]);
    }
    for (const [name, value] of given) line.flag(name, value);
    const rolled = dice(line.text()).filter((die) => die.flag !== undefined);
    for (const die of rolled) {
      if (!options.rolls && rng.chance(giveDie)) line.flag(die.flag!, this.number(1, die.sides));
      const modifier = shapes.find((shape) => shape.name === die.flag!.replace(/-roll$/, '-mod') && shape.name !== die.flag);
      if (modifier && rng.chance(0.3)) line.flag(modifier.name, this.valueOf(modifier, actor, named));
    }
  }

  damage(actor: Actor, options: RollOptions = {}): Command {
    const rng = this.rng;
    const hit = this.edition().hit;
    const line = new Line('!damage');
    const selected = this.selection(actor);
    if (rng.chance(0.95)) line.add(this.amount());
    this.specFlags(line, flagShapes(hit.flags), (text) => diceOf((order) => hit.plan(order, PLAN_CONTEXT), hit.flags, text, hit.amount), actor, [], options, 0.5);
    const kept = options.selectedOnly ? selected : this.target(line, actor, selected);
    if (!options.selectedOnly) this.mess(line, ALL_DAMAGE_FLAGS);
    const decides = Object.entries(hit.flags).some(([name, flag]) => flag.decides !== undefined && line.parts.includes(`--${name}`));
    return { kind: 'damage', actor, text: line.text(), selected: kept, named: [], defenseMode: decides, force: false, sub: '' };
  }

  /** `!attack` with the edition's `!damage` flags, the attacker selected; or an open attack resolved, cancelled, listed. */
  attack(actor: Actor): Command {
    const rng = this.rng;
    const keys = Object.keys(this.world.stored()?.exchange?.attacks ?? {});
    const key = () => (keys.length > 0 && rng.chance(0.85) ? rng.pick(keys) : rng.pick(['A999', 'a1', '<b>X</b>', 'x'.repeat(80)]));
    switch (rng.weighted({ declare: 6, resolve: 4, cancel: 0.7, list: 0.5 })) {
      case 'resolve':
        return { kind: 'attack', actor, text: `!attack --resolve ${key()}`, selected: [], named: [], defenseMode: false, force: false, sub: 'resolve' };
      case 'cancel':
        return { kind: 'attack', actor, text: `!attack --cancel ${key()}`, selected: [], named: [], defenseMode: false, force: false, sub: 'cancel' };
      case 'list':
        return { kind: 'attack', actor, text: '!attack --list', selected: [], named: [], defenseMode: false, force: false, sub: 'list' };
      default: {
        if (rng.chance(0.6)) return this.cleanAttack(actor);
        const hit = this.damage(actor, { selectedOnly: true });
        const rest = hit.text.replace(/^!damage/, '');
        const line = new Line('!attack').add(rest.trim());
        // The flags `!attack` takes beyond `!damage`'s (a situation).
        for (const shape of flagShapes(this.edition().check.answers.flags)) if (rng.chance(0.3)) line.flag(shape.name, this.valueOf(shape, actor, []));
        if (rng.chance(0.95)) line.flag('ids', rng.chance(0.7) ? this.defenders(actor) : this.ids(actor));
        if (rng.chance(0.15)) line.flag('from', this.id(actor));
        const selected = rng.chance(0.8) ? this.selection(actor).slice(0, 1) : this.selection(actor);
        return { kind: 'attack', actor, text: line.text().replace(/\s+/g, ' '), selected, named: [], defenseMode: hit.defenseMode, force: false, sub: 'declare' };
      }
    }
  }

  /**
   * An attack as a table declares it, so that the exchange is played, not refused: the edition's
   * sample hit with its numbers drawn anew (its dice left to the defenders' answers), sometimes a
   * situation; the attacker one token of the sender's (or none, or a hidden one, for the GM), the
   * defenders tokens on the table.
   */
  cleanAttack(actor: Actor): Command {
    const rng = this.rng;
    const world = this.world;
    const edition = this.edition();
    const sample = edition.table.sample?.hit ?? '!damage 30';
    const dieFlags = new Set(diceOf((order) => edition.hit.plan(order, PLAN_CONTEXT), edition.hit.flags, sample, edition.hit.amount).map((die) => die.flag));
    const drawn = (word: string) => (/^\d+$/.test(word) ? String(rng.int(0, Math.max(20, 2 * Number(word)))) : word);
    const words = sample.split(/\s+/).slice(1);
    const line = new Line('!attack');
    for (let i = 0; i < words.length; i += 1) {
      const word = words[i]!;
      if (word.startsWith('--') && dieFlags.has(word.slice(2))) i += 1;
      else line.add(drawn(word));
    }
    const situations = [edition.hit.flags, edition.check.answers.flags].some((flags) => Object.prototype.hasOwnProperty.call(flags, 'situation'));
    if (situations && !line.parts.includes('--situation') && rng.chance(0.3)) line.flag('situation', rng.pick(SITUATIONS));
    line.flag('ids', this.defenders(actor));
    const mine = world.tokens().filter((t) => t.props._subtype !== 'card' && (actor.gm ? true : t.props.layer !== 'gmlayer' && controls(world, actor, t)));
    const selected = mine.length > 0 && (!actor.gm || rng.chance(0.7)) ? [rng.pick(mine).id] : [];
    return { kind: 'attack', actor, text: line.text(), selected, named: [], defenseMode: false, force: false, sub: 'declare' };
  }

  /**
   * An attack's defenders as a table picks them: tokens on the table, mostly ones players see (the
   * GM's sometimes hidden ones, a player's sometimes her own on the GM layer), one to three of them.
   */
  defenders(actor: Actor): string {
    const rng = this.rng;
    const world = this.world;
    const tokens = world.tokens().filter((t) => t.props._subtype !== 'card');
    const seen = tokens.filter((t) => actor.gm || t.props.layer !== 'gmlayer' || controls(world, actor, t));
    if (seen.length === 0) return this.ids(actor);
    const picked = rng.some(seen, rng.int(1, 3), 1).map((t) => t.id);
    if (actor.gm && rng.chance(0.2)) picked.push(world.hiddenId);
    return picked.join(' ');
  }

  /** `!defend --answer KEY` for a defender of an open attack (or not), with the edition's answer word (or not). */
  answer(actor: Actor): Command {
    const rng = this.rng;
    const world = this.world;
    const attacks = Object.values<any>(world.stored()?.exchange?.attacks ?? {});
    const attack = attacks.length > 0 && rng.chance(0.9) ? rng.pick(attacks) : undefined;
    const answers = this.edition().check.answers;
    const line = new Line('!defend').flag('answer', attack ? String(attack.key) : rng.pick(['A1', 'A999', 'G1', 'zz']));
    // Mostly a defender the sender answers for (her own, or any for the GM), so answers land.
    const own = attack ? (attack.defenders as string[]).filter((id) => {
      const token = world.mock.globals.getObj('graphic', id) as unknown as Parameters<typeof controls>[2] | undefined;
      return token !== undefined && controls(world, actor, token);
    }) : [];
    const defender = attack && own.length > 0 && rng.chance(0.7) ? rng.pick(own) : attack && rng.chance(0.85) ? String(rng.pick(attack.defenders as string[])) : this.id(actor);
    line.flag('ids', defender);
    const word = this.choice(answers.choices, ['react', 'fly', 'counter']);
    line.flag(answers.answerFlag, word);
    if (rng.chance(0.4)) line.flag(answers.rollFlag, this.number(1, this.answerSides(word)));
    if (rng.chance(0.05)) line.flag('situation', 'behind');
    // What the defender brings to its answer (an aid, a roll of its own): the edition's answer flags.
    for (const shape of flagShapes(answers.answerFlags)) if (rng.chance(0.3)) line.flag(shape.name, this.valueOf(shape, actor, []));
    return { kind: 'answer', actor, text: line.text(), selected: [], named: [], defenseMode: false, force: false, sub: '' };
  }

  /** The sides of the die an answer's roll gives (a d100 when its plan names none). */
  private answerSides(word: string): number {
    const answers = this.edition().check.answers;
    try {
      return answers.planAnswer(word, plainAttack(null), PLAN_CONTEXT, { positionals: [] }).dice.find((die) => die.flag === answers.rollFlag)?.sides ?? 100;
    } catch {
      return 100;
    }
  }

  defend(actor: Actor, options: RollOptions = {}): Command {
    const check = this.edition().check;
    const line = new Line('!defend');
    const selected = this.selection(actor);
    const named: string[] = [];
    // An edition that refuses !defend refuses it whatever follows: its flags are drawn from another edition's.
    const spec = check.refused === undefined ? check : (allEditions().find((edition) => edition.check.refused === undefined)?.check ?? check);
    this.specFlags(line, flagShapes(spec.flags), (text) => diceOf((order) => spec.plan(order), spec.flags, text), actor, named, options, 0.6);
    const kept = options.selectedOnly ? selected : this.target(line, actor, selected);
    if (!options.selectedOnly) this.mess(line, ALL_DEFEND_FLAGS);
    return { kind: 'defend', actor, text: line.text(), selected: kept, named, defenseMode: false, force: false, sub: '' };
  }

  stance(actor: Actor, options: RollOptions = {}): Command {
    const rng = this.rng;
    const line = new Line('!stance');
    const every = [...new Set(allEditions().flatMap((edition) => edition.stance.modes))];
    const own = this.edition().stance.modes;
    const modes = own.length > 0 ? own : every;
    if (rng.chance(0.9)) line.add(rng.chance(0.85) ? rng.pick(modes) : rng.pick([...every, 'reckless', '<b>X</b>', '[[1d20]]']));
    const kept = options.selectedOnly ? this.selection(actor) : this.target(line, actor, this.selection(actor));
    if (!options.selectedOnly) this.mess(line, ['ids', 'help', 'mode']);
    return { kind: 'stance', actor, text: line.text(), selected: kept, named: [], defenseMode: false, force: false, sub: '' };
  }

  heal(actor: Actor, options: RollOptions = {}): Command {
    const rng = this.rng;
    const line = new Line('!heal');
    if (rng.chance(0.95)) line.add(this.amount());
    if (rng.chance(0.25)) line.flag('to', this.choice(['vitality', 'soul', 'power'], ['mana']));
    const kept = options.selectedOnly ? this.selection(actor) : this.target(line, actor, this.selection(actor));
    if (!options.selectedOnly) this.mess(line, ['to', 'ids', 'help', 'max']);
    return { kind: 'heal', actor, text: line.text(), selected: kept, named: [], defenseMode: false, force: false, sub: '' };
  }

  undo(actor: Actor): Command {
    const rng = this.rng;
    const line = new Line('!damage').flag('undo');
    const force = rng.chance(0.4);
    if (force) line.flag('force');
    // A card's Undo button names its entry: a recent one, anyone's (a player clicking the GM's), or a key long gone.
    if (rng.chance(0.4)) line.flag('entry', rng.chance(0.9) ? `U${rng.int(1, 40)}` : rng.pick(['u3', 'U0', 'U99999999', 'X1', '']));
    if (rng.chance(0.05)) line.flag(rng.pick(['ids', 'type', 'help']), rng.chance(0.5) ? this.id(actor) : undefined);
    if (rng.chance(0.03)) line.add('5');
    return { kind: 'undo', actor, text: line.text(), selected: rng.chance(0.5) ? this.selection(actor) : [], named: [], defenseMode: false, force, sub: '' };
  }

  details(actor: Actor): Command {
    const key = this.rng.chance(0.9) ? this.rng.int(1, 700).toString(36) : this.rng.pick(['zz', '<b>X</b>', '', '1 2', '-1']);
    return { kind: 'details', actor, text: `!defense-round details ${key}`, selected: [], named: [], defenseMode: false, force: false, sub: 'details' };
  }

  admin(actor: Actor): Command {
    const rng = this.rng;
    const line = new Line('!defense-round');
    const sub = rng.weighted({ status: 1, config: 8, set: 3, repair: 1.5, 'next-round': 1.5, 'reset-state': this.world.newerJson ? 6 : 0.3, refresh: 0.5, help: 0.3, garbage: 0.5 });
    let selected: string[] = [];
    switch (sub) {
      case 'status':
        break;
      case 'config':
        line.add('config', ...this.configPair());
        break;
      case 'set': {
        line.add('set', rng.chance(0.9) ? rng.pick(VALUE_KEYS) : rng.pick(['vitality', '<b>X</b>', 'ARMOR_SOAK']));
        line.add(rng.chance(0.2) ? 'clear' : this.number(-100, 200));
        selected = this.target(line, actor, this.selection(actor));
        break;
      }
      case 'repair':
        line.add('repair');
        selected = this.target(line, actor, this.selection(actor));
        break;
      case 'garbage':
        line.add(rng.pick(['configure', '<b>X</b>', 'reset', 'details']));
        break;
      default:
        line.add(sub);
    }
    if (rng.chance(0.03)) line.flag('help');
    const word = line.parts[1] ?? '';
    return { kind: 'admin', actor, text: line.text(), selected, named: [], defenseMode: false, force: false, sub: word.toLowerCase() };
  }

  private configPair(): string[] {
    const rng = this.rng;
    switch (rng.weighted({ edition: 5, target: 3, armor: 2, api: 1, visibility: 2, bars: 0.6, attr: 0.8, marker: 0.8, overwhelm: 0.8, timeout: 0.8, ping: 0.5, unknown: 0.5 })) {
      case 'edition':
        // Every registered edition, one of them typed in capitals.
        return ['edition', this.choice([...editionIds(), editionIds()[1 % editionIds().length]!.toUpperCase()], ['hexcrawl'])];
      case 'target':
        return ['players-target-any', this.choice(['on', 'off'], ['maybe'])];
      case 'armor':
        return ['armor-on-manual-edits', this.choice(['on', 'off'], ['yes'])];
      case 'api':
        return ['api-commands', this.choice(['refuse', 'gm', 'api-as', 'refuse'], ['allow'])];
      case 'visibility':
        return [rng.pick(['visibility.npc', 'visibility.pc']), this.choice(['gm', 'gm', 'public'], ['all'])];
      case 'bars':
        return [rng.pick(['vitality-bar', 'soul-bar', 'power-bar', 'stamina-bar']), rng.pick(['bar1', 'bar2', 'bar3', 'power', 'bar4'])];
      case 'attr':
        return [`attr.${rng.pick(VALUE_KEYS)}`, rng.pick(['armor_soak', 'soak_pct', '<b>X</b>', 'x'.repeat(101), 'Defend_Check', 'exp'])];
      case 'marker':
        return [`marker.${rng.pick([...MEANINGS(), 'bogus'])}`, rng.pick(MARKERS)];
      case 'overwhelm':
        return ['overwhelm-limit', this.number(0, 1000)];
      case 'timeout':
        // Seconds an attack waits for answers: the advance steps (up to two minutes) run some out.
        return ['answer-timeout', rng.chance(0.3) ? '0' : this.number(0, 120)];
      case 'ping':
        return ['ping-defenders', this.choice(['on', 'off'], ['yes'])];
      default:
        return [rng.pick(['colour', '<b>X</b>', 'edition']), rng.pick(['x', ''])];
    }
  }
}

