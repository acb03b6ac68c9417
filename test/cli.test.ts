import { afterAll, describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderMessage, htmlToText } from '../mocks/chat-text.js';
import { CliSession } from '../mocks/cli-session.js';
import type { ChatRecord } from '../mocks/roll20.js';

// A throwaway stand-in for the real bundle: a GM menu with a damage button, a damage command,
// reactions to hand edits and to the turn order, and a command that crashes.
const STAND_IN = `
var DefenseRound = (() => {
  on('ready', () => {
    state.StandIn = state.StandIn || { commands: 0 };
    log('stand-in ready');
    on('chat:message', (msg) => {
      if (msg.type !== 'api') return;
      state.StandIn.commands += 1;
      const args = msg.content.split(/\\s+/);
      if (args[0] === '!defense-round') {
        if (!playerIsGM(msg.playerid)) return sendChat('DefenseRound', '/w "' + msg.who + '" Only the GM may use !defense-round.');
        const id = msg.selected ? msg.selected[0]._id : '';
        return sendChat('DefenseRound', '/w gm &{template:default} {{name=Menu &amp; more}} {{Target=' + getObj('graphic', id).get('name') + '}} {{Act=[Apply damage](!damage &#63;{Damage} --ids ' + id + ')}}');
      }
      if (args[0] === '!damage') {
        const amount = msg.inlinerolls ? msg.inlinerolls[0].results.total : Number(args[1]);
        const token = getObj('graphic', args[args.indexOf('--ids') + 1]);
        const now = Number(token.get('bar1_value')) - amount;
        token.set({ bar1_value: now, statusmarkers: now <= 0 ? 'dead' : '' });
        return sendChat('DefenseRound', '/direct <div><b>' + token.get('name') + '</b> takes ' + amount + '<br>now ' + now + '</div>');
      }
      if (args[0] === '!crash') throw new Error('stand-in crashed on purpose');
    });
    on('change:graphic:bar1_value', (obj, prev) => sendChat('DefenseRound', obj.get('name') + ' edited ' + prev.bar1_value + ' to ' + obj.get('bar1_value')));
    on('change:campaign:turnorder', (obj) => sendChat('DefenseRound', 'Turn: ' + getObj('graphic', JSON.parse(obj.get('turnorder'))[0].id).get('name')));
  });
  return { version: 'stand-in' };
})();
`;

const record = (fields: Partial<ChatRecord>): ChatRecord => ({ who: 'DefenseRound', playerid: 'API', type: 'general', content: '', raw: '', ...fields });

describe('chat as readable text', () => {
  it('flattens HTML, decodes entities and puts inline roll totals in place', () => {
    expect(htmlToText('<div><b>Bob</b> &amp; co<br/>takes &#91;5&#93; &lt;fire&gt;</div><p>done</p>')).toBe('Bob & co\ntakes [5] <fire>\ndone');
    const shown = renderMessage(record({ content: 'Rolled $[[0]]', inlinerolls: [{ expression: '1d20', results: { total: 17 } }] }));
    expect(shown.lines).toEqual(['DefenseRound: Rolled 17']);
  });

  it('shows a roll template as a titled block, marks whispers, and numbers buttons in order', () => {
    const shown = renderMessage(
      record({
        type: 'whisper',
        whisperTo: 'gm',
        rolltemplate: 'default',
        content: ' {{name=Goblin 1}} {{Vitality=25/30}} {{Act=[Apply damage](!damage &#63;{Damage} --ids X) <a href="!heal 5 --ids X">Heal</a>}}',
      }),
      3,
    );
    expect(shown.lines).toEqual(['DefenseRound (to GM):', '  [ Goblin 1 ]', '  Vitality: 25/30', '  Act: [3: Apply damage] [4: Heal]']);
    expect(shown.buttons).toEqual([
      { label: 'Apply damage', command: '!damage ?{Damage} --ids X' },
      { label: 'Heal', command: '!heal 5 --ids X' },
    ]);
    expect(renderMessage(record({ type: 'whisper', whisperTo: 'Alice', content: 'hi' })).lines).toEqual(['DefenseRound (to Alice): hi']);
  });
});

