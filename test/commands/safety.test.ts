import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, type Table } from '../support/table';
import { evaluateIn, loadBundle } from '../../mocks/vm';
import { createRoll20 } from '../../mocks/roll20';
import { buildDemoScene } from '../../mocks/scene';

const HOSTILE = '<b>Evil</b> [[1d20]] {{name=x}} @{Bob|vitality} %{Bob|attack} ?{q} !damage 9';

describe.each(MODES)('nothing the game supplies reaches chat unescaped, and nothing crashes (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('escapes token names and arguments in cards, short lines and refusals', async () => {
    table = await openTable(mode, {
      setup: (mock) => mock.token('Goblin 1').set('name', HOSTILE),
    });
    const out = [
      ...(await table.say('GM', '!damage 200', ['Goblin 1'])),
      ...(await table.say('GM', '!defend --action defend --roll 99', ['Goblin 1'])),
      ...(await table.say('GM', '!damage <script>', ['Goblin 1'])),
      ...(await table.say('GM', '!stance [[1d6]]', ['Goblin 1'])),
    ].filter((r) => r.who === 'DefenseRound');
    expect(out.length).toBeGreaterThan(4);
    for (const record of out) {
      const withoutOwnMarkup = record.content
        .replace(/^(\/w \S+ )?&\{template:default\} /, '')
        .replace(/\{\{[A-Za-z ]+=/g, '')
        .replace(/\}\}/g, '')
        .replace(/\(!damage \?\{Damage\} --ids [-\w]+\)/, '');
      for (const danger of ['<b>', '<script>', '[[', '{{', '@{', '%{', '?{']) expect(withoutOwnMarkup).not.toContain(danger);
    }
  });
});

