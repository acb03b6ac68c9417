// Attribute look-ups, cheap in a campaign with tens of thousands of attributes: one findObjs per
// character, kept as attribute *objects* (never values, which are always read live) until an
// attribute of that character is added, removed or renamed. A name the game's sheet has no field
// for is asked of getAttrByName once per game (Roll20 logs an error line for each such ask).
import { keepableName, MAX_SHEET_LACKS } from '../state/sheetLacks';
import { BAR_PROPS } from './read';
import type { BarName } from '../state/settings';

export class AttributeIndex {
  /** `sheetLacks`: the stored list of names the sheet has no field for (lower-cased), kept in `state`. */
  constructor(private readonly sheetLacks: () => string[] = () => []) {}

  private readonly byCharacter = new Map<string, Map<string, Roll20Attribute>>();

  /** Lower-cased names asked for: the same few names are asked for every token. */
  private readonly lowered = new Map<string, string>();

  /** The character's attribute with this name (case-insensitive), or undefined when it has none. */
  find(characterId: string, name: string): Roll20Attribute | undefined {
    return this.indexOf(characterId).get(this.keyOf(name));
  }

  /** The key a name is found under (lower-cased, case-insensitive as Roll20's names are). */
  private keyOf(name: string): string {
    let key = this.lowered.get(name);
    if (key === undefined) {
      key = name.toLowerCase();
      if (this.lowered.size < 200) this.lowered.set(name, key);
    }
    return key;
  }

  /** The sheet's defaults asked for, by character, then by name as asked (the settings' names: the same strings each time). */
  private readonly defaults = new Map<string, Map<string, { current?: unknown; max?: unknown }>>();

  /**
   * The sheet's default for an attribute the character has no object for (Roll20's getAttrByName
   * gives it), asked once per character and name; undefined when the sheet has none.
   */
  sheetDefault(characterId: string, name: string, which: 'current' | 'max'): unknown {
    let known = this.defaults.get(characterId);
    if (!known) this.defaults.set(characterId, (known = new Map()));
    let entry = known.get(name);
    if (!entry) {
      if (known.size >= 200) return undefined; // a sheet asked for that many names is asked no more
      known.set(name, (entry = {}));
    }
    if (!(which in entry)) {
      const key = this.keyOf(name);
      const lacks = this.sheetLacks();
      if (lacks.includes(key) || typeof getAttrByName !== 'function') entry[which] = undefined;
      // A max is asked only of a field the sheet has: its current is asked first (and kept).
      else if (which === 'max' && this.sheetDefault(characterId, name, 'current') === undefined) entry[which] = undefined;
      else {
        entry[which] = getAttrByName(characterId, name, which);
        // Neither an attribute nor a sheet field: Roll20 logged its error line; this game's sheet is not asked again.
        if (which === 'current' && entry[which] === undefined && keepableName(key) && lacks.length < MAX_SHEET_LACKS && !lacks.includes(key)) lacks.push(key);
      }
    }
    return entry[which];
  }

  /** An attribute of this name now exists (added, created by another script, renamed to it): the sheet is asked again. */
  appeared(name: string): void {
    const lacks = this.sheetLacks();
    const at = lacks.indexOf(this.keyOf(name));
    if (at >= 0) lacks.splice(at, 1);
  }

  /** Drop one character's index, e.g. on add:attribute, destroy:attribute, change:attribute:name. */
  forget(characterId: string): void {
    this.byCharacter.delete(characterId);
    this.defaults.delete(characterId);
  }

  /** Drop everything (`!defense-round refresh`, after another script created attributes). */
  clear(): void {
    this.byCharacter.clear();
    this.defaults.clear();
    this.sheetLacks().length = 0;
  }

  get size(): number {
    return this.byCharacter.size;
  }

  private indexOf(characterId: string): Map<string, Roll20Attribute> {
    let index = this.byCharacter.get(characterId);
    if (!index) {
      index = new Map();
      for (const attribute of findObjs({ _type: 'attribute', _characterid: characterId })) {
        const key = String(attribute.get('name') ?? '').toLowerCase();
        if (!index.has(key)) index.set(key, attribute); // the first of duplicate names wins, as getAttrByName does
      }
      this.byCharacter.set(characterId, index);
    }
    return index;
  }
}

/**
 * What another script says of an attribute it touched: a Roll20 attribute, or a look-alike with
 * `get` (ChatSetAttr's on a Beacon sheet); undefined when it is neither.
 */
export function attributeTold(attribute: unknown): { id: string; characterId: string; name: string; current: unknown } | undefined {
  const get = (attribute as { get?: unknown } | null | undefined)?.get;
  if (typeof get !== 'function') return undefined;
  const read = (key: string): unknown => get.call(attribute, key);
  return { id: String(read('_id') ?? ''), characterId: String(read('_characterid') ?? ''), name: String(read('name') ?? ''), current: read('current') };
}

/** The tokens whose bar is linked to this attribute: one search of the tokens by link (Roll20 indexes objects by type). */
export function tokensLinkedTo(attributeId: string, bar: BarName): Roll20Graphic[] {
  return findObjs({ _type: 'graphic', _subtype: 'token', [BAR_PROPS[bar].link]: attributeId }) as Roll20Graphic[];
}
