// The sandbox as a Roll20 chat box: queries, attribute calls and targets filled in before a line
// is sent, buttons kept for the whole session and clickable only by their audience, the `tokens`
// command, every macro of docs/commands.md, and the scripted `--demo` fights.
import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CliSession } from '../mocks/cli-session.js';
import type { Prompter } from '../mocks/cli-macro.js';
import { extractMacros, type DocMacro } from '../mocks/doc-macros.js';
import { demoEditions, demoOf, runDemo, sampleDemo, SCRIPTED_DEMOS } from '../mocks/cli-demo.js';
import { DEFAULT_EDITION, editionIds } from '../src/rules/editions.js';

// Echoes each command as it arrived (inline rolls as their totals), and posts buttons to every
// kind of audience: public, the GM, a player, and a character (reaching the players controlling it).
const ECHO = `
on('ready', () => {
  on('chat:message', (msg) => {
    if (msg.type !== 'api') return;
    const text = msg.content.replace(/\\$\\[\\[(\\d+)\\]\\]/g, (all, n) => String(msg.inlinerolls[Number(n)].results.total));
    if (text.startsWith('!echo')) return sendChat('Echo', 'got: ' + text.slice(6));
    if (text === '!buttons') {
      sendChat('Echo', '[Public](!echo public)');
      sendChat('Echo', '/w gm [For the GM](!echo gm) [Ask](!echo amount ?{Amount})');
      sendChat('Echo', '/w "Alice" [For Alice](!echo alice)');
      sendChat('Echo', '/w "Bob" [For Bob\\'s players](!echo bob)');
    }
  });
});
`;

const start = async (prompter?: Prompter) => (await CliSession.start({ source: ECHO, ...(prompter ? { prompter } : {}) })).session;
const run = async (session: CliSession, ...lines: string[]) => {
  let last = '';
  for (const line of lines) last = (await session.run(line)).output;
  return last;
};

describe('roll queries', () => {
  it('takes a text query\'s default when piped, says so, and rolls the inline roll around it', async () => {
    const session = await start();
    session.mock.dice.force(2, 5);
    const out = await run(session, '!echo [[?{Damage|2d6+3}]] pierce ?{Piercing percent|0}');
    expect(out).toContain('(query "Damage" -> default 2d6+3)');
    expect(out).toContain('(query "Piercing percent" -> default 0)');
    expect(out).toContain('(sent: !echo [[2d6+3]] pierce 0)');
    expect(out).toContain('Echo: got: 10 pierce 0');
  });

  it('takes the first option\'s value of a drop-down, asks a repeated query once, and accepts answers given beforehand', async () => {
    const session = await start();
    const out = await run(session, '!echo ?{Type|Physical,physical|Magical,magical} ?{Type|Physical,physical|Magical,magical}');
    expect(out).toContain('(query "Type" -> default physical; choices: physical, magical)');
    expect(out).toContain('Echo: got: physical physical');
    expect(await run(session, 'answer 7 | Magical', '!echo ?{Damage} ?{Type|Physical,physical|Magical,magical}')).toContain('Echo: got: 7 magical');
    // The answers were for that line only.
    expect(await run(session, '!echo ?{Damage}')).toBe(
      'The line asks "Damage" and gives no default: put "answer <value>" before it (several queries: answers separated by |). Nothing was sent.',
    );
    expect(session.mock.chatLog.filter((m) => m.type === 'api')).toHaveLength(2);
  });

  it('asks a nested query (written with HTML escapes) once the outer one is answered', async () => {
    const session = await start();
    const out = await run(session, '!echo ?{Kind|Fixed,?{Amount&#124;3&#125;|None,0}');
    expect(out).toContain('(query "Amount" -> default 3)');
    expect(out).toContain('Echo: got: 3');
  });

  it('asks at a terminal: targets first, then each query, with choices by number, label or value', async () => {
    const asked: string[] = [];
    const typed = ['nobody', '3', '', 'x', '2'];
    const session = await start({ ask: async (q) => (asked.push(q), typed.shift() ?? null) });
    const out = await run(session, 'select Bob', '!echo @{target|Target|token_name} [[?{Damage|4}]] ?{Type|Physical,physical|Magical,magical}');
    expect(asked).toEqual([
      'Pick "Target" (1 Bob, 2 Goblin 1, 3 Goblin 2, 4 Crate, 5 Cleo) [Goblin 1]: ',
      'No token "nobody" on the page. Pick "Target" (1 Bob, 2 Goblin 1, 3 Goblin 2, 4 Crate, 5 Cleo) [Goblin 1]: ',
      '?{Damage} [4]: ',
      '?{Type} (1 Physical, 2 Magical) [Physical]: ',
      '"x" is not one of the choices. ?{Type} (1 Physical, 2 Magical) [Physical]: ',
    ]);
    expect(out).toContain('Echo: got: Goblin 2 4 magical');
    expect(out).not.toContain('(query');
  });
});

