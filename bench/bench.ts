// `npm run bench`: the built bundle (dist/defense-round.js) in the in-memory Roll20 of mocks/, on
// a campaign of 10,000 graphics, 2,000 characters and ~40,000 attributes. Times `!damage` on 1, 10
// and 50 selected tokens in each edition against a floor measured in the same run, in interleaved
// rounds (the machine is shared and noisy: medians, never single runs), and counts chat messages
// and Roll20 writes per command, `state` after an evening, the bundle's size and load time, and
// the per-token cost at 1,000 against 10,000 graphics; then a long evening on a campaign of its
// own (hits never undone, against a lean handler doing the same job and the one-line floor).
// Prints Markdown; docs/performance.md explains every number. Not a test: nothing here fails on a time.
//
//   npm run bench                                 (builds the bundle first)
//   BENCH_ROUNDS=40 tsx bench/bench.ts            (rounds; default 300 measured after 20 warm-up rounds)
//   BENCH_ONLY=evening tsx bench/bench.ts         (the long evening alone; BENCH_EVENING_ROUNDS, default 250)
//   BENCH_PROFILE=1 npm run bench                 (adds where the time inside DefenseRound's commands goes;
//                                                  with BENCH_ONLY=evening: BENCH_PROFILE_ONE=1 the 1-token
//                                                  hits only, BENCH_PROFILE_FIRST=1 the first commands only)
//   BENCH_BUNDLE=path                             (another build, e.g. an unminified one for profiles)
//   BENCH_TOP=N                                   (rows in the profile's tables; 25 and 40 when unset)
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Session } from 'node:inspector';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createRoll20, type MockRoll20, type Roll20Globals } from '../mocks/roll20';
import { buildDemoScene } from '../mocks/scene';
import { evaluateIn, loadBundleSource, type SandboxContext } from '../mocks/vm';
import { DEFAULT_EDITION, editionIds, editionOf, FIRST_RELEASE_EDITION } from '../src/rules/editions';
import { totalBudget } from '../test/support/budget';

