// One fight on the demo table: the mock Roll20, the shipped script loaded into it, and the steps
// taken (chat lines, hand edits, sheet edits, next turn), each recorded so the fight can be
// shared and replayed. No DOM here: the page draws what this module reports, and the node tests
// drive it directly.
import { createRoll20, type ChatRecord, type MockObject, type MockRoll20 } from '../../mocks/roll20.js';
import { buildDemoScene, type DemoScene } from '../../mocks/scene.js';
import { controllersOf, numbersHiddenFrom, whyNotSelectable } from '../../mocks/table-view.js';
import { WORN } from '../../mocks/sample-table.js';
import { loadScript } from './sandbox.js';
import { addStep, BAR_KEYS, emptySpec, emptyTally, liveBoundText, overBound, type BarKey, type FightSpec, type Step } from './share.js';
import { DEFAULT_EDITION, editionOf, isEditionId, playableEditions } from '../../src/rules/editions.js';
import { VALUE_KEYS, type EditionId, type ValueKey } from '../../src/rules/edition.js';

export type Entry =
  | { kind: 'chat'; id: number; record: ChatRecord }
  | { kind: 'crash'; id: number; event: string; message: string; stack: string }
  | { kind: 'notice'; id: number; source: 'warning' | 'log' | 'playground'; text: string };

/** The editions the page offers: every one the registry says the GM may switch to. */
export const EDITIONS: readonly EditionId[] = playableEditions();
export type Edition = EditionId;

export const RESOURCES = ['vitality', 'soul', 'power'] as const;
export type Resource = (typeof RESOURCES)[number];
const RESOURCE_LABEL: Record<Resource, string> = { vitality: 'Vitality', soul: 'Soul', power: 'Power' };

export interface BarView {
  resource: Resource;
  label: string;
  bar: 'bar1' | 'bar2' | 'bar3';
  value: string;
  max: string;
}

export interface SheetValue {
  /** The settings' key (armor_physical), the sheet's attribute name, and a label. */
  key: string;
  attribute: string;
  label: string;
  current: string;
  /** Shown as current/max when the rule reads a max (undamaged armor). */
  max?: string;
  hasMax: boolean;
  /** The token's own value, not the sheet's: a generic token's worn armor, or one set with !defense-round set. */
  own?: 'worn' | 'set';
}

export interface TokenView {
  id: string;
  name: string;
  /** The script keeps its numbers from the viewer (an NPC's, for a player): no bars, no sheet values. */
  numbersHidden: boolean;
  /** "Alice's PC", "NPC", "object". */
  owner: string;
  character?: string;
  bars: BarView[];
  markers: Array<{ name: string; meaning?: string }>;
  sheet: SheetValue[];
  selected: boolean;
  onTurn: boolean;
  /** Where the map draws it: Roll20's left/top are the token's centre, in pixels (70 a grid square). */
  left: number;
  top: number;
  width: number;
  height: number;
  /** Roll20's layer: "objects" (the token layer), "gmlayer" (hidden from players), "map". */
  layer: string;
}

export interface TurnView {
  id: string;
  name: string;
  pr: string;
  current: boolean;
}

/** The values that wear (a protection): shown as current/max, the max being the undamaged armor. */
export { WORN };

/**
 * The sheet values an edition's card shows, by the settings' attribute key, in the edition's words
 * (its sample's sheet); an edition without one shows every value the sheet holds, by its key.
 */
function sheetKeys(edition: Edition, has: (key: ValueKey) => boolean): Array<{ key: ValueKey; label: string }> {
  const named = editionOf(edition).table.sample?.sheet;
  if (named) return (Object.entries(named) as Array<[ValueKey, string]>).map(([key, label]) => ({ key, label }));
  return VALUE_KEYS.filter(has).map((key) => ({ key, label: key }));
}

export interface Settings {
  edition: Edition;
  bars: Record<string, string>;
  attributes: Record<string, string>;
  markers: Record<string, string>;
}