describe('the sandbox session', () => {
  it('runs commands as the chosen player, with the selection, and clicks buttons with answers', async () => {
    const { session, output } = await CliSession.start({ source: STAND_IN });
    expect(output).toContain('[api log] stand-in ready');
    expect(output).toMatch(/Goblin 1\s+Vitality 30\/30\s+Soul 10\/10\s+Power 10\/10/);
    expect((await session.run('as ALICE')).output).toBe('Now speaking as Alice.');
    expect((await session.run('!defense-round')).output).toContain('DefenseRound (to Alice): Only the GM may use !defense-round.');
    await session.run('as gm');
    expect((await session.run('select goblin 1')).output).toBe('Selected: Goblin 1.');
    const menu = (await session.run('!defense-round')).output;
    expect(menu).toContain('[ Menu & more ]\n  Target: Goblin 1\n  Act: [1: Apply damage]');
    expect((await session.run('click 1')).output).toBe('Button 1 asks "Damage": type click 1 <answer>.');
    session.mock.dice.force(4);
    const hit = (await session.run('click 1 [[1d6]]')).output;
    expect(hit).toContain('DefenseRound:\n  Goblin 1 takes 4\n  now 26');
    expect(hit).toMatch(/\* Goblin 1\s+Vitality 26\/30/);
    expect(JSON.parse((await session.run('state')).output)).toEqual({ StandIn: { commands: 3 } });
  });

  it('turns hand edits and next turn into Roll20 events', async () => {
    const { session } = await CliSession.start({ source: STAND_IN });
    expect((await session.run('edit Goblin 2 bar1 0')).output).toContain('DefenseRound: Goblin 2 edited 30 to 0');
    expect(session.mock.token('Goblin 2').get('bar1_value')).toBe('0');
    expect((await session.run('edit Bob bar1_max 80')).output).toMatch(/Bob\s+Vitality 70\/80/);
    expect(session.mock.attribute('Bob', 'vitality').get('max')).toBe('80');
    expect((await session.run('next-turn')).output).toContain('DefenseRound: Turn: Goblin 1');
  });

  it('lets time pass with wait (a timer of the script runs on time) and shows a ping with who sees it', async () => {
    const timed = `on('ready', () => on('chat:message', (msg) => {
      if (msg.content !== '!later') return;
      const bob = findObjs({ _type: 'graphic', name: 'Bob' })[0];
      sendPing(bob.get('left'), bob.get('top'), bob.get('_pageid'), null, false, bob.get('controlledby'));
      setTimeout(() => sendChat('Stand-in', 'ten seconds on'), 10000);
    }));`;
    const { session } = await CliSession.start({ source: timed });
    expect((await session.run('!later')).output).toContain('[ping] Bob, seen by Alice');
    expect((await session.run('wait 9.9')).output).not.toContain('ten seconds on');
    expect((await session.run('wait 0.1')).output).toContain('Stand-in: ten seconds on');
    expect((await session.run('wait soon')).output).toBe('wait takes a number of seconds (0 to 86400).');
  });

  it('answers bad input and reports a crash without throwing', async () => {
    const { session } = await CliSession.start({ source: STAND_IN });
    expect((await session.run('as Nobody')).output).toBe('No player named "Nobody". Players: GM, Alice, Ben.');
    expect((await session.run('select Bob, Nope')).output).toMatch(/^No token named "Nope"/);
    expect((await session.run('edit Bob')).output).toMatch(/^Usage: edit/);
    expect((await session.run('click 2')).output).toBe('No buttons yet: a button is clickable once a message shows it.');
    const crash = (await session.run('!crash')).output;
    expect(crash).toContain('!!! SANDBOX CRASH in chat:message');
    expect(crash).toContain('stand-in crashed on purpose');
    expect(session.mock.crashes).toEqual([]);
    expect((await session.run('quit')).quit).toBe(true);
  });
});

describe('npm start in piped mode', () => {
  const dir = mkdtempSync(join(tmpdir(), 'defense-round-cli-'));
  const bundle = join(dir, 'stand-in.js');
  writeFileSync(bundle, STAND_IN);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (args: string[], input: string) =>
    spawnSync(join('node_modules', '.bin', 'tsx'), ['mocks/cli.ts', ...args], { input, encoding: 'utf8', timeout: 30_000 });

  it('runs every line against the bundle, prints readable chat, and exits 0', () => {
    const result = run(['--bundle', bundle], 'as gm\nselect Bob\n!defense-round\nclick 1 5\nnonsense line\nedit Crate bar9 1\n');
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('GM> !defense-round');
    expect(result.stdout).toContain('DefenseRound (to GM):\n  [ Menu & more ]\n  Target: Bob');
    expect(result.stdout).toMatch(/Bob\s+Vitality 65\/70/);
    expect(result.stdout).toContain('GM (GM): nonsense line');
    expect(result.stdout).toContain('Usage: edit');
  });

  it('says so and exits 1 when there is no bundle', () => {
    const result = run(['--bundle', join(dir, 'missing.js')], '');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/no bundle at .*missing\.js/);
  });
});

describe('multi-line template values', () => {
  it('continue under their first line', () => {
    const shown = renderMessage(record({ rolltemplate: 'default', content: '{{name=Hit}} {{Breakdown=12 x 90% = 10<br>10 - 5 = 5}}' }));
    expect(shown.lines).toEqual(['DefenseRound:', '  [ Hit ]', '  Breakdown: 12 x 90% = 10', '             10 - 5 = 5']);
  });
});
