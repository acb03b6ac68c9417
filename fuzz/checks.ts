// The invariants the fuzzer checks after every step (the issue's list), each a small function that
// returns what it found wrong, in words. A snapshot of the table before and after the step is all
// they need: every bar, attribute, marker, remembered token value, initiative and the settings.
import type { ChatRecord, MockObject } from '../mocks/roll20';
import { flatText } from '../mocks/chat-text';
import { loadState } from '../src/state/store';
import { SCRIPT_VERSION } from '../src/version';
// The project's own reading of a stored value (rules.md, "Reading values"), not a copy of it.
import { readInteger } from '../src/rules/values';
import type { Command } from './generate';
import { controls, HIDDEN_NAME, isNpc, lists, PAYLOADS, type Actor, type InFlight, type World } from './world';

/** commands.md, "Undo, hardened" / Output: `state` stays small. */
export const STATE_BUDGET = 100_000;
const HISTORY_LIMIT = 50;
const PER_PLAYER_LIMIT = 10;
/** Each player's (and the hand edits') bytes, and the players' half of the history (src/commands/history.ts). */
const PER_PLAYER_BYTES = 15_000;
const PLAYERS_LIMIT = 25;
const PLAYERS_BYTES = 30_000;
const SAFE_INITIATIVE = 1e9;

export interface Snapshot {
  /** Every value the script may write, by place: `g:<graphic>:<prop>`, `a:<attribute>:current|max`, `s:<token>:worn.physical|worn.magical|overrides|mem`, `t:<token>:pr`, `settings`. */
  values: Map<string, unknown>;
  stateJson: string | undefined;
  /** The history entries as objects (the script keeps them; identity tells one that was pushed out). */
  history: unknown[];
  /** Vitality of each NPC (no player controls it), as integers, and the garbage its bars hold. */
  npcNumbers: Set<number>;
  npcGarbage: string[];
  /** Names as chat shows them: of tokens some player controls (PCs), of NPCs, and every name seen so far (longest first). */
  pcNames: string[];
  npcNames: string[];
  allNames: string[];
  visibilityNpc: unknown;
}

/** A name as chat shows it: line breaks become spaces, invisible and bidi characters go. */
export function shownName(name: string): string {
  return name.replace(/\r\n|[\r\n\u0085\u2028\u2029]/g, ' ').replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
}

function displayName(world: World, token: MockObject): string {
  return String(token.props.name ?? '') || String(world.character(token)?.props.name ?? '') || 'unnamed token';
}

export function snapshot(world: World): Snapshot {
  const values = new Map<string, unknown>();
  const stored = world.stored();
  const vitalityBar = typeof stored?.settings?.bars?.vitality === 'string' ? stored.settings.bars.vitality : 'bar1';
  const npcNumbers = new Set<number>();
  const npcGarbage: string[] = [];
  const pcNames: string[] = [];
  const npcNames: string[] = [];
  const allNames: string[] = [];
  for (const g of world.graphics()) {
    const p = g.props;
    for (const n of [1, 2, 3]) {
      values.set(`g:${g.id}:bar${n}_value`, p[`bar${n}_value`]);
      values.set(`g:${g.id}:bar${n}_max`, p[`bar${n}_max`]);
    }
    values.set(`g:${g.id}:statusmarkers`, p.statusmarkers);
    const name = shownName(displayName(world, g));
    allNames.push(name);
    if (isNpc(world, g)) {
      npcNames.push(name);
      const vitality = readInteger(p[`${vitalityBar}_value`]);
      if (vitality !== null) npcNumbers.add(vitality);
      for (const n of [1, 2, 3]) {
        const raw = p[`bar${n}_value`];
        if (typeof raw === 'string' && raw.includes('secret')) npcGarbage.push(raw);
      }
    } else {
      pcNames.push(name);
    }
  }
  for (const c of world.characters()) allNames.push(shownName(String(c.props.name ?? '')));
  for (const actor of world.actors) allNames.push(shownName(actor.displayname));
  // Names of tokens since deleted still appear in chat ("Skipped deleted tokens: ..."): every name ever seen counts.
  for (const name of allNames) world.namesSeen.add(name);
  allNames.length = 0;
  allNames.push(...world.namesSeen);
  for (const a of world.attributes()) {
    values.set(`a:${a.id}:current`, a.props.current);
    values.set(`a:${a.id}:max`, a.props.max);
  }
  let stateJson: string | undefined;
  let history: unknown[] = [];
  const raw = world.mock.state.DefenseRound;
  if (stored) {
    stateJson = JSON.stringify(raw);
    values.set('settings', JSON.stringify(stored.settings));
    for (const [id, record] of Object.entries<any>(stored.tokens ?? {})) rememberedValues(values, id, record);
    // Defenses made ahead, kept by the exchange beside the token records.
    for (const [id, answer] of Object.entries<any>(stored.exchange?.waiting ?? {})) values.set(`s:${id}:answer`, JSON.stringify(answer));
    if (Array.isArray(stored.history)) history = [...stored.history];
  } else if (raw !== undefined) {
    stateJson = JSON.stringify(raw);
  }
  for (const entry of world.mock.turnOrder()) {
    const key = `t:${typeof entry.id === 'string' ? entry.id : '?'}:pr`;
    if (typeof entry.id === 'string' && entry.id !== '-1' && !values.has(key)) values.set(key, entry.pr);
  }
  // Names longest first, so "Goblin 1" goes before "Goblin".
  allNames.sort((a, b) => b.length - a.length);
  return { values, stateJson, history, npcNumbers, npcGarbage, pcNames: pcNames.filter((n) => n !== ''), npcNames: npcNames.filter((n) => n !== ''), allNames: allNames.filter((n) => n !== ''), visibilityNpc: stored?.settings?.visibility?.npc };
}