const DEFAULT_SETTINGS: Settings = {
  edition: DEFAULT_EDITION,
  bars: { vitality: 'bar1', soul: 'bar2', power: 'bar3' },
  attributes: {},
  markers: {},
};

export class Fight {
  readonly mock: MockRoll20;
  readonly scene: DemoScene;
  readonly entries: Entry[] = [];
  readonly steps: Step[] = [];
  /** The script's export (its version and API), when it loaded. */
  exported: unknown;
  speaker = 'GM';
  /** Each speaker's own selection, by name then token ids: Roll20 keeps one per player. */
  private readonly selections = new Map<string, string[]>();
  private nextEntry = 1;
  /** What the steps taken have used of a share link's bounds. */
  private used = emptyTally();
  private logCursor = 0;
  private warningCursor = 0;

  private constructor(readonly source: string, readonly seed: number) {
    this.mock = createRoll20({ seed });
    this.scene = buildDemoScene(this.mock);
  }

  /** A fresh demo table with the script loaded and ready, then the spec's steps replayed. */
  static async start(source: string, spec: FightSpec = emptySpec()): Promise<Fight> {
    const fight = new Fight(source, spec.seed);
    await fight.guard(async () => {
      fight.exported = loadScript(fight.mock, source).exported;
      fight.mock.assertNoCrash();
      fight.mock.fireReady();
      await fight.mock.settle();
    });
    fight.collect();
    for (const step of spec.steps) await fight.apply(step);
    if (spec.as !== undefined && fight.playerNames().includes(spec.as)) fight.speaker = spec.as;
    if (spec.sel) fight.selection = spec.sel.map((name) => fight.tokenNamed(name)?.id).filter((id): id is string => id !== undefined);
    return fight;
  }

  /** The current speaker's selected tokens, by id. */
  get selection(): string[] {
    return this.selections.get(this.speaker) ?? [];
  }

  set selection(ids: string[]) {
    this.selections.set(this.speaker, ids);
  }

  /** The fight so far, as a link carries it (the selection: the current speaker's). */
  spec(): FightSpec {
    const spec: FightSpec = { v: 1, scene: 'demo', seed: this.seed, steps: [...this.steps] };
    if (this.speaker !== 'GM') spec.as = this.speaker;
    const sel = this.selectionNames();
    if (sel.length > 0) spec.sel = sel;
    return spec;
  }

  // ---- steps ---------------------------------------------------------------------------------

  /** Runs one step and records it; a step that cannot run is reported and not recorded. */
  async apply(step: Step): Promise<boolean> {
    // A share link's bounds hold for every fight, so whatever is played can be shared and replayed.
    const over = overBound(step, this.used);
    const problem = this.check(step) ?? (over ? liveBoundText(over) : undefined);
    if (problem !== undefined) {
      this.notice('playground', problem);
      return false;
    }
    this.steps.push(step);
    this.used = addStep(this.used, step);
    await this.guard(() => this.run(step));
    this.collect();
    return true;
  }

  /** The current speaker says a line with the current selection (the chat box, a button). */
  say(line: string): Promise<boolean> {
    return this.apply({ k: 'say', as: this.speaker, sel: this.selectionNames(), line: this.substitute(line) });
  }

  nextTurn(): Promise<boolean> {
    return this.apply({ k: 'next' });
  }

  /** The GM types into a token's bar bubbles. */
  editBars(token: string, set: Partial<Record<BarKey, string>>): Promise<boolean> {
    return this.apply({ k: 'edit', token, set: set as Record<BarKey, string> });
  }

  /** The GM edits a value on a character sheet (created when the sheet lacks it). */
  editSheet(char: string, attr: string, current?: string, max?: string): Promise<boolean> {
    const step: Step = { k: 'sheet', char, attr };
    if (current !== undefined) step.current = current;
    if (max !== undefined) step.max = max;
    return this.apply(step);
  }

  /** The GM switches the edition, as the settings menu does. */
  switchEdition(edition: Edition): Promise<boolean> {
    return this.apply({ k: 'say', as: 'GM', sel: this.selectionNames(), line: `!defense-round config edition ${edition}` });
  }

