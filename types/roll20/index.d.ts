// Ambient declarations of the Roll20 API sandbox, written from Roll20's public API
// documentation. Shaped like the community typings (one interface of properties per object
// type, objects generic over those properties) so that moving to them is a one-line change.

/** Every Roll20 object: `get` answers with or without the leading underscore. */
interface Roll20Object<TProps extends Roll20BaseProperties = Roll20BaseProperties> {
  readonly id: string;
  get<K extends keyof Roll20Readable<TProps> & string>(property: K): Roll20Readable<TProps>[K];
  set<K extends keyof TProps & string>(property: K, value: TProps[K]): void;
  set(properties: Partial<TProps>): void;
  setWithWorker(properties: Partial<TProps>): void;
  remove(): void;
}

/** The properties as `get` reads them: `_represents` may also be asked for as `represents`. */
type Roll20Readable<T> = T & { [K in keyof T as K extends `_${infer Rest}` ? Rest : never]: T[K] };

interface Roll20BaseProperties {
  _id: string;
  _type: Roll20ObjectType;
}

type Roll20ObjectType =
  | 'graphic'
  | 'text'
  | 'path'
  | 'character'
  | 'ability'
  | 'attribute'
  | 'handout'
  | 'rollabletable'
  | 'tableitem'
  | 'macro'
  | 'campaign'
  | 'player'
  | 'page'
  | 'deck'
  | 'card'
  | 'hand'
  | 'jukeboxtrack'
  | 'custfx'
  | 'door'
  | 'window';

/** A bar value as Roll20 stores it: a number, a numeric string, "" or anything a user typed. */
type Roll20BarValue = number | string;

/** Where an object on a page lies: graphics, paths and texts share these. */
interface Roll20PlacedProperties {
  _pageid: string;
  /** "gmlayer", "objects", "map", "walls" or a newer layer such as "foreground". */
  layer: string;
  left: number;
  top: number;
  width: number;
  height: number;
  /** Degrees. */
  rotation: number;
}

interface Roll20GraphicProperties extends Roll20BaseProperties, Roll20PlacedProperties {
  _type: 'graphic';
  _subtype: 'token' | 'card';
  /** Only on a card played to the table. */
  _cardid?: string;
  name: string;
  represents: string;
  controlledby: string;
  imgsrc: string;
  isdrawing: boolean;
  flipv: boolean;
  fliph: boolean;
  tooltip: string;
  show_tooltip: boolean;
  statusmarkers: string;
  showname: boolean;
  bar1_value: Roll20BarValue;
  bar1_max: Roll20BarValue;
  bar1_link: string;
  bar2_value: Roll20BarValue;
  bar2_max: Roll20BarValue;
  bar2_link: string;
  bar3_value: Roll20BarValue;
  bar3_max: Roll20BarValue;
  bar3_link: string;
  bar_location: 'overlap_top' | 'overlap_bottom' | 'bottom';
  compact_bar: 'compact' | '';
  gmnotes: string;
  /** Who besides the GM sees the name, bars and auras, and who may edit them. */
  showplayers_name: boolean;
  showplayers_bar1: boolean;
  showplayers_bar2: boolean;
  showplayers_bar3: boolean;
  showplayers_aura1: boolean;
  showplayers_aura2: boolean;
  playersedit_name: boolean;
  playersedit_bar1: boolean;
  playersedit_bar2: boolean;
  playersedit_bar3: boolean;
  playersedit_aura1: boolean;
  playersedit_aura2: boolean;
  /** Aura radius in page units; "" when the aura is off. */
  aura1_radius: number | string;
  aura1_color: string;
  aura1_square: boolean;
  aura2_radius: number | string;
  aura2_color: string;
  aura2_square: boolean;
  /** A hex colour, or "transparent" for no tint. */
  tint_color: string;
  /** Comma-separated x,y pairs of the token's last move. */
  lastmove: string;
  /** Pipe-separated, URI-encoded image URLs of a multi-sided token. */
  sides: string;
  currentSide: number;
  lockMovement: boolean;
  // Dynamic lighting (Roll20's "Mod (API) Support For Dynamic Lighting" article).
  has_bright_light_vision: boolean;
  has_night_vision: boolean;
  night_vision_distance: number;
  night_vision_effect: string;
  emits_bright_light: boolean;
  bright_light_distance: number;
  emits_low_light: boolean;
  low_light_distance: number;
  light_sensitivity_multiplier: number;
  has_limit_field_of_vision: boolean;
  limit_field_of_vision_center: number;
  limit_field_of_vision_total: number;
  has_limit_field_of_night_vision: boolean;
  limit_field_of_night_vision_center: number;
  limit_field_of_night_vision_total: number;
  // Legacy dynamic lighting: radii are "" when the token gives no light.
  light_radius: number | string;
  light_dimradius: number | string;
  light_otherplayers: boolean;
  light_hassight: boolean;
  light_angle: number | string;
  light_losangle: number | string;
  light_multiplier: number | string;
}
type Roll20Graphic = Roll20Object<Roll20GraphicProperties>;