describe('attribute calls and targets', () => {
  it('reads @{selected|...} from the selected token and its character', async () => {
    const session = await start();
    const bob = session.scene.tokens.Bob;
    expect(await run(session, 'select Bob', '!echo @{selected|token_id} @{selected|token_name} @{selected|bar1} @{selected|armor_soak} @{selected|armor_physical|max} @{Goblin|save_check}')).toContain(
      `Echo: got: ${bob} Bob 70 20 100 45`,
    );
    expect(await run(session, '!echo @{selected|nope}')).toBe('No attribute was found for @{selected|nope}: Bob has no attribute "nope". Nothing was sent.');
    expect(await run(session, 'select Crate', '!echo @{selected|fortitude}')).toMatch(/^No character was found for 'selected': Crate represents no character/);
    expect(await run(session, 'select', '!echo @{selected|token_id}')).toBe('@{selected|token_id} needs a selected token: select one first (select <token>). Nothing was sent.');
    expect(session.mock.chatLog.filter((m) => m.type === 'api')).toHaveLength(1);
  });

  it('refuses in a moment a line that a sheet field calling others over and over would grow without end (issue 29, 2)', async () => {
    const session = await start();
    const bob = session.scene.characters.Bob;
    // Eleven calls a field, ten levels, each with a query (so that every pass fills in again): filled in naively, 11^10 copies.
    for (let level = 1; level <= 10; level += 1) {
      session.mock.create('attribute', { characterid: bob, name: `l${level}`, current: `${Array.from({ length: 11 }, () => `@{Bob|l${level + 1}}`).join('+')}+?{Bonus|0}` });
    }
    session.mock.create('attribute', { characterid: bob, name: 'l11', current: '0' });
    const started = performance.now();
    const said = await run(session, '!echo @{Bob|l1}');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(said).toMatch(/longer than 20000 characters \(a sheet field calls others over and over\)/);
    expect(session.mock.chatLog.filter((m) => m.type === 'api')).toHaveLength(0);
  });

  it('picks @{target|...} with the target command, one token per label, or the first token not selected', async () => {
    const session = await start();
    const { tokens } = session.scene;
    const picked = await run(session, 'select Goblin 1', 'target Goblin 2, Bob', '!echo @{target|Target|token_id} @{target|Ally|token_id} @{target|Target|token_name} @{target|Ally|fortitude}');
    expect(picked).toContain('(target "Target" -> Goblin 2)');
    expect(picked).toContain('(target "Ally" -> Bob)');
    expect(picked).toContain(`Echo: got: ${tokens['Goblin 2']} ${tokens.Bob} Goblin 2 60`);
    // The picks were for that line; now the default is taken and said.
    const fallback = await run(session, '!echo @{target|token_id}');
    expect(fallback).toContain('(target "Target" -> Bob: the first token not selected; put "target <token>" before the line to pick another)');
    expect(fallback).toContain(`Echo: got: ${tokens.Bob}`);
    expect(await run(session, 'target Nobody')).toMatch(/^No token named "Nobody"/);
  });
});