/** What a step was, as the checks need to know it. */
export interface StepFacts {
  /** The sender of the step's chat command, if it was one (undefined: the table itself: hand edits, restarts, ...). */
  actor?: Actor;
  command?: Command;
  /** Values the fuzzer itself wrote in this step (a hand edit, an API edit): allowed anywhere they spread. */
  allowed: Set<unknown>;
  /** The sandbox restarted: `state` was read back from JSON (its objects are new). */
  restart?: boolean;
  /** Only the fuzzer wrote in this step (API edits fire no events): no write is the script's. */
  fuzzerOnly?: boolean;
  /** Keys the sender may touch, fixed at the step's start (players only). */
  mayTouch?: Touchable;
  /** players-target-any at the step's start. */
  anyTarget: boolean;
  /** Attacks that were open at the step's start, by key: their declarer and defenders (an attack that resolves writes its defenders). */
  openAttacks?: Map<string, { by: string; defenders: string[] }>;
  /** Of those, the ones no longer open after the step (resolved, or cancelled: nothing written then). */
  settledAttacks?: Array<{ by: string; defenders: string[] }>;
  /** The attributes of the settled attacks' defenders' characters. */
  defenderAttributes?: Set<string>;
  inFlight?: InFlight;
  /** The step was a hand edit of a bar: Roll20 says not whose, so its entries keep a quota of their own. */
  handEdit?: boolean;
  messages: ChatRecord[];
  logs: string[];
  /** The mock's warnings in this step: what a real Roll20 would get wrong silently (a write to a removed object, ...). */
  warnings: string[];
  crashes: string[];
  thrown?: string;
}

export interface Change {
  key: string;
  before: unknown;
  after: unknown;
}

/** Keys whose value differs. Objects created or removed in the step are not changes; a remembered value that appears or goes is. */
export function changes(before: Snapshot, after: Snapshot): Change[] {
  const out: Change[] = [];
  for (const [key, value] of after.values) {
    if (before.values.has(key)) {
      const old = before.values.get(key);
      if (!Object.is(old, value)) out.push({ key, before: old, after: value });
    } else if (key.startsWith('s:') || key === 'settings') {
      if (value !== undefined) out.push({ key, before: undefined, after: value });
    }
  }
  for (const [key, value] of before.values) {
    if ((key.startsWith('s:') || key === 'settings') && !after.values.has(key) && value !== undefined) out.push({ key, before: value, after: undefined });
  }
  return out;
}

const NUMERIC_KEY = /^(g:[^:]+:bar[123]_(value|max)|a:[^:]+:(current|max))$/;

/** No escaped exception: nothing reached the sandbox, the script's own error path was not needed, no call Roll20 would refuse. */
export function checkNoCrash(facts: StepFacts): string[] {
  const out: string[] = [];
  for (const crash of facts.crashes) out.push(`an exception escaped into the sandbox: ${crash}`);
  if (facts.thrown) out.push(`the step threw: ${facts.thrown}`);
  for (const line of facts.logs) if (/^DefenseRound v[^:]*: .* failed/.test(line)) out.push(`internal error logged: ${line.slice(0, 400)}`);
  for (const warning of facts.warnings) out.push(`Roll20 would get this wrong: ${warning}`);
  for (const record of facts.messages) {
    if (record.who === 'DefenseRound' && /internal error/.test(record.content)) out.push(`internal error whispered: ${record.content.slice(0, 200)}`);
  }
  return out;
}

/** commands.md, "Numbers written": every bar or attribute value the script wrote is a safe integer. */
export function checkNumbersWritten(found: readonly Change[], facts: StepFacts): string[] {
  const out: string[] = [];
  if (facts.fuzzerOnly) return out;
  for (const { key, before, after } of found) {
    if (facts.allowed.has(after)) continue;
    if (NUMERIC_KEY.test(key)) {
      if (typeof after !== 'number' || !Number.isSafeInteger(after)) out.push(`${key} written as ${describe(after)} (was ${describe(before)}): not a safe integer`);
    } else if (key.startsWith('t:')) {
      const pr = typeof after === 'string' ? Number(after) : after;
      if (typeof pr !== 'number' || !Number.isFinite(pr) || Math.abs(pr) > SAFE_INITIATIVE) out.push(`initiative ${key} written as ${describe(after)}`);
    } else if (key.includes(':worn.') && after !== undefined && !Number.isSafeInteger(after)) {
      out.push(`${key} kept as ${describe(after)}: not a safe integer`);
    }
  }
  return out;
}

