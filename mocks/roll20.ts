// The in-memory Roll20 API sandbox: objects, events, chat, timers, state, and the cost counters
// tests use to prove the script is cheap. createRoll20() wires the parts in this folder together.
import { composeMessage, type ChatRecord } from './chat-message.js';
import { CrashRecorder, type Crash } from './crashes.js';
import { createDice, type Dice } from './dice.js';
import { EventBus, type Handler } from './events.js';
import { CREATABLE_TYPES, MockObject, ObjectStore, type ObjectHost, type Props, type Touched } from './objects.js';
import { createIdSource } from './random.js';
import { Scheduler } from './scheduler.js';

export type { ChatRecord } from './chat-message.js';
export type { Crash } from './crashes.js';
export { MockObject } from './objects.js';

type TimerCallback = (...args: any[]) => void;

/** The start of the line Roll20's sandbox logs for a getAttrByName of a name with neither an attribute nor a sheet field. */
export const MISSING_FIELD_LOG = 'No attribute or sheet field found for character_id';

/** How long a script's attribute write takes to reach the linked token bars (virtual ms; Roll20 gives no figure, HealthColors waits 50). */
export const LINKED_BAR_DELAY_MS = 20;

/** What the mock's clock reads when a table opens (Date.now, ms): a fixed day, so runs replay. */
export const CLOCK_START = Date.UTC(2025, 0, 1, 19, 0, 0);

/** Node's longest timer: a longer (or a negative) delay is run after 1 ms, with a warning (Roll20's sandbox is Node). */
const TIMEOUT_MAX = 2_147_483_647;

/**
 * A ping a script sent (sendPing): where, whose colour, whether it moves views, and who sees it.
 * Roll20's docs: `visibleTo` is one player id, an array of them, or a comma-separated list; without
 * it every player sees the ping.
 */
export interface Ping {
  left: number;
  top: number;
  pageId: string;
  /** The player whose colour it takes (null: the API's yellow). */
  playerId: string | null;
  moveAll: boolean;
  /** The player ids that see it; null: everyone. */
  visibleTo: string[] | null;
}

/** Exactly the globals a Roll20 API script sees. */
export interface Roll20Globals {
  on: typeof on;
  sendChat: typeof sendChat;
  getObj: typeof getObj;
  findObjs: typeof findObjs;
  filterObjs: typeof filterObjs;
  getAllObjs: typeof getAllObjs;
  createObj: typeof createObj;
  getAttrByName: typeof getAttrByName;
  playerIsGM: typeof playerIsGM;
  randomInteger: typeof randomInteger;
  log: typeof log;
  Campaign: typeof Campaign;
  state: Record<string, any>;
  setTimeout: (callback: TimerCallback, ms?: number, ...args: any[]) => number;
  clearTimeout: (id?: unknown) => void;
  setInterval: (callback: TimerCallback, ms?: number, ...args: any[]) => number;
  clearInterval: (id?: unknown) => void;
  sendPing: typeof sendPing;
  /** The sandbox's clock: JavaScript's Date, reading the mock's virtual time (Date.now, new Date()). */
  Date: DateConstructor;
}

export interface MockStats {
  findObjsCalls: number;
  filterObjsCalls: number;
  getAllObjsCalls: number;
  /** Objects examined by findObjs, filterObjs and getAllObjs. */
  objectsScanned: number;
  getObjCalls: number;
  getAttrByNameCalls: number;
  /** `set` and `setWithWorker` calls by the API, in all and per object id. */
  setCalls: number;
  setsByObject: Record<string, number>;
}

export interface WorkerWrite {
  id: string;
  type: string;
  props: Props;
}

export interface MockRoll20 {
  readonly globals: Roll20Globals;
  readonly dice: Dice;
  state: Record<string, any>;
  readonly stats: MockStats;
  readonly logs: string[];
  readonly chatLog: ChatRecord[];
  readonly crashes: Crash[];
  /** Things a real script would get wrong silently in Roll20 (async reads, unknown events, ...). */
  readonly warnings: string[];
  readonly workerWrites: WorkerWrite[];
  readonly isReady: boolean;