  private check(step: Step): string | undefined {
    switch (step.k) {
      case 'say': {
        if (!this.playerNames().includes(step.as)) return `no player named "${step.as}"`;
        const missing = step.sel.find((name) => this.tokenNamed(name) === undefined);
        if (missing !== undefined) return `no token named "${missing}" to select`;
        // As in Roll20: a player's selection holds only tokens she controls.
        for (const name of step.sel) {
          const why = this.whyNotSelectable(step.as, this.tokenNamed(name)!.id);
          if (why !== undefined) return why;
        }
        return undefined;
      }
      case 'edit':
        if (!this.tokenNamed(step.token)) return `no token named "${step.token}"`;
        if (Object.keys(step.set).some((key) => !(BAR_KEYS as readonly string[]).includes(key))) return 'only bars can be edited by hand';
        return undefined;
      case 'sheet':
        if (!this.characterNamed(step.char)) return `no character named "${step.char}"`;
        if (step.current === undefined && step.max === undefined) return 'a sheet edit changes current or max';
        return undefined;
      case 'next':
        return undefined;
    }
  }

  private async run(step: Step): Promise<void> {
    switch (step.k) {
      case 'say': {
        const player = this.mock.player(step.as);
        const selected = step.sel.map((name) => this.tokenNamed(name)!.id);
        await this.mock.chat(player.id, step.line, { selected });
        return;
      }
      case 'edit':
        this.mock.userEdit(this.tokenNamed(step.token)!, { ...step.set });
        await this.mock.settle();
        return;
      case 'sheet': {
        const character = this.characterNamed(step.char)!;
        const props: Record<string, string> = {};
        if (step.current !== undefined) props.current = step.current;
        if (step.max !== undefined) props.max = step.max;
        const attribute = this.attributeOf(character.id, step.attr);
        if (attribute) this.mock.userEdit(attribute, props);
        else this.mock.userCreate('attribute', { characterid: character.id, name: step.attr, current: '', max: '', ...props });
        await this.mock.settle();
        return;
      }
      case 'next':
        this.mock.nextTurn();
        await this.mock.settle();
        return;
    }
  }

  /** Roll20 fills @{selected|...} from the speaker's selection before the line is sent. */
  substitute(line: string): string {
    const first = this.selection.map((id) => this.tokenById(id)).find((t) => t !== undefined);
    if (!first) return line;
    return line.replace(/@\{selected\|(token_id|token_name)\}/g, (_all, what: string) =>
      what === 'token_id' ? first.id : String(first.get('name')),
    );
  }

  // ---- what happened ---------------------------------------------------------------------------

  /** Runs an action; a sandbox crash or a thrown error becomes an entry, never an exception. */
  private async guard(action: () => Promise<void>): Promise<void> {
    try {
      await action();
    } catch (error) {
      if (this.mock.crashes.length === 0) this.notice('playground', `error: ${error instanceof Error ? error.message : String(error)}`);
    }
    for (const crash of this.mock.takeCrashes()) {
      this.entries.push({ kind: 'crash', id: this.nextEntry++, event: crash.event, message: crash.message, stack: crash.stack });
    }
  }

  /** New chat messages, API log lines and mock warnings become entries, in that order. */
  private collect(): void {
    for (const record of this.mock.newMessages()) this.entries.push({ kind: 'chat', id: this.nextEntry++, record });
    for (const line of this.mock.logs.slice(this.logCursor)) this.notice('log', line);
    this.logCursor = this.mock.logs.length;
    for (const line of this.mock.warnings.slice(this.warningCursor)) this.notice('warning', line);
    this.warningCursor = this.mock.warnings.length;
  }

  private notice(source: 'warning' | 'log' | 'playground', text: string): void {
    this.entries.push({ kind: 'notice', id: this.nextEntry++, source, text });
  }

  // ---- the table, read ---------------------------------------------------------------------------