/**
 * rules.md, "Reading values": a value that is not a number is never overwritten by arithmetic on it.
 * Only a forced undo by the GM (putting back what was there) and repair (armor to its max) may replace one.
 */
export function checkGarbageKept(found: readonly Change[], facts: StepFacts): string[] {
  const gm = facts.actor?.gm === true;
  const cmd = facts.command;
  if (facts.fuzzerOnly || (gm && cmd && ((cmd.kind === 'undo' && cmd.force) || (cmd.kind === 'admin' && cmd.sub === 'repair')))) return [];
  const out: string[] = [];
  for (const { key, before, after } of found) {
    if (!NUMERIC_KEY.test(key) || facts.allowed.has(after)) continue;
    if (readInteger(before) === null) out.push(`${key} held ${describe(before)}, not a number, and was overwritten with ${describe(after)}`);
  }
  return out;
}

/** Memo of the last state checked against the schema: the check runs only when state changed. */
export class StateChecker {
  private lastChecked: string | undefined;

  check(world: World, after: Snapshot): string[] {
    const raw = world.mock.state.DefenseRound;
    if (world.newerJson !== undefined) {
      const now = JSON.stringify(raw);
      return now === world.newerJson ? [] : [`a newer version's state was not left as it was: ${now?.slice(0, 200)}`];
    }
    const json = after.stateJson;
    if (json === undefined) return ['state.DefenseRound is missing'];
    const out: string[] = [];
    if (json.length > STATE_BUDGET) out.push(`state.DefenseRound is ${json.length} characters of JSON, over its ${STATE_BUDGET} budget`);
    if (json === this.lastChecked) return out;
    this.lastChecked = json;
    const parsed = JSON.parse(json);
    const { problems, newer } = loadState(structuredClone(parsed), SCRIPT_VERSION);
    if (newer !== undefined) out.push(`the script's own state claims schema ${newer}`);
    for (const problem of problems) {
      const at = /^history\[(\d+)\]/.exec(problem)?.[1];
      const entry = at !== undefined ? ` (the entry: ${JSON.stringify(parsed.history?.[Number(at)]).slice(0, 600)})` : '';
      out.push(`state fails its own check: ${problem}${entry}`);
    }
    const history = Array.isArray(parsed?.history) ? parsed.history : [];
    if (history.length > HISTORY_LIMIT) out.push(`history holds ${history.length} entries, over ${HISTORY_LIMIT}`);
    return out;
  }
}

/** commands.md, "Undo, hardened": no-ops are not kept; each player keeps at most 10 (10,000 bytes), all together half; a player never pushes out another's entry. */
export function checkHistory(world: World, before: Snapshot, facts: StepFacts): string[] {
  const out: string[] = [];
  const stored = world.stored();
  if (!stored || !Array.isArray(stored.history)) return out;
  const known = new Set(before.history);
  const perPlayer = new Map<string, number>();
  for (const entry of stored.history as any[]) {
    const by = String(entry?.by);
    const player = world.actors.find((a) => a.id === by && !a.gm);
    if (player) perPlayer.set(by, (perPlayer.get(by) ?? 0) + 1);
    if (!facts.restart && !known.has(entry) && !(Array.isArray(entry?.tokens) && entry.tokens.some((t: any) => Array.isArray(t?.changes) && t.changes.length > 0))) {
      out.push(`a history entry that changed nothing was recorded (by ${by})`);
    }
  }
  for (const [by, count] of perPlayer) if (count > PER_PLAYER_LIMIT) out.push(`player ${by} has ${count} history entries, over ${PER_PLAYER_LIMIT}`);
  const handEdits = (stored.history as any[]).filter((entry) => entry?.by === 'hand-edit').length;
  if (handEdits > PER_PLAYER_LIMIT) out.push(`${handEdits} hand-edit history entries, over ${PER_PLAYER_LIMIT}`);
  // In bytes too, and all of them together at most half: the GM side always keeps the other half.
  const quota = (stored.history as any[]).filter((entry) => entry?.by === 'hand-edit' || perPlayer.has(String(entry?.by)));
  const bytesOf = (by: string) => JSON.stringify(quota.filter((entry) => String(entry?.by) === by)).length;
  for (const by of [...perPlayer.keys(), 'hand-edit']) if (bytesOf(by) > PER_PLAYER_BYTES) out.push(`${by} holds ${bytesOf(by)} history bytes, over ${PER_PLAYER_BYTES}`);
  if (quota.length > PLAYERS_LIMIT || JSON.stringify(quota).length > PLAYERS_BYTES) out.push(`the players hold ${quota.length} history entries in ${JSON.stringify(quota).length} bytes, over half`);
  if (facts.handEdit && !facts.restart) {
    // A bar typed into (by anyone: Roll20 does not say) never pushes out anyone else's entries.
    const now = new Set(stored.history as unknown[]);
    for (const entry of before.history as any[]) {
      if (entry?.by !== 'hand-edit' && !now.has(entry)) out.push(`a hand edit pushed ${String(entry?.by)}'s history entry out`);
    }
  }
  const actor = facts.actor;
  if (actor && !actor.gm) {
    const now = new Set(stored.history as unknown[]);
    // An attack her answer settled is recorded as its declarer's: that entry makes room from its own owner's side.
    const declarers = new Set((facts.settledAttacks ?? []).map((attack) => attack.by));
    const gmSide = (by: string) => by === 'API' || world.actors.some((a) => a.gm && !a.api && a.id === by);
    const gmDeclared = [...declarers].some(gmSide);
    for (const entry of before.history as any[]) {
      const by = String(entry?.by);
      if (by === actor.id || now.has(entry) || declarers.has(by) || (gmDeclared && gmSide(by))) continue;
      out.push(`${actor.label}'s command pushed ${by}'s history entry out`);
    }
  }
  return out;
}

