// The other half of the proof (issue: a fourth edition is one folder and one registry line): the
// threshold folder copied under a new id, and one line added to the registry, builds into a bundle
// in which the copy can be switched to and plays The Defensive Turn's worked example exactly as
// threshold does. Nothing else in the source is touched.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTable, texts, whispered } from '../support/table';

const root = join(__dirname, '..', '..');
let dir: string;
let bundle: string;

beforeAll(async () => {
  mkdirSync(join(root, '.tmp'), { recursive: true });
  dir = mkdtempSync(join(root, '.tmp', 'copied-edition-'));
  cpSync(join(root, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(root, 'package.json'), join(dir, 'package.json'));
  // The copy: the folder under a new name, and its line in the registry (with its import).
  cpSync(join(dir, 'src', 'rules', 'threshold'), join(dir, 'src', 'rules', 'tithe'), { recursive: true });
  const registry = join(dir, 'src', 'rules', 'registry.ts');
  const text = readFileSync(registry, 'utf8');
  const added = text
    .replace("import { opposed } from './opposed';", "import { opposed } from './opposed';\nimport { threshold as tithe } from './tithe';")
    .replace('export const REGISTERED = { soak, threshold, opposed };', 'export const REGISTERED = { soak, threshold, opposed, tithe };');
  expect(added.split('\n').length - text.split('\n').length).toBe(1);
  writeFileSync(registry, added);
  const result = await build({
    entryPoints: [join(dir, 'src', 'index.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'DefenseRound',
    inject: [join(dir, 'src', 'builtins.ts')],
    target: 'es2020',
    platform: 'neutral',
    logLevel: 'silent',
  });
  bundle = result.outputFiles[0]!.text;
}, 60_000);

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The worked example at the demo table in one edition: what chat showed and where the bars ended. */
async function workedExample(edition: string, source: string) {
  const table = await openTable('bundle', {
    bundleSource: source,
    setup: (mock) => {
      // The Defensive Turn: Vitality 30, Defense 10, Physical Armor 18, a hit of 20.
      for (const [name, value] of Object.entries({ vitality: 30, armor_defense: 10, armor_physical: 18 })) mock.attribute('Bob', name).set('current', value);
    },
  });
  try {
    const switched = await table.say('GM', `!defense-round config edition ${edition}`);
    expect(whispered(switched, 'gm').join('\n')).toMatch(new RegExp(`Edition is now ${edition}`));
    await table.passTurn();
    const lines = [
      ...texts(await table.say('Alice', '!defend --action defend --roll 55', ['Bob'])),
      ...texts(await table.say('Alice', '!damage 20 --hit 19', ['Bob'])),
      ...texts(await table.say('Alice', '!damage 20 --hit 18', ['Bob'])),
      ...texts(await table.say('Alice', '!damage --undo')),
    ];
    return { lines, vitality: table.attr('Bob', 'vitality'), physical: table.attr('Bob', 'armor_physical'), stored: table.stored().settings.edition };
  } finally {
    table.close();
  }
}

describe('the threshold folder copied under a new id, with one registry line', () => {
  it('builds, is switched to, and plays The Defensive Turn\'s worked example exactly as threshold does', async () => {
    const original = await workedExample('threshold', bundle);
    const copy = await workedExample('tithe', bundle);
    expect(copy.stored).toBe('tithe');
    expect(original.lines.join('\n')).toMatch(/Defend d100 55 vs 55: success.*Hit chance 19 beats Physical Armor 18: a hit.*20 - 10 Defense = 10.*Vitality 30 -> 20/s);
    expect(copy.lines).toEqual(original.lines);
    expect(copy.vitality).toBe(original.vitality);
    expect(copy.physical).toBe(18);
  });

  it('the copy is offered in the settings menu', async () => {
    const table = await openTable('bundle', { bundleSource: bundle });
    try {
      const menu = await table.say('GM', '!defense-round');
      expect(menu.map((record) => record.content).join('\n')).toContain('!defense-round config edition tithe');
    } finally {
      table.close();
    }
  });
});