  settings(): Settings {
    const stored = (this.mock.state.DefenseRound as { settings?: Partial<Settings> } | undefined)?.settings;
    const edition = isEditionId(stored?.edition) ? stored.edition : DEFAULT_SETTINGS.edition;
    return {
      edition,
      bars: { ...DEFAULT_SETTINGS.bars, ...(stored?.bars ?? {}) },
      attributes: { ...(stored?.attributes ?? {}) },
      markers: { ...(stored?.markers ?? {}) },
    };
  }

  edition(): Edition {
    return this.settings().edition;
  }

  /** The script's version, from its export or its state. */
  version(): string {
    const exported = this.exported as { version?: unknown } | undefined;
    if (typeof exported?.version === 'string') return exported.version;
    const stored = (this.mock.state.DefenseRound as { scriptVersion?: unknown } | undefined)?.scriptVersion;
    return typeof stored === 'string' ? stored : '?';
  }

  playerNames(): string[] {
    return this.players().map((p) => String(p.get('_displayname')));
  }

  isGM(name: string): boolean {
    const player = this.players().find((p) => String(p.get('_displayname')) === name);
    return player !== undefined && this.mock.globals.playerIsGM(player.id);
  }

  /** The tokens as one player sees them (the current speaker by default): an NPC's numbers hidden where the script hides them from her. */
  tokens(viewer = this.speaker): TokenView[] {
    const settings = this.settings();
    const viewerId = this.playerId(viewer);
    const turn = this.mock.turnOrder()[0]?.id;
    const barOf = (resource: Resource) => settings.bars[resource];
    const meaningOf = new Map(Object.entries(settings.markers).map(([meaning, marker]) => [marker, meaning]));
    return this.tokenObjects().map((token) => {
      const characterId = String(token.get('represents') ?? '');
      const character = characterId ? this.mock.globals.getObj('character', characterId) : undefined;
      const bars: BarView[] = [];
      for (const resource of RESOURCES) {
        const bar = barOf(resource);
        if (bar !== 'bar1' && bar !== 'bar2' && bar !== 'bar3') continue;
        bars.push({ resource, label: RESOURCE_LABEL[resource], bar, value: text(token.get(`${bar}_value`)), max: text(token.get(`${bar}_max`)) });
      }
      const markers = String(token.get('statusmarkers') ?? '')
        .split(',')
        .filter((m) => m !== '')
        .map((m) => {
          const name = m.replace(/@\d+$/, '');
          const meaning = meaningOf.get(name);
          return meaning === undefined ? { name: m } : { name: m, meaning };
        });
      const numbersHidden = viewerId !== undefined && numbersHiddenFrom(this.mock, viewerId, token);
      const sheet = character && !numbersHidden ? this.sheetOf(characterId, settings, token.id) : [];
      return {
        id: token.id,
        name: String(token.get('name')),
        numbersHidden,
        owner: this.ownerOf(token, character),
        ...(character ? { character: String(character.get('name')) } : {}),
        bars: numbersHidden ? [] : bars,
        markers,
        sheet,
        selected: this.selection.includes(token.id),
        onTurn: token.id === turn,
        left: numberOr(token.get('left'), 0),
        top: numberOr(token.get('top'), 0),
        width: numberOr(token.get('width'), 70),
        height: numberOr(token.get('height'), 70),
        layer: String(token.get('layer') || 'objects'),
      };
    });
  }

  turnOrder(): TurnView[] {
    return this.mock.turnOrder().map((entry, i) => {
      const token = entry.id === '-1' ? undefined : this.tokenById(entry.id);
      return {
        id: entry.id,
        name: token ? String(token.get('name')) : entry.custom || '(unknown token)',
        pr: text(entry.pr),
        current: i === 0,
      };
    });
  }