/**
 * What a player may touch, fixed at the step's start: tokens they control, the sheets behind them, and
 * an attribute a bar of theirs is linked to (with every bar linked to it: one value, commands.md).
 */
export type Touchable = ((key: string) => boolean) & { linked(key: string): boolean; linkOf(key: string): string | undefined };

export function touchable(world: World, actor: Actor): Touchable {
  const tokens = new Set<string>();
  const characters = new Set<string>();
  const links = new Map<string, string>();
  /** Attributes linked to a bar of a token the player controls: writing that bar writes them (one value). */
  const linkedToOwn = new Set<string>();
  for (const g of world.graphics()) {
    const own = controls(world, actor, g);
    if (own) {
      tokens.add(g.id);
      const character = world.character(g);
      if (character) characters.add(character.id);
    }
    for (const n of [1, 2, 3]) {
      const link = String(g.props[`bar${n}_link`] ?? '');
      if (!link) continue;
      links.set(`${g.id}:bar${n}`, link);
      if (own) linkedToOwn.add(link);
    }
  }
  for (const c of world.characters()) if (lists(c.props.controlledby, actor.id)) characters.add(c.id);
  const attributeOwner = new Map<string, string>();
  for (const a of world.attributes()) attributeOwner.set(a.id, String(a.props._characterid ?? ''));
  const attributeOk = (id: string) => linkedToOwn.has(id) || characters.has(attributeOwner.get(id) ?? '');
  const may = (key: string) => {
    const [kind, id = '', prop = ''] = key.split(':');
    if (kind === 'settings') return false;
    if (kind === 'a') return attributeOk(id);
    if (kind === 'g') {
      if (tokens.has(id)) return true;
      const bar = /^(bar[123])_/.exec(prop)?.[1];
      const link = bar ? links.get(`${id}:${bar}`) : undefined;
      return link !== undefined && attributeOk(link);
    }
    // A linked token's memory is its character's (`s:<character>:mem`): the character's tokens' controllers may change it.
    return tokens.has(id) || characters.has(id);
  };
  /** A token bar linked to an attribute: that attribute's own key holds the value (one value, written through it). */
  const linkOf = (key: string): string | undefined => {
    const [kind, id = '', prop = ''] = key.split(':');
    const bar = kind === 'g' ? /^(bar[123])_/.exec(prop)?.[1] : undefined;
    return bar === undefined ? undefined : links.get(`${id}:${bar}`);
  };
  const linked = (key: string) => linkOf(key) !== undefined;
  return Object.assign(may, { linked, linkOf });
}

/**
 * commands.md, "Targets and permissions" and "Undo, hardened": a player's step changes no setting and
 * nothing of a token they do not control (players-target-any lifts that for !damage; a guard or an aid
 * may change the named token's pending defense), and a player's undo changes only places that hold a
 * value that player left there (`leftBy`: the values each of their steps left in each place), so it
 * never overwrites a later change by anyone else.
 */
