// The fuzzer (issue: "random sequences of valid and invalid commands ..."): drives the built bundle
// on the mock Roll20 with random steps, from the GM, players and other scripts, in every edition,
// with hand edits, TokenMod edits, deletions (also while a roll is in flight), undo, and sandbox
// restarts with tampered or newer state, and checks every invariant of fuzz/checks.ts after each
// step. Deterministic: one seed replays the same run. `npm run fuzz -- --steps N --seed S`.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { ChatRecord, MockObject } from '../mocks/roll20';
import { evaluateIn } from '../mocks/vm';
import { SCHEMA_VERSION } from '../src/state/store';
import {
  changes,
  checkEscaping,
  checkSameFromTo,
  checkGarbageKept,
  checkHidden,
  checkHistory,
  checkInFlight,
  checkTypedRolls,
  checkAnswers,
  checkNoCrash,
  checkNpcNumbers,
  checkNumbersWritten,
  checkPlayer,
  checkRecipients,
  describe,
  snapshot,
  StateChecker,
  tokenValues,
  touchable,
  type Snapshot,
  type StepFacts,
} from './checks';
import { Generator, type Command } from './generate';
import { Rng } from './rng';
import { controls, HIDDEN_NAME, NAMES, World, type Actor, type InFlightAction } from './world';
import { editionOf } from '../src/rules/editions';

export const STEP_KINDS = [
  'command', 'undo', 'admin', 'details', 'hand-edit', 'tokenmod-edit', 'api-edit', 'attribute-edit', 'turn',
  'delete', 'create', 'in-flight', 'restart', 'advance', 'twins',
] as const;
export type StepKind = (typeof STEP_KINDS)[number];

const WEIGHTS: Record<StepKind, number> = {
  command: 40,
  undo: 8,
  admin: 8,
  details: 2,
  'hand-edit': 8,
  'tokenmod-edit': 4,
  'api-edit': 9,
  'attribute-edit': 3,
  turn: 4,
  delete: 1.5,
  create: 1.5,
  'in-flight': 2.5,
  restart: 0.4,
  advance: 0.3,
  twins: 0.6,
};

/**
 * Classes of input that reach a known, still open product bug: name -> what goes wrong. A run can
 * leave them out (`avoid`, `npm run fuzz -- --avoid NAME`) to go on finding other things until the
 * bug is fixed; the input that reaches it checks `avoid.has(NAME)` where it is generated. Empty: the
 * six bugs the fuzzer found so far are fixed (docs/security.md, "Bugs the fuzzer found").
 */
export const BUG_CLASSES: Readonly<Record<string, string>> = {};
export type BugClass = string;

export interface FuzzOptions {
  seed: number;
  /** Steps in all (across worlds). */
  steps: number;
  /** A fresh table every so many steps (2,000 by default): more starting points, a bounded chat log. */
  worldSteps?: number;
  /** Start at this world (its first step is world * worldSteps): replays a late failure quickly. */
  startWorld?: number;
  /** Step kinds not to run (a known bug's class, until it is fixed). */
  skip?: readonly StepKind[];
  /** Inputs that reach a known bug, left out (see BUG_CLASSES). */
  avoid?: readonly BugClass[];
  /** Stop after this many failing steps (1 by default). */
  maxFailures?: number;
  /** The bundle's source (default: dist/defense-round.js). */
  bundle?: string;
  /** How many steps each failure quotes (40 by default). */
  trail?: number;
  onProgress?: (stepsDone: number, elapsedMs: number) => void;
  /** Every step as the trail tells it (run.ts --verbose). */
  log?: (line: string) => void;
  /** Called before each step with the table as it stands (to look into a failure while replaying it). */
  beforeStep?: (world: World, step: number) => void;
}

export interface Failure {
  seed: number;
  world: number;
  step: number;
  kind: StepKind;
  problems: string[];
  /** The steps of this world before it, oldest first, ending with the failing one. */
  trail: string[];
  message: string;
}

export interface FuzzReport {
  seed: number;
  steps: number;
  worlds: number;
  failures: Failure[];
  kinds: Record<StepKind, number>;
  /** How often the interesting things happened (so a run can be seen to reach them), and the largest state and history seen. */
  coverage: Record<string, number>;
  /** The mock's warnings (things a real script gets wrong silently), counted by kind. */
  warnings: Record<string, number>;
  elapsedMs: number;
  stepsPerSecond: number;
}

/** A world's seed from the run's seed and the world's number: worlds replay on their own. */
export function worldSeed(seed: number, world: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) + Math.imul(world + 1, 0xc2b2ae35)) >>> 0;
}

export async function fuzz(options: FuzzOptions): Promise<FuzzReport> {
  const started = performance.now();
  const bundle = options.bundle ?? readFileSync(resolve('dist/defense-round.js'), 'utf8');
  const worldSteps = options.worldSteps ?? 2_000;
  const maxFailures = options.maxFailures ?? 1;
  const kinds = Object.fromEntries(STEP_KINDS.map((k) => [k, 0])) as Record<StepKind, number>;
  const warnings: Record<string, number> = {};
  const failures: Failure[] = [];
  const coverage: Record<string, number> = {};
  let step = (options.startWorld ?? 0) * worldSteps;
  const end = step + options.steps;
  let worlds = 0;
  for (let index = options.startWorld ?? 0; step < end && failures.length < maxFailures; index += 1) {
    const runner = await Runner.open(options.seed, index, bundle, options);
    worlds += 1;
    for (let i = 0; i < worldSteps && step < end && failures.length < maxFailures; i += 1, step += 1) {
      const failure = await runner.step(step);
      if (failure) failures.push(failure);
      if (options.onProgress && step % 1000 === 999) options.onProgress(step + 1 - (options.startWorld ?? 0) * worldSteps, performance.now() - started);
    }
    for (const [kind, n] of Object.entries(runner.kinds)) kinds[kind as StepKind] += n;
    for (const [what, n] of Object.entries(runner.coverage)) coverage[what] = what.startsWith('max ') ? Math.max(coverage[what] ?? 0, n) : (coverage[what] ?? 0) + n;
    for (const warning of runner.world.mock.warnings) {
      const key = warning.replace(/-N[-\w]{18}/g, 'ID').replace(/"[^"]*"/g, '"..."').slice(0, 90);
      warnings[key] = (warnings[key] ?? 0) + 1;
    }
  }
  const elapsedMs = performance.now() - started;
  const done = step - (options.startWorld ?? 0) * worldSteps;
  return { seed: options.seed, steps: done, worlds, failures, kinds, coverage, warnings, elapsedMs, stepsPerSecond: done / (elapsedMs / 1000) };
}

