// Attribute look-ups, cheap in a campaign with tens of thousands of attributes: one findObjs per
// character, kept as attribute *objects* (never values, which are always read live) until an
// attribute of that character is added, removed or renamed.

export class AttributeIndex {
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
    if (!(which in entry)) entry[which] = typeof getAttrByName === 'function' ? getAttrByName(characterId, name, which) : undefined;
    return entry[which];
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