export function checkPlayer(found: readonly Change[], facts: StepFacts, leftBy: ReadonlyMap<string, readonly unknown[]> | undefined): string[] {
  const actor = facts.actor;
  const cmd = facts.command;
  if (!actor || actor.gm || !cmd || !facts.mayTouch) return [];
  const out: string[] = [];
  // The token a listener took away while the roll was out is checkInFlight's: its record going is not the sender's doing.
  const moved = facts.inFlight?.done ? facts.inFlight.tokenId : undefined;
  for (const change of found) {
    const { key } = change;
    if (moved !== undefined && (key.startsWith(`g:${moved}:`) || key.startsWith(`s:${moved}:`))) continue;
    if (key === 'settings') {
      out.push(`${actor.label} changed the settings: ${describe(change.before)} -> ${describe(change.after)}`);
      continue;
    }
    if (cmd.kind === 'admin' || cmd.kind === 'details') {
      out.push(`${actor.label}'s ${cmd.text.slice(0, 60)} changed ${key}: ${describe(change.before)} -> ${describe(change.after)}`);
      continue;
    }
    if (cmd.kind === 'undo') {
      // A linked bar follows its attribute, whose own change is checked: a token linked since shows the value put back.
      if (facts.mayTouch.linked(key)) continue;
      const memory = key.endsWith(':mem') || key.endsWith(':answer');
      const left = leftBy?.get(key);
      if (memory ? !(facts.mayTouch(key) || left) : !left) {
        out.push(`${actor.label}'s undo changed ${key}, which they never changed: ${describe(change.before)} -> ${describe(change.after)}`);
      } else if (!memory && !left!.some((value) => sameNumber(value, change.before))) {
        // Undo puts back what the player's own command found only if the place holds a value the player left there.
        out.push(`${actor.label}'s undo overwrote a later change of ${key} by someone else: it held ${describe(change.before)}, which ${actor.label} never left there (they left ${left!.map(describe).join(', ')}); now ${describe(change.after)}`);
      }
      continue;
    }
    if (facts.mayTouch(key)) continue;
    // An attack that resolved in this step writes its defenders, as its declarer (or the GM) let it.
    if ((cmd.kind === 'attack' || cmd.kind === 'answer') && settledWrites(facts, key)) continue;
    // Another token whose bar is linked to the same attribute as a defender's shows the value the hit wrote there (Roll20 links bars, not tokens).
    const link = facts.mayTouch.linkOf(key);
    if ((cmd.kind === 'attack' || cmd.kind === 'answer') && link !== undefined && settledWrites(facts, `a:${link}`)) continue;
    // players-target-any lifts control for !damage, but --defense-mode stays the controller's (the others are dropped);
    // a player's attack then settles as !damage would, answers made ahead included (commands.md, "!attack").
    if ((cmd.kind === 'damage' || cmd.kind === 'attack' || cmd.kind === 'answer') && facts.anyTarget && !cmd.defenseMode) continue;
    if (cmd.kind === 'defend' && cmd.named.some((id) => key === `s:${id}:mem` || key === `s:${id}:answer`)) continue;
    out.push(`${actor.label}'s ${cmd.text.slice(0, 80)} changed ${key} of a token they do not control: ${describe(change.before)} -> ${describe(change.after)}`);
  }
  return out;
}

/** The same value as the rules read it: identical, or the same whole number ("+7" and 7 are one number: rules.md, "Reading values"). */
function sameNumber(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  const x = readInteger(a);
  return x !== null && x === readInteger(b);
}

/** The readable text of a chat message: buttons by their label, entities decoded, template markup gone. */
export function readable(content: string): string {
  return flatText(content, { buttons: 'label' });
}

/** Messages the script sent that a player reads: public ones, and whispers to a player (not the GM). */
function toPlayers(world: World, messages: readonly ChatRecord[]): ChatRecord[] {
  const players = new Set(world.actors.filter((a) => !a.gm).map((a) => a.displayname.toLowerCase()));
  return messages.filter((r) => r.who === 'DefenseRound' && (r.whisperTo === undefined || players.has(r.whisperTo.toLowerCase())));
}

/**
 * commands.md, "Output" and "Undo, hardened": no NPC number in anything addressed to a player. A
 * conservative check: in each part of a message that names no player-controlled token, no NPC's
 * Vitality (before or after the step) appears, once names and the command's own numbers are taken out;
 * and no garbage an NPC's bar holds is echoed.
 */