/** Values for bars and attributes: mostly whole numbers, then numeric text, then everything else Roll20 lets a field hold. */
const GARBAGE_VALUES: unknown[] = [
  '-0', '+7', '', 'garbage', 'secret 4242', 'secret 77', 'secret', '  secret 9 ', '12.5', '1e309', '1e3', 9007199254740991, -9007199254740991,
  9007199254740992, 1e300, Number.NaN, Number.POSITIVE_INFINITY, null, 2.5, '<b>X</b>', '[[1d20]]', '{{y}}', '@{z}', '\u202E5',
];

function poolValue(rng: Rng): unknown {
  switch (rng.weighted({ number: 62, text: 10, garbage: 28 })) {
    case 'number':
      return rng.int(-30, 400);
    case 'text':
      return rng.chance(0.5) ? String(rng.int(-20, 200)) : ` ${rng.int(0, 99)} `;
    default:
      return rng.pick(GARBAGE_VALUES);
  }
}

const ATTRIBUTE_NAMES = [
  'armor_soak', 'armor_physical', 'armor_magical', 'armor_defense', 'armor_spirit', 'natural_defense', 'fortitude', 'defend_check',
  'evade_check', 'reaction_check', 'perception_check', 'mental_check', 'save_check', 'exp', 'passive_defense', 'active_defense',
  'full_defense', 'armor_score', 'vitality', 'Armor_Soak',
];

const MAX_TOKENS = 16;
const MAX_CHARACTERS = 7;

class Runner {
  readonly kinds = Object.fromEntries(STEP_KINDS.map((k) => [k, 0])) as Record<StepKind, number>;
  readonly coverage: Record<string, number> = {};
  private readonly trail: string[] = [];
  private readonly states = new StateChecker();
  /** Every answer a `!defend` put on file in this table (`checkAnswers`). */
  private readonly filed = new Set<string>();
  /** Per player: the values each place held right after that player's changes of it (the last few). */
  private readonly leftBy = new Map<string, Map<string, unknown[]>>();
  private readonly gen: Generator;
  private readonly weights: Record<StepKind, number>;
  private readonly names: readonly string[];
  /** Open bug classes this run leaves out: the input that reaches one checks `this.avoid.has(NAME)`. */
  readonly avoid: ReadonlySet<BugClass>;

  private constructor(
    readonly world: World,
    private readonly rng: Rng,
    private readonly seed: number,
    private readonly index: number,
    private readonly options: FuzzOptions,
  ) {
    this.gen = new Generator(world, rng);
    this.weights = { ...WEIGHTS };
    for (const kind of options.skip ?? []) this.weights[kind] = 0;
    const avoid = new Set(options.avoid ?? []);
    this.avoid = avoid;
    this.names = NAMES.filter((name) => name !== HIDDEN_NAME);
  }

  static async open(seed: number, index: number, bundle: string, options: FuzzOptions): Promise<Runner> {
    const s = worldSeed(seed, index);
    const world = new World(s, bundle);
    world.tokenValues = (tokenId) => tokenValues(world, tokenId);
    world.snapshotNow = () => snapshot(world);
    await world.mock.settle();
    world.mock.newMessages();
    return new Runner(world, new Rng(s), seed, index, options);
  }

