// Roll20 objects in memory: defaults, `get` with or without `_`, and linked bars kept in step
// with their attributes whichever side is written. Events are not fired here (see roll20.ts).

export type Props = Record<string, unknown>;

/**
 * Roll20's default token markers as the campaign's `token_markers` lists them: a default marker's tag
 * is its name, with no id (Roll20 API documentation, "Token Markers"). The colour dots and `dead`
 * (the red X) are drawn by Roll20 itself and are not in the list (libTokenMarkers adds them by hand).
 * A custom marker set adds `{ id, name, tag: "Name::id", url }` entries (`addTokenMarkers`).
 */
export const DEFAULT_TOKEN_MARKERS = (
  'skull sleepy half-heart half-haze interdiction snail lightning-helix spanner chained-heart ' +
  'chemical-bolt death-zone drink-me edge-crack ninja-mask stopwatch fishing-net overdrive strong fist ' +
  'padlock three-leaves fluffy-wing pummeled tread arrowed aura back-pain black-flag bleeding-eye ' +
  'bolt-shield broken-heart cobweb broken-shield flying-flag radioactive trophy broken-skull frozen-orb ' +
  'rolling-bomb white-tower grab screaming grenade sentry-gun all-for-one angel-outfit archery-target'
)
  .split(' ')
  .map((name, index) => ({ id: index + 1, name, tag: name, url: `https://app.roll20.net/images/statussheet/${name}.png` }));

// Defaults as Roll20 creates each object (Roll20 API documentation, "Objects").
const DEFAULTS: Record<string, Props> = {
  graphic: {
    _subtype: 'token', _pageid: '', _cardid: '', imgsrc: '', represents: '', name: '', gmnotes: '',
    controlledby: '', layer: 'objects', left: 0, top: 0, width: 70, height: 70, rotation: 0,
    isdrawing: false, flipv: false, fliph: false, statusmarkers: '', showname: false,
    showplayers_name: false, playersedit_name: true, tint_color: 'transparent', lastmove: '',
    bar1_value: '', bar1_max: '', bar1_link: '', showplayers_bar1: false, playersedit_bar1: true,
    bar2_value: '', bar2_max: '', bar2_link: '', showplayers_bar2: false, playersedit_bar2: true,
    bar3_value: '', bar3_max: '', bar3_link: '', showplayers_bar3: false, playersedit_bar3: true,
    aura1_radius: '', aura1_color: '#FFFF99', aura1_square: false,
    aura2_radius: '', aura2_color: '#59E594', aura2_square: false,
    light_radius: '', light_dimradius: '', light_otherplayers: false, light_hassight: false,
  },
  character: {
    avatar: '', name: '', bio: '', gmnotes: '', archived: false, inplayerjournals: '',
    controlledby: '', _defaulttoken: '',
  },
  attribute: { _characterid: '', name: 'Untitled', current: '', max: '' },
  ability: { _characterid: '', name: 'Untitled_Ability', description: '', action: '', istokenaction: false },
  handout: {
    avatar: '', name: 'Mysterious Note', notes: '', gmnotes: '', inplayerjournals: '', archived: false,
    controlledby: '',
  },
  player: {
    _d20userid: '', _displayname: '', _online: false, _lastpage: '', _macrobar: '', speakingas: '',
    color: '#13B9F0', showmacrobar: false,
  },
  campaign: {
    turnorder: '', initiativepage: false, playerpageid: false, playerspecificpages: false,
    _journalfolder: '[]', _jukeboxfolder: '[]', token_markers: JSON.stringify(DEFAULT_TOKEN_MARKERS),
  },
  page: {
    _zorder: '', name: '', showgrid: true, showdarkness: false, grid_type: 'square', width: 25,
    height: 25, snapping_increment: 1, scale_number: 5, scale_units: 'ft', archived: false,
  },
  macro: { _playerid: '', name: '', action: '', visibleto: '', istokenaction: false },
  rollabletable: { name: 'new-table', showplayers: true },
  tableitem: { _rollabletableid: '', avatar: '', name: '', weight: 1 },
  text: { _pageid: '', text: '', font_size: 16, rotation: 0, color: 'rgb(0, 0, 0)', layer: '', controlledby: '' },
  path: { _pageid: '', _path: '', fill: 'transparent', stroke: '#000000', rotation: 0, layer: '', controlledby: '' },
};

/** Types the API may create with createObj (players and the campaign exist already). */
export const CREATABLE_TYPES = new Set([
  'graphic', 'text', 'path', 'character', 'ability', 'attribute', 'handout', 'rollabletable',
  'tableitem', 'macro', 'page',
]);

