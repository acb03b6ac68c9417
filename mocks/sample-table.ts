// An edition's sample (its `table.sample`) as the GM's own edits of the demo table: Bob as the
// edition's worked example has him, the goblins' shared sheet to match. The script keeps bars and
// armor on an edition switch by design; the sandbox and the playground make these edits after a
// switch (and say so), so the demo's armor suits the edition: soak's Physical 100 would leave no
// threshold hit chance (a d20) anything to beat. Cleo keeps her light armor in every edition.
import { editionOf } from '../src/rules/editions.js';
import type { EditionId, SampleValues, ValueKey } from '../src/rules/edition.js';

/** The demo table's hero and the sheet its foes share (mocks/scene.ts). */
export const HERO = 'Bob';
export const FOE = 'Goblin';

/** The values that wear (a protection): written undamaged, the max too. */
export const WORN: ReadonlySet<string> = new Set<ValueKey>(['armor_physical', 'armor_magical']);

/** One edit: a value on a character's sheet, or Bob's Vitality (typed into his bar, the max too). */
export type SampleEdit = { kind: 'sheet'; character: string; key: ValueKey; value: number } | { kind: 'vitality'; token: string; value: number };

/** The edits that give the demo table an edition's sample values; none when the edition has no sample. */
export function sampleEdits(edition: EditionId): SampleEdit[] {
  const sample = editionOf(edition).table.sample;
  if (sample === undefined) return [];
  const edits: SampleEdit[] = [];
  for (const [who, values] of [[HERO, sample.hero], [FOE, sample.foe]] as const) {
    for (const [key, value] of Object.entries(values) as Array<[keyof SampleValues, number]>) {
      if (key !== 'vitality') edits.push({ kind: 'sheet', character: who, key, value });
      else if (who === HERO) edits.push({ kind: 'vitality', token: HERO, value });
    }
  }
  return edits;
}

/** One edit in words, by the sample's names: "Physical armor 18", "Vitality 30". */
function editWords(edition: EditionId, edit: SampleEdit): string {
  if (edit.kind === 'vitality') return `Vitality ${edit.value}`;
  return `${editionOf(edition).table.sample?.sheet[edit.key] ?? edit.key} ${edit.value}`;
}

/** Edits in words, by whom they change: "Bob: Vitality 30, Physical armor 18; the goblins' sheet: Physical armor 12". */
export function editsWords(edition: EditionId, edits: readonly SampleEdit[]): string {
  const of = (who: string) => edits.filter((e) => (e.kind === 'sheet' ? e.character : e.token) === who).map((e) => editWords(edition, e));
  const parts = [[HERO, of(HERO)], ["the goblins' sheet", of(FOE)]] as const;
  return parts.filter(([, words]) => words.length > 0).map(([who, words]) => `${who}: ${words.join(', ')}`).join('; ');
}

/** What the sandbox and the page say after they made a switch's edits (nothing when none was needed). */
export function switchNote(edition: EditionId, made: readonly SampleEdit[], by: string): string | undefined {
  if (made.length === 0) return undefined;
  return `${by} gives the demo table the ${edition} sample's values, as the GM's own sheet edits (the script itself keeps values on a switch): ${editsWords(edition, made)}. Cleo keeps her light armor.`;
}