  async step(n: number): Promise<Failure | undefined> {
    const world = this.world;
    const mock = world.mock;
    this.options.beforeStep?.(world, n);
    let kind = this.rng.weighted(this.weights);
    if (world.newerJson !== undefined && this.rng.chance(0.1) && !(this.options.skip ?? []).includes('admin')) kind = 'admin';
    this.kinds[kind] += 1;
    const start = snapshot(world);
    world.rebase = undefined;
    world.preSwitch = undefined;
    const logMark = mock.logs.length;
    const warningMark = mock.warnings.length;
    mock.newMessages();
    const facts: StepFacts = { allowed: new Set(), anyTarget: world.settings()?.playersTargetAny === true, messages: [], logs: [], warnings: [], crashes: [] };
    facts.openAttacks = openAttacksOf(world);
    let description: string = kind;
    try {
      description = await this.perform(kind, facts);
    } catch (error) {
      facts.thrown = error instanceof Error ? error.message.split('\n').slice(0, 6).join(' / ') : String(error);
    }
    world.inFlight = undefined;
    facts.crashes = mock.takeCrashes().map((c) => `${c.event}: ${c.message}`);
    facts.messages = mock.newMessages();
    facts.logs = mock.logs.slice(logMark);
    facts.warnings = mock.warnings.slice(warningMark);
    // A GM's reset-state discards a newer version's state: from here on the state is the script's own again.
    if (world.newerJson !== undefined && facts.actor?.gm && facts.command?.sub === 'reset-state' && mock.state.DefenseRound?.schemaVersion === SCHEMA_VERSION) world.newerJson = undefined;
    const after = snapshot(world);
    settledAttacks(world, facts);
    // A step the GM's edition switch broke into (a roll out): what the switch did is not the sender's.
    const before = (world.rebase as Snapshot | undefined) ?? start;
    // The sender's changes: before the switch (a command that ran to its end first) and after it.
    const found = world.preSwitch ? [...changes(start, world.preSwitch as Snapshot), ...changes(before, after)] : changes(before, after);
    world.rebase = undefined;
    world.preSwitch = undefined;
    const leftBy = facts.actor ? this.leftBy.get(facts.actor.id) : undefined;
    const problems = [
      ...checkNoCrash(facts),
      ...checkNumbersWritten(found, facts),
      ...checkGarbageKept(found, facts),
      ...this.states.check(world, after),
      ...checkHistory(world, before, facts),
      ...checkPlayer(found, facts, leftBy),
      ...checkNpcNumbers(world, before, after, facts),
      ...checkHidden(world, facts),
      ...checkRecipients(facts, world),
      ...checkEscaping(facts),
      ...checkSameFromTo(facts),
      ...checkInFlight(before, after, facts),
      ...checkTypedRolls(found, facts),
      ...checkAnswers(world, facts, this.filed),
      ...world.observerProblems.splice(0),
    ];
    this.remember(found, facts);
    this.count(found, facts, after);
    const told = `#${n} ${description}${summary(facts.messages)}`;
    this.options.log?.(told);
    this.trail.push(told);
    if (this.trail.length > (this.options.trail ?? 40)) this.trail.shift();
    if (problems.length === 0) return undefined;
    const trail = [...this.trail];
    const message = [
      `[fuzz seed ${this.seed} step ${n}] ${kind}: ${problems.length} invariant${problems.length === 1 ? '' : 's'} broken`,
      ...problems.slice(0, 8).map((p) => `  - ${p}`),
      `  replay: ${replayCommand(this.seed, this.index, n + 1 - this.index * (this.options.worldSteps ?? 2_000), this.options)}`,
      '  steps before it (this world):',
      ...trail.map((t) => `    ${t}`),
    ].join('\n');
    return { seed: this.seed, world: this.index, step: n, kind, problems, trail, message };
  }

  private count(found: ReturnType<typeof changes>, facts: StepFacts, after: Snapshot): void {
    const add = (what: string) => void (this.coverage[what] = (this.coverage[what] ?? 0) + 1);
    const max = (what: string, n: number) => void (this.coverage[`max ${what}`] = Math.max(this.coverage[`max ${what}`] ?? 0, n));
    const actor = facts.actor;
    const cmd = facts.command;
    const changed = found.length > 0;
    if (this.world.newerJson !== undefined) add('steps with a newer state in place');
    max('state characters', after.stateJson?.length ?? 0);
    max('history entries', Array.isArray(this.world.stored()?.history) ? this.world.stored().history.length : 0);
    if (facts.messages.some((r) => r.who === 'DefenseRound' && r.content.includes('No answer in time'))) add('attacks resolved by their answer time limit');
    if (!actor || !cmd) return;
    const who = actor.gm ? 'GM' : 'player';
    if (changed) add(`${who} ${cmd.kind} changed something`);
    if (cmd.kind === 'undo' && cmd.force) add(`${who} forced undo${changed ? ' changed something' : ''}`);
    if (!actor.gm && facts.anyTarget && cmd.kind === 'damage') add(`player damage under players-target-any${changed ? ' changed something' : ''}`);
    if (facts.inFlight?.done) add(`in-flight ${facts.inFlight.action}`);
    for (const record of facts.messages) if (record.who === 'DefenseRound' && !actor.gm && record.whisperTo?.toLowerCase() === actor.displayname.toLowerCase()) add('whispers to a player');
    if (facts.messages.some((r) => r.who === 'DefenseRound' && r.content.includes('secret'))) add('a garbage bar named in chat');
  }

  /** What each player's steps left in each place: a player's undo may only overwrite a value that player left. */
  private remember(found: ReturnType<typeof changes>, facts: StepFacts): void {
    const actor = facts.actor;
    // An attack's writes are its declarer's to undo, whoever's answer resolved it.
    const declarers = new Set((facts.settledAttacks ?? []).map((attack) => attack.by));
    if (actor && !actor.gm) declarers.add(actor.id);
    for (const id of declarers) {
      if (this.world.actors.some((candidate) => candidate.id === id && candidate.gm)) continue;
      let mine = this.leftBy.get(id);
      if (!mine) this.leftBy.set(id, (mine = new Map()));
      for (const { key, after } of found) {
        const values = mine.get(key) ?? [];
        values.push(after);
        if (values.length > 30) values.shift();
        mine.set(key, values);
      }
      // An attack files each answer as a defense made ahead and its hit uses it up, in one step (no
      // change left to see): the attack's undo, like that of !defend + !damage, puts the answer back.
      for (const attack of facts.settledAttacks ?? []) {
        if (attack.by !== id) continue;
        for (const defender of attack.defenders) if (!mine.has(`s:${defender}:answer`)) mine.set(`s:${defender}:answer`, [undefined]);
      }
    }
  }

  // ---- steps ----

  private async perform(kind: StepKind, facts: StepFacts): Promise<string> {
    switch (kind) {
      case 'command':
        return this.chat(this.gen.command(this.actor()), facts);
      case 'undo':
        return this.chat(this.gen.undo(this.actor({ gm: 4, player: 6 })), facts);
      case 'admin': {
        const actor = this.world.newerJson !== undefined ? (this.rng.chance(0.85) ? this.world.gm : this.actor()) : this.actor({ gm: 8, player: 2 });
        return this.chat(this.gen.admin(actor), facts);
      }
      case 'details':
        return this.chat(this.gen.details(this.actor({ gm: 2, player: 8 })), facts);
      case 'hand-edit':
        return this.handEdit(facts);
      case 'tokenmod-edit':
        return this.tokenModEdit(facts);
      case 'api-edit':
        // API writes fire no events: whatever changed, the fuzzer changed.
        facts.fuzzerOnly = true;
        {
          const said = await this.apiEdit(facts);
          // Roll20's own copy of an attribute to its linked bars comes later: it lands in this step too.
          await this.world.mock.settle();
          return said;
        }
      case 'attribute-edit':
        return this.attributeEdit(facts);
      case 'turn':
        return this.turn(facts);
      case 'delete':
        return this.remove();
      case 'create':
        return this.create(facts);
      case 'in-flight':
        return this.inFlight(facts);
      case 'restart':
        facts.restart = true;
        return this.restart();
      case 'twins':
        return this.twins(facts);
      case 'advance': {
        const ms = this.rng.int(1, 120_000);
        this.world.mock.advance(ms);
        await this.world.mock.settle();
        return `advance ${ms}ms`;
      }
    }
  }