describe('the bundle in a Roll20-like vm sandbox', () => {
  it('reports a throwing Roll20 call to the sender and the API log, never to the sandbox', async () => {
    const mock = createRoll20();
    const scene = buildDemoScene(mock);
    const context = loadBundle(mock);
    mock.fireReady();
    await mock.settle();
    mock.newMessages();
    evaluateIn(context, 'globalThis.realGetObj = getObj; getObj = (type, id) => { if (type === "graphic") throw new Error("boom from getObj"); return realGetObj(type, id); };');
    await mock.chat(scene.players.Alice, '!damage 5', { selected: [scene.tokens.Bob] });
    expect(mock.crashes).toEqual([]);
    const said = mock.newMessages().filter((r) => r.whisperTo === 'Alice');
    expect(said).toHaveLength(1);
    expect(said[0]!.content).toMatch(/internal error/);
    expect(said[0]!.content).not.toMatch(/boom/);
    expect(mock.logs.join('\n')).toMatch(/DefenseRound v\d+\.\d+\.\d+: !damage failed.*boom from getObj/s);
    evaluateIn(context, 'getObj = realGetObj;');
    await mock.chat(scene.players.Alice, '!damage 5', { selected: [scene.tokens.Bob] });
    mock.assertNoCrash();
    expect(mock.newMessages().some((r) => r.who === 'DefenseRound' && !r.whisperTo)).toBe(true);
  });

  it('runs with only Roll20 globals and exposes DefenseRound to other scripts', async () => {
    const mock = createRoll20();
    buildDemoScene(mock);
    const context = loadBundle(mock);
    expect(evaluateIn(context, 'typeof require')).toBe('undefined');
    expect(evaluateIn(context, 'typeof process')).toBe('undefined');
    expect(evaluateIn(context, 'typeof module')).toBe('undefined');
    expect(evaluateIn(context, 'typeof console')).toBe('undefined');
    expect(evaluateIn(context, 'typeof DefenseRound.onDamage')).toBe('function');
    expect(evaluateIn(context, 'DefenseRound.version')).toMatch(/^\d+\.\d+\.\d+$/);
    expect(evaluateIn(context, 'API_Meta.DefenseRound.offset')).toBe(0);
    expect(Number(evaluateIn(context, 'API_Meta.DefenseRound.lineCount'))).toBeGreaterThan(100);
    mock.fireReady();
    await mock.settle();
    mock.assertNoCrash();
  });

  it('tells onDamage observers about each token it changes', async () => {
    const mock = createRoll20();
    const scene = buildDemoScene(mock);
    const context = loadBundle(mock);
    evaluateIn(context, 'globalThis.seen = []; DefenseRound.onDamage((token, before, after) => seen.push([token.get("name"), before.vitality, after.vitality, after.condition]));');
    mock.fireReady();
    await mock.settle();
    await mock.chat(scene.players.GM, '!damage 70', { selected: [scene.tokens['Goblin 1']] });
    mock.assertNoCrash();
    expect(evaluateIn(context, 'JSON.stringify(seen)')).toBe(JSON.stringify([['Goblin 1', 30, -8, 'incapacitated']]));
  });

  it('calls HealthColors.Update once per changed token with the previous values', async () => {
    const mock = createRoll20();
    const scene = buildDemoScene(mock);
    const context = loadBundle(mock);
    evaluateIn(context, 'globalThis.updates = []; globalThis.HealthColors = { Update: (token, prev) => updates.push([token.get("name"), prev.bar1_value]) };');
    mock.fireReady();
    await mock.settle();
    await mock.chat(scene.players.GM, '!damage 70', { selected: [scene.tokens['Goblin 1'], scene.tokens['Goblin 2']] });
    mock.assertNoCrash();
    expect(evaluateIn(context, 'JSON.stringify(updates)')).toBe(JSON.stringify([['Goblin 1', 30], ['Goblin 2', 30]]));
  });

  it('hand edits read through armor tell observers the value from before the edit', async () => {
    const mock = createRoll20();
    const scene = buildDemoScene(mock);
    const context = loadBundle(mock);
    evaluateIn(context, 'globalThis.seen = []; DefenseRound.onDamage((token, before, after) => seen.push([before.vitality, after.vitality]));');
    evaluateIn(context, 'globalThis.updates = []; globalThis.HealthColors = { Update: (token, prev) => updates.push(prev.bar1_value) };');
    mock.fireReady();
    await mock.settle();
    await mock.chat(scene.players.GM, '!defense-round config armor-on-manual-edits on');
    mock.userEdit(mock.token('Bob'), { bar1_value: -130 });
    await mock.settle();
    mock.assertNoCrash();
    expect(evaluateIn(context, 'JSON.stringify(seen)')).toBe(JSON.stringify([[70, 40]]));
    expect(evaluateIn(context, 'JSON.stringify(updates)')).toBe(JSON.stringify([70]));
  });

  it('tells the GM once, with HealthColors\' own toggles, when HealthColors marks tokens dead at 0', async () => {
    const mock = createRoll20();
    buildDemoScene(mock);
    mock.state.HealthColors = { auraDead: true, auraDeadPC: false };
    const context = loadBundle(mock);
    evaluateIn(context, 'globalThis.HealthColors = { Update() {} };');
    mock.fireReady();
    await mock.settle();
    const notices = mock.newMessages().filter((r) => r.whisperTo === 'gm' && r.content.includes('!aura'));
    expect(notices).toHaveLength(1);
    expect(notices[0]!.content).toContain('(!aura dead)');
    expect(notices[0]!.content).not.toContain('(!aura deadPC)');
    await mock.restart(() => {
      const again = loadBundle(mock);
      evaluateIn(again, 'globalThis.HealthColors = { Update() {} };');
    });
    expect(mock.newMessages().filter((r) => r.content.includes('!aura'))).toEqual([]);
  });

  it('says nothing about HealthColors when it is not installed', async () => {
    const mock = createRoll20();
    buildDemoScene(mock);
    mock.state.HealthColors = { auraDead: true };
    loadBundle(mock);
    mock.fireReady();
    await mock.settle();
    expect(mock.newMessages().filter((r) => r.content.includes('!aura'))).toEqual([]);
  });
});

