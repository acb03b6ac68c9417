// The other half of the proof (issue 31: an edition copied from another under a new id, with its
// registry line and nothing else changed, passes): each registered edition's folder copied under a
// new id, and one line added to the registry (the copy's import; its name joins REGISTERED), built
// by build.mjs into a bundle that keeps to the budget, in which the copy is offered by the settings
// menu, is switched to, and plays its edition's worked example (its sample's) exactly as the
// original does. Nothing else in the source is touched, and no edition is named here.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { editionIds, editionOf } from '../../src/rules/editions';
import type { MockRoll20 } from '../../mocks/roll20';
import { BUDGET, measureParts, totalBudget } from '../support/budget';
import { openTable, texts, whispered } from '../support/table';

const root = join(__dirname, '..', '..');
const registryFile = join(root, 'src', 'rules', 'registry.ts');

/** The folder each registered edition is imported from, and the name its folder exports it under. */
function importsOf(registry: string): Map<string, { exported: string; folder: string }> {
  const found = new Map<string, { exported: string; folder: string }>();
  for (const match of registry.matchAll(/^import \{ (\w+)(?: as (\w+))? \} from '\.\/([\w-]+)';$/gm)) found.set(match[2] ?? match[1]!, { exported: match[1]!, folder: match[3]! });
  return found;
}

/** The registry with one edition more: its import after the last import, its name at the end of REGISTERED. */
function withCopy(registry: string, exported: string, id: string): string {
  const imports = [...registry.matchAll(/^import .*;$/gm)];
  const last = imports.at(-1)!;
  const at = last.index! + last[0].length;
  const imported = `${registry.slice(0, at)}\nimport { ${exported} as ${id} } from './${id}';${registry.slice(at)}`;
  return imported.replace(/export const REGISTERED = \{([^}]*)\}/, (_all, body: string) => {
    const names = body.trimEnd().replace(/,$/, '');
    return `export const REGISTERED = {${names}, ${id}${body.slice(body.trimEnd().length)}}`;
  });
}

interface Copy {
  original: string;
  id: string;
  /** The copy's source and build. */
  dir: string;
  bundle: string;
}

const made: string[] = [];
const copies: Copy[] = [];

beforeAll(() => {
  const registry = readFileSync(registryFile, 'utf8');
  const imports = importsOf(registry);
  mkdirSync(join(root, '.tmp'), { recursive: true });
  for (const original of editionIds()) {
    const from = imports.get(original);
    expect(from, `the registry imports ${original}`).toBeDefined();
    const id = `${original}copy`;
    const dir = mkdtempSync(join(root, '.tmp', 'copied-edition-'));
    made.push(dir);
    for (const part of ['src', 'package.json', 'build.mjs']) cpSync(join(root, part), join(dir, part), { recursive: true });
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
    // The copy: the folder under a new name, and its line in the registry (its name joins the list on its line).
    cpSync(join(dir, 'src', 'rules', from!.folder), join(dir, 'src', 'rules', id), { recursive: true });
    const added = withCopy(registry, from!.exported, id);
    expect(added.split('\n').length - registry.split('\n').length).toBe(1);
    expect(added).toMatch(new RegExp(`export const REGISTERED = \\{[^}]*\\b${original}\\b[^}]*, ${id}\\s*\\}`));
    writeFileSync(join(dir, 'src', 'rules', 'registry.ts'), added);
    // As a GM's file is built: build.mjs, shortened and compacted.
    execFileSync(process.execPath, ['build.mjs'], { cwd: dir, stdio: 'pipe' });
    copies.push({ original, id, dir, bundle: readFileSync(join(dir, 'dist', 'defense-round.js'), 'utf8') });
  }
}, 120_000);

afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** Sets a character's value before the script loads (made when the sheet lacks it); a protection undamaged. */
function sheetValue(mock: MockRoll20, character: string, key: string, value: number): void {
  // A protection's max is its undamaged value; Vitality's max is where a heal stops.
  const max = key === 'vitality' || key === 'armor_physical' || key === 'armor_magical' ? value : '';
  try {
    mock.attribute(character, key).set({ current: value, max });
  } catch {
    mock.create('attribute', { characterid: mock.character(character).id, name: key, current: value, max });
  }
}

/** The edition's worked example (its sample's; a plain hit without one) at the demo table, then undone: what chat showed, and Bob's Vitality after it. */
async function workedExample(play: string, rules: string, source: string) {
  const sample = editionOf(rules).table.sample;
  const table = await openTable('bundle', {
    bundleSource: source,
    setup: (mock) => {
      for (const [key, value] of Object.entries(sample?.hero ?? {})) sheetValue(mock, 'Bob', key, value);
      for (const [key, value] of Object.entries(sample?.foe ?? {})) if (key !== 'vitality') sheetValue(mock, 'Goblin', key, value);
    },
  });
  try {
    const switched = await table.say('GM', `!defense-round config edition ${play}`);
    const moves = sample?.example.moves.map((move) => move.line) ?? ['!damage 10'];
    if (moves.some((line) => /^!defend\b/.test(line))) await table.passTurn();
    const lines: string[] = [];
    for (const line of moves) lines.push(...texts(await table.say('GM', line, ['Bob'])));
    const vitality = table.bar('Bob');
    lines.push(...texts(await table.say('GM', '!damage --undo')));
    return { switched: whispered(switched, 'gm').join('\n'), lines, vitality, after: table.bar('Bob'), stored: table.stored().settings.edition };
  } finally {
    table.close();
  }
}

describe('each registered edition\'s folder copied under a new id, with one registry line', () => {
  it('copies every registered edition', () => {
    expect(copies.map((copy) => copy.original)).toEqual(editionIds());
    expect(copies.length).toBeGreaterThanOrEqual(3);
  });

  it.each(editionIds())('a copy of %s keeps to the budget: the core as it was, the copy weighed on its own, the total within that of one edition more', async (original) => {
    const copy = copies.find((c) => c.original === original)!;
    const shipped = Buffer.byteLength(copy.bundle);
    const parts = await measureParts(copy.dir, shipped);
    expect(Object.keys(parts.editions)).toContain(copy.id);
    expect(parts.core).toBeLessThanOrEqual(BUDGET.core);
    expect(Object.entries(parts.editions).filter(([, bytes]) => bytes > BUDGET.edition)).toEqual([]);
    expect(shipped).toBeLessThanOrEqual(totalBudget(editionIds().length + 1));
  });

  it.each(editionIds())('a copy of %s is offered in the settings menu, switched to, and plays its worked example exactly as the original does', async (original) => {
    const copy = copies.find((c) => c.original === original)!;
    const menu = await openTable('bundle', { bundleSource: copy.bundle });
    try {
      const shown = (await menu.say('GM', '!defense-round')).map((record) => record.content).join('\n');
      expect(shown).toContain(`!defense-round config edition ${copy.id}`);
      expect(shown).toContain(`!defense-round config edition ${original}`);
    } finally {
      menu.close();
    }
    const theOriginal = await workedExample(original, original, copy.bundle);
    const theCopy = await workedExample(copy.id, original, copy.bundle);
    expect(theCopy.switched).toMatch(new RegExp(`Edition is now ${copy.id}`));
    expect(theCopy.stored).toBe(copy.id);
    expect(theOriginal.lines.length).toBeGreaterThan(1);
    expect(theCopy.lines).toEqual(theOriginal.lines);
    expect(theCopy.vitality).toBe(theOriginal.vitality);
    expect(theCopy.after).toBe(theOriginal.after);
    // The example did something, and undo took it back.
    if (editionOf(original).table.sample) expect(theOriginal.vitality).not.toBe(theOriginal.after);
  });
});