  private actor(odds: { gm: number; player: number } = { gm: 3, player: 6 }): Actor {
    const rng = this.rng;
    const actors = this.world.actors;
    if (rng.float() * (odds.gm + odds.player) < odds.gm) return rng.chance(0.85) ? actors[0]! : actors[5]!;
    return rng.pick([actors[1]!, actors[1]!, actors[2]!, actors[2]!, actors[3]!, actors[4]!]);
  }

  private async chat(command: Command, facts: StepFacts): Promise<string> {
    const world = this.world;
    let actor = command.actor;
    if (actor.api) {
      // commands.md, "Commands relayed by other scripts": a relay can carry any player's text, so
      // --api-as a player acts with that player's rights only under api-commands api-as (naming a GM,
      // or no --api-as, is nobody there); under gm the relay is the GM's whatever it names; else nobody's.
      const named = this.rng.chance(0.3) ? this.rng.pick(world.actors.filter((a) => !a.api)) : undefined;
      if (named && !/--api-as/i.test(command.text)) command = { ...command, text: `${command.text} --api-as ${named.id}` };
      const allowed = world.settings()?.apiCommands;
      const asPlayer = allowed === 'api-as' && named !== undefined && !named.gm ? named : undefined;
      actor = asPlayer ? { ...asPlayer, label: `API as ${asPlayer.label}`, api: true } : { ...actor, gm: allowed === 'gm' };
      command = { ...command, actor };
    }
    facts.actor = actor;
    facts.command = command;
    if (!actor.gm) facts.mayTouch = touchable(world, actor);
    const selected = command.selected.map((id) => this.nameOf(id));
    const text = `${actor.label}: ${JSON.stringify(command.text.length > 300 ? `${command.text.slice(0, 300)}...` : command.text)}${selected.length ? ` selected [${selected.join(', ')}]` : ''}`;
    if (actor.api) {
      world.mock.globals.sendChat('OtherScript', command.text);
    } else {
      await world.mock.chat(actor.id, command.text, { selected: command.selected });
    }
    await world.mock.settle();
    return text;
  }

  private nameOf(id: string): string {
    const obj = this.world.mock.globals.getObj('graphic', id) as MockObject | undefined;
    if (!obj) return `gone:${id.slice(0, 24)}`;
    return `${JSON.stringify(String(obj.props.name).slice(0, 30))}=${id}`;
  }

  private value(): unknown {
    return poolValue(this.rng);
  }

  private someToken(): MockObject | undefined {
    const tokens = this.world.graphics();
    return tokens.length > 0 ? this.rng.pick(tokens) : undefined;
  }

  private vitalityBar(): string {
    return this.world.settings()?.bars?.vitality ?? 'bar1';
  }

  /** A typed value for a bar: mostly near what it holds (a hit typed in), sometimes anything. */
  private typed(token: MockObject, bar: string): unknown {
    const now = Number(token.props[`${bar}_value`]);
    if (Number.isSafeInteger(now) && this.rng.chance(0.65)) return now + this.rng.int(-40, 15);
    return this.value();
  }

  private async handEdit(facts: StepFacts): Promise<string> {
    facts.handEdit = true;
    const token = this.someToken();
    if (!token) return 'hand edit: no token';
    const bar = this.rng.chance(0.75) ? this.vitalityBar() : this.rng.pick(['bar1', 'bar2', 'bar3']);
    const key = `${bar}_${this.rng.chance(0.93) ? 'value' : 'max'}`;
    const value = this.typed(token, bar);
    facts.allowed.add(value);
    this.world.mock.userEdit(token, { [key]: value });
    await this.world.mock.settle();
    return `hand edit ${this.nameOf(token.id)} ${key} = ${describe(value)}`;
  }

  private async tokenModEdit(facts: StepFacts): Promise<string> {
    const token = this.someToken();
    if (!token) return 'TokenMod edit: no token';
    const bar = this.rng.chance(0.8) ? this.vitalityBar() : this.rng.pick(['bar1', 'bar2', 'bar3']);
    const value = this.typed(token, bar);
    facts.allowed.add(value);
    // As TokenMod edits: a linked bar through its attribute only, then its observers at once.
    const context = this.world.context;
    context.__fuzzToken = token;
    context.__fuzzBar = bar;
    context.__fuzzValue = value;
    evaluateIn(context, 'TokenMod.setBar(globalThis.__fuzzToken, globalThis.__fuzzBar, globalThis.__fuzzValue)');
    await this.world.mock.settle();
    return `TokenMod edit ${this.nameOf(token.id)} ${bar}_value = ${describe(value)}`;
  }

