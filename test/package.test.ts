// `npm run package`: the layout of Roll20's community repository (as TokenMod's folder there:
// Name/script.json, Name/Script.js, Name/<version>/Script.js), from dist/ and script.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('the community-repository package', () => {
  it('has script.json, the script, and a folder for this version holding the same script', () => {
    const out = mkdtempSync(join(tmpdir(), 'defense-round-package-'));
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

  it('takes the publisher\'s Roll20 user id at packaging time, and refuses one that is not an id', () => {
    const out = mkdtempSync(join(tmpdir(), 'defense-round-package-'));
    execFileSync('node', ['scripts/package.mjs', '--out', out], { env: { ...process.env, ROLL20_USER_ID: '104025' } });
    expect(JSON.parse(readFileSync(join(out, 'DefenseRound', 'script.json'), 'utf8')).roll20userid).toBe('104025');
    expect(() => execFileSync('node', ['scripts/package.mjs', '--out', out], { env: { ...process.env, ROLL20_USER_ID: 'me' }, stdio: 'pipe' })).toThrow();
  });

  it('keeps the bundled packages\' licence notices in the shipped file', () => {
    const head = readFileSync('dist/defense-round.js', 'utf8').split('\n').slice(0, 6).join('\n');
    expect(head).toMatch(/valibot [\d.]+: MIT licence, Copyright \(c\) Fabian Hiller/);
    expect(readFileSync('LICENSE', 'utf8')).toMatch(/^MIT License/);
  });
});