export const KNOWN_TYPES = new Set([...Object.keys(DEFAULTS), 'card', 'hand', 'deck', 'jukeboxtrack', 'custfx']);

// Roll20 gives these only through get(prop, callback); a plain get does not return the text.
const ASYNC_TEXT: Record<string, Set<string>> = {
  handout: new Set(['notes', 'gmnotes']),
  character: new Set(['bio', 'gmnotes', '_defaulttoken', 'defaulttoken']),
};

export interface Touched {
  obj: MockObject;
  /** Every property before the write, keyed as Roll20 keeps them (`_id`, `_type`, ...). */
  prev: Props;
  /** The keys whose value changed, in the object's property order. */
  changed: string[];
}

export type WriteMode = 'api' | 'worker' | 'user';

/** What an object needs from the world around it. */
export interface ObjectHost {
  write(obj: MockObject, props: Props, mode: WriteMode): Touched[];
  /**
   * Roll20 copies a script's attribute write to the linked token bars later, not in the same tick
   * (HealthColors waits 50 ms for it): the store hands that copy here to run when it comes due.
   */
  later(label: string, copy: () => void): void;
  remove(obj: MockObject): void;
  readAsync(obj: MockObject, key: string, callback: (value: unknown) => void): void;
  warn(message: string): void;
}

export class MockObject implements Roll20Object<any> {
  readonly id: string;
  /** The stored properties; tests read them through get() or MockRoll20.peek(). */
  readonly props: Props;
  removed = false;

  constructor(private readonly host: ObjectHost, props: Props) {
    this.props = props;
    this.id = String(props._id);
  }

  get type(): string {
    return String(this.props._type);
  }

  /** The stored key a property name refers to: `represents` and `_represents` both find `_represents`. */
  keyOf(property: string): string {
    if (property in this.props) return property;
    if (!property.startsWith('_') && `_${property}` in this.props) return `_${property}`;
    if (property.startsWith('_') && property.slice(1) in this.props) return property.slice(1);
    return property;
  }

  get(property: string, callback?: (value: any) => void): any {
    const key = this.keyOf(property);
    if (ASYNC_TEXT[this.type]?.has(key)) {
      if (typeof callback === 'function') return this.host.readAsync(this, key, callback);
      this.host.warn(`${this.type}.get('${property}') without a callback: Roll20 reads it asynchronously`);
      return '';
    }
    const value = this.props[key];
    if (typeof callback === 'function') return this.host.readAsync(this, key, callback);
    return value;
  }

  set(keyOrProps: string | Props, value?: unknown): void {
    const props = typeof keyOrProps === 'string' ? { [keyOrProps]: value } : keyOrProps;
    this.host.write(this, props, 'api');
  }

  setWithWorker(props: Props): void {
    this.host.write(this, props, 'worker');
  }

  remove(): void {
    this.host.remove(this);
  }

  /** A plain copy of every property, as Roll20 passes `prev` to change handlers. */
  snapshot(): Props {
    return { ...this.props };
  }

  toJSON(): Props {
    return this.snapshot();
  }
}

const BARS = [1, 2, 3] as const;
const LINK_KEYS = BARS.map((n) => `bar${n}_link`);

/** All objects of a campaign, indexed by id and by type. */
export class ObjectStore {
  private readonly byId = new Map<string, MockObject>();
  private readonly byType = new Map<string, Map<string, MockObject>>();

  constructor(private readonly host: ObjectHost, private readonly newId: () => string) {}

  create(type: string, given: Props, id = this.newId()): MockObject {
    const props: Props = { _id: id, _type: type, ...(DEFAULTS[type] ?? {}) };
    const obj = new MockObject(this.host, props);
    for (const [name, value] of Object.entries(given)) {
      const key = obj.keyOf(name);
      if (key === '_id' || key === '_type') continue;
      props[key] = value;
    }
    if (type === 'graphic') {
      for (const n of BARS) {
        const attr = this.linkedAttribute(obj, n);
        if (attr) Object.assign(props, { [`bar${n}_value`]: attr.props.current, [`bar${n}_max`]: attr.props.max });
      }
    }
    this.byId.set(id, obj);
    this.typeIndex(type).set(id, obj);
    return obj;
  }

  get(id: string): MockObject | undefined {
    return this.byId.get(id);
  }

  all(): MockObject[] {
    return [...this.byId.values()];
  }

  ofType(type: string): MockObject[] {
    return [...(this.byType.get(type)?.values() ?? [])];
  }