  private async apiEdit(facts: StepFacts): Promise<string> {
    const rng = this.rng;
    const world = this.world;
    const token = this.someToken();
    const players = world.actors.filter((a) => !a.gm).map((a) => a.id);
    const what = rng.weighted({ bar: 6, max: 1, attribute: 4, control: 1.2, layer: 0.6, name: 0.8, markers: 1, represents: 0.5, link: 0.5 });
    const editable = token && token.id !== world.hiddenId ? token : undefined;
    switch (what) {
      case 'bar':
      case 'max': {
        if (!token) return 'API edit: no token';
        const key = `${rng.pick(['bar1', 'bar2', 'bar3'])}_${what === 'bar' ? 'value' : 'max'}`;
        const value = this.value();
        facts.allowed.add(value);
        token.set(key, value);
        return `API set ${this.nameOf(token.id)} ${key} = ${describe(value)}`;
      }
      case 'attribute': {
        const attribute = rng.maybe(world.attributes());
        if (!attribute) return 'API edit: no attribute';
        const key = rng.chance(0.8) ? 'current' : 'max';
        const value = this.value();
        facts.allowed.add(value);
        attribute.set(key, value);
        return `API set attribute ${String(attribute.props.name)} (${attribute.id}) ${key} = ${describe(value)}`;
      }
      case 'control': {
        const list = rng.pick(['', '', players[0]!, players[1]!, 'all', `${players[0]},${players[1]}`, players[2]!]);
        if (rng.chance(0.5) && editable) {
          editable.set('controlledby', list);
          return `API set ${this.nameOf(editable.id)} controlledby = ${JSON.stringify(list)}`;
        }
        const character = rng.maybe(world.characters());
        if (!character) return 'API edit: no character';
        character.set('controlledby', list);
        return `API set character ${String(character.props.name)} controlledby = ${JSON.stringify(list)}`;
      }
      case 'layer': {
        if (!editable) return 'API edit: nothing to move';
        const layer = rng.pick(['objects', 'objects', 'gmlayer', 'map']);
        editable.set('layer', layer);
        return `API set ${this.nameOf(editable.id)} layer = ${layer}`;
      }
      case 'name': {
        if (!editable) return 'API edit: nothing to rename';
        const name = rng.pick(this.names);
        editable.set('name', name);
        return `API set ${this.nameOf(editable.id)} name = ${JSON.stringify(name)}`;
      }
      case 'markers': {
        if (!token) return 'API edit: no token';
        const markers = rng.pick(['', 'dead', 'sleepy', 'sleepy,fist', 'death-zone', 'red,blue', 'dead,dead', 'garbage@3']);
        token.set('statusmarkers', markers);
        return `API set ${this.nameOf(token.id)} statusmarkers = ${JSON.stringify(markers)}`;
      }
      case 'represents': {
        if (!editable) return 'API edit: nothing';
        const target = rng.chance(0.8) && world.characters().length > 0 ? rng.pick(world.characters()).id : rng.pick(['', ...world.deleted.slice(-3)]);
        editable.set('represents', target);
        return `API set ${this.nameOf(editable.id)} represents = ${target}`;
      }
      default: {
        if (!editable) return 'API edit: nothing';
        const character = world.character(editable);
        const attributes = character ? world.attributes().filter((a) => a.props._characterid === character.id) : [];
        const bar = rng.pick(['bar1', 'bar2', 'bar3']);
        // One attribute per token bar: two bars of one token on one attribute is not a table Roll20 makes (and the mock keeps them apart).
        const free = attributes.filter((a) => !['bar1', 'bar2', 'bar3'].some((other) => other !== bar && editable.props[`${other}_link`] === a.id));
        const link = free.length > 0 && rng.chance(0.6) ? rng.pick(free).id : '';
        editable.set(`${bar}_link`, link);
        return `API set ${this.nameOf(editable.id)} ${bar}_link = ${link || '""'}`;
      }
    }
  }

  private async attributeEdit(facts: StepFacts): Promise<string> {
    const rng = this.rng;
    const world = this.world;
    const mock = world.mock;
    const what = rng.weighted({ edit: 5, create: 2, remove: 1, rename: 1, formulas: 0.5 });
    let text: string;
    if (what === 'formulas') {
      // A player's sheet of formulas referring to formulas, written field by field as she types them.
      const character = rng.maybe(world.characters());
      if (!character) return 'attribute edit: no character';
      const fields = this.gen.formulaGraph(rng.pick(ATTRIBUTE_NAMES));
      for (const { name, current, max } of fields) {
        facts.allowed.add(current);
        facts.allowed.add(max);
        const attribute = world.attributes().find((a) => a.props._characterid === character.id && a.props.name === name);
        if (attribute) mock.userEdit(attribute, { current, max });
        else mock.userCreate('attribute', { characterid: character.id, name, current, max });
      }
      text = `user writes formulas on ${String(character.props.name)}: ${fields.map((f) => `${f.name} = ${describe(f.current)}`).join('; ')}`;
    } else if (what === 'create') {
      const character = rng.maybe(world.characters());
      if (!character) return 'attribute edit: no character';
      const value = this.value();
      facts.allowed.add(value);
      const name = rng.pick(ATTRIBUTE_NAMES);
      mock.userCreate('attribute', { characterid: character.id, name, current: value, max: rng.chance(0.5) ? this.value() : '' });
      text = `user creates attribute ${name} = ${describe(value)} on ${String(character.props.name)}`;
    } else {
      const attribute = rng.maybe(world.attributes());
      if (!attribute) return 'attribute edit: no attribute';
      if (what === 'remove') {
        world.forget(attribute.id);
        mock.userRemove(attribute);
        text = `user removes attribute ${String(attribute.props.name)} (${attribute.id})`;
      } else if (what === 'rename') {
        const name = rng.pick(ATTRIBUTE_NAMES);
        mock.userEdit(attribute, { name });
        text = `user renames attribute ${String(attribute.props.name)} (${attribute.id}) to ${name}`;
      } else {
        const key = rng.chance(0.8) ? 'current' : 'max';
        const value = this.value();
        facts.allowed.add(value);
        mock.userEdit(attribute, { [key]: value });
        text = `user sets attribute ${String(attribute.props.name)} (${attribute.id}) ${key} = ${describe(value)}`;
      }
    }
    await mock.settle();
    return text;
  }

