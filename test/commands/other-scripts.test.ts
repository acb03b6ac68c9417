// Other scripts as Roll20 loads them: every script of a game concatenated into one, so TokenMod's
// top-level `const` is a bare name in scope but not a property of the global object.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRoll20 } from '../../mocks/roll20';
import { buildDemoScene } from '../../mocks/scene';
import { evaluateIn, loadBundleSource } from '../../mocks/vm';
import { HEALTHCOLORS_STAND_IN, TOKENMOD_STAND_IN } from '../../mocks/other-scripts';

const BUNDLE = readFileSync('dist/defense-round.js', 'utf8');

describe('scripts loaded together, as Roll20 concatenates them', () => {
  it('finds TokenMod declared as a top-level const and follows its bar edits to the markers', async () => {
    const mock = createRoll20();
    buildDemoScene(mock);
    const context = loadBundleSource(mock, TOKENMOD_STAND_IN + BUNDLE);
    expect(evaluateIn(context, 'typeof globalThis.TokenMod')).toBe('undefined'); // not on the global object
    mock.fireReady();
    await mock.settle();
    const goblin = mock.token('Goblin 1');
    goblin.set('bar1_value', -3); // TokenMod's own write: an API set fires no Roll20 event
    (context as any).__goblin = goblin;
    evaluateIn(context, 'TokenMod.edited(globalThis.__goblin, { bar1_value: 30 })');
    await mock.settle();
    mock.assertNoCrash();
    expect(String(goblin.get('statusmarkers'))).toBe('sleepy');
  });

  it('finds HealthColors declared as a top-level var and calls its Update once per changed token', async () => {
    const mock = createRoll20();
    const scene = buildDemoScene(mock);
    const context = loadBundleSource(mock, HEALTHCOLORS_STAND_IN + BUNDLE);
    mock.fireReady();
    await mock.settle();
    await mock.chat(scene.players.GM, '!damage 70', { selected: [scene.tokens['Goblin 1'], scene.tokens['Goblin 2']] });
    mock.assertNoCrash();
    expect(evaluateIn(context, 'JSON.stringify(HealthColors.updates)')).toBe(JSON.stringify([['Goblin 1', 30], ['Goblin 2', 30]]));
  });
});