export function checkNpcNumbers(world: World, before: Snapshot, after: Snapshot, facts: StepFacts): string[] {
  if (before.visibilityNpc !== 'gm' || after.visibilityNpc !== 'gm') return [];
  const commandNumbers = new Set((facts.command?.text.match(/-?\d+/g) ?? []).map(Number));
  const secrets = new Set([...before.npcNumbers, ...after.npcNumbers].filter((n) => !commandNumbers.has(n)));
  const garbage = [...before.npcGarbage, ...after.npcGarbage];
  const pcNames = [...new Set([...before.pcNames, ...after.pcNames])];
  const npcNames = [...new Set([...before.npcNames, ...after.npcNames])].filter((name) => !pcNames.includes(name));
  const names = [...new Set([...before.allNames, ...after.allNames])].sort((a, b) => b.length - a.length);
  const out: string[] = [];
  for (const record of toPlayers(world, facts.messages)) {
    const text = readable(record.content);
    if (/^\s*Help: /.test(text)) continue;
    // An answer's tail ("... failure. Waiting for Goblin 2." / "Attack A1 resolves.") is a sentence of names of its own.
    const body = text.replace(/Usage: .*$/s, '').replace(/\. (Waiting for |Attack [AG]\d)/g, ' / $1');
    const fields = body.split(' | ');
    const card = record.content.includes('{{name=');
    // A card's title names whose card it is: a PC's card may show any number, an NPC's none.
    if (card && pcNames.some((name) => fields[0]!.includes(name))) continue;
    const npcCard = card && npcNames.some((name) => fields[0]!.includes(name));
    // An attack's "Situation:" row is the rules' own words (+2 to hit, -20 to evade), no token's number.
    for (const part of fields.filter((field) => !field.startsWith('Situation: ')).flatMap((field) => field.split(/ \/ |; /))) {
      if (pcNames.some((name) => part.includes(name))) continue;
      if (!npcCard && !npcNames.some((name) => part.includes(name))) continue;
      if (garbage.some((g) => part.includes(g)) || part.includes('secret')) out.push(`an NPC's garbage bar value reached ${record.whisperTo ?? 'everyone'}: "${part.slice(0, 160)}"`);
      let bare = part;
      for (const name of names) if (bare.includes(name)) bare = bare.split(name).join(' ');
      bare = bare.replace(/\(\d+\)/g, ' ').replace(/\b\d+ tokens\b/g, ' ');
      for (const phrase of STATIC_PHRASES) bare = bare.replace(phrase, ' ');
      // Whole numbers standing alone: not the 1 of "bar1" or "1d20", not part of a decimal.
      for (const match of bare.matchAll(/(?<![\w.])-?\d+(?![\w.])/g)) {
        const n = Number(match[0]);
        if (secrets.has(n)) {
          out.push(`NPC number ${n} reached ${record.whisperTo ? `"${record.whisperTo}"` : 'everyone'}: "${part.slice(0, 200)}"`);
          break;
        }
      }
    }
  }
  return out;
}

/** The script's own words that hold a number (a rule, not a token's value). */
const STATIC_PHRASES = [/at or below 0/g];

/**
 * The hidden NPC is never named to a player by a player's step (commands.md, "Ids in flags"), unless
 * she controls it now: the GM layer hides a token from others, not from its controller.
 */
export function checkHidden(world: World, facts: StepFacts): string[] {
  const actor = facts.actor;
  if (!actor || actor.gm || facts.command?.kind === 'details') return [];
  const hidden = world.mock.globals.getObj('graphic', world.hiddenId) as unknown as MockObject | undefined;
  const controller = (name: string | undefined) => {
    const player = world.actors.find((candidate) => !candidate.gm && candidate.displayname.toLowerCase() === name?.toLowerCase());
    return player !== undefined && hidden !== undefined && controls(world, player, hidden);
  };
  return toPlayers(world, facts.messages)
    .filter((r) => readable(r.content).includes(HIDDEN_NAME) && !(r.whisperTo !== undefined && controller(r.whisperTo)))
    .map((r) => `${actor.label}'s ${facts.command?.text.slice(0, 60)} named the hidden token to ${r.whisperTo ?? 'everyone'}: ${readable(r.content).slice(0, 160)}`);
}

/** commands.md, "Output": errors and refusals go to the sender only; anything else to the GM or everyone. */
export function checkRecipients(facts: StepFacts, world?: World): string[] {
  const sender = facts.actor && !facts.actor.gm ? facts.actor.displayname.toLowerCase() : undefined;
  return facts.messages
    .filter((r) => r.who === 'DefenseRound' && r.whisperTo !== undefined && r.whisperTo !== 'gm' && r.whisperTo.toLowerCase() !== sender)
    .filter((r) => !(world && promptFor(world, facts, r)))
    .map((r) => `a whisper went to "${r.whisperTo}", who did not send the command: ${readable(r.content).slice(0, 120)}`);
}

/**
 * An attack's prompt, whispered to a player who controls one of its defenders (commands.md,
 * "!attack"); or an edition switch's line on the attacks it cancelled, to each player who declared
 * one of them or controls one of their defenders.
 */
function promptFor(world: World, facts: StepFacts, record: ChatRecord): boolean {
  const text = readable(record.content);
  const cancelled = /^Attacks? ((?:[AG]\d+(?:, )?)+) (?:is|are) cancelled: the GM switched editions\./.exec(text);
  if (cancelled) {
    const player = world.actors.find((actor) => !actor.gm && actor.displayname.toLowerCase() === record.whisperTo?.toLowerCase());
    return player !== undefined && cancelled[1]!.split(', ').every((key) => {
      const attack = facts.openAttacks?.get(key);
      return attack !== undefined && (attack.by === player.id || attack.defenders.some((id) => {
        const token = world.mock.globals.getObj('graphic', id) as unknown as MockObject | undefined;
        return token !== undefined && controls(world, player, token);
      }));
    });
  }
  const key = /Attack ([AG]\d+)/.exec(text)?.[1];
  if (key === undefined) return false;
  // An attack declared and settled in the same step is in neither state: its defenders are the declared ids.
  const declared = facts.command?.kind === 'attack' ? { defenders: (/--ids (.*?)(?: --|$)/.exec(facts.command.text)?.[1] ?? '').split(/[ ,]+/) } : undefined;
  const attack = world.stored()?.exchange?.attacks?.[key] ?? facts.openAttacks?.get(key) ?? declared;
  const player = world.actors.find((actor) => !actor.gm && actor.displayname.toLowerCase() === record.whisperTo?.toLowerCase());
  if (!attack || !player) return false;
  return (attack.defenders as string[]).some((id) => {
    const token = world.mock.globals.getObj('graphic', id) as unknown as MockObject | undefined;
    return token !== undefined && controls(world, player, token);
  });
}

