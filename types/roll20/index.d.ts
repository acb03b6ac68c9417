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
  | 'page';

/** A bar value as Roll20 stores it: a number, a numeric string, "" or anything a user typed. */
type Roll20BarValue = number | string;

interface Roll20GraphicProperties extends Roll20BaseProperties {
  _type: 'graphic';
  _subtype: 'token' | 'card';
  _pageid: string;
  name: string;
  represents: string;
  controlledby: string;
  layer: string;
  left: number;
  top: number;
  width: number;
  height: number;
  imgsrc: string;
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
  gmnotes: string;
}
type Roll20Graphic = Roll20Object<Roll20GraphicProperties>;

interface Roll20CharacterProperties extends Roll20BaseProperties {
  _type: 'character';
  name: string;
  avatar: string;
  controlledby: string;
  inplayerjournals: string;
  archived: boolean;
  bio: string;
  gmnotes: string;
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
  color: string;
  speakingas: string;
}
type Roll20Player = Roll20Object<Roll20PlayerProperties>;

interface Roll20CampaignProperties extends Roll20BaseProperties {
  _type: 'campaign';
  /** JSON text of an array of Roll20TurnEntry, or "" when the tracker is empty. */
  turnorder: string;
  initiativepage: string | boolean;
  playerpageid: string;
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

declare function getAttrByName(characterId: string, attributeName: string, valueType?: 'current' | 'max'): string | number | undefined;
declare function playerIsGM(playerId: string): boolean;
declare function randomInteger(max: number): number;
declare function log(message: unknown): void;
declare function Campaign(): Roll20Campaign;

/** The API's persistent store: survives sandbox restarts; JSON only. */
declare var state: Record<string, any>;

/** Script line offsets that Roll20 scripts record for error reports (see build.mjs). */
declare var API_Meta: Record<string, { offset: number; lineCount: number }> | undefined;

/** One-click install options, keyed by the script's name in lower case (values as the GM chose them). */
declare var globalconfig: Record<string, Record<string, unknown> | undefined> | undefined;