  /** Removes the object; a character takes its attributes and abilities with it, as in Roll20. */
  remove(obj: MockObject): MockObject[] {
    if (obj.removed) return [];
    const gone = [obj];
    if (obj.type === 'character') {
      for (const type of ['attribute', 'ability']) {
        gone.push(...this.ofType(type).filter((o) => o.props._characterid === obj.id));
      }
    }
    for (const o of gone) {
      o.removed = true;
      this.byId.delete(o.id);
      this.byType.get(o.type)?.delete(o.id);
    }
    return gone;
  }

  /**
   * Writes props and keeps linked bars in step: a token bar writes its attribute, an attribute
   * writes every token linked to it. Returns every object touched, the written one first.
   */
  write(obj: MockObject, props: Props, allowReadOnly: boolean, linkedLater = false): Touched[] {
    const prevs = new Map<MockObject, Props>();
    const assign = (target: MockObject, key: string, value: unknown): void => {
      if (!prevs.has(target)) prevs.set(target, target.snapshot());
      target.props[key] = value;
    };
    prevs.set(obj, obj.snapshot());
    const written = new Set<string>();
    for (const [name, value] of Object.entries(props)) {
      const key = obj.keyOf(name);
      if (key === '_id' || key === '_type') continue;
      if (key.startsWith('_') && !allowReadOnly) {
        this.host.warn(`set('${name}') ignored: ${key} is read-only for the API`);
        continue;
      }
      assign(obj, key, value);
      written.add(key);
    }
    if (obj.type === 'graphic') {
      for (const n of BARS) {
        const attr = this.linkedAttribute(obj, n);
        if (!attr) continue;
        if (written.has(`bar${n}_link`)) {
          assign(obj, `bar${n}_value`, attr.props.current);
          assign(obj, `bar${n}_max`, attr.props.max);
          continue;
        }
        const wroteValue = written.has(`bar${n}_value`);
        const wroteMax = written.has(`bar${n}_max`);
        if (wroteValue) assign(attr, 'current', obj.props[`bar${n}_value`]);
        if (wroteMax) assign(attr, 'max', obj.props[`bar${n}_max`]);
        if (wroteValue || wroteMax) this.spreadNowOrLater(attr, assign, linkedLater, obj);
      }
    }
    if (obj.type === 'attribute' && (written.has('current') || written.has('max'))) this.spreadNowOrLater(obj, assign, linkedLater);
    return [...prevs].map(([target, prev]) => ({ obj: target, prev, changed: changedKeys(prev, target.props) }));
  }

  /** Tokens with a bar linked to this attribute, and which bar. */
  linkedBars(attr: MockObject): Array<{ token: MockObject; bar: number }> {
    const links: Array<{ token: MockObject; bar: number }> = [];
    // Over the index itself (no copy of every graphic, no key built per token and bar).
    for (const token of this.byType.get('graphic')?.values() ?? []) {
      for (let i = 0; i < BARS.length; i += 1) if (token.props[LINK_KEYS[i]!] === attr.id) links.push({ token, bar: BARS[i]! });
    }
    return links;
  }

  /**
   * A user's edit reaches every linked token at once (and each fires its events); a script's write
   * reaches the other linked tokens later, as Roll20's own copy does, and fires nothing.
   */
  private spreadNowOrLater(attr: MockObject, assign: (o: MockObject, k: string, v: unknown) => void, later: boolean, except?: MockObject): void {
    if (!later) {
      this.spread(attr, assign, except);
      return;
    }
    this.host.later(`attribute ${attr.id} reaching its linked bars`, () => {
      if (attr.removed) return;
      this.spread(attr, (target, key, value) => void (target.props[key] = value), except);
    });
  }

  private spread(attr: MockObject, assign: (o: MockObject, k: string, v: unknown) => void, except?: MockObject): void {
    for (const { token, bar } of this.linkedBars(attr)) {
      if (token === except) continue;
      assign(token, `bar${bar}_value`, attr.props.current);
      assign(token, `bar${bar}_max`, attr.props.max);
    }
  }

  private linkedAttribute(token: MockObject, bar: number): MockObject | undefined {
    const link = token.props[`bar${bar}_link`];
    if (typeof link !== 'string' || link === '') return undefined;
    const attr = this.byId.get(link);
    return attr?.type === 'attribute' ? attr : undefined;
  }

  private typeIndex(type: string): Map<string, MockObject> {
    let index = this.byType.get(type);
    if (!index) this.byType.set(type, (index = new Map()));
    return index;
  }
}

function changedKeys(prev: Props, now: Props): string[] {
  const keys = new Set([...Object.keys(now), ...Object.keys(prev)]);
  return [...keys].filter((key) => !Object.is(prev[key], now[key]));
}