  private async turn(facts: StepFacts): Promise<string> {
    const rng = this.rng;
    const mock = this.world.mock;
    const what = rng.weighted({ next: 6, set: 3, clear: 0.5 });
    let text: string;
    if (what === 'next') {
      mock.nextTurn();
      text = 'next turn';
    } else if (what === 'clear') {
      mock.setTurnOrder([]);
      text = 'Turn Tracker cleared';
    } else {
      const tokens = rng.some(this.world.tokens(), 6);
      const entries = tokens.map((t) => {
        const pr = rng.pick<unknown>([rng.int(-10, 30), rng.int(0, 30), `${rng.int(0, 30)}`, 12.5, 'abc', '', 1e12]);
        facts.allowed.add(pr);
        return { id: t.id, pr: pr as number };
      });
      // Another script's row holding objects where Roll20 keeps text and numbers (String() of it throws).
      if (rng.chance(0.1)) entries.splice(rng.int(0, entries.length), 0, { id: { toString: 1 }, pr: { valueOf: 1 }, custom: { toString: 1 } } as any);
      if (rng.chance(0.3)) entries.splice(rng.int(0, entries.length), 0, { id: '-1', pr: rng.int(0, 20), custom: 'Lair action' } as any);
      if (rng.chance(0.2) && this.world.deleted.length > 0) entries.push({ id: rng.pick(this.world.deleted), pr: 5 });
      mock.setTurnOrder(entries);
      text = `Turn Tracker set: ${entries.map((e) => `${typeof e.id === 'string' ? this.nameOf(e.id) : 'an object'}@${describe(e.pr)}`).join(', ')}`;
    }
    await mock.settle();
    return text;
  }

  private async remove(): Promise<string> {
    const rng = this.rng;
    const world = this.world;
    const mock = world.mock;
    const tokens = world.graphics().filter((g) => g.id !== world.hiddenId);
    const characters = world.characters();
    let text = 'delete: nothing';
    if (rng.chance(0.75) && tokens.length > 0) {
      const token = rng.pick(tokens);
      world.forget(token.id);
      text = `${rng.chance(0.7) ? 'user' : 'API'} deletes token ${this.nameOf(token.id)}`;
      if (text.startsWith('user')) mock.userRemove(token);
      else token.remove();
    } else if (characters.length > 1) {
      const character = rng.pick(characters);
      world.forget(character.id);
      text = `${rng.chance(0.7) ? 'user' : 'API'} deletes character ${String(character.props.name)} (${character.id})`;
      if (text.startsWith('user')) mock.userRemove(character);
      else character.remove();
    }
    await mock.settle();
    return text;
  }

  private async create(facts: StepFacts): Promise<string> {
    const rng = this.rng;
    const world = this.world;
    const mock = world.mock;
    const players = world.actors.filter((a) => !a.gm).map((a) => a.id);
    if (world.characters().length < MAX_CHARACTERS && (rng.chance(0.3) || world.characters().length < 2)) {
      const name = rng.pick(this.names);
      const character = mock.userCreate('character', { name, controlledby: rng.pick(['', '', players[0]!, players[1]!, 'all']) });
      for (const attribute of rng.some(ATTRIBUTE_NAMES, 12)) {
        const value = rng.chance(0.8) ? rng.int(0, 80) : this.value();
        facts.allowed.add(value);
        mock.create('attribute', { characterid: character.id, name: attribute, current: value, max: rng.chance(0.5) ? value : '' });
      }
      await mock.settle();
      return `user creates character ${JSON.stringify(name)} (${character.id})`;
    }
    if (world.graphics().length >= MAX_TOKENS) return 'create: the table is full';
    const character = rng.chance(0.8) ? rng.maybe(world.characters()) : undefined;
    const props: Record<string, unknown> = {
      subtype: rng.chance(0.05) ? 'card' : 'token',
      pageid: world.scene.pageId,
      layer: rng.pick(['objects', 'objects', 'objects', 'objects', 'gmlayer']),
      name: rng.pick(this.names),
      represents: character?.id ?? '',
      controlledby: rng.pick(['', '', '', players[0]!, players[1]!, 'all', players[2]!]),
      left: rng.int(0, 2000),
      top: rng.int(0, 2000),
    };
    for (const n of [1, 2, 3]) {
      const value = rng.chance(0.85) ? rng.int(-5, 120) : this.value();
      facts.allowed.add(value);
      props[`bar${n}_value`] = value;
      props[`bar${n}_max`] = rng.chance(0.7) ? rng.int(1, 120) : '';
    }
    if (character && rng.chance(0.3)) {
      const vitality = world.attributes().find((a) => a.props._characterid === character.id && a.props.name === 'vitality');
      if (vitality) props.bar1_link = vitality.id;
    }
    const token = rng.chance(0.7) ? mock.userCreate('graphic', props) : mock.create('graphic', props);
    await mock.settle();
    return `creates token ${this.nameOf(token.id)} (${String(props.layer)}, represents ${String(props.represents) || 'nothing'}, controlledby ${JSON.stringify(props.controlledby)})`;
  }