const BUTTON = /\[([^\][]*)\]\((![^()]*)\)/g;
/** The one link that is not a command: the help handout in Roll20's journal, by its id. */
const HANDOUT_LINK = /\[[^\][]*\]\(http:\/\/journal\.roll20\.net\/handout\/[-\w]+\)/g;
const SAFE_COMMAND = /^![a-z-]+( (?:[-\w.?{}|,]|&#9[13];)+)*$/i;

/** The body of a message as the script wrote it, without the `/w target ` prefix. */
export function bodyOf(raw: string): string {
  const prefix = /^\/w (?:"[^"]*"|\S+) /.exec(raw);
  return prefix ? raw.slice(prefix[0].length) : raw;
}

/**
 * commands.md, "Output": nothing the game supplied reaches chat unescaped. Outside the script's own
 * template fields, `<br>` and buttons, no `<`, `>`, brackets, braces, line breaks or bidi overrides remain,
 * and no payload the fuzzer planted appears anywhere.
 */
export function checkEscaping(facts: StepFacts): string[] {
  const out: string[] = [];
  for (const record of facts.messages) {
    if (record.who !== 'DefenseRound') continue;
    const body = bodyOf(record.raw);
    for (const payload of PAYLOADS) if (body.includes(payload)) out.push(`payload ${JSON.stringify(payload)} reached chat: ${JSON.stringify(body.slice(0, 200))}`);
    let rest = body.replace(/^&\{template:default\} /, '');
    rest = rest.replace(BUTTON, (_all, _label: string, command: string) => {
      if (!SAFE_COMMAND.test(command)) out.push(`a button runs ${JSON.stringify(command)}`);
      return ' ';
    });
    rest = rest.replace(HANDOUT_LINK, ' ');
    rest = rest.replace(/\{\{[^{}=]*=/g, ' ').replace(/\}\}/g, ' ').replace(/<br>/g, ' ');
    const bad = /[<>[\]{}\r\n\u0085\u2028\u2029\u0000\u202a-\u202e\u2066-\u2069]/.exec(rest);
    if (bad) out.push(`raw ${JSON.stringify(bad[0])} in chat outside the script's markup: ${JSON.stringify(body.slice(0, 240))}`);
  }
  return out;
}

/** Issue 30, item 8: a line the table reads names no value that did not change ("Vitality 70 -> 70"). */
export function checkSameFromTo(facts: StepFacts): string[] {
  const out: string[] = [];
  for (const record of facts.messages) {
    if (record.who !== 'DefenseRound') continue;
    const text = flatText(record.content);
    const same = /(?<![\w.-])(-?\d+) -> \1(?![\w.])/.exec(text);
    if (same) out.push(`"${same[0]}" (a value that did not change) in chat: ${JSON.stringify(text.slice(0, 240))}`);
  }
  return out;
}

/**
 * commands.md, "Rolls that come back late": a token gone (or no longer the sender's) while the roll was
 * out gets nothing: none of its values, nor what the script remembers of it, changes after the listener acted.
 */
export function checkInFlight(before: Snapshot, after: Snapshot, facts: StepFacts): string[] {
  const flight = facts.inFlight;
  if (!flight || !flight.done) return [];
  const out: string[] = [];
  const prefixes = [`g:${flight.tokenId}:`, `s:${flight.tokenId}:`];
  const then = flight.seen ?? before.values;
  for (const [key, value] of after.values) {
    if (!prefixes.some((p) => key.startsWith(p))) continue;
    const old = then.get(key);
    if (Object.is(old, value)) continue;
    // A bar linked to its character's attribute shows what another target of the same sheet was given (Roll20 links bars to the sheet, and a script's write reaches them later).
    const link = facts.mayTouch?.linkOf(key);
    if (link !== undefined && (facts.command?.selected ?? []).some((id) => id !== flight.tokenId && [1, 2, 3].some((n) => facts.mayTouch?.linkOf(`g:${id}:bar${n}_value`) === link))) continue;
    out.push(`${flight.action} while the roll was out, yet ${key} changed after: ${describe(old)} -> ${describe(value)}`);
  }
  return out;
}

/** A roll flag's value that is a roll of dice: one inline roll of NdS (S at least 2) with modifiers and whole-number terms. */
const DIE_ROLL = /^\[\[\s*(\d*)d(\d+)(?:[kd][hl]?\d+|!{1,2}p?|r[<>=]?\d+|ro[<>=]?\d+|c[sf][<>=]?\d+)*\s*(?:[+-]\s*\d+\s*)*\]\]$/i;
const ROLL_FLAG = /--(roll|perception-roll|mental-roll|react-roll|defense-roll)\s+(\S+)/g;

/**
 * A player's die given as a number, or as a number in brackets ([[1]], [[1d1*20]]), is marked
 * "typed, not rolled" on what the command applied: a player never picks her own die unseen.
 */
export function checkTypedRolls(found: readonly Change[], facts: StepFacts): string[] {
  const cmd = facts.command;
  const actor = facts.actor;
  if (!cmd || !actor || actor.gm || (cmd.kind !== 'defend' && cmd.kind !== 'damage')) return [];
  const typed = [...cmd.text.matchAll(ROLL_FLAG)].filter((match) => {
    const die = DIE_ROLL.exec(match[2]!);
    return !die || (die[1] !== '' && Number(die[1]) < 1) || Number(die[2]) < 2;
  });
  if (typed.length === 0 || found.length === 0) return [];
  if (facts.messages.some((record) => record.who === 'DefenseRound' && record.content.includes('typed, not rolled'))) return [];
  // Only when something it rolled for was applied: a check made (a pending defense kept) or a hit landed.
  const carded = facts.messages.some((record) => record.who === 'DefenseRound' && record.content.includes('{{name='));
  const applied = carded && found.some(({ key }) => key.startsWith('s:') || key.startsWith('g:'));
  return applied ? [`${actor.label}'s ${typed.map((m) => `--${m[1]} ${m[2]}`).join(', ')} changed the table, and no card said the roll was typed`] : [];
}

/** One token's values as snapshot() keys them: its bars and markers, and what the script remembers of it. */
export function tokenValues(world: World, tokenId: string): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const token = world.mock.globals.getObj('graphic', tokenId) as unknown as MockObject | undefined;
  if (token) {
    for (const n of [1, 2, 3]) {
      values.set(`g:${tokenId}:bar${n}_value`, token.props[`bar${n}_value`]);
      values.set(`g:${tokenId}:bar${n}_max`, token.props[`bar${n}_max`]);
    }
    values.set(`g:${tokenId}:statusmarkers`, token.props.statusmarkers);
  }
  const record = world.stored()?.tokens?.[tokenId];
  if (record !== undefined) rememberedValues(values, tokenId, record);
  const answer = world.stored()?.exchange?.waiting?.[tokenId];
  if (answer !== undefined) values.set(`s:${tokenId}:answer`, JSON.stringify(answer));
  return values;
}

// Only what the record holds: a field it lacks reads the same as a record that is gone (undefined),
// so forgetting an empty record is no change.
function rememberedValues(values: Map<string, unknown>, id: string, record: any): void {
  if (record?.worn?.physical !== undefined) values.set(`s:${id}:worn.physical`, record.worn.physical);
  if (record?.worn?.magical !== undefined) values.set(`s:${id}:worn.magical`, record.worn.magical);
  if (record?.overrides !== undefined) values.set(`s:${id}:overrides`, JSON.stringify(record.overrides));
  if (record?.edition !== undefined || record?.stance !== undefined || record?.deadForGood !== undefined) {
    values.set(`s:${id}:mem`, JSON.stringify([record?.edition, record?.stance, record?.deadForGood]));
  }
}

export function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  return String(value);
}