  resetStats(): void;
  assertNoCrash(): void;
  /** Returns the recorded crashes and forgets them. */
  takeCrashes(): Crash[];

  fireReady(): void;
  settle(): Promise<void>;
  /** Moves the virtual clock forward, running timers as they come due. */
  advance(ms: number): void;
  /** Virtual ms since the table opened. */
  now(): number;
  /** What the script's Date.now() reads now (CLOCK_START + now()). */
  clock(): number;
  /**
   * Roll20 restarts the sandbox: timers are dropped, state is kept as JSON, the script loads again
   * and gets `ready`. `downMs`: how long the sandbox was down (the clock moves on, no timer runs).
   */
  restart(load: () => void, downMs?: number): Promise<void>;
  /** Every ping the script sent, oldest first. */
  readonly pings: Ping[];
  install(target?: object): void;
  uninstall(): void;

  userEdit(obj: Roll20Object<any>, props: Props): void;
  userCreate(type: string, props: Props): MockObject;
  userRemove(obj: Roll20Object<any>): void;
  /**
   * A user drags a character from the journal onto a page: Roll20 creates a token from the
   * character's default token (its name, bars and their links to the sheet's attributes), linked
   * bars showing the attributes' values, and fires `add:graphic`. With no default token saved, the
   * token only represents the character (no bar linked).
   */
  dropCharacter(charName: string, pageId: string, props?: Props): MockObject;
  /** A new page, as the GM adds one (no event: scripts are not told of pages). */
  addPage(name: string): MockObject;
  setTurnOrder(entries: Array<Partial<Roll20TurnEntry> & { id: string }>): void;
  /**
   * The GM drags a player's badge onto a page (undefined: back to the player ribbon). Roll20 keeps
   * the split party in `playerspecificpages`: an object of player id -> page id, false when empty.
   */
  movePlayer(playerId: string, pageId: string | undefined): void;
  nextTurn(): void;
  turnOrder(): Roll20TurnEntry[];

  chat(playerId: string, content: string, options?: { selected?: string[] }): Promise<void>;
  /**
   * A player's message delivered now, inside whatever is running (a listener of another message):
   * Roll20 may deliver one while a script's roll is out. Its handlers run before this returns.
   */
  deliverNow(playerId: string, content: string, options?: { selected?: string[] }): void;
  publicMessages(): ChatRecord[];
  whispersTo(nameOrGm: string): ChatRecord[];
  newMessages(): ChatRecord[];

  addPlayer(options: { displayname: string; gm?: boolean }): MockObject;
  /** The campaign's character sheet gives this default for an attribute no character has an object for yet. */
  sheetDefault(name: string, current: string | number, max?: string | number): void;
  player(displayname: string): MockObject;
  token(name: string): MockObject;
  character(name: string): MockObject;
  attribute(charName: string, attrName: string): MockObject;
  /** A stored property without Roll20's rules (async text fields read directly). */
  peek(obj: Roll20Object<any>, property: string): unknown;
  /**
   * Creates an object as the API would, typed loosely for test set-up. `id`: one made elsewhere
   * (a scene's later addition that must not move the ids every object after it is given).
   */
  create(type: string, props?: Props, id?: string): MockObject;
  /**
   * The GM adds a custom token marker set: each marker joins the campaign's `token_markers` as Roll20
   * lists it, `{ id, name, tag: "Name::id", url }` (names need not be unique; ids are).
   */
  addTokenMarkers(markers: ReadonlyArray<{ name: string; id: number }>): void;
}

