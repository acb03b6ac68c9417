import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

describe('the shipped file', () => {
  it('dist/defense-round.js equals a fresh build of src/', () => {
    const output = execFileSync(process.execPath, ['build.mjs', '--check'], { encoding: 'utf8' });
    expect(output).toMatch(/matches a fresh build/);
  });

  it('carries a banner with name, version and "generated from src/", and imports nothing at run time', () => {
    const bundle = readFileSync('dist/defense-round.js', 'utf8');
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(bundle.split('\n')[0]).toContain(`DefenseRound v${version}`);
    expect(bundle.split('\n').slice(0, 3).join('\n')).toMatch(/Generated from src\//);
    expect(bundle).not.toMatch(/\brequire\(/);
    expect(bundle).not.toMatch(/^\s*import\s/m);
  });

  it('script.json names the same version and file', () => {
    const script = JSON.parse(readFileSync('script.json', 'utf8'));
    const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
    expect(script.version).toBe(version);
    expect(script.script).toBe('defense-round.js');
    for (const field of ['name', 'description', 'authors', 'roll20userid', 'dependencies', 'modifies', 'useroptions', 'previousversions']) {
      expect(script).toHaveProperty(field);
    }
  });
});