interface Roll20CharacterProperties extends Roll20BaseProperties {
  _type: 'character';
  name: string;
  avatar: string;
  controlledby: string;
  inplayerjournals: string;
  archived: boolean;
  /** Bio and gmnotes are read asynchronously in Roll20 (get with a callback). */
  bio: string;
  gmnotes: string;
  /** JSON text of the default token, "" when the character has none. */
  _defaulttoken: string;
}
type Roll20Character = Roll20Object<Roll20CharacterProperties>;

interface Roll20AttributeProperties extends Roll20BaseProperties {
  _type: 'attribute';
  _characterid: string;
  name: string;
  current: Roll20BarValue;
  max: Roll20BarValue;
}
type Roll20Attribute = Roll20Object<Roll20AttributeProperties>;

interface Roll20PlayerProperties extends Roll20BaseProperties {
  _type: 'player';
  _d20userid: string;
  _displayname: string;
  _online: boolean;
  _lastpage: string;
  _macrobar: string;
  color: string;
  speakingas: string;
  showmacrobar: boolean;
}
type Roll20Player = Roll20Object<Roll20PlayerProperties>;

interface Roll20CampaignProperties extends Roll20BaseProperties {
  _type: 'campaign';
  /** JSON text of an array of Roll20TurnEntry, or "" when the tracker is empty. */
  turnorder: string;
  /** The Turn Tracker's page, or false while the tracker is closed. */
  initiativepage: string | boolean;
  /**
   * The page of the players' bookmark. Roll20 also allows false (a campaign whose bookmark was
   * never set); it stays string here so it can be passed on as a _pageid.
   */
  playerpageid: string;
  /** Player id to page id, for players split off from the bookmark; false when nobody is. */
  playerspecificpages: Record<string, string> | false;
  /** JSON text of the journal's and the jukebox's folder trees. */
  _journalfolder: string;
  _jukeboxfolder: string;
  /** JSON text of the campaign's custom token markers. */
  token_markers: string;
}
type Roll20Campaign = Roll20Object<Roll20CampaignProperties>;

interface Roll20HandoutProperties extends Roll20BaseProperties {
  _type: 'handout';
  name: string;
  avatar: string;
  inplayerjournals: string;
  controlledby: string;
  archived: boolean;
  /** Notes and gmnotes are read asynchronously in Roll20; they are written with set(). */
  notes: string;
  gmnotes: string;
}
type Roll20Handout = Roll20Object<Roll20HandoutProperties>;

interface Roll20AbilityProperties extends Roll20BaseProperties {
  _type: 'ability';
  _characterid: string;
  name: string;
  description: string;
  action: string;
  istokenaction: boolean;
}
type Roll20Ability = Roll20Object<Roll20AbilityProperties>;

interface Roll20MacroProperties extends Roll20BaseProperties {
  _type: 'macro';
  _playerid: string;
  name: string;
  action: string;
  visibleto: string;
  istokenaction: boolean;
}
type Roll20Macro = Roll20Object<Roll20MacroProperties>;