  /** A command whose dice the script rolls; while they are out, a listener takes the token away or revokes control. */
  private async inFlight(facts: StepFacts): Promise<string> {
    const rng = this.rng;
    const world = this.world;
    const actor = this.actor({ gm: 3, player: 7 });
    if (actor.api) return this.chat(this.gen.command(actor), facts);
    const candidates = world.tokens().filter((t) => t.props.layer !== 'gmlayer' && controls(world, actor, t));
    if (candidates.length === 0) return this.chat(this.gen.command(actor), facts);
    const mover = rng.pick(candidates);
    // An edition that refuses !defend rolls its defense inside !damage (Opposed Rolls).
    const rolling = () => (editionOf(world.edition()).check.refused !== undefined ? this.gen.damage(actor, { rolls: true, selectedOnly: true }) : this.gen.defend(actor, { rolls: true, selectedOnly: true }));
    // Mostly a command whose dice the script rolls; sometimes one that rolls nothing (!stance, !heal, a
    // !damage with no dice, an announced action), which must run to its end before anything else can act.
    const quiet = [() => this.gen.heal(actor, { selectedOnly: true }), () => this.gen.stance(actor, { selectedOnly: true }), () => this.gen.damage(actor, { selectedOnly: true })];
    const command = rng.chance(0.7) ? rolling() : rng.pick(quiet)();
    if (rng.chance(0.5) || command.selected.length === 0) command.selected = [mover.id, ...command.selected.filter((id) => id !== mover.id)];
    else command.selected = [mover.id];
    // Mostly the token acting; sometimes a token the command names (--ally, --aided-by, --vs) goes instead.
    const named = command.named.filter((id) => id !== world.hiddenId && world.mock.globals.getObj('graphic', id));
    const other = named.length > 0 && rng.chance(0.35);
    const target = other ? (world.mock.globals.getObj('graphic', rng.pick(named)) as unknown as MockObject) : mover;
    const actions: InFlightAction[] = ['api-remove-token', 'user-remove-token'];
    // A token still on the table may still be guarded or aided by another target: its character or its
    // controller going matters only when it acts, and only to a player (and not for !damage under players-target-any).
    const onlyActs = !other && !command.named.includes(target.id);
    if (onlyActs && world.character(target)) actions.push('remove-character');
    if (onlyActs && !actor.gm && !(command.kind === 'damage' && facts.anyTarget)) actions.push('revoke-control', 'revoke-control');
    // The GM switching editions while any roll is out (the command's targets all stay put).
    if (command.kind !== 'stance' && command.kind !== 'heal') actions.push('switch-edition');
    const action = rng.pick(actions);
    world.inFlight = { action, tokenId: target.id, playerId: actor.id, done: false };
    facts.inFlight = world.inFlight;
    const text = await this.chat(command, facts);
    return `${text} [while the roll is out: ${action} ${this.nameOf(target.id)}]`;
  }

  /**
   * Two tokens of one linked sheet hit by one command, one of them deleted, then the GM's undo: the
   * sheet's Vitality (one value, written twice) must come back whole, with no false "changed since".
   */
  private async twins(facts: StepFacts): Promise<string> {
    const world = this.world;
    const mock = world.mock;
    const vitalityBar = String(world.settings()?.bars?.vitality ?? 'bar1');
    const sheet = mock.globals.getObj('attribute', world.scene.attributes.Bob.vitality) as unknown as MockObject | undefined;
    const bob = mock.globals.getObj('character', world.scene.characters.Bob);
    if (!sheet || !bob || world.newerJson !== undefined) return 'twins: no linked sheet';
    const linked = () => world.tokens().filter((t) => t.props[`${vitalityBar}_link`] === sheet.id && t.props.layer !== 'gmlayer');
    while (linked().length < 2) {
      mock.create('graphic', { subtype: 'token', pageid: world.scene.pageId, layer: 'objects', name: 'Bob twin', represents: bob.id, controlledby: world.scene.players.Alice, [`${vitalityBar}_link`]: sheet.id });
    }
    const [first, second] = linked();
    const before = sheet.props.current;
    facts.actor = world.gm;
    await mock.chat(world.gm.id, `!damage ${this.rng.int(5, 60)} --ids ${first!.id} ${second!.id}`);
    const hitTo = sheet.props.current;
    const gone = this.rng.chance(0.5) ? first! : second!;
    world.forget(gone.id);
    mock.userRemove(gone);
    await mock.settle();
    mock.newMessages();
    await mock.chat(world.gm.id, '!damage --undo');
    const said = mock.newMessages().map((record) => record.content).join(' ');
    facts.messages.push(...mock.chatLog.slice(-3));
    const start = readIntegerLoose(before);
    const hit = readIntegerLoose(hitTo) !== start;
    if (start !== null && hit && /Damage undone/.test(said) && readIntegerLoose(sheet.props.current) !== start) {
      world.observerProblems.push(`twins: the undo of one hit on two linked tokens (one deleted since) left the sheet's Vitality at ${describe(sheet.props.current)}, not ${describe(before)}: ${said.slice(0, 300)}`);
    }
    if (/changed since/.test(said) && start !== null && hit) {
      world.observerProblems.push(`twins: undo reported "changed since" though nothing changed after the hit: ${said.slice(0, 200)}`);
    }
    return `twins: GM hits both tokens of Bob's sheet (${describe(before)} -> ${describe(hitTo)}), ${this.nameOf(gone.id)} deleted, GM undoes: ${describe(sheet.props.current)}`;
  }

  private async restart(): Promise<string> {
    const rng = this.rng;
    const world = this.world;
    const mock = world.mock;
    let text = 'sandbox restart';
    if (world.newerJson === undefined) {
      const how = rng.weighted({ plain: 5, garbage: 3, newer: 1.2, whole: 0.4, round: 0.4, flood: 0.5, 'huge-id': 0.3 });
      text += tamper(world, how, rng);
      // Whatever the tampering, a state claiming a later schema is a newer version's to the script.
      const version = mock.state.DefenseRound?.schemaVersion;
      if (typeof version === 'number' && Number.isInteger(version) && version > SCHEMA_VERSION) world.newerJson = JSON.stringify(mock.state.DefenseRound);
    }
    await mock.restart(world.load);
    return text;
  }
}