// `Date` too: the script reads Roll20's clock with Date.now(), and the mock's clock is virtual.
const GLOBAL_NAMES = [
  'Date', 'on', 'sendChat', 'getObj', 'findObjs', 'filterObjs', 'getAllObjs', 'createObj', 'getAttrByName',
  'playerIsGM', 'randomInteger', 'log', 'Campaign', 'state', 'setTimeout', 'clearTimeout',
  'setInterval', 'clearInterval', 'sendPing',
] as const;

export function createRoll20(options: { seed?: number } = {}): MockRoll20 {
  const seed = options.seed ?? 1;
  const crashes = new CrashRecorder();
  const warnings: string[] = [];
  const warn = (message: string): void => void warnings.push(message);
  const dice = createDice(seed);
  const scheduler = new Scheduler(crashes);
  const bus = new EventBus(crashes, warn);
  const chatLog: ChatRecord[] = [];
  const logs: string[] = [];
  const workerWrites: WorkerWrite[] = [];
  const pings: Ping[] = [];
  const gmIds = new Set<string>();
  /** The character sheet's defaults, by lower-cased attribute name (one sheet per campaign, as in Roll20). */
  const sheetDefaults = new Map<string, { current: string | number; max: string | number }>();
  const stats = zeroStats();
  let state: Record<string, any> = {};
  let ready = false;
  let chatCursor = 0;
  let userCounter = 0;

  const host: ObjectHost = {
    write(obj, props, mode) {
      if (obj.removed) {
        warn(`write to removed ${obj.type} ${obj.id} ignored`);
        return [];
      }
      if (mode === 'worker') workerWrites.push({ id: obj.id, type: obj.type, props: { ...props } });
      if (mode !== 'user') {
        stats.setCalls++;
        stats.setsByObject[obj.id] = (stats.setsByObject[obj.id] ?? 0) + 1;
      }
      return store.write(obj, props, mode === 'user', mode !== 'user');
    },
    later(label, copy) {
      scheduler.schedule(label, copy, LINKED_BAR_DELAY_MS);
    },
    remove(obj) {
      store.remove(obj);
    },
    readAsync(obj, key, callback) {
      const value = obj.props[key];
      scheduler.schedule(`${obj.type}.get('${key}') callback`, () => callback(value));
    },
    warn,
  };
  const store = new ObjectStore(host, createIdSource(seed));
  const page = store.create('page', { name: 'Demo' });
  const campaign = store.create('campaign', { playerpageid: page.id, initiativepage: page.id }, 'root');

  const fireChanges = (touched: Touched[]): void => {
    for (const { obj, prev, changed } of touched) {
      if (changed.length === 0) continue;
      for (const key of changed) bus.fire(`change:${obj.type}:${key.replace(/^_/, '')}`, obj, prev);
      bus.fire(`change:${obj.type}`, obj, prev);
    }
  };

  const mockObject = (obj: Roll20Object<any>): MockObject => {
    if (!(obj instanceof MockObject)) throw new Error('not an object of this mock');
    if (obj.removed) throw new Error(`${obj.type} ${obj.id} was removed`);
    return obj;
  };

  const displayName = (player: MockObject): string => String(player.props._displayname);

  const knownRecipient = (name: string): boolean =>
    name === 'gm' ||
    store.ofType('player').some((p) => displayName(p).toLowerCase() === name.toLowerCase()) ||
    store.ofType('character').some((c) => String(c.props.name).toLowerCase() === name.toLowerCase());

  const speakerName = (speakingAs: string): string => {
    const [kind, id] = speakingAs.split('|');
    if (kind === 'player' && id) return displayName(store.get(id) ?? fail(`sendChat as unknown player ${id}`));
    if (kind === 'character' && id) return String((store.get(id) ?? fail(`sendChat as unknown character ${id}`)).props.name);
    return speakingAs;
  };

  const compose = (who: string, playerid: string, raw: string, selected?: Roll20SelectedObject[]) => {
    const composed = composeMessage({ who, playerid, raw, selected }, dice);
    warnings.push(...composed.warnings);
    const target = composed.record.whisperTo;
    if (target !== undefined && !knownRecipient(target)) warn(`whisper to "${target}": no player or character has that name`);
    return composed;
  };

  const post = (record: ChatRecord, message: Roll20ChatMessage): void => {
    chatLog.push(record);
    scheduler.schedule('chat:message', () => bus.fire('chat:message', message));
  };

  const timer = (label: string, every: boolean) => (callback: TimerCallback, ms?: number, ...args: any[]): number => {
    if (typeof callback !== 'function') throw new TypeError(`${label} needs a function`);
    let delay = Number(ms) || 0;
    if (delay > TIMEOUT_MAX) {
      warn(`${label}(${delay}): longer than Node's ${TIMEOUT_MAX} ms, so it runs after 1 ms`);
      delay = 1;
    }
    return scheduler.schedule(`${label} callback`, () => callback(...args), delay, every ? delay : undefined);
  };

  // The query's pairs are taken apart once per search, not once per object searched: the mock's own
  // garbage would otherwise land in the timed commands of the bench as collector pauses.
  const matches = (obj: MockObject, wanted: ReadonlyArray<[string, unknown]>, caseInsensitive: boolean): boolean => {
    for (const [key, value] of wanted) {
      if (value === undefined) continue;
      const held = obj.props[obj.keyOf(key)];
      if (caseInsensitive && typeof held === 'string' && typeof value === 'string') {
        if (held.toLowerCase() !== value.toLowerCase()) return false;
      } else if (held !== value) return false;
    }
    return true;
  };

  const globals = {
    on(event: string, handler: Handler) {
      bus.on(event, handler);
    },
    sendChat(speakingAs: string, message: string, callback?: ((ops: Roll20ChatMessage[]) => void) | null, opts?: Roll20SendChatOptions) {
      const { message: msg, record } = compose(speakerName(String(speakingAs)), 'API', String(message));
      if (typeof callback === 'function') {
        scheduler.schedule('sendChat callback', () => callback([msg]));
        return;
      }
      if (opts?.noarchive) record.noarchive = true;
      post(record, msg);
    },
    getObj(type: string, id: string) {
      stats.getObjCalls++;
      const obj = store.get(id);
      return obj && obj.type === type ? obj : undefined;
    },
    findObjs(attrs: Record<string, unknown>, opts?: { caseInsensitive?: boolean }) {
      stats.findObjsCalls++;
      const type = attrs._type ?? attrs.type;
      // Roll20 indexes objects by type, so a typed search looks at that type only.
      const pool = typeof type === 'string' ? store.ofType(type) : store.all();
      stats.objectsScanned += pool.length;
      const wanted = Object.entries(attrs);
      const caseInsensitive = opts?.caseInsensitive === true;
      return pool.filter((obj) => matches(obj, wanted, caseInsensitive));
    },
    filterObjs(predicate: (obj: Roll20Object<any>) => boolean) {
      stats.filterObjsCalls++;
      const pool = store.all();
      stats.objectsScanned += pool.length;
      return pool.filter((obj) => predicate(obj));
    },
    getAllObjs() {
      stats.getAllObjsCalls++;
      const pool = store.all();
      stats.objectsScanned += pool.length;
      return pool;
    },
    createObj(type: string, props: Props) {
      if (!CREATABLE_TYPES.has(type)) {
        warn(`createObj('${type}'): the API cannot create that type`);
        return undefined;
      }
      if ((type === 'attribute' || type === 'ability') && !store.get(String(props.characterid ?? props._characterid ?? ''))) {
        warn(`createObj('${type}') needs the characterid of an existing character`);
        return undefined;
      }
      return store.create(type, withPage(type, props ?? {}));
    },
    getAttrByName(characterId: string, name: string, valueType: 'current' | 'max' = 'current') {
      stats.getAttrByNameCalls++;
      const wanted = String(name).toLowerCase();
      const attr = store
        .ofType('attribute')
        .find((a) => a.props._characterid === characterId && String(a.props.name).toLowerCase() === wanted);
      if (attr) return attr.props[valueType === 'max' ? 'max' : 'current'] as string | number;
      // No attribute object (a field never edited on the sheet): Roll20 answers with the sheet's default.
      const fallback = sheetDefaults.get(wanted);
      if (fallback !== undefined) return valueType === 'max' ? fallback.max : fallback.current;
      // Neither: Roll20's sandbox logs this line itself, every time, and no try/catch in a script suppresses it.
      logs.push(`${MISSING_FIELD_LOG} ${characterId} named ${String(name)}`);
      return undefined;
    },
    playerIsGM(playerId: string) {
      return gmIds.has(playerId);
    },
    randomInteger(max: number) {
      return dice.randomInteger(max);
    },
    log(message: unknown) {
      logs.push(typeof message === 'string' ? message : JSON.stringify(message));
    },
    Campaign() {
      return campaign;
    },
    setTimeout: timer('setTimeout', false),
    clearTimeout: (id?: unknown) => scheduler.cancel(id),
    setInterval: timer('setInterval', true),
    clearInterval: (id?: unknown) => scheduler.cancel(id),
    sendPing(left: number, top: number, pageId: string, playerId?: string | null, moveAll?: boolean, visibleTo?: string | string[]) {
      if (!Number.isFinite(left) || !Number.isFinite(top)) warn(`sendPing at (${String(left)}, ${String(top)}): not a point`);
      if (store.get(String(pageId))?.type !== 'page') warn(`sendPing on ${String(pageId)}: no such page`);
      const seen = visibleTo === undefined || visibleTo === null || visibleTo === '' ? null : (Array.isArray(visibleTo) ? visibleTo : String(visibleTo).split(',')).map((id) => String(id).trim()).filter((id) => id !== '');
      for (const id of seen ?? []) if (store.get(id)?.type !== 'player') warn(`sendPing visibleTo ${id}: no such player`);
      pings.push({ left: Number(left), top: Number(top), pageId: String(pageId), playerId: playerId ? String(playerId) : null, moveAll: moveAll === true, visibleTo: seen });
    },
    Date: virtualDate(() => CLOCK_START + scheduler.now),
  };
  Object.defineProperty(globals, 'state', {
    enumerable: true,
    get: () => state,
    set: (value: Record<string, any>) => void (state = value),
  });

  function withPage(type: string, props: Props): Props {
    const pageless = (type === 'graphic' || type === 'text' || type === 'path') && !props.pageid && !props._pageid;
    return pageless ? { ...props, _pageid: page.id } : props;
  }

  function userEdit(obj: Roll20Object<any>, props: Props): void {
    const target = mockObject(obj);
    fireChanges(store.write(target, props, true));
    crashes.assertNone();
  }

  let installed: { target: object; saved: Map<string, PropertyDescriptor | undefined> } | undefined;

  const mock: MockRoll20 = {
    globals: globals as unknown as Roll20Globals,
    dice,
    get state() {
      return state;
    },
    set state(value) {
      state = value;
    },
    stats,
    logs,
    chatLog,
    crashes: crashes.list,
    warnings,
    workerWrites,
    get isReady() {
      return ready;
    },
    resetStats: () => void Object.assign(stats, zeroStats()),
    assertNoCrash: () => crashes.assertNone(),
    takeCrashes: () => crashes.take(),

    fireReady() {
      if (ready) throw new Error('ready has fired already; Roll20 fires it once per sandbox start (use restart())');
      ready = true;
      bus.fire('ready');
      crashes.assertNone();
    },
    async settle() {
      await scheduler.settle();
      crashes.assertNone();
    },
    advance(ms) {
      scheduler.advance(ms);
      crashes.assertNone();
    },
    now: () => scheduler.now,
    clock: () => CLOCK_START + scheduler.now,
    pings,
    async restart(load, downMs = 0) {
      const saved = JSON.stringify(state);
      bus.clear();
      scheduler.clear();
      // The sandbox was down: time passed, and no timer of the old one is left to run.
      scheduler.advance(downMs);
      ready = false;
      state = JSON.parse(saved) as Record<string, any>;
      crashes.guard('script load', load);
      crashes.assertNone();
      mock.fireReady();
      await mock.settle();
    },
    install(target = globalThis) {
      if (installed) mock.uninstall();
      const saved = new Map<string, PropertyDescriptor | undefined>();
      for (const name of GLOBAL_NAMES) {
        saved.set(name, Object.getOwnPropertyDescriptor(target, name));
        const descriptor = Object.getOwnPropertyDescriptor(globals, name)!;
        Object.defineProperty(target, name, { ...descriptor, configurable: true });
      }
      installed = { target, saved };
    },
    uninstall() {
      if (!installed) return;
      for (const [name, descriptor] of installed.saved) {
        if (descriptor) Object.defineProperty(installed.target, name, descriptor);
        else delete (installed.target as Record<string, unknown>)[name];
      }
      installed = undefined;
    },

    userEdit,
    userCreate(type, props) {
      const obj = store.create(type, withPage(type, props));
      bus.fire(`add:${type}`, obj);
      crashes.assertNone();
      return obj;
    },
    dropCharacter(charName, pageId, props = {}) {
      const character = mock.character(charName);
      const saved = character.props._defaulttoken;
      const token = typeof saved === 'string' && saved !== '' ? (JSON.parse(saved) as Props) : {};
      // The default token keeps no id, page or position of its own: the drop gives them.
      for (const key of ['_id', 'id', '_pageid', 'pageid', '_type', 'type']) delete token[key];
      return mock.userCreate('graphic', { ...token, ...props, represents: character.id, _pageid: pageId, _subtype: 'token', layer: 'objects' });
    },
    addPage: (name) => store.create('page', { name }),
    userRemove(obj) {
      for (const gone of store.remove(mockObject(obj))) bus.fire(`destroy:${gone.type}`, gone);
      crashes.assertNone();
    },
    setTurnOrder(entries) {
      const normalized = entries.map((e) => ({
        ...e,
        id: e.id,
        pr: e.pr ?? 0,
        custom: e.custom ?? '',
        _pageid: e._pageid ?? String(store.get(e.id)?.props._pageid ?? page.id),
      }));
      userEdit(campaign, { turnorder: JSON.stringify(normalized) });
    },
    movePlayer(playerId, pageId) {
      const now = campaign.props.playerspecificpages;
      const pages: Record<string, unknown> = now !== null && typeof now === 'object' ? { ...now } : {};
      if (pageId === undefined) delete pages[playerId];
      else pages[playerId] = pageId;
      userEdit(campaign, { playerspecificpages: Object.keys(pages).length > 0 ? pages : false });
    },
    nextTurn() {
      const order = mock.turnOrder();
      if (order.length === 0) return;
      order.push(order.shift()!);
      userEdit(campaign, { turnorder: JSON.stringify(order) });
    },
    turnOrder() {
      const text = campaign.props.turnorder;
      return typeof text === 'string' && text !== '' ? (JSON.parse(text) as Roll20TurnEntry[]) : [];
    },

    async chat(playerId, content, opts = {}) {
      const { message, record } = playerMessage(playerId, content, opts.selected);
      post(record, message);
      await mock.settle();
    },
    deliverNow(playerId, content, opts = {}) {
      const { message, record } = playerMessage(playerId, content, opts.selected);
      chatLog.push(record);
      bus.fire('chat:message', message);
    },
    publicMessages: () => chatLog.filter((m) => m.type !== 'whisper' && m.type !== 'api' && m.type !== 'gmrollresult'),
    whispersTo: (nameOrGm) => chatLog.filter((m) => m.whisperTo?.toLowerCase() === nameOrGm.toLowerCase()),
    newMessages() {
      const fresh = chatLog.slice(chatCursor);
      chatCursor = chatLog.length;
      return fresh;
    },

    sheetDefault(name, current, max = '') {
      sheetDefaults.set(name.toLowerCase(), { current, max });
    },
    addPlayer({ displayname, gm = false }) {
      userCounter += 1;
      const player = store.create('player', { _displayname: displayname, _d20userid: String(100000 + userCounter), _online: true });
      if (gm) gmIds.add(player.id);
      return player;
    },
    player: (name) => single('player', name, (p) => displayName(p).toLowerCase() === name.toLowerCase()),
    token: (name) => single('token', name, (g) => g.props._subtype === 'token' && g.props.name === name, 'graphic'),
    character: (name) => single('character', name, (c) => c.props.name === name),
    attribute(charName, attrName) {
      const character = mock.character(charName);
      return single(`attribute of ${charName}`, attrName, (a) =>
        a.props._characterid === character.id && String(a.props.name).toLowerCase() === attrName.toLowerCase(), 'attribute');
    },
    peek: (obj, property) => {
      const target = obj as MockObject;
      return target.props[target.keyOf(property)];
    },
    create: (type, props = {}, id?: string) => (id === undefined ? store.create(type, withPage(type, props)) : store.create(type, withPage(type, props), id)),
    addTokenMarkers(markers) {
      const listed = JSON.parse(String(campaign.props.token_markers)) as Array<{ id: number }>;
      for (const { name, id } of markers) {
        if (listed.some((marker) => marker.id === id)) throw new Error(`token marker id ${id} is taken`);
        listed.push({ id, name, tag: `${name}::${id}`, url: `https://s3.amazonaws.com/files.d20.io/images/${id}/marker/icon.png` } as { id: number });
      }
      // Read-only to the API: the GM's change in the game's settings (the mock fires no event for it).
      campaign.props.token_markers = JSON.stringify(listed);
    },
  };

  function playerMessage(playerId: string, content: string, selectedIds: string[] = []) {
    const player = store.get(playerId);
    if (!player || player.type !== 'player') throw new Error(`no player with id ${playerId}`);
    const who = displayName(player) + (gmIds.has(playerId) ? ' (GM)' : '');
    const selected = selectedIds.map((id) => ({ _id: id, _type: (store.get(id)?.type ?? 'graphic') as Roll20ObjectType }));
    return compose(who, playerId, content, selected);
  }

  function single(kind: string, name: string, accept: (o: MockObject) => boolean, type = kind): MockObject {
    const found = store.ofType(type).filter(accept);
    if (found.length === 1) return found[0]!;
    throw new Error(found.length === 0 ? `no ${kind} named "${name}"` : `${found.length} ${kind}s named "${name}"`);
  }

  return mock;
}

/**
 * JavaScript's Date reading the mock's clock: Date.now() and new Date() say the virtual time (what
 * settle() and advance() move), so a script's time limit is tested without sleeping; any other use
 * is the real Date's.
 */
function virtualDate(clock: () => number): DateConstructor {
  const Real = Date;
  function VirtualDate(this: unknown, ...args: unknown[]): unknown {
    if (!new.target) return new Real(clock()).toString();
    return args.length === 0 ? new Real(clock()) : new (Real as any)(...args);
  }
  VirtualDate.prototype = Real.prototype;
  VirtualDate.now = clock;
  VirtualDate.UTC = Real.UTC;
  VirtualDate.parse = Real.parse;
  return VirtualDate as unknown as DateConstructor;
}

function zeroStats(): MockStats {
  return { findObjsCalls: 0, filterObjsCalls: 0, getAllObjsCalls: 0, objectsScanned: 0, getObjCalls: 0, getAttrByNameCalls: 0, setCalls: 0, setsByObject: {} };
}

function fail(message: string): never {
  throw new Error(message);
}