interface Roll20PageProperties extends Roll20BaseProperties {
  _type: 'page';
  _zorder: string;
  name: string;
  /** Size in grid units. */
  width: number;
  height: number;
  archived: boolean;
  background_color: string;
  showgrid: boolean;
  grid_type: 'square' | 'hex' | 'hexr' | 'dimetric' | 'isometric';
  snapping_increment: number;
  scale_number: number;
  scale_units: string;
  dynamic_lighting_enabled: boolean;
}
type Roll20Page = Roll20Object<Roll20PageProperties>;

interface Roll20PathProperties extends Roll20BaseProperties, Roll20PlacedProperties {
  _type: 'path';
  /** JSON text of the path's segments; writable only when creating the path. */
  _path: string;
  scaleX: number;
  scaleY: number;
  fill: string;
  stroke: string;
  stroke_width: number;
  controlledby: string;
}
type Roll20Path = Roll20Object<Roll20PathProperties>;

interface Roll20TextProperties extends Roll20BaseProperties, Roll20PlacedProperties {
  _type: 'text';
  text: string;
  font_size: number;
  font_family: string;
  color: string;
  controlledby: string;
}
type Roll20Text = Roll20Object<Roll20TextProperties>;

interface Roll20RollableTableProperties extends Roll20BaseProperties {
  _type: 'rollabletable';
  name: string;
  showplayers: boolean;
}
type Roll20RollableTable = Roll20Object<Roll20RollableTableProperties>;

interface Roll20TableItemProperties extends Roll20BaseProperties {
  _type: 'tableitem';
  _rollabletableid: string;
  name: string;
  avatar: string;
  weight: number;
}
type Roll20TableItem = Roll20Object<Roll20TableItemProperties>;

/** One Turn Tracker row as Roll20 keeps it inside Campaign().get('turnorder'). */
interface Roll20TurnEntry {
  id: string;
  pr: string | number;
  custom: string;
  _pageid?: string;
  formula?: string;
}

interface Roll20ObjectMap {
  graphic: Roll20Graphic;
  character: Roll20Character;
  attribute: Roll20Attribute;
  player: Roll20Player;
  campaign: Roll20Campaign;
  handout: Roll20Handout;
  ability: Roll20Ability;
  macro: Roll20Macro;
  page: Roll20Page;
  path: Roll20Path;
  text: Roll20Text;
  rollabletable: Roll20RollableTable;
  tableitem: Roll20TableItem;
}

interface Roll20InlineRoll {
  expression: string;
  results: {
    total: number;
    type?: string;
    rolls?: unknown[];
  };
  rollid?: string;
  signature?: string;
}

interface Roll20SelectedObject {
  _id: string;
  _type: Roll20ObjectType;
}

interface Roll20ChatMessage {
  type: 'general' | 'rollresult' | 'gmrollresult' | 'emote' | 'whisper' | 'desc' | 'api';
  who: string;
  playerid: string;
  content: string;
  selected?: Roll20SelectedObject[];
  inlinerolls?: Roll20InlineRoll[];
  rolltemplate?: string;
  target?: string;
  target_name?: string;
  origRoll?: string;
}

interface Roll20SendChatOptions {
  noarchive?: boolean;
  use3d?: boolean;
}

declare function on(event: 'ready', callback: () => void): void;
declare function on(event: 'chat:message', callback: (msg: Roll20ChatMessage) => void): void;
declare function on(
  event: `change:graphic${string}`,
  callback: (obj: Roll20Graphic, prev: Partial<Roll20GraphicProperties>) => void,
): void;
declare function on(
  event: `change:campaign${string}`,
  callback: (obj: Roll20Campaign, prev: Partial<Roll20CampaignProperties>) => void,
): void;
declare function on(
  event: `change:attribute${string}`,
  callback: (obj: Roll20Attribute, prev: Partial<Roll20AttributeProperties>) => void,
): void;
declare function on(event: 'add:attribute' | 'destroy:attribute', callback: (obj: Roll20Attribute) => void): void;
declare function on(event: 'add:graphic' | 'destroy:graphic', callback: (obj: Roll20Graphic) => void): void;
declare function on(event: string, callback: (...args: any[]) => void): void;

