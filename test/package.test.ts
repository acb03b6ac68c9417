// `npm run package`: the layout of Roll20's community repository (as TokenMod's folder there:
// Name/script.json, Name/Script.js, Name/<version>/Script.js), from dist/ and script.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterEach, describe, expect, it } from 'vitest';
import { editionIds } from '../src/rules/editions';
import { BUDGET, measureParts, totalBudget } from './support/budget';

describe('the community-repository package', () => {
  // The folders the packager wrote go when each test is done (no litter in the system's temp folder).
  const made: string[] = [];
  const outFolder = (): string => {
    const out = mkdtempSync(join(tmpdir(), 'defense-round-package-'));
    made.push(out);
    return out;
  };
  afterEach(() => {
    for (const out of made.splice(0)) rmSync(out, { recursive: true, force: true });
  });

  it('has script.json, the script, and a folder for this version holding the same script', () => {
    const out = outFolder();
    execFileSync('node', ['scripts/package.mjs', '--out', out]);
    const folder = join(out, 'DefenseRound');
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(readdirSync(folder).sort()).toEqual([version, 'defense-round.js', 'script.json'].sort());
    expect(readdirSync(join(folder, version))).toEqual(['defense-round.js']);
    const bundle = readFileSync('dist/defense-round.js', 'utf8');
    expect(readFileSync(join(folder, 'defense-round.js'), 'utf8')).toBe(bundle);
    expect(readFileSync(join(folder, version, 'defense-round.js'), 'utf8')).toBe(bundle);
    const meta = JSON.parse(readFileSync(join(folder, 'script.json'), 'utf8'));
    expect(meta).toMatchObject({ name: 'DefenseRound', script: 'defense-round.js', version });
    for (const field of ['description', 'authors', 'roll20userid', 'useroptions', 'dependencies', 'modifies', 'conflicts', 'previousversions']) expect(meta).toHaveProperty(field);
    for (const command of ['!damage', '!damage --undo', '!defend', '!stance', '!heal', '!defense-round']) expect(meta.description).toContain(command);
  });

  it('writes the companion sheet beside the script, in the layout of Roll20\'s character-sheet repository', () => {
    const out = outFolder();
    execFileSync('node', ['scripts/package.mjs', '--out', out], { env: { ...process.env, ROLL20_USER_ID: '104025' } });
    const folder = join(out, 'DefenseRound-sheet');
    expect(readdirSync(out).sort()).toEqual(['DefenseRound', 'DefenseRound-sheet']);
    expect(readdirSync(folder).sort()).toEqual(['defense-round.css', 'defense-round.html', 'preview.png', 'sheet.json', 'translation.json']);
    for (const name of ['defense-round.css', 'defense-round.html', 'translation.json']) expect(readFileSync(join(folder, name), 'utf8')).toBe(readFileSync(join('sheet', name), 'utf8'));
    const meta = JSON.parse(readFileSync(join(folder, 'sheet.json'), 'utf8'));
    expect(meta).toMatchObject({ html: 'defense-round.html', css: 'defense-round.css', preview: 'preview.png', roll20userid: '104025', legacy: true });
    for (const field of ['authors', 'instructions']) expect(meta).toHaveProperty(field);
  });

  it('takes the publisher\'s Roll20 user id at packaging time, and refuses one that is not an id', () => {
    const out = outFolder();
    execFileSync('node', ['scripts/package.mjs', '--out', out], { env: { ...process.env, ROLL20_USER_ID: '104025' } });
    expect(JSON.parse(readFileSync(join(out, 'DefenseRound', 'script.json'), 'utf8')).roll20userid).toBe('104025');
    expect(() => execFileSync('node', ['scripts/package.mjs', '--out', out], { env: { ...process.env, ROLL20_USER_ID: 'me' }, stdio: 'pipe' })).toThrow();
  });

  it('carries the full licence text of every package bundled into the shipped file', async () => {
    // Which packages are in the bundle, found from esbuild's own account of its inputs (not from the header).
    const { metafile } = await build({ entryPoints: ['src/index.ts'], bundle: true, write: false, metafile: true, format: 'iife', platform: 'neutral', logLevel: 'silent' });
    const bundled = [...new Set(Object.keys(metafile.inputs).flatMap((path) => /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path)?.[1] ?? []))];
    expect(bundled).toContain('valibot');
    const bundle = readFileSync('dist/defense-round.js', 'utf8');
    const header = bundle.slice(0, bundle.indexOf('var API_Meta'));
    // The header's comment lines, without their comment marks, as one text.
    const notice = header.split('\n').map((line) => line.replace(/^\/\/ {0,3}/, '')).join('\n');
    for (const name of bundled) {
      const dir = join('node_modules', name);
      const file = readdirSync(dir).find((entry) => /^licen[cs]e(\.md|\.txt)?$/i.test(entry));
      expect(file, `${name} ships a licence file`).toBeDefined();
      const text = readFileSync(join(dir, file!), 'utf8').trim().replace(/\r\n/g, '\n');
      const { version } = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
      expect(header).toContain(`// ${name} ${version} (`);
      expect(notice).toContain(text);
      if (/^MIT/.test(text)) expect(notice).toMatch(/The above copyright notice and this permission notice shall be included/);
    }
    expect(readFileSync('LICENSE', 'utf8')).toMatch(/^MIT License/);
  });
});

describe('the shipped file', () => {
  it('keeps to its budget per part: the shared core, each edition on its own, and a total that grows with the editions (Roll20 loads every script of a game on each start)', async () => {
    const shipped = readFileSync('dist/defense-round.js').length;
    const parts = await measureParts(process.cwd(), shipped);
    // Every registered edition's folder is weighed (a measure that found none would weigh nothing).
    expect(Object.keys(parts.editions).length).toBe(editionIds().length);
    expect(parts.core).toBeGreaterThan(0);
    expect(parts.core).toBeLessThanOrEqual(BUDGET.core);
    expect(Object.entries(parts.editions).filter(([, bytes]) => bytes > BUDGET.edition)).toEqual([]);
    expect(shipped).toBeLessThanOrEqual(totalBudget(editionIds().length));
  });

  it('keeps its lines (a logged stack\'s line number points into the file), its strings and its global', () => {
    const bundle = readFileSync('dist/defense-round.js', 'utf8');
    expect(bundle.split('\n').length).toBeGreaterThan(3000);
    expect(bundle).toMatch(/^var DefenseRound = \(\(\) => \{$/m);
    expect(bundle).toContain('is for everyone but the one acting. Saves are still allowed.');
  });
});