describe('buttons', () => {
  it('are numbered across the session and stay clickable after later messages', async () => {
    const session = await start();
    expect(await run(session, '!buttons')).toContain('Echo: [1: Public]');
    const second = await run(session, '!buttons');
    expect(second).toContain('Echo: [6: Public]');
    expect(second).toContain('Echo (to GM): [7: For the GM] [8: Ask]');
    expect(await run(session, 'click 1')).toContain('Echo: got: public');
    expect(await run(session, 'click 2')).toContain('Echo: got: gm');
    expect(await run(session, 'click "For the GM"')).toContain('(GM clicks: !echo gm)');
    expect(await run(session, 'click 8 12')).toContain('Echo: got: amount 12');
    expect(await run(session, 'click 3')).toBe('Button 3 asks "Amount": type click 3 <answer>.');
    expect(await run(session, 'click 11')).toBe('Usage: click <1..10> [answer]  ("buttons" lists them)');
  });

  it('whispered ones are clickable only by whom they were whispered to', async () => {
    const session = await start();
    await run(session, '!buttons');
    await run(session, 'as Ben');
    expect(await run(session, 'click 2')).toBe('Button 2 (For the GM) was whispered to the GM: only the GM can click it, not Ben.');
    expect(await run(session, 'click 4')).toBe('Button 4 (For Alice) was whispered to Alice: only Alice can click it, not Ben.');
    expect(await run(session, 'click 5')).toMatch(/^Button 5 \(For Bob's players\) was whispered to Bob/);
    expect(await run(session, 'click 1')).toContain('Echo: got: public');
    expect(await run(session, 'buttons')).toContain('[2: For the GM] !echo gm  from Echo, for the GM (not clickable by Ben)');
    await run(session, 'as Alice');
    expect(await run(session, 'click 4')).toContain('Echo: got: alice');
    expect(await run(session, 'click 5')).toContain('Echo: got: bob'); // Alice controls Bob
    expect(await run(session, 'click 2')).toMatch(/^Button 2 .* only the GM can click it, not Alice\.$/);
    await run(session, 'as GM');
    expect(await run(session, 'click 4')).toMatch(/only Alice can click it, not GM\.$/);
    expect(await run(session, 'click 2')).toContain('Echo: got: gm');
  });
});

describe('the tokens command', () => {
  it('lists each token\'s name, id, character, controllers, bars, markers and initiative', async () => {
    const session = await start();
    const { tokens } = session.scene;
    session.mock.token('Goblin 1').set('statusmarkers', 'dead');
    const out = await run(session, 'select Goblin 1', 'tokens');
    expect(out).toContain(` >Bob  id ${tokens.Bob}  character Bob\n    controlled by: Alice (through the token and character) and the GM\n    bar1 70/70 (linked to vitality)  bar2 40/40 (linked to soul)  bar3 30/30 (linked to power)\n    markers: none  initiative: 15`);
    expect(out).toContain(`* Goblin 1  id ${tokens['Goblin 1']}  character Goblin\n    controlled by: the GM only (an NPC)\n    bar1 30/30  bar2 10/10  bar3 10/10\n    markers: dead  initiative: 12`);
    expect(out).toContain(`  Crate  id ${tokens.Crate}  no character`);
    expect(out).toContain('bar1 20/20  bar2 -/-  bar3 -/-\n    markers: none  not in the Turn Tracker');
  });
});

// ---- the real script ----

const BUNDLE = 'dist/defense-round.js';
const docMacros = extractMacros(readFileSync('docs/commands.md', 'utf8'));
const label = (m: DocMacro) => `${m.edition}: ${m.title || m.heading}`;

/** What a macro must never produce: a crash, a sandbox error, a refusal of the command's syntax, an unknown id, or text Roll20 would have filled in. */
function problems(output: string): string[] {
  const found: string[] = [];
  if (/SANDBOX CRASH/.test(output)) found.push('a sandbox crash');
  if (/^error: /m.test(output)) found.push(output.match(/^error: .*$/m)![0]);
  if (/Nothing was sent\./.test(output)) found.push(output.match(/^.*Nothing was sent\.$/m)![0]);
  if (/Usage: !/.test(output)) found.push(`a syntax refusal: ${output.match(/^.*Usage: !.*$/m)![0]}`);
  if (/no token has the id/i.test(output)) found.push(output.match(/^.*no token has the id.*$/im)![0]);
  if (/\[mock warning\]/.test(output)) found.push(output.match(/^\[mock warning\].*$/m)![0]);
  const sent = output.match(/^\((?:sent: |\w+ clicks: ).*\)$/gm) ?? [];
  for (const line of sent) if (/\?\{|@\{/.test(line)) found.push(`left unfilled: ${line}`);
  return found;
}

/** A fresh table in the macro's edition: it is Goblin 1's turn, so the selected token may defend. */
async function table(edition: DocMacro['edition'], player: 'GM' | 'Alice') {
  const { session } = await CliSession.start({ bundle: BUNDLE, tokenList: 'changed' });
  const setup = ['as GM', ...(edition === DEFAULT_EDITION ? [] : [`!defense-round config edition ${edition}`]), 'next-turn', `as ${player}`, player === 'GM' ? 'select Goblin 2' : 'select Bob'];
  for (const line of setup) await session.run(line);
  return session;
}

/** The macro once with every query at its default, then once per other option of each drop-down. */
function variants(lines: string[]): string[][] {
  const out = [lines];
  for (const [i, line] of lines.entries()) {
    for (const query of line.matchAll(/\?\{[^|}]*((?:\|[^}]*)?)\}/g)) {
      const options = (query[1] ?? '').split('|').slice(1);
      if (options.length < 2) continue;
      for (const option of options.slice(1)) {
        const value = option.includes(',') ? option.slice(option.indexOf(',') + 1) : option;
        out.push(lines.map((l, j) => (j === i ? l.replace(query[0], value) : l)));
      }
    }
  }
  return out;
}

describe('every macro in docs/commands.md', () => {
  it('is found: the ready-to-paste ones and those of the threshold and opposed sections', () => {
    const byEdition = (e: string) => docMacros.filter((m) => m.edition === e).length;
    expect(docMacros.length).toBeGreaterThanOrEqual(15);
    expect(byEdition('threshold')).toBeGreaterThanOrEqual(3);
    expect(byEdition('opposed')).toBeGreaterThanOrEqual(2);
    expect(docMacros.map((m) => m.lines.join('\n')).join('\n')).toContain('!damage [[?{Damage|2d6+3}]] --type ?{Type|Physical,physical|Magical,magical|Energy,energy|Breath,breath}');
    // Usage lines are not macros.
    for (const m of docMacros) for (const line of m.lines) expect(line).not.toMatch(/(^|[^[])\[--/);
  });

  it('runs as written, with every query default and every drop-down option, for the GM and for a player', async () => {
    const failures: string[] = [];
    for (const macro of docMacros) {
      for (const player of ['GM', 'Alice'] as const) {
        for (const lines of variants(macro.lines)) {
          const session = await table(macro.edition, player);
          for (const line of lines) {
            const { output } = await session.run(line);
            if (!/^DefenseRound/m.test(output)) failures.push(`${label(macro)} (${player}): no answer from the script to ${line}`);
            for (const problem of problems(output)) failures.push(`${label(macro)} (${player}): ${line}\n    ${problem}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it('runs through piped npm start, saying which defaults and targets it took', () => {
    const lines = ['as GM', 'next-turn', 'select Goblin 2'];
    for (const edition of editionIds()) {
      if (edition !== DEFAULT_EDITION) lines.push(`!defense-round config edition ${edition}`);
      for (const macro of docMacros.filter((m) => m.edition === edition)) lines.push(`# ${label(macro)}`, ...macro.lines);
    }
    const result = spawnSync(join('node_modules', '.bin', 'tsx'), ['mocks/cli.ts', '--bundle', BUNDLE], { input: `${lines.join('\n')}\n`, encoding: 'utf8', timeout: 30_000 });
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(problems(result.stdout)).toEqual([]);
    expect(result.stdout).toContain('(query "Damage" -> default 2d6+3)');
    expect(result.stdout).toContain('(query "Type" -> default physical; choices: physical, magical, energy, breath)');
    expect(result.stdout).toMatch(/\(target "Target" -> Bob: the first token not selected; .*\)/);
    expect(result.stdout).toContain('Edition is now opposed');
  });
});

describe('!attack in the sandbox', () => {
  it('shows each prompt to its recipient, and `click` answers as them: the soak example through !attack', async () => {
    const { session } = await CliSession.start({ bundle: 'dist/defense-round.js' });
    const declared = await run(session, 'as gm', 'next-turn', 'select Goblin 1', 'target Bob', '!attack 200 --ids @{target|Defender 1|token_id}');
    expect(declared).toContain('Attack A1: Goblin 1 attacks Bob.');
    expect(declared).toMatch(/DefenseRound \(to Alice\):[\s\S]*Bob: \[\d+: Defend \(55\)\] \[\d+: Evade \(45\)\] \[\d+: No defense\]/);
    // The GM's card has Bob's buttons too, marked as Alice's (the GM may answer for an absent player).
    expect(declared).toMatch(/DefenseRound \(to GM\):[\s\S]*Bob \(Alice's\): \[\d+: Defend \(55\)\]/i);
    const answered = await run(session, 'as alice', 'click "No defense"');
    // Her answer resolves it: the result says it (no line of its own).
    expect(answered).toContain('Goblin 1 hits Bob: 200 physical, Bob loses 30 Vitality');
    expect(answered).toContain('Vitality 70 -> 40');
  });

  it('plays The Defensive Turn\'s and Opposed Rolls\' examples through !attack, Alice clicking her prompt\'s button', async () => {
    const threshold = (await CliSession.start({ bundle: 'dist/defense-round.js' })).session;
    await run(threshold, 'as gm', '!defense-round config edition threshold', 'edit Bob bar1 30', 'next-turn', 'select Goblin 1', 'target Bob');
    threshold.mock.attribute('Bob', 'armor_defense').set('current', 10);
    threshold.mock.attribute('Bob', 'armor_physical').set({ current: 18, max: 18 });
    await run(threshold, '!attack 20 --hit 19 --ids @{target|Defender 1|token_id}');
    threshold.mock.dice.force(10);
    const defended = await run(threshold, 'as alice', 'click "Defend (55)"');
    expect(defended).toContain('Answer: Defend d100 10 vs 55: success');
    expect(defended).toMatch(/Hit chance 19 beats Physical Armor 18|Vitality 30 -> 20/);
    expect(threshold.mock.attribute('Bob', 'vitality').get('current')).toBe(20);
    const opposed = (await CliSession.start({ bundle: 'dist/defense-round.js' })).session;
    await run(opposed, 'as gm', '!defense-round config edition opposed', 'next-turn', 'select Goblin 1', 'target Bob');
    opposed.mock.create('attribute', { characterid: opposed.mock.character('Bob').id, name: 'passive_defense', current: 10 });
    opposed.mock.create('attribute', { characterid: opposed.mock.character('Bob').id, name: 'armor_score', current: 13 });
    await run(opposed, '!defense-round refresh', '!attack 8 --attack 24 --ids @{target|Defender 1|token_id}');
    opposed.mock.dice.force(8);
    const passive = await run(opposed, 'as alice', 'click "Passive"');
    expect(passive).toContain('Answer: Passive defense, d20 8');
    expect(opposed.mock.attribute('Bob', 'vitality').get('current')).toBe(56);
  });
});

describe('npm start -- --demo EDITION', () => {
  const demo = (edition: string) =>
    spawnSync(join('node_modules', '.bin', 'tsx'), ['mocks/cli.ts', '--bundle', BUNDLE, '--demo', edition], { encoding: 'utf8', timeout: 30_000 });

  it.each(demoEditions())('plays the %s fight to the end, every step showing its numbers', (edition) => {
    const steps = demoOf(edition).steps.length;
    // A fight scripted by hand tells the edition's rules in 8 to 20 steps; a sample's plays its worked example.
    expect(steps).toBeGreaterThanOrEqual(SCRIPTED_DEMOS[edition] ? 8 : 3);
    expect(steps).toBeLessThanOrEqual(20);
    const result = demo(edition);
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain('demo check failed');
    expect(result.stdout).not.toMatch(/SANDBOX CRASH|^error: /m);
    expect(result.stdout).toContain(`--- ${steps}/${steps}. `);
    expect(result.stdout).toContain(`=== End of the ${edition} demo: every step showed what it should ===`);
    expect(result.status).toBe(0);
  });

  it('shows each edition\'s key numbers', () => {
    const text = (e: string) => SCRIPTED_DEMOS[e]!.steps.flatMap((s) => s.expect ?? []);
    expect(text('soak')).toEqual(expect.arrayContaining(['Vitality 70 -> 40', 'Vitality 30 -> -7', 'Vitality -7 -> 1']));
    expect(text('threshold')).toEqual(expect.arrayContaining(['Vitality 30 -> 20', 'Vitality -10 -> 1']));
    expect(text('opposed')).toEqual(expect.arrayContaining(['Damage 8 + 6 margin = 14', 'Initiative 12 -> 7 (active defense costs 5)']));
  });

  it('refuses an unknown edition', () => {
    const result = demo('nope');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`--demo needs an edition: ${editionIds().join(', ')}`);
    expect(editionIds()).toEqual(expect.arrayContaining(['soak', 'threshold', 'opposed']));
  });

  it('plays any edition from its sample: the switch, the worked example\'s numbers set on each token, its moves, the round\'s end', async () => {
    for (const edition of editionIds()) {
      const demo = sampleDemo(edition);
      expect(demo.steps.at(-1)!.lines).toEqual(['!defense-round next-round']);
      if (edition !== DEFAULT_EDITION) expect(demo.steps[0]!.lines).toEqual([`!defense-round config edition ${edition}`]);
    }
    // One edition's sample fight played through, as a copied edition without a fight of its own would be.
    const { session, output } = await CliSession.start({ bundle: BUNDLE, tokenList: 'changed' });
    const printed: string[] = [];
    expect(await runDemo(session, 'threshold', output, (text) => printed.push(text), sampleDemo('threshold'))).toBe(true);
    const transcript = printed.join('\n');
    expect(transcript).toContain('armor_physical = 18 on Bob');
    expect(transcript).toContain('Vitality 30 -> 20');
    expect(transcript).not.toMatch(/SANDBOX CRASH|^error: |demo check failed/m);
    expect(transcript).toContain('=== End of the threshold demo: every step showed what it should ===');
  });
});