declare function sendChat(
  speakingAs: string,
  message: string,
  callback?: ((operations: Roll20ChatMessage[]) => void) | null,
  options?: Roll20SendChatOptions,
): void;

declare function getObj<K extends keyof Roll20ObjectMap>(type: K, id: string): Roll20ObjectMap[K] | undefined;

declare function findObjs<K extends keyof Roll20ObjectMap>(
  attrs: ({ _type: K } | { type: K }) & Record<string, unknown>,
  options?: { caseInsensitive?: boolean },
): Roll20ObjectMap[K][];
declare function findObjs(attrs: Record<string, unknown>, options?: { caseInsensitive?: boolean }): Roll20Object<any>[];

declare function filterObjs(predicate: (obj: Roll20Object<any>) => boolean): Roll20Object<any>[];
declare function getAllObjs(): Roll20Object<any>[];

declare function createObj<K extends keyof Roll20ObjectMap>(
  type: K,
  properties: Partial<Omit<Roll20ObjectMap[K] extends Roll20Object<infer P> ? P : never, '_id' | '_type'>> &
    Record<string, unknown>,
): Roll20ObjectMap[K] | undefined;

/** Which value of an attribute or sheet item: its current value (the default) or its max. */
type Roll20ValueType = 'current' | 'max';

/**
 * The value of a character's attribute, or the sheet's default for a field that has no attribute
 * object yet. Repeating rows may be named by index: repeating_section_$0_field.
 */
declare function getAttrByName(characterId: string, attributeName: string, valueType?: Roll20ValueType): string;

interface Roll20SheetItemOptions {
  /** Reject the promise instead of resolving it when the item cannot be read or written. */
  allowThrow?: boolean;
}

/** Reads a sheet item (a Beacon sheet's computed or user attribute) of a character. */
declare function getSheetItem(
  characterId: string,
  itemName: string,
  valueType?: Roll20ValueType | Roll20SheetItemOptions,
  options?: Roll20SheetItemOptions,
): Promise<string | undefined>;

/** Writes a sheet item of a character; resolves true when the write was accepted. */
declare function setSheetItem(
  characterId: string,
  itemName: string,
  value: unknown,
  valueType?: Roll20ValueType | Roll20SheetItemOptions,
  options?: Roll20SheetItemOptions,
): Promise<boolean>;

declare function playerIsGM(playerId: string): boolean;
declare function randomInteger(max: number): number;
declare function log(message: unknown): void;
declare function Campaign(): Roll20Campaign;

type Roll20Placeable = Roll20Graphic | Roll20Path | Roll20Text;
declare function toFront(obj: Roll20Placeable): void;
declare function toBack(obj: Roll20Placeable): void;
declare function setDefaultTokenForCharacter(character: Roll20Character, token: Roll20Graphic): void;

interface Roll20Point {
  x: number;
  y: number;
}
/** A built-in effect ("burst-fire", "glow-holy"...) or the id of a custfx object. */
declare function spawnFx(x: number, y: number, type: string, pageId?: string): void;
declare function spawnFxBetweenPoints(from: Roll20Point, to: Roll20Point, type: string, pageId?: string): void;
declare function spawnFxWithDefinition(x: number, y: number, definition: Record<string, unknown>, pageId?: string): void;
declare function sendPing(
  left: number,
  top: number,
  pageId: string,
  playerId?: string | null,
  moveAll?: boolean,
  visibleTo?: string | string[],
): void;

/** The API's persistent store: survives sandbox restarts; JSON only. */
declare var state: Record<string, any>;

/** Script line offsets that Roll20 scripts record for error reports (see build.mjs). */
declare var API_Meta: Record<string, { offset: number; lineCount: number }> | undefined;

/** One-click install options, keyed by the script's name in lower case (values as the GM chose them). */
declare var globalconfig: Record<string, Record<string, unknown> | undefined> | undefined;
