import { describe, it, expect } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRoll20 } from '../mocks/roll20.js';
import { buildDemoScene } from '../mocks/scene.js';
import { evaluateIn, loadBundle, loadBundleSource } from '../mocks/vm.js';

// A stand-in shaped like the esbuild bundle: an IIFE assigned to a global, handlers on ready.
const STAND_IN = `
var Probe = (() => {
  const seen = { require: typeof require, process: typeof process, module: typeof module, console: typeof console };
  on('ready', () => {
    state.Probe = state.Probe || { loads: 0 };
    state.Probe.loads += 1;
    on('chat:message', (msg) => {
      if (msg.type !== 'api' || msg.content.indexOf('!probe') !== 0) return;
      const token = getObj('graphic', msg.selected[0]._id);
      token.set('bar1_value', token.get('bar1_value') - msg.inlinerolls[0].results.total);
      sendChat('Probe', '/w gm ' + token.get('name') + ' at ' + token.get('bar1_value'));
    });
  });
  return { seen, version: '0.0.1' };
})();
`;

describe('loading a bundle in node:vm', () => {
  it('gives the script only the Roll20 globals', () => {
    const mock = createRoll20();
    const context = loadBundleSource(mock, STAND_IN);
    expect(context.Probe.seen).toEqual({ require: 'undefined', process: 'undefined', module: 'undefined', console: 'undefined' });
    for (const name of ['require', 'process', 'module', 'console', 'exports', 'Buffer', 'global', '__dirname']) {
      expect(evaluateIn(context, `typeof ${name}`), name).toBe('undefined');
    }
    for (const name of ['on', 'sendChat', 'findObjs', 'getAttrByName', 'Campaign', 'setTimeout', 'state']) {
      expect(evaluateIn(context, `typeof ${name}`), name).not.toBe('undefined');
    }
  });

  it('lets a test reach the globals the script defines, and drive its handlers', async () => {
    const mock = createRoll20();
    const scene = buildDemoScene(mock);
    const context = loadBundleSource(mock, STAND_IN);
    expect(context.Probe.version).toBe('0.0.1');
    mock.fireReady();
    mock.dice.force(4);
    await mock.chat(scene.players.GM, '!probe [[1d6]]', { selected: [scene.tokens['Goblin 1']] });
    expect(mock.token('Goblin 1').get('bar1_value')).toBe(26);
    expect(mock.whispersTo('gm').map((m) => m.content)).toEqual(['Goblin 1 at 26']);
  });

  it('shares state with the mock, across a restart that loads the file again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'defense-round-vm-'));
    try {
      const file = join(dir, 'bundle.js');
      writeFileSync(file, STAND_IN);
      const mock = createRoll20();
      loadBundle(mock, file);
      mock.fireReady();
      expect(mock.state.Probe).toEqual({ loads: 1 });
      let context = loadBundle(mock, file);
      await mock.restart(() => void (context = loadBundle(mock, file)));
      expect(mock.state.Probe).toEqual({ loads: 2 });
      expect(evaluateIn(context, 'state.Probe.loads')).toBe(2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('records an error at load, and one thrown inside the sandbox by a handler, as crashes', async () => {
    const mock = createRoll20();
    expect(() => loadBundleSource(mock, 'null.x;', 'broken.js')).toThrow(/TypeError.*broken\.js/s);
    expect(mock.takeCrashes().map((c) => c.event)).toEqual(['script load']);
    loadBundleSource(mock, `on('ready', () => { throw new RangeError('inside'); });`);
    expect(() => mock.fireReady()).toThrow(/RangeError: inside/);
    expect(mock.crashes[0]).toMatchObject({ event: 'ready', message: 'RangeError: inside' });
  });
});
