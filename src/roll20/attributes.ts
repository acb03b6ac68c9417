// Attribute look-ups, cheap in a campaign with tens of thousands of attributes: one findObjs per
// character, kept as attribute *objects* (never values, which are always read live) until an
// attribute of that character is added, removed or renamed.

export class AttributeIndex {
  private readonly byCharacter = new Map<string, Map<string, Roll20Attribute>>();

  /** Lower-cased names asked for: the same few names are asked for every token. */
  private readonly lowered = new Map<string, string>();

  /** The character's attribute with this name (case-insensitive), or undefined when it has none. */
  find(characterId: string, name: string): Roll20Attribute | undefined {
    let key = this.lowered.get(name);
    if (key === undefined) {
      key = name.toLowerCase();
      if (this.lowered.size < 200) this.lowered.set(name, key);
    }
    return this.indexOf(characterId).get(key);
  }

  /** Drop one character's index, e.g. on add:attribute, destroy:attribute, change:attribute:name. */
  forget(characterId: string): void {
    this.byCharacter.delete(characterId);
  }

  /** Drop everything (`!defense-round refresh`, after another script created attributes). */
  clear(): void {
    this.byCharacter.clear();
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