const BUNDLE = resolve(process.env.BENCH_BUNDLE ?? 'dist/defense-round.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 300);
/** BENCH_PROFILE=1: also sample the CPU during the timed DefenseRound commands and say where the time went (times are then inflated). */
/** A switch given in the environment: on unless unset, empty or 0. */
function switchOn(name: string): boolean {
  const value = process.env[name];
  return value !== undefined && value !== '' && value !== '0';
}
const PROFILE = switchOn('BENCH_PROFILE');
const PROFILE_ONE = switchOn('BENCH_PROFILE_ONE');
const PROFILE_FIRST = switchOn('BENCH_PROFILE_FIRST');
const WARMUP = 20;
const SIZES = [1, 10, 50] as const;
const EVENING_HITS = 100;
/** Commands timed right after loading, before any warm-up (the code still in V8's first tiers). */
const COLD_ROUNDS = 20;
const EVENING_TOKENS = 50;

type EditionId = string;
/** Every registered edition is timed. */
const EDITIONS: EditionId[] = editionIds();

/** The hit timed in each edition: its sample's (a plain `!damage 30` for an edition without one). */
const HIT: Record<EditionId, string> = Object.fromEntries(EDITIONS.map((id) => [id, editionOf(id).table.sample?.hit ?? '!damage 30']));
/**
 * The floors below do by hand the hit of the first release's edition (The Defensive Round), and the
 * long evening plays that edition's defenses and stances between the hits: they time that edition.
 */
const FLOOR_EDITION: EditionId = FIRST_RELEASE_EDITION;
const FLOOR_HIT = '!floor-damage 30';
const NOOP = '!bench-noop';
/** Timed tokens stand at 7 of 40 Vitality: every timed hit drops them (a condition, a marker). */
const TIMED_VITALITY = 7;
const FULL_VITALITY = 40;

// ---------------------------------------------------------------------------------------------
// The floor: the least any script doing this job must do, in its own vm context on the same mock.

// The sheet look-up both floors share (one text, put into each floor's source).
const SHEET_LOOKUP = String.raw`
  // Attribute objects per character, looked up once (values are read live).
  var byCharacter = {};
  function attributesOf(characterId) {
    var index = byCharacter[characterId];
    if (!index) {
      index = {};
      var found = findObjs({ _type: 'attribute', _characterid: characterId });
      for (var i = 0; i < found.length; i++) {
        var key = String(found[i].get('name')).toLowerCase();
        if (!(key in index)) index[key] = found[i];
      }
      byCharacter[characterId] = index;
    }
    return index;
  }
  function valueOf(attribute) {
    var n = attribute ? parseInt(attribute.get('current'), 10) : 0;
    return isNaN(n) ? 0 : n;
  }
`;

const FLOOR_SOURCE = String.raw`
(function () {
${SHEET_LOOKUP}  on('chat:message', function (msg) {
    if (msg.type !== 'api' || msg.content.indexOf('!floor-damage ') !== 0) return;
    var amount = parseInt(msg.content.slice(14), 10) || 0;
    var selected = msg.selected || [];
    var parts = [];
    for (var i = 0; i < selected.length; i++) {
      var token = getObj('graphic', selected[i]._id);
      if (!token) continue;
      var attributes = attributesOf(String(token.get('represents')));
      var vitality = parseInt(token.get('bar1_value'), 10) || 0;
      var soak = valueOf(attributes.armor_soak);
      var physical = valueOf(attributes.armor_physical);
      var magical = valueOf(attributes.armor_magical);
      var defense = valueOf(attributes.armor_defense);
      // Soak, then the protection, then Defense; both protections gone: the armor is destroyed.
      var loss = amount;
      if (physical > 0 || magical > 0) loss = Math.max(0, Math.floor((amount * (100 - soak)) / 100) - physical - defense);
      token.set({ bar1_value: vitality - loss });
      parts.push(token.get('name') + ' ' + vitality + ' -> ' + (vitality - loss));
    }
    sendChat('Floor', 'Damage ' + amount + ': ' + parts.join(', '));
  });
})();
`;

// The same floor written with the care DefenseRound's bundle takes (src/builtins.ts): the built-ins
// it calls per token read once at load, not from the sandbox's global object at every use. Not the
// issue's floor (that one is a plain script); measured so the ratio is known against both.
const FLOOR_LEAN_SOURCE = FLOOR_SOURCE.replace('(function () {', '(function () {\n  var Math_ = Math, String_ = String, parseInt_ = parseInt, isNaN_ = isNaN;')
  .replace(/\bMath\.max\b/g, 'Math_.max')
  .replace(/\bString\(/g, 'String_(')
  .replace(/\bparseInt\(/g, 'parseInt_(')
  .replace(/\bisNaN\(/g, 'isNaN_(')
  .replace(/!floor-damage /g, '!floor-lean-damage ')
  .replace("'Floor'", "'FloorLean'")
  .replace('msg.content.slice(14)', 'msg.content.slice(19)');
const FLOOR_LEAN_HIT = '!floor-lean-damage 30';

// The floor doing this command's job: a lean handler, written for this one hit and nothing else,
// that does what DefenseRound does for it (commands.md, "Targets and permissions", "Output",
// "Undo"; The Defensive Round's armor and "Death and Incapacitated"): only the GM may hit any token;
// the token's condition and saves owed are kept in `state` and read back; the dead take no damage;
// the protection wears (25% of the damage after soak) and is written back; a token that falls gets
// its condition's marker in the same `set` as its bar; HealthColors hears of it; the hit is kept for
// undo (the last 25) and the GM's card carries its Undo button; the numbers are whispered to the GM
// on one card of the default template, a row per step as DefenseRound's card has them, and one
// public line says what happened; the names are escaped. No checks of input, no other flag, edition
// or command: the least a script doing this job can do. The one-line floor above wears no armor,
// keeps no condition or undo, marks nobody down and shows the NPCs' numbers to everyone.
const FLOOR_JOB_SOURCE = String.raw`
(function () {
  var MARKERS = { incapacitated: 'sleepy', dying: 'death-zone', dead: 'dead' };
${SHEET_LOOKUP}  function escape(text) {
    return String(text).replace(/[&<>"'\[\]{}@%?|*!\/=$:\\]/g, function (c) { return '&#' + c.charCodeAt(0) + ';'; });
  }
  function withMarker(markers, condition) {
    var list = markers ? String(markers).split(',') : [];
    var kept = [];
    for (var i = 0; i < list.length; i++) if (list[i] !== MARKERS.incapacitated && list[i] !== MARKERS.dying && list[i] !== MARKERS.dead) kept.push(list[i]);
    if (condition !== 'none') kept.push(MARKERS[condition]);
    return kept.join(',');
  }
  // The Defensive Round: a fall to 0..-9 incapacitates (one save owed), a single hit to -10 or below
  // leaves the token dying (three saves), an incapacitated or dying token hit to -10 or more is dead.
  function lifeAfter(life, before, after) {
    if (after > 0) return { condition: 'none', savesOwed: 0 };
    if (life.condition === 'dying') return { condition: 'dead', savesOwed: 0 };
    if (before > 0) return after <= -10 ? { condition: 'dying', savesOwed: 3 } : { condition: 'incapacitated', savesOwed: 1 };
    if (after <= -10) return { condition: 'dead', savesOwed: 0 };
    return life;
  }
  on('chat:message', function (msg) {
    if (msg.type !== 'api' || msg.content.indexOf('!floor-job-damage ') !== 0) return;
    // Bad input is refused; only the GM may hit any token.
    var line = /^!floor-job-damage (\d{1,7})$/.exec(msg.content);
    if (!line || !playerIsGM(msg.playerid)) return sendChat('FloorJob', '/w gm Not a hit.');
    var kept = state.FloorJob || (state.FloorJob = { next: 1, history: [], tokens: {}, turnOrder: '' });
    // Another script may have turned the Turn Tracker (no event): looked at before each command.
    var turnOrder = Campaign().get('turnorder');
    if (turnOrder !== kept.turnOrder) kept.turnOrder = turnOrder;
    var amount = Number(line[1]);
    var selected = msg.selected || [];
    var rows = [];
    var lines = [];
    var undo = [];
    for (var i = 0; i < selected.length; i++) {
      var token = getObj('graphic', selected[i]._id);
      if (!token) continue;
      var name = escape(token.get('name'));
      var vitality = parseInt(token.get('bar1_value'), 10) || 0;
      // A linked bar is written through its attribute; Soul and Power are told to HealthColors; who
      // controls the token and its character, and its layer, say who may read its numbers.
      var link = token.get('bar1_link');
      var soul = token.get('bar2_value');
      var power = token.get('bar3_value');
      var character = getObj('character', String(token.get('represents')));
      var npc = !token.get('controlledby') && !(character && character.get('controlledby'));
      var hidden = token.get('layer') === 'gmlayer';
      var record = kept.tokens[token.id];
      var life = record && record.life && vitality <= 0 ? record.life : { condition: vitality > 0 ? 'none' : 'incapacitated', savesOwed: 0 };
      if (life.condition === 'dead') {
        rows.push('{{' + name + '=Dead&#58; takes no damage (Vitality ' + vitality + ')}}');
        lines.push(name + ' is dead&#58; no damage');
        continue;
      }
      var attributes = attributesOf(String(token.get('represents')));
      var soak = valueOf(attributes.armor_soak);
      var physical = valueOf(attributes.armor_physical);
      var magical = valueOf(attributes.armor_magical);
      var defense = valueOf(attributes.armor_defense);
      var armored = physical > 0 || magical > 0;
      var soaked = armored ? Math.floor((amount * (100 - soak)) / 100) : amount;
      var afterProtection = armored ? Math.max(0, soaked - physical) : amount;
      var loss = armored ? Math.max(0, afterProtection - defense) : amount;
      var worn = armored ? Math.max(0, physical - Math.floor(soaked / 4)) : physical;
      var after = vitality - loss;
      var next = lifeAfter(life, vitality, after);
      var markers = token.get('statusmarkers');
      var marked = withMarker(markers, next.condition);
      if (worn !== physical) attributes.armor_physical.set('current', worn);
      var props = link ? {} : { bar1_value: after };
      if (link) getObj('attribute', link).set('current', after);
      if (marked !== markers) props.statusmarkers = marked;
      token.set(props);
      if (typeof HealthColors !== 'undefined' && HealthColors.Update) HealthColors.Update(token, { _id: token.id, _type: 'graphic', width: token.get('width'), height: token.get('height'), bar1_value: vitality, bar2_value: soul, bar3_value: power, statusmarkers: markers });
      if (next.condition === 'none') delete kept.tokens[token.id];
      else kept.tokens[token.id] = { life: next };
      undo.push({ id: token.id, name: name, from: vitality, to: after, markers: [markers, marked], life: [life, next], armor: worn !== physical ? [attributes.armor_physical.id, physical, worn] : null });
      var steps = 'Defense=None&#58; the hit lands}} {{Breakdown=' + (armored ? amount + ' x ' + (100 - soak) + '&#37; soak &#61; ' + soaked + '<br>' + soaked + ' - ' + physical + ' Physical &#61; ' + afterProtection + '<br>' + afterProtection + ' - ' + defense + ' Defense &#61; ' + loss + '<br>' : '') + 'Vitality loss ' + loss + '<br>Vitality ' + vitality + ' -&gt; ' + after + (worn !== physical ? '<br>Physical ' + physical + ' -&gt; ' + worn + ' (wears 25&#37; of ' + soaked + ' &#61; ' + (physical - worn) + ')' : '') + (next.condition !== life.condition ? '<br>Falls&#58; ' + next.condition : '');
      rows.push('{{' + name + '=' + name + ' loses ' + loss + ' Vitality (' + amount + ' physical)}} {{' + steps + '}}' + (next.condition !== 'none' ? ' {{Now=' + next.condition + (next.savesOwed > 0 ? '&#58; ' + next.savesOwed + ' save owed (&#33;defend --action save)' : '') + '}}' : ''));
      if (!hidden) lines.push(name + (next.condition !== life.condition ? ' falls&#58; ' + next.condition : ' is hit') + '.');
      if (!npc) rows.push('{{Seen by=all}}');
    }
    var key = kept.next++;
    kept.history.push({ key: 'U' + key, by: msg.playerid, round: 0, tokens: undo });
    if (kept.history.length > 25) kept.history.shift();
    sendChat('FloorJob', '/w gm &{template:default} {{name=Damage ' + amount + '}} ' + rows.join(' ') + ' {{Actions=[Undo](!floor-job-undo --entry U' + key + ')}}');
    if (lines.length > 0) sendChat('FloorJob', lines.join(' '));
  });
})();
`;
const FLOOR_JOB_HIT = '!floor-job-damage 30';

// ---------------------------------------------------------------------------------------------
// Probes: each script gets its own copy of the Roll20 globals, so the time inside its handlers is
// its own: from the moment its chat:message handler receives the command to the return of the
// last thing it did for that command (its handler, or its last sendChat: the async part of a
// command ends by posting its cards).

class Probe {
  private content: string | null = null;
  private start = 0;
  private end = 0;
  private open = false;

  arm(content: string): void {
    this.content = content;
    this.open = false;
    this.start = 0;
    this.end = 0;
  }

  /** Milliseconds inside the script for the armed command; NaN when it never saw it. */
  span(): number {
    this.content = null;
    this.open = false;
    return this.end > 0 ? this.end - this.start : Number.NaN;
  }

  globals(base: Roll20Globals): Roll20Globals {
    const probe = this;
    const wrapped = Object.defineProperties({}, Object.getOwnPropertyDescriptors(base)) as Roll20Globals;
    wrapped.on = ((event: string, handler: (...args: unknown[]) => unknown) =>
      base.on(event as 'ready', (...args: unknown[]) => {
        const msg = args[0] as { type?: string; content?: string } | undefined;
        const isCommand = event === 'chat:message' && probe.content !== null && msg?.type === 'api' && msg.content === probe.content;
        if (isCommand) {
          probe.open = true;
          probe.start = performance.now();
        }
        try {
          return handler(...args);
        } finally {
          if (isCommand) probe.end = performance.now();
        }
      })) as typeof base.on;
    wrapped.sendChat = ((speakingAs: string, message: string, callback?: (ops: Roll20ChatMessage[]) => void, opts?: Roll20SendChatOptions) => {
      const cb =
        typeof callback === 'function'
          ? (ops: Roll20ChatMessage[]) => {
              try {
                callback(ops);
              } finally {
                if (probe.open) probe.end = performance.now();
              }
            }
          : callback;
      try {
        base.sendChat(speakingAs, message, cb as never, opts);
      } finally {
        if (probe.open) probe.end = performance.now();
      }
    }) as typeof base.sendChat;
    return wrapped;
  }
}

function loadInstrumented(mock: MockRoll20, source: string, filename: string, probe: Probe): SandboxContext {
  const view = Object.create(mock, { globals: { value: probe.globals(mock.globals) } }) as MockRoll20;
  return loadBundleSource(view, source, filename);
}

// ---------------------------------------------------------------------------------------------
// The campaign: the demo scene (its players, the GM among them) and generic NPCs, each token an
// unlinked copy of one of the characters, ~20 attributes per character.

function npcAttributes(j: number): Record<string, readonly [number, number?]> {
  const v = j % 3; // a little variety between sheets, same outcomes for the timed hits
  return {
    armor_soak: [10],
    armor_physical: [15, 15],
    armor_magical: [10, 10],
    armor_defense: [5],
    armor_spirit: [3],
    natural_defense: [2],
    natural_spirit: [1],
    fortitude: [20 + v],
    defend_check: [40 + v],
    evade_check: [35],
    reaction_check: [30],
    perception_check: [35],
    mental_check: [20],
    save_check: [45],
    exp: [5 + v],
    passive_defense: [10],
    active_defense: [4],
    full_defense: [3],
    armor_score: [12],
    level: [1 + v],
  };
}

interface Contender {
  name: string;
  /** Who its messages come from. */
  speaker: string;
  probe?: Probe;
}

interface Campaign {
  label: string;
  mock: MockRoll20;
  gm: string;
  /** The NPC tokens, in creation order (token i represents character i mod C). */
  tokens: string[];
  counts: { graphics: number; characters: number; attributes: number };
  script: Contender;
  floor: Contender;
  floorLean: Contender;
  /** The floor doing the job (FLOOR_JOB_SOURCE): the long evening's. */
  floorJob: Contender;
  context: SandboxContext;
  edition: EditionId;
  load: { evaluateMs: number; readyMs: number; scans: { findObjs: number; filterObjs: number; getAllObjs: number; objectsScanned: number } };
  buildMs: number;
}

async function openCampaign(label: string, graphics: number, characters: number, seed: number, source: string): Promise<Campaign> {
  const t0 = performance.now();
  const mock = createRoll20({ seed });
  const scene = buildDemoScene(mock);
  const pageId = scene.pageId;
  const characterIds: string[] = [];
  const npcCharacters = characters - Object.keys(scene.characters).length; // Bob, the Goblin and Cleo come with the demo scene
  for (let j = 0; j < npcCharacters; j += 1) {
    const character = mock.create('character', { name: `NPC ${j + 1}` });
    characterIds.push(character.id);
    for (const [name, [current, max = '']] of Object.entries(npcAttributes(j))) {
      mock.create('attribute', { characterid: character.id, name, current, max });
    }
  }
  const tokens: string[] = [];
  const npcTokens = graphics - Object.keys(scene.tokens).length; // Bob, two goblins, a crate and Cleo
  for (let i = 0; i < npcTokens; i += 1) {
    const c = i % npcCharacters;
    const token = mock.create('graphic', {
      subtype: 'token',
      pageid: pageId,
      layer: 'objects',
      name: `NPC ${c + 1} #${Math.floor(i / npcCharacters) + 1}`,
      represents: characterIds[c],
      controlledby: '',
      left: 70 * (i % 100),
      top: 70 * Math.floor(i / 100),
      imgsrc: 'https://s3.amazonaws.com/files.d20.io/images/0/token/thumb.png',
      bar1_value: FULL_VITALITY,
      bar1_max: FULL_VITALITY,
      bar2_value: 10,
      bar2_max: 10,
      bar3_value: 10,
      bar3_max: 10,
    });
    tokens.push(token.id);
  }
  const counts = {
    graphics: mock.globals.findObjs({ _type: 'graphic' }).length,
    characters: mock.globals.findObjs({ _type: 'character' }).length,
    attributes: mock.globals.findObjs({ _type: 'attribute' }).length,
  };
  const buildMs = performance.now() - t0;

  const script: Contender = { name: 'DefenseRound', speaker: 'DefenseRound', probe: new Probe() };
  const floor: Contender = { name: 'floor', speaker: 'Floor', probe: new Probe() };
  const floorLean: Contender = { name: 'floor, built-ins read once', speaker: 'FloorLean', probe: new Probe() };
  const floorJob: Contender = { name: 'floor doing the job', speaker: 'FloorJob', probe: new Probe() };
  mock.resetStats();
  const e0 = performance.now();
  const context = loadInstrumented(mock, source, BUNDLE, script.probe!);
  const evaluateMs = performance.now() - e0;
  // Every feature on: an onDamage observer and HealthColors (undo is always on; cards are the output).
  evaluateIn(context, 'DefenseRound.onDamage(() => {})');
  evaluateIn(context, 'globalThis.HealthColors = { Update() {} }');
  loadInstrumented(mock, FLOOR_SOURCE, 'floor.js', floor.probe!);
  loadInstrumented(mock, FLOOR_LEAN_SOURCE, 'floor-lean.js', floorLean.probe!);
  const jobContext = loadInstrumented(mock, FLOOR_JOB_SOURCE, 'floor-job.js', floorJob.probe!);
  evaluateIn(jobContext, 'globalThis.HealthColors = { Update() {} }');
  const r0 = performance.now();
  mock.fireReady();
  await mock.settle();
  const readyMs = performance.now() - r0;
  const s = mock.stats;
  const scans = { findObjs: s.findObjsCalls, filterObjs: s.filterObjsCalls, getAllObjs: s.getAllObjsCalls, objectsScanned: s.objectsScanned };
  mock.assertNoCrash();
  mock.newMessages();
  return { label, mock, gm: scene.players.GM, tokens, counts, script, floor, floorLean, floorJob, context, edition: DEFAULT_EDITION, load: { evaluateMs, readyMs, scans }, buildMs };
}

// ---------------------------------------------------------------------------------------------
// Running commands.

interface Sample {
  /** Time inside the contender's handlers (ms); NaN for the no-op. */
  span: number;
  /** `mock.chat` (post, deliver, settle) from the typed line to a quiet sandbox (ms). */
  wall: number;
  messages: number;
  writes: number;
  maxWritesPerObject: number;
  objectsScanned: number;
  findObjs: number;
}

async function say(c: Campaign, content: string, selected: readonly string[] = []): Promise<string[]> {
  c.mock.newMessages();
  await c.mock.chat(c.gm, content, { selected: [...selected] });
  c.mock.assertNoCrash();
  return c.mock.newMessages().filter((r) => r.who === 'DefenseRound').map((r) => r.content);
}

/** Windows (process.hrtime, ns) of the timed DefenseRound commands, for BENCH_PROFILE. */
const profileWindows: Array<[bigint, bigint]> = [];
let profileNow = false;

async function timed(c: Campaign, who: Contender | undefined, content: string, selected: readonly string[]): Promise<Sample> {
  const { mock } = c;
  mock.newMessages();
  mock.resetStats();
  who?.probe?.arm(content);
  const h0 = process.hrtime.bigint();
  const t0 = performance.now();
  await mock.chat(c.gm, content, { selected: [...selected] });
  const wall = performance.now() - t0;
  if (profileNow && who?.speaker === 'DefenseRound') profileWindows.push([h0, process.hrtime.bigint()]);
  mock.assertNoCrash();
  const span = who?.probe ? who.probe.span() : Number.NaN;
  const records = mock.newMessages();
  const s = mock.stats;
  return {
    span,
    wall,
    messages: who ? records.filter((r) => r.who === who.speaker).length : 0,
    writes: s.setCalls,
    maxWritesPerObject: Math.max(0, ...Object.values(s.setsByObject)),
    objectsScanned: s.objectsScanned,
    findObjs: s.findObjsCalls,
  };
}

async function switchEdition(c: Campaign, edition: EditionId): Promise<void> {
  if (c.edition === edition) return;
  const out = await say(c, `!defense-round config edition ${edition}`);
  if (!out.some((line) => line.includes(`Edition is now ${edition}`))) throw new Error(`${c.label}: switching to ${edition} failed: ${out.join(' | ')}`);
  c.edition = edition;
}

function bar1(c: Campaign, id: string): unknown {
  return c.mock.globals.getObj('graphic', id)?.get('bar1_value');
}

function setVitality(c: Campaign, ids: readonly string[], value: number): void {
  for (const id of ids) c.mock.globals.getObj('graphic', id)!.set({ bar1_value: value });
}

/** What a hit left on the bars, to check that every round does the same work. */
const expectedAfter = new Map<string, string>();

function checkSame(key: string, c: Campaign, ids: readonly string[]): void {
  const now = ids.map((id) => String(bar1(c, id))).join(',');
  const before = expectedAfter.get(key);
  if (before === undefined) expectedAfter.set(key, now);
  else if (before !== now) throw new Error(`${key}: the hit left other bars than in the first round (${before} vs ${now})`);
}

/** One timed `!damage` of an edition, then `!damage --undo` (untimed) so the next round starts the same. */
async function runScript(c: Campaign, edition: EditionId, ids: readonly string[], base = TIMED_VITALITY): Promise<Sample> {
  await switchEdition(c, edition);
  const sample = await timed(c, c.script, HIT[edition]!, ids);
  checkSame(`${c.label} ${edition} ${ids.length} ${base}`, c, ids);
  if (ids.some((id) => bar1(c, id) === base)) throw new Error(`${c.label} ${edition}: a timed hit left a bar untouched`);
  const out = await say(c, '!damage --undo');
  if (!out.some((line) => line.includes('Damage undone'))) throw new Error(`${c.label} ${edition}: undo failed: ${out.join(' | ')}`);
  if (ids.some((id) => bar1(c, id) !== base)) throw new Error(`${c.label} ${edition}: undo did not restore the bars`);
  return sample;
}

async function runFloor(c: Campaign, ids: readonly string[], base = TIMED_VITALITY, lean = false): Promise<Sample> {
  const sample = await timed(c, lean ? c.floorLean : c.floor, lean ? FLOOR_LEAN_HIT : FLOOR_HIT, ids);
  // Both floors leave the same bars, and the hit did change them (a command that matched nothing would time a no-op).
  checkSame(`${c.label} floor ${ids.length} ${base}`, c, ids);
  if (ids.some((id) => bar1(c, id) === base)) throw new Error(`${c.label} ${lean ? 'lean floor' : 'floor'}: a timed hit left a bar untouched`);
  if (sample.messages !== 1) throw new Error(`${c.label} ${lean ? 'lean floor' : 'floor'}: posted ${sample.messages} messages, not one`);
  setVitality(c, ids, base);
  return sample;
}

async function runNoop(c: Campaign, ids: readonly string[]): Promise<Sample> {
  return timed(c, undefined, NOOP, ids);
}

type Kind = 'floor' | 'floor-lean' | EditionId | 'noop';
const KINDS: Kind[] = ['floor', 'floor-lean', ...EDITIONS, 'noop'];

function run(c: Campaign, kind: Kind, ids: readonly string[], base = TIMED_VITALITY): Promise<Sample> {
  if (kind === 'floor') return runFloor(c, ids, base);
  if (kind === 'floor-lean') return runFloor(c, ids, base, true);
  if (kind === 'noop') return runNoop(c, ids);
  return runScript(c, kind, ids, base);
}

// ---------------------------------------------------------------------------------------------
// A long evening (issue 23): hits that are never undone, so the undo history fills and trims,
// armor wears to nothing and tokens stay down; heals, defenses, stances and hand edits between the
// timed hits. The floor hits its own 50 (and 1) tokens of the same kind in the same rounds.

const LONG_ROUNDS = Number(process.env.BENCH_EVENING_ROUNDS ?? 250);
const FIRST_COMMANDS = 5;

/** Who is timed over the long evening: DefenseRound, the floor doing the job, the one-line floor. */
type EveningWho = 'script' | 'job' | 'floor';
const EVENING_WHO: EveningWho[] = ['script', 'job', 'floor'];
type EveningKey = `${EveningWho} ${50 | 1}`;

interface LongEvening {
  first: Record<EveningWho, number[]>;
  spans: Record<EveningKey, number[]>;
  historyEntries: number;
  stateBytes: number;
  ms: number;
}

async function longEvening(source: string): Promise<LongEvening> {
  const t0 = performance.now();
  const c = await openCampaign('long evening', 10_000, 2_000, 21, source);
  await switchEdition(c, FLOOR_EDITION);
  // Each contender hits 50 tokens of its own (50 characters) and one more for the 1-token hits.
  const fifty: Record<EveningWho, string[]> = { script: c.tokens.slice(0, 50), job: c.tokens.slice(50, 100), floor: c.tokens.slice(100, 150) };
  const one: Record<EveningWho, string[]> = { script: [c.tokens[150]!], job: [c.tokens[151]!], floor: [c.tokens[152]!] };
  const contender: Record<EveningWho, { who: Contender; hit: string }> = {
    script: { who: c.script, hit: HIT[FLOOR_EDITION]! },
    job: { who: c.floorJob, hit: FLOOR_JOB_HIT },
    floor: { who: c.floor, hit: FLOOR_HIT },
  };
  const hit = (who: EveningWho, ids: readonly string[]) => timed(c, contender[who].who, contender[who].hit, ids);
  // The first commands after loading, before anything has run: as after a sandbox restart.
  const first: LongEvening['first'] = { script: [], job: [], floor: [] };
  for (let i = 0; i < FIRST_COMMANDS; i += 1) {
    for (const who of EVENING_WHO) {
      // BENCH_PROFILE_FIRST=1: profile only DefenseRound's first commands (after the first, which reads the sheets).
      profileNow = PROFILE && PROFILE_FIRST && who === 'script' && i > 0;
      first[who].push((await hit(who, fifty[who])).span);
    }
  }
  profileNow = false;
  const spans = Object.fromEntries(EVENING_WHO.flatMap((who) => [`${who} 50`, `${who} 1`].map((key) => [key, [] as number[]]))) as LongEvening['spans'];
  const mine = fifty.script;
  let seed = 7;
  const next = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };
  const timedHits = EVENING_WHO.flatMap((who) => [50, 1].map((n) => ({ who, n: n as 50 | 1 })));
  for (let round = 0; round < LONG_ROUNDS; round += 1) {
    // Between the timed hits, what a table does: some heals, a defense, a stance, a hand edit.
    if (round % 3 === 0) await say(c, `!heal ${10 + next(30)}`, mine.slice(next(40), 50));
    if (round % 4 === 1) await say(c, `!defend --action defend --roll ${1 + next(100)}`, [mine[next(50)]!]);
    if (round % 10 === 2) await say(c, `!stance ${next(2) === 0 ? 'defensive' : 'reactive'}`, [mine[next(50)]!]);
    if (round % 5 === 3) {
      c.mock.userEdit(c.mock.globals.getObj('graphic', mine[next(50)]!)!, { bar1_value: 5 + next(30) });
      await c.mock.settle();
    }
    if (round % 5 === 4) {
      // The GM raises ten fallen tokens by hand (a hand edit revives the dead), so hits keep landing;
      // the floors' tokens are set back the same way.
      for (let i = 0; i < 10; i += 1) c.mock.userEdit(c.mock.globals.getObj('graphic', mine[(round * 7 + i * 5) % 50]!)!, { bar1_value: FULL_VITALITY });
      c.mock.userEdit(c.mock.globals.getObj('graphic', one.script[0]!)!, { bar1_value: FULL_VITALITY });
      await c.mock.settle();
      for (const who of ['job', 'floor'] as const) setVitality(c, [...fifty[who], ...one[who]], FULL_VITALITY);
    }
    // Rotated each round, so no contender always runs right after another.
    for (let i = 0; i < timedHits.length; i += 1) {
      const { who, n } = timedHits[(i + round) % timedHits.length]!;
      // BENCH_PROFILE_ONE=1: profile only DefenseRound's 1-token hits (the fixed cost of a command).
      profileNow = PROFILE && !PROFILE_FIRST && round >= 20 && who === 'script' && (!PROFILE_ONE || n === 1);
      const sample = await hit(who, n === 50 ? fifty[who] : one[who]);
      if (sample.messages === 0) throw new Error(`long evening: ${who} said nothing for its hit on ${n}`);
      spans[`${who} ${n}`].push(sample.span);
    }
  }
  profileNow = false;
  const stored = c.mock.state.DefenseRound;
  return { first, spans, historyEntries: stored.history.length, stateBytes: JSON.stringify(stored).length, ms: performance.now() - t0 };
}

// ---------------------------------------------------------------------------------------------
// Statistics and printing.

const verdict = (ok: boolean) => (ok ? 'met' : '**missed**');

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function quantile(values: number[], q: number): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

const ms = (v: number, digits = 3) => (Number.isFinite(v) ? v.toFixed(digits) : 'n/a');
const x = (v: number) => (Number.isFinite(v) ? `${v.toFixed(2)}x` : 'n/a');
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;
const num = (v: number) => v.toLocaleString('en-US');

function table(head: string[], rows: string[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

class Results {
  private readonly samples = new Map<string, Sample[]>();
  add(key: string, sample: Sample): void {
    const list = this.samples.get(key) ?? [];
    list.push(sample);
    this.samples.set(key, list);
  }
  get(key: string): Sample[] {
    return this.samples.get(key) ?? [];
  }
  median(key: string, field: keyof Sample): number {
    return median(this.get(key).map((s) => s[field]));
  }
  max(key: string, field: keyof Sample): number {
    return Math.max(...this.get(key).map((s) => s[field]));
  }
}

// ---------------------------------------------------------------------------------------------

async function main(): Promise<void> {
  const started = performance.now();
  const source = readFileSync(BUNDLE, 'utf8');
  const log = (line: string) => process.stderr.write(`${line}\n`);

  if (process.env.BENCH_ONLY === 'evening') {
    const profiler = PROFILE ? await startProfiler() : undefined;
    const evening = await longEvening(source);
    profileNow = false;
    const breakdown = profiler ? await stopProfiler(profiler) : undefined;
    process.stdout.write(`${longEveningReport(evening, Buffer.byteLength(source)).join('\n')}\n${breakdown ?? ''}\n`);
    return;
  }
  log(`building the campaigns...`);
  const big = await openCampaign('10k', 10_000, 2_000, 11, source);
  const small = await openCampaign('1k', 1_000, 200, 12, source);
  log(`  10k: ${num(big.counts.graphics)} graphics, ${num(big.counts.characters)} characters, ${num(big.counts.attributes)} attributes in ${big.buildMs.toFixed(0)} ms`);
  log(`  1k: ${num(small.counts.graphics)} graphics, ${num(small.counts.characters)} characters, ${num(small.counts.attributes)} attributes in ${small.buildMs.toFixed(0)} ms`);

  // Cold: a fresh campaign and fresh scripts, the first COLD_ROUNDS rounds timed with no warm-up, as
  // after a sandbox restart (each script's code has no type feedback yet, V8 runs it unoptimised).
  const ids = (c: Campaign, n: number) => c.tokens.slice(0, n);
  log(`cold rounds...`);
  const coldTable = await openCampaign('cold', 1_000, 200, 13, source);
  setVitality(coldTable, ids(coldTable, 50), TIMED_VITALITY);
  const coldKinds: Kind[] = ['floor', ...EDITIONS];
  const coldSpans = new Map<Kind, number[]>(coldKinds.map((kind) => [kind, []]));
  for (let round = 0; round < COLD_ROUNDS; round += 1) {
    for (let i = 0; i < coldKinds.length; i += 1) {
      const kind = coldKinds[(i + round) % coldKinds.length]!;
      coldSpans.get(kind)!.push((await run(coldTable, kind, ids(coldTable, 50))).span);
    }
  }

  // Warm loads: the bundle into fresh demo tables, to time evaluation and start-up without the first compile.
  const warmLoads: number[] = [];
  const warmReady: number[] = [];
  for (let i = 0; i < 7; i += 1) {
    const mock = createRoll20({ seed: 100 + i });
    buildDemoScene(mock);
    const t0 = performance.now();
    loadBundleSource(mock, source, BUNDLE);
    const t1 = performance.now();
    mock.fireReady();
    await mock.settle();
    warmLoads.push(t1 - t0);
    warmReady.push(performance.now() - t1);
  }

  // The 50 timed tokens: 50 different characters. Cold: the first command on them fills each
  // script's attribute look-ups (one findObjs per character), once.
  for (const c of [big, small]) setVitality(c, ids(c, 50), TIMED_VITALITY);
  // 50 more tokens (50 other characters) at full Vitality: a hit that leaves them standing.
  const standing = big.tokens.slice(50, 100);
  const cold = { floor: await runFloor(big, ids(big, 50)), script: await runScript(big, FLOOR_EDITION, ids(big, 50)) };

  const results = new Results();
  const total = WARMUP + ROUNDS;
  const profiler = PROFILE ? await startProfiler() : undefined;
  for (let round = 0; round < total; round += 1) {
    profileNow = PROFILE && round >= WARMUP;
    // Rotate the order each round, so no contender always runs right after another.
    const order = KINDS.map((_, i) => KINDS[(i + round) % KINDS.length]!);
    const keep = round >= WARMUP;
    for (const n of SIZES) {
      for (const kind of order) {
        const sample = await run(big, kind, ids(big, n));
        if (keep) results.add(`10k ${kind} ${n}`, sample);
      }
    }
    for (const kind of order) {
      const sample = await run(big, kind, standing, FULL_VITALITY);
      if (keep) results.add(`10k ${kind} 50 standing`, sample);
    }
    for (const kind of order) {
      const sample = await run(small, kind, ids(small, 50));
      if (keep) results.add(`1k ${kind} 50`, sample);
    }
    if ((round + 1) % 50 === 0) log(`  round ${round + 1}/${total} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }

  profileNow = false;
  const breakdown = profiler ? await stopProfiler(profiler) : undefined;

  // An evening on the big campaign, as test/commands/budget.test.ts has it: 100 hits on 50
  // tokens, each followed by a heal (untimed), in every edition in turn; `state` after each.
  const evening: Array<{ edition: EditionId; bytes: number; maxMessages: number; maxWritesPerObject: number; history: number; tokens: number }> = [];
  const eveningIds = ids(big, EVENING_TOKENS);
  setVitality(big, eveningIds, FULL_VITALITY);
  const e0 = performance.now();
  for (const edition of EDITIONS) {
    await switchEdition(big, edition);
    let maxMessages = 0;
    let maxWritesPerObject = 0;
    for (let hit = 0; hit < EVENING_HITS; hit += 1) {
      const sample = await timed(big, big.script, HIT[edition]!, eveningIds);
      maxMessages = Math.max(maxMessages, sample.messages);
      maxWritesPerObject = Math.max(maxWritesPerObject, sample.maxWritesPerObject);
      await say(big, `!heal ${FULL_VITALITY}`, eveningIds);
    }
    const stored = big.mock.state.DefenseRound;
    evening.push({
      edition,
      bytes: JSON.stringify(stored).length,
      maxMessages,
      maxWritesPerObject,
      history: stored.history.length,
      tokens: Object.keys(stored.tokens).length,
    });
  }
  const eveningMs = performance.now() - e0;
  const stateBytes = JSON.stringify(big.mock.state.DefenseRound).length;

  // The long evening (issue 23): a campaign of its own in a process of its own, hits never undone. A
  // game's sandbox holds one table in one edition: the long evening starts from a fresh load, not
  // from a V8 that has run three editions on two other campaigns here.
  log(`a long evening (${LONG_ROUNDS} rounds, in a process of its own)...`);
  const longReport = eveningInItsOwnProcess();

  // ------------------------------------------------------------------- the report (stdout)
  const out: string[] = [];
  const say2 = (line = '') => out.push(line);
  const when = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  say2(`## DefenseRound benchmark, ${when}`);
  say2();
  say2(`Node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}; ${ROUNDS} interleaved rounds after ${WARMUP} warm-up rounds; medians.`);
  say2(`Campaign: ${num(big.counts.graphics)} graphics, ${num(big.counts.characters)} characters, ${num(big.counts.attributes)} attributes; the timed tokens are unlinked generic NPCs of 50 different characters, at ${TIMED_VITALITY}/${FULL_VITALITY} Vitality, so every hit drops them (condition, marker) and \`!damage --undo\` (untimed) puts them back.`);
  say2(`Every feature on: undo history, condition markers, an onDamage observer, HealthColors, cards. Commands: ${EDITIONS.map((e) => `${e} \`${HIT[e]}\``).join(', ')}; floor \`${FLOOR_HIT}\`.`);
  say2();
  say2('### `!damage`: time inside the handlers, against the floor');
  say2();
  const rows: string[][] = [];
  for (const n of SIZES) {
    const floorSpan = results.median(`10k floor ${n}`, 'span');
    const noopWall = results.median(`10k noop ${n}`, 'wall');
    const floorNet = results.median(`10k floor ${n}`, 'wall') - noopWall;
    rows.push([
      'floor', String(n), ms(floorSpan), '1.00x', ms(quantile(results.get(`10k floor ${n}`).map((s) => s.span), 0.9)),
      ms(floorNet), '1.00x',
      String(results.median(`10k floor ${n}`, 'messages')), String(results.median(`10k floor ${n}`, 'writes')), String(results.max(`10k floor ${n}`, 'maxWritesPerObject')), num(results.max(`10k floor ${n}`, 'objectsScanned')),
    ]);
    for (const e of EDITIONS) {
      const key = `10k ${e} ${n}`;
      const span = results.median(key, 'span');
      const net = results.median(key, 'wall') - noopWall;
      rows.push([
        e, String(n), ms(span), x(span / floorSpan), ms(quantile(results.get(key).map((s) => s.span), 0.9)),
        ms(net), x(net / floorNet),
        String(results.median(key, 'messages')), String(results.median(key, 'writes')), String(results.max(key, 'maxWritesPerObject')), num(results.max(key, 'objectsScanned')),
      ]);
    }
  }
  {
    const floorSpan = results.median('10k floor 50 standing', 'span');
    for (const kind of ['floor', ...EDITIONS] as const) {
      const key = `10k ${kind} 50 standing`;
      const span = results.median(key, 'span');
      const net = results.median(key, 'wall') - results.median('10k noop 50 standing', 'wall');
      const floorNet = results.median('10k floor 50 standing', 'wall') - results.median('10k noop 50 standing', 'wall');
      rows.push([
        `${kind}, left standing`, '50', ms(span), x(span / floorSpan), ms(quantile(results.get(key).map((s) => s.span), 0.9)),
        ms(net), x(net / floorNet),
        String(results.median(key, 'messages')), String(results.median(key, 'writes')), String(results.max(key, 'maxWritesPerObject')), num(results.max(key, 'objectsScanned')),
      ]);
    }
  }
  say2(
    table(
      ['command', 'tokens', 'in handlers, ms (median)', 'ratio to floor', 'p90 ms', 'chat+settle minus no-op, ms', 'ratio to floor', 'messages', 'Roll20 writes', 'most writes to one object', 'objects scanned'],
      rows,
    ),
  );
  say2();
  say2('Against the same floor written with the care the bundle takes (`FLOOR_LEAN_SOURCE`: the built-ins it calls per token read once at load), 50 tokens:');
  say2();
  {
    const leanRows: string[][] = [];
    const lean = results.median('10k floor-lean 50', 'span');
    const leanStanding = results.median('10k floor-lean 50 standing', 'span');
    leanRows.push(['floor, built-ins read once', ms(lean), x(lean / results.median('10k floor 50', 'span')), ms(leanStanding), x(leanStanding / results.median('10k floor 50 standing', 'span'))]);
    for (const e of EDITIONS) {
      const drop = results.median(`10k ${e} 50`, 'span');
      const stand = results.median(`10k ${e} 50 standing`, 'span');
      leanRows.push([e, ms(drop), x(drop / lean), ms(stand), x(stand / leanStanding)]);
    }
    say2(table(['command', 'hits that drop them, ms', 'ratio to the lean floor (its row: to the floor)', 'left standing, ms', 'ratio to the lean floor (its row: to the floor)'], leanRows));
  }
  say2();
  say2(`No-op command (\`${NOOP}\`, the mock's own cost of a command): ${SIZES.map((n) => `${n} token${n === 1 ? '' : 's'} ${ms(results.median(`10k noop ${n}`, 'wall'))} ms`).join(', ')}.`);
  say2(`First command on 50 cold tokens (each script looks up 50 characters' attributes once, ${num(cold.script.findObjs)} findObjs scanning ${num(cold.script.objectsScanned)} attribute objects in the mock; one sample): DefenseRound ${FLOOR_EDITION} ${ms(cold.script.span)} ms, floor ${ms(cold.floor.span)} ms.`);
  say2();

  say2(`### Cold: the first ${COLD_ROUNDS} commands after loading (50 tokens, no warm-up)`);
  say2();
  {
    // The first command of each looks up its 50 characters' attributes (one findObjs each): shown apart.
    const coldFloor = median(coldSpans.get('floor')!.slice(1));
    say2(
      table(
        ['command', 'first command, ms', `commands 2 to ${COLD_ROUNDS}, median ms`, 'ratio to floor'],
        coldKinds.map((kind) => {
          const spans = coldSpans.get(kind)!;
          const rest = median(spans.slice(1));
          return [kind, ms(spans[0]!), ms(rest), x(rest / coldFloor)];
        }),
      ),
    );
  }
  say2();

  say2('### Per-token cost against campaign size (50 tokens, time inside the handlers / 50)');
  say2();
  const flatRows: string[][] = [];
  for (const kind of ['floor', ...EDITIONS] as const) {
    const perBig = results.median(`10k ${kind} 50`, 'span') / 50;
    const perSmall = results.median(`1k ${kind} 50`, 'span') / 50;
    flatRows.push([kind, ms(perSmall * 1000, 1), ms(perBig * 1000, 1), x(perBig / perSmall)]);
  }
  say2(table(['command', `${num(small.counts.graphics)} graphics, µs/token`, `${num(big.counts.graphics)} graphics, µs/token`, '10k / 1k'], flatRows));
  say2();

  say2(`### \`state\` after an evening (${EVENING_HITS} hits on ${EVENING_TOKENS} tokens, a heal after each, per edition in turn)`);
  say2();
  say2(
    table(
      ['after', 'state (JSON)', 'undo entries kept', 'token records', 'most messages per hit', 'most writes to one object per hit'],
      evening.map((e) => [`${e.edition} evening`, kb(e.bytes), String(e.history), String(e.tokens), String(e.maxMessages), String(e.maxWritesPerObject)]),
    ),
  );
  say2();

  say2('### Bundle and start-up');
  say2();
  const bytes = Buffer.byteLength(source);
  say2(
    table(
      ['what', 'value'],
      [
        ['bundle size', `${num(bytes)} bytes (${kb(gzipSync(source).length)} gzipped)`],
        ['load (evaluate the script), first in the process, 10k campaign', `${ms(big.load.evaluateMs, 1)} ms`],
        ['start-up (`ready` to quiet), 10k campaign', `${ms(big.load.readyMs, 1)} ms`],
        ['load, warm (median of 7 fresh demo tables)', `${ms(median(warmLoads), 1)} ms`],
        ['start-up, warm (median of 7)', `${ms(median(warmReady), 1)} ms`],
        ['look-ups at start-up (findObjs / filterObjs / getAllObjs; objects scanned)', `${big.load.scans.findObjs} / ${big.load.scans.filterObjs} / ${big.load.scans.getAllObjs}; ${num(big.load.scans.objectsScanned)}`],
      ],
    ),
  );
  say2();

  // Targets.
  const worst50 = Math.max(...EDITIONS.map((e) => results.median(`10k ${e} 50`, 'span') / results.median(`10k floor 50`, 'span')));
  const worstStanding = Math.max(...EDITIONS.map((e) => results.median(`10k ${e} 50 standing`, 'span') / results.median(`10k floor 50 standing`, 'span')));
  const flatWorst = Math.max(...EDITIONS.map((e) => results.median(`10k ${e} 50`, 'span') / results.median(`1k ${e} 50`, 'span')));
  const scannedPerCommand = Math.max(...EDITIONS.flatMap((e) => SIZES.map((n) => results.max(`10k ${e} ${n}`, 'objectsScanned'))));
  const writesWorst = Math.max(...EDITIONS.flatMap((e) => SIZES.map((n) => results.max(`10k ${e} ${n}`, 'maxWritesPerObject'))), ...evening.map((e) => e.maxWritesPerObject));
  const stateWorst = Math.max(...evening.map((e) => e.bytes));
  say2(longReport.trimEnd());
  say2();
  say2('### Targets');
  say2();
  say2(
    table(
      ['target', 'measured', ''],
      [
        ['at most 2x the floor on 50 tokens, every feature on', `worst edition ${x(worst50)} (hits that drop them), ${x(worstStanding)} (left standing)`, verdict(Math.max(worst50, worstStanding) <= 2)],
        ['per-token cost flat within 25% from 1,000 to 10,000 graphics', `worst edition ${x(flatWorst)}`, verdict(flatWorst <= 1.25)],
        ['no campaign-wide scan at start-up', `${big.load.scans.findObjs + big.load.scans.filterObjs + big.load.scans.getAllObjs} look-ups`, verdict(big.load.scans.findObjs + big.load.scans.filterObjs + big.load.scans.getAllObjs === 0)],
        ['no campaign-wide scan per command (warm)', `${num(scannedPerCommand)} objects scanned at most`, verdict(scannedPerCommand === 0)],
        ['one `set` per object per hit', `at most ${writesWorst}`, verdict(writesWorst <= 1)],
        ['`state` under 100 KB after an evening', `${kb(stateWorst)} at most (${kb(stateBytes)} at the end)`, verdict(stateWorst < 100_000)],
      ],
    ),
  );
  say2();
  if (breakdown) {
    say2('### Where the time inside DefenseRound\'s timed commands goes (BENCH_PROFILE; times above are inflated by the profiler)');
    say2();
    say2(breakdown);
    say2();
  }
  say2(`Whole run: ${((performance.now() - started) / 1000).toFixed(0)} s (campaigns built in ${((big.buildMs + small.buildMs) / 1000).toFixed(1)} s; evening ${(eveningMs / 1000).toFixed(1)} s).`);
  process.stdout.write(`${out.join('\n')}\n`);
}

// ---------------------------------------------------------------------------------------------
// BENCH_PROFILE: V8's sampling profiler over the whole run, keeping only the samples that fall in
// a timed DefenseRound command; self time by function, and by where the code lives.

interface CpuProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: CpuProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The long evening's tables: per command the median and the 90th percentile, against the floor in the same rounds. */
function longEveningReport(e: LongEvening, bundleBytes: number): string[] {
  const out: string[] = [];
  const ratio = (a: number, b: number) => x(a / b);
  out.push(`### A long evening: ${LONG_ROUNDS} rounds, hits never undone (10,000 graphics; the undo history full and trimming, armor worn out, tokens down; heals, defenses, stances and hand edits between)`);
  out.push('');
  const rows: string[][] = [];
  for (const n of [50, 1] as const) {
    const [mine, job, floor] = EVENING_WHO.map((who) => e.spans[`${who} ${n}`]);
    for (const [label, q] of [['median', 0.5], ['90th percentile', 0.9]] as const) {
      const [m, j, f] = [mine!, job!, floor!].map((list) => quantile(list, q));
      rows.push([`\`${HIT[FLOOR_EDITION]}\` on ${n} token${n === 1 ? '' : 's'}, ${label}`, ms(m!), ms(j!), ratio(m!, j!), ms(f!), ratio(m!, f!)]);
    }
  }
  const [firstMine, firstJob, firstFloor] = EVENING_WHO.map((who) => median(e.first[who]));
  rows.push([`the first ${FIRST_COMMANDS} commands after loading (50 tokens), median`, ms(firstMine!), ms(firstJob!), ratio(firstMine!, firstJob!), ms(firstFloor!), ratio(firstMine!, firstFloor!)]);
  out.push(table(['command', 'DefenseRound ms', 'floor doing the job ms', 'ratio', 'one-line floor ms', 'ratio'], rows));
  out.push('');
  // How the 1-token command warms up over the evening: the median of each tenth of the rounds.
  const tenths = (list: number[]) => Array.from({ length: 10 }, (_, i) => list.slice(Math.floor((i * list.length) / 10), Math.floor(((i + 1) * list.length) / 10)));
  const jobTenths = tenths(e.spans['job 1']);
  const warm = tenths(e.spans['script 1']).map((part, i) => ratio(median(part), median(jobTenths[i]!)));
  out.push(`The 1-token hit against the floor doing the job, by tenths of the evening: ${warm.join(', ')}.`);
  out.push('');
  out.push(`After the evening: ${e.historyEntries} undo entries kept, \`state\` ${kb(e.stateBytes)}; the evening took ${(e.ms / 1000).toFixed(1)} s.`);
  out.push('');
  const r = (n: 50 | 1, q: number) => quantile(e.spans[`script ${n}`], q) / quantile(e.spans[`job ${n}`], q);
  const firstRatio = firstMine! / firstJob!;
  out.push(
    table(
      ['target (long evening, against the floor doing the job)', 'measured', ''],
      [
        ['50 tokens, median at most 1.5x the floor', x(r(50, 0.5)), verdict(r(50, 0.5) <= 1.5)],
        ['50 tokens, 90th percentile at most 2.5x', x(r(50, 0.9)), verdict(r(50, 0.9) <= 2.5)],
        ['1 token, median at most 3x', x(r(1, 0.5)), verdict(r(1, 0.5) <= 3)],
        [`the first ${FIRST_COMMANDS} commands at most 2.5x`, x(firstRatio), verdict(firstRatio <= 2.5)],
        ['`state` under 100 KB', kb(e.stateBytes), verdict(e.stateBytes < 100_000)],
        // The whole file's budget grows with the editions registered (test/support/budget.ts measures each part on its own).
        [`the bundle at most ${num(totalBudget(editionIds().length))} bytes (${editionIds().length} editions)`, `${num(bundleBytes)} bytes`, verdict(bundleBytes <= totalBudget(editionIds().length))],
      ],
    ),
  );
  return out;
}

/** `BENCH_ONLY=evening` in a fresh process (the same bundle and options), its Markdown report. */
function eveningInItsOwnProcess(): string {
  const run = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_ONLY: 'evening', BENCH_PROFILE: '' },
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  if (run.status !== 0) throw new Error(`the long evening failed: ${run.stderr}`);
  return run.stdout;
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolveIt, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolveIt(result as T))));
}

async function startProfiler(): Promise<Session> {
  const session = new Session();
  session.connect();
  await post(session, 'Profiler.enable');
  await post(session, 'Profiler.setSamplingInterval', { interval: 50 });
  await post(session, 'Profiler.start');
  return session;
}

async function stopProfiler(session: Session): Promise<string> {
  const { profile } = await post<{ profile: CpuProfile }>(session, 'Profiler.stop');
  session.disconnect();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const windows = profileWindows.map(([a, b]) => [Number(a / 1000n), Number(b / 1000n)] as const).sort((p, q) => p[0] - q[0]);
  const where = (url: string): string => {
    if (url.endsWith('defense-round.js')) return 'DefenseRound (bundle)';
    if (url.includes('/mocks/')) return 'the mock Roll20 (mocks/)';
    if (url.includes('/bench/')) return 'the benchmark (bench/)';
    if (url === '') return 'V8 / Node (GC, program, builtins)';
    return 'Node internals';
  };
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node: CpuProfileNode): string => {
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.split('/').pop() ?? url;
    // Line numbers only for the bundle (tsx's transpiled mocks report generated lines).
    return `${functionName || '(anonymous)'}${file ? ` ${file}${file.endsWith('.js') ? `:${lineNumber + 1}` : ''}` : ''}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const areas = new Map<string, number>();
  let inside = 0;
  let t = profile.startTime;
  let w = 0;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i] ?? 0;
    while (w < windows.length && windows[w]![1] < t) w += 1;
    if (w >= windows.length || windows[w]![0] > t) continue;
    const node = byId.get(profile.samples[i]!);
    if (!node) continue;
    inside += 1;
    const name = label(node);
    self.set(name, (self.get(name) ?? 0) + 1);
    areas.set(where(node.callFrame.url), (areas.get(where(node.callFrame.url)) ?? 0) + 1);
    // Inclusive time: every DefenseRound or mock function on the stack, once per sample.
    const onStack = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)!;
      const url = frame.callFrame.url;
      if (url.endsWith('defense-round.js') || url.includes('/mocks/')) onStack.add(label(frame));
    }
    for (const fn of onStack) total.set(fn, (total.get(fn) ?? 0) + 1);
  }
  const pct = (n: number) => `${((100 * n) / Math.max(1, inside)).toFixed(1)}%`;
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BENCH_TOP ?? 25));
  return [
    `${num(inside)} samples (50 µs apart) inside ${num(windows.length)} timed commands.`,
    '',
    table(['where', 'self time'], [...areas].sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, pct(v)])),
    '',
    table(['function (self time: its own code)', 'self time'], top.map(([k, v]) => [`\`${k}\``, pct(v)])),
    '',
    table(
      ['function of DefenseRound or of the mock (inclusive: with all it calls)', 'total time'],
      [...total].sort((a, b) => b[1] - a[1]).slice(0, Number(process.env.BENCH_TOP ?? 40)).map(([k, v]) => [`\`${k}\``, pct(v)]),
    ),
  ].join('\n');
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