/** A change an attack settled in this step may make: to a defender of it, its character's attributes, its memory or its row. */
function settledWrites(facts: StepFacts, key: string): boolean {
  const defenders = new Set((facts.settledAttacks ?? []).flatMap((attack) => attack.defenders));
  if (defenders.size === 0) return false;
  const [, id = ''] = key.split(':');
  if (defenders.has(id)) return true;
  // A linked bar or a unique token's worn armor lives on the sheet: an attribute of a defender's character.
  if (key.startsWith('a:')) return facts.defenderAttributes?.has(id) ?? false;
  // A linked defender's memory lives under its character's id.
  return key === `s:${id}:mem` && (facts.defenderAttributes?.has(`character:${id}`) ?? false);
}

/**
 * commands.md, "!attack": an answer on file (a defense made ahead) comes only from `!defend`; an
 * attack's answer is read by its hit and never filed, so no other step (an answer, a resolve, an
 * undo) leaves one that no `!defend` made. `filed` holds every answer a `!defend` (or a restart's
 * tampered state) put on file in this table, as `token|edition|answer`.
 */
export function checkAnswers(world: World, facts: StepFacts, filed: Set<string>): string[] {
  const waiting = world.stored()?.exchange?.waiting;
  if (!waiting || typeof waiting !== 'object') return [];
  const makes = facts.restart === true || (facts.command?.kind === 'defend' && !/--answer/i.test(facts.command.text));
  const out: string[] = [];
  for (const [tokenId, box] of Object.entries<any>(waiting)) {
    const key = `${tokenId}|${String(box?.edition)}|${JSON.stringify(box?.answer)}`;
    if (makes) filed.add(key);
    else if (!filed.has(key)) out.push(`an answer on file that no !defend made: ${key.slice(0, 120)}`);
  }
  return out;
}