  /**
   * What the token has now: the sheet's values, but a generic token's own worn armor (kept by the
   * script per token) and a value set for the token alone (`!defense-round set`) in their place.
   */
  private sheetOf(characterId: string, settings: Settings, tokenId: string): SheetValue[] {
    const record = this.scriptRecord(tokenId);
    const attributeOf = (key: string) => this.attributeOf(characterId, settings.attributes[key] ?? key);
    return sheetKeys(settings.edition, (key) => attributeOf(key) !== undefined).map(({ key, label }) => {
      const attribute = settings.attributes[key] ?? key;
      const attr = attributeOf(key);
      const max = WORN.has(key);
      const value: SheetValue = { key, attribute, label, current: text(attr?.get('current')), hasMax: max };
      if (max) value.max = text(attr?.get('max'));
      const track = key === 'armor_physical' ? 'physical' : key === 'armor_magical' ? 'magical' : undefined;
      const worn = track === undefined ? undefined : record?.worn?.[track];
      const set = record?.overrides?.[key];
      if (typeof set === 'number') Object.assign(value, { current: String(set), own: 'set' });
      else if (typeof worn === 'number') Object.assign(value, { current: String(worn), own: 'worn' });
      return value;
    });
  }

  /**
   * The character whose sheet this player may open from the token's card (undefined: none): the
   * token represents a character, and she is the GM or the character's controlledby lists her (or
   * everyone), as Roll20 lets her edit its sheet. A player never opens an NPC's.
   */
  sheetFor(player: string, tokenId: string): string | undefined {
    const token = this.tokenById(tokenId);
    const characterId = String(token?.get('represents') ?? '');
    const character = characterId === '' ? undefined : (this.mock.globals.getObj('character', characterId) as unknown as MockObject | undefined);
    const playerId = this.playerId(player);
    if (!character || playerId === undefined) return undefined;
    const may = this.isGM(player) || controllersOf(character).some((id) => id === playerId || id === 'all');
    return may ? String(character.get('name')) : undefined;
  }

  /**
   * A sheet field's value, as the sheet reads it: \`NAME\` the attribute's current, \`NAME_max\` its
   * max (Roll20's naming); undefined when the character has no such attribute (the field's default).
   */
  sheetField(char: string, field: string): string | undefined {
    const character = this.characterNamed(char);
    if (!character) return undefined;
    const exact = this.attributeOf(character.id, field);
    if (exact) return text(exact.get('current'));
    const base = /^(.+)_max$/i.exec(field)?.[1];
    const attribute = base === undefined ? undefined : this.attributeOf(character.id, base);
    return attribute ? text(attribute.get('max')) : undefined;
  }

  /** A sheet field edited (by hand or by a sheet worker): the attribute's current, or \`NAME_max\` its max. A step, so a link replays it. */
  editSheetField(char: string, field: string, value: string): Promise<boolean> {
    const character = this.characterNamed(char);
    const base = /^(.+)_max$/i.exec(field)?.[1];
    // NAME_max is NAME's max, unless the character has an attribute of that very name.
    if (character && base !== undefined && !this.attributeOf(character.id, field)) return this.editSheet(char, base, undefined, value);
    return this.editSheet(char, field, value);
  }

  /** A character's attribute as the sheet holds it (undefined when the sheet lacks it). */
  attributeValue(char: string, attr: string): { current: string; max: string } | undefined {
    const character = this.characterNamed(char);
    const attribute = character ? this.attributeOf(character.id, attr) : undefined;
    return attribute ? { current: text(attribute.get('current')), max: text(attribute.get('max')) } : undefined;
  }

  /** What the script keeps for one token in its state (read only: the page shows it, never writes it). */
  private scriptRecord(tokenId: string): { worn?: Record<string, unknown>; overrides?: Record<string, unknown> } | undefined {
    const stored = (this.mock.state as Record<string, { tokens?: Record<string, unknown> } | undefined>).DefenseRound;
    const record = stored?.tokens?.[tokenId];
    return record !== null && typeof record === 'object' ? (record as { worn?: Record<string, unknown>; overrides?: Record<string, unknown> }) : undefined;
  }

  private ownerOf(token: MockObject, character: Roll20Object<any> | undefined): string {
    const controllers = String(token.get('controlledby') || character?.get('controlledby') || '')
      .split(',')
      .filter((id) => id !== '');
    if (!character) return controllers.length > 0 ? `${this.namesOf(controllers)}'s object` : 'an object (GM)';
    return controllers.length > 0 ? `${this.namesOf(controllers)}'s PC` : 'NPC (GM)';
  }