/** Changes `state` as someone editing it by hand (or a newer version) would, before a restart. */
function tamper(world: World, how: string, rng: Rng): string {
  const mock = world.mock;
  const stored = mock.state.DefenseRound;
  switch (how) {
    case 'newer': {
      const newer = rng.chance(0.5) && stored ? { ...JSON.parse(JSON.stringify(stored)), schemaVersion: rng.pick([SCHEMA_VERSION + 1, 7, 99, 1e300]) } : { schemaVersion: rng.pick([SCHEMA_VERSION + 1, 99]), settings: { edition: 'hexcrawl' }, future: { keep: [1, 2, 3], text: '<b>X</b>' } };
      mock.state.DefenseRound = newer;
      world.newerJson = JSON.stringify(newer);
      return ` with a newer version's state (schema ${newer.schemaVersion})`;
    }
    case 'whole': {
      const value = rng.pick<unknown>(['garbage', 42, [], null, { schemaVersion: 2.5 }, { schemaVersion: -1 }, { schemaVersion: 'two' }]);
      mock.state.DefenseRound = value;
      return ` with state.DefenseRound = ${JSON.stringify(value)}`;
    }
    case 'round': {
      if (!stored?.round || typeof stored.round !== 'object') return ' (no round to tamper with)';
      stored.round.number = rng.pick<unknown>([1e300, 2 ** 53 + 2, -5, 0, 2.5, 'x', null, 123456]);
      return ` with DefenseRound.round.number = ${describe(stored.round.number)}`;
    }
    case 'flood': {
      const history = Array.isArray(stored?.history) ? stored.history : [];
      if (history.length === 0) return ' (no history to flood)';
      const copies = rng.int(60, 200);
      for (let i = 0; i < copies; i += 1) history.push(JSON.parse(JSON.stringify(rng.pick(history))));
      return ` with ${copies} copies of history entries added`;
    }
    case 'huge-id': {
      if (!stored?.tokens || typeof stored.tokens !== 'object') return ' (no tokens to add to)';
      const id = 'x'.repeat(rng.int(100, 120_000));
      stored.tokens[id] = { stance: 'reactive' };
      return ` with a token record under an id of ${id.length} characters`;
    }
    case 'garbage': {
      const paths: Array<{ parent: any; key: string | number; path: string }> = [];
      const walk = (node: any, path: string, depth: number) => {
        if (depth > 7 || node === null || typeof node !== 'object') return;
        for (const key of Array.isArray(node) ? node.keys() : Object.keys(node)) {
          paths.push({ parent: node, key, path: `${path}.${String(key)}` });
          walk(node[key], `${path}.${String(key)}`, depth + 1);
        }
      };
      walk(stored, 'DefenseRound', 0);
      if (paths.length === 0) return ' (nothing to tamper with)';
      const spot = rng.pick(paths);
      const value = rng.pick<unknown>([1e300, -1, 'x', '', null, [], {}, true, 'x'.repeat(300), 'x'.repeat(120_000), 9007199254740993, 2.5, '<b>X</b>', { a: 1 }, undefined]);
      if (value === undefined && !Array.isArray(spot.parent)) delete spot.parent[spot.key];
      else spot.parent[spot.key] = value;
      return ` with ${spot.path} = ${describe(value)}`;
    }
    default:
      return '';
  }
}

/** The command that replays a run up to a step: the same seed, table, step kinds and bug classes left out. */
export function replayCommand(seed: number, world: number, steps: number, options: Pick<FuzzOptions, 'worldSteps' | 'skip' | 'avoid'>): string {
  return [
    `npm run fuzz -- --seed ${seed} --world ${world} --steps ${steps}`,
    options.worldSteps !== undefined && options.worldSteps !== 2_000 ? ` --world-steps ${options.worldSteps}` : '',
    options.skip?.length ? ` --skip ${options.skip.join(',')}` : '',
    options.avoid?.length ? ` --avoid ${options.avoid.join(',')}` : '',
  ].join('');
}

/** The replies of a step, short, for the trail. */
function summary(messages: readonly ChatRecord[]): string {
  const said = messages.filter((m) => m.who === 'DefenseRound').map((m) => `${m.whisperTo ? `->${m.whisperTo}` : '->all'}: ${m.content.replace(/&\{template:default\} /, '').slice(0, 90)}`);
  return said.length > 0 ? `  => ${said.join(' || ').slice(0, 300)}` : '';
}

export type { Snapshot };

/** A whole number as a bar or attribute holds it, or null. */
function readIntegerLoose(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value === 'string' && /^\s*[+-]?\d+\s*$/.test(value)) return Number(value);
  return null;
}

/** The attacks open now, by key: who declared each, and its defenders. */
function openAttacksOf(world: World): Map<string, { by: string; defenders: string[] }> {
  const open = new Map<string, { by: string; defenders: string[] }>();
  for (const [key, attack] of Object.entries<any>(world.stored()?.exchange?.attacks ?? {})) {
    open.set(key, { by: String(attack?.by ?? ''), defenders: Array.isArray(attack?.defenders) ? attack.defenders.map(String) : [] });
  }
  return open;
}

/** The attacks the step settled (open at its start, gone now), and the attributes their defenders' writes may reach. */
function settledAttacks(world: World, facts: StepFacts): void {
  const now = openAttacksOf(world);
  const settled = [...(facts.openAttacks ?? new Map()).entries()].filter(([key]) => !now.has(key)).map(([, attack]) => attack);
  facts.settledAttacks = settled;
  const attributes = new Set<string>();
  for (const id of settled.flatMap((attack) => attack.defenders)) {
    const token = world.mock.globals.getObj('graphic', id) as unknown as MockObject | undefined;
    if (!token) continue;
    for (const n of [1, 2, 3]) if (token.props[`bar${n}_link`]) attributes.add(String(token.props[`bar${n}_link`]));
    const character = world.character(token);
    if (character) for (const attribute of world.attributes()) if (attribute.props._characterid === character.id) attributes.add(attribute.id);
    // A linked defender's memory is its character's (`s:<character>:mem`).
    if (character) attributes.add(`character:${character.id}`);
  }
  facts.defenderAttributes = attributes;
}
