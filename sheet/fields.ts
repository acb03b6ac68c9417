// The companion sheet's declaration (issue 34): its fields are the script's own list of values
// (src/rules/edition.ts VALUE_KEYS, read under their default names, src/state/settings.ts) and
// each edition's `table.reads`; this file adds only what the sheet alone needs: each value's label
// and meaning in words (rules.md, "Default attribute names"), and the sheet's few fields of its own.
import type { EditionId, ValueKey } from '../src/rules/edition';
import { editionOf, playableEditions } from '../src/rules/editions';
import { DEFAULT_ATTRIBUTES, defaultSettings } from '../src/state/settings';

export interface ValueField {
  label: string;
  meaning: string;
  /** Its current value is the script's (worn armor): the sheet shows it read-only and edits the max (the undamaged value). */
  worn?: true;
}

/** Each value the rules read, in words (rules.md, "Default attribute names"). */
export const MEANINGS: Record<ValueKey, ValueField> = {
  armor_soak: { label: 'Soak %', meaning: 'the share of each hit the armor soaks, in percent' },
  armor_physical: { label: 'Physical protection', meaning: 'physical protection: now (worn by the script) / undamaged', worn: true },
  armor_magical: { label: 'Magical protection', meaning: 'magical protection: now (worn by the script) / undamaged', worn: true },
  armor_defense: { label: 'Armor Defense', meaning: 'the armor\'s flat Defense' },
  armor_spirit: { label: 'Armor Spirit', meaning: 'the armor\'s flat Spirit, against magical hits' },
  natural_defense: { label: 'Natural Defense', meaning: 'flat Defense once the armor is down' },
  natural_spirit: { label: 'Natural Spirit', meaning: 'flat Spirit once the armor is down' },
  fortitude: { label: 'Fortitude', meaning: 'the trait whose 5% the defensive stance takes off each hit' },
  defend_check: { label: 'Defend %', meaning: 'the defend check\'s target, in percent' },
  evade_check: { label: 'Evade %', meaning: 'the evade check\'s target, in percent' },
  perception_check: { label: 'Perception %', meaning: 'the perception check\'s target, in percent' },
  mental_check: { label: 'Mental %', meaning: 'the mental check\'s target, in percent' },
  reaction_check: { label: 'Reaction %', meaning: 'the reaction check\'s target, in percent' },
  save_check: { label: 'Vitality save %', meaning: 'the Vitality save\'s target, in percent' },
  exp: { label: 'EXP', meaning: 'experience points, paid for saves' },
  passive_defense: { label: 'Passive defense', meaning: 'the passive defense modifier' },
  active_defense: { label: 'Active defense', meaning: 'the active defense skill bonus' },
  full_defense: { label: 'Full defense', meaning: 'the full defense\'s extra bonus' },
  armor_score: { label: 'Armor score', meaning: 'the armor score that damage must pass' },
};

/** The bars, linked to bars 1-3 as the script's default settings expect (each with its max). */
export const BARS = (['vitality', 'soul', 'power'] as const).map((name) => ({ name, bar: defaultSettings().bars[name], label: name.charAt(0).toUpperCase() + name.slice(1) }));

/** The sheet's edition choice: which edition's fields it shows (the script's own is the GM's `config edition`). */
export const EDITION_FIELD = 'sheet_edition';

/** Derived, for reading: set by a sheet worker, never typed. */
export const DERIVED = [
  { name: 'defensive_flat', label: 'Defensive stance: flat defense', meaning: '5% of Fortitude, rounded down (a worker computes it)', from: 'fortitude' as ValueKey, percent: 5, edition: 'soak' as EditionId },
] as const;

export interface SheetEdition {
  id: EditionId;
  reads: readonly ValueKey[];
  macros: ReadonlyArray<{ name: string; action: string; gm?: boolean }>;
}

/** The editions the sheet offers, each with the values it reads and the buttons it sends (its table's macros). */
export function sheetEditions(): SheetEdition[] {
  return playableEditions().map((id) => {
    const { table } = editionOf(id);
    return { id, reads: table.reads, macros: table.macros };
  });
}

/** A value's attribute on the sheet: its default name (the GM who remaps names uses the Attributes tab). */
export const attributeOf = (key: ValueKey): string => DEFAULT_ATTRIBUTES[key];