  private namesOf(ids: string[]): string {
    return ids.map((id) => (id === 'all' ? 'everyone' : String(this.mock.globals.getObj('player', id)?.get('_displayname') ?? id))).join(' and ');
  }

  // ---- lookups -----------------------------------------------------------------------------------

  private playerId(name: string): string | undefined {
    return this.players().find((p) => String(p.get('_displayname')) === name)?.id;
  }

  /** Why this player may not select the token (undefined: she may), naming both. */
  whyNotSelectable(player: string, id: string): string | undefined {
    const token = this.tokenById(id);
    const playerId = this.playerId(player);
    if (!token || playerId === undefined) return undefined;
    const why = whyNotSelectable(this.mock, playerId, token);
    return why === undefined ? undefined : `${player} cannot select ${String(token.get('name'))}: it ${why} (the GM selects any)`;
  }

  /** The speaker clicks a token: it becomes her selection (`additive`: added, or taken out); a token she may not select is refused, with why. */
  select(id: string, additive = false): string | undefined {
    const why = this.whyNotSelectable(this.speaker, id);
    if (why !== undefined) return why;
    if (!additive) this.selection = [id];
    else this.selection = this.selection.includes(id) ? this.selection.filter((s) => s !== id) : [...this.selection, id];
    return undefined;
  }

  /** A line for the page's log and console (the page's own word, not the script's): not a step. */
  note(text: string): void {
    this.notice('playground', text);
  }

  private players(): MockObject[] {
    return this.mock.globals.findObjs({ _type: 'player' }) as unknown as MockObject[];
  }

  private tokenObjects(): MockObject[] {
    return this.mock.globals.findObjs({ _type: 'graphic', _subtype: 'token' }) as unknown as MockObject[];
  }

  tokenNamed(name: string): MockObject | undefined {
    return this.tokenObjects().find((t) => t.get('name') === name);
  }

  tokenById(id: string): MockObject | undefined {
    return this.tokenObjects().find((t) => t.id === id);
  }

  private characterNamed(name: string): MockObject | undefined {
    return (this.mock.globals.findObjs({ _type: 'character' }) as unknown as MockObject[]).find((c) => c.get('name') === name);
  }

  private attributeOf(characterId: string, name: string): MockObject | undefined {
    const wanted = name.toLowerCase();
    return (this.mock.globals.findObjs({ _type: 'attribute', _characterid: characterId }) as unknown as MockObject[]).find(
      (a) => String(a.get('name')).toLowerCase() === wanted,
    );
  }

  selectionNames(): string[] {
    return this.selection.map((id) => this.tokenById(id)).filter((t) => t !== undefined).map((t) => String(t.get('name')));
  }

  /**
   * The GM moves a token to another layer (Roll20's "Layer" menu; "gmlayer" hides it from the
   * players). Not a step: a share link does not hold it. The page's console offers it
   * (`playground.moveToLayer('Crate', 'gmlayer')`), and the browser test uses it.
   */
  async moveToLayer(name: string, layer: 'objects' | 'gmlayer' | 'map'): Promise<boolean> {
    const token = this.tokenNamed(name);
    if (!token) {
      this.notice('playground', `no token named "${name}"`);
      return false;
    }
    await this.guard(async () => {
      this.mock.userEdit(token, { layer });
      await this.mock.settle();
    });
    this.collect();
    return true;
  }

  /** A card's Select box: the token added or taken out; a token the speaker may not select is refused, with why. */
  toggleSelected(id: string): string | undefined {
    return this.select(id, true);
  }
}

function numberOr(value: unknown, fallback: number): number {
  const n = Number(value);
  return value === undefined || value === null || value === '' || !Number.isFinite(n) ? fallback : n;
}

function text(value: unknown): string {
  return value === undefined || value === null ? '' : String(value);
}
