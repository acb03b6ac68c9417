// The playground's parts that need no browser: the fight and its replay, the share format, the
// chat parser's escape check, Roll20's queries, and the sandbox the script runs in.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { hiddenFrom, plain, viewOf, type Inline, type MessageView } from '../../playground/src/chat.js';
import { exampleOf } from '../../playground/src/examples.js';
import { Fight } from '../../playground/src/fight.js';
import { answer, questionsOf } from '../../playground/src/queries.js';
import { decodeSpec, encodeSpec, emptySpec, fragmentOf, specFromFragment } from '../../playground/src/share.js';
import type { ChatRecord } from '../../mocks/roll20.js';
import { escapeChat as esc } from '../../src/text/escape.js';

const BUNDLE = readFileSync('dist/defense-round.js', 'utf8');

const chatOf = (fight: Fight): MessageView[] =>
  fight.entries.flatMap((e) => (e.kind === 'chat' ? [viewOf(e.record)] : []));
const lastCard = (fight: Fight) => {
  const card = chatOf(fight).filter((v) => v.template).at(-1)!.template!;
  return { title: plain(card.title ?? []), rows: Object.fromEntries(card.rows.map((r) => [plain(r.label), plain(r.value)])) };
};
const bar = (fight: Fight, token: string, label = 'Vitality') => fight.tokens().find((t) => t.name === token)!.bars.find((b) => b.label === label)!;

describe('a fight on the demo table', () => {
  it('plays the README example and reads back the bars and the breakdown', async () => {
    const fight = await Fight.start(BUNDLE);
    expect(fight.version()).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
    fight.selection = [fight.scene.tokens.Bob];
    await fight.say('!damage 200');
    expect(bar(fight, 'Bob')).toMatchObject({ value: '40', max: '70' });
    const card = lastCard(fight);
    expect(card.title).toBe('Bob loses 30 Vitality (200 physical)');
    expect(card.rows.Breakdown).toContain('200 x 80% soak = 160\n160 - 100 Physical = 60');
    expect(fight.tokens()[0]!.sheet.find((s) => s.key === 'armor_physical')).toMatchObject({ current: '60', max: '100' });
    expect(fight.entries.filter((e) => e.kind === 'crash')).toEqual([]);
  });

  it.each(['threshold', 'opposed'] as const)('plays the %s example of the rules', async (edition) => {
    const fight = await Fight.start(BUNDLE);
    await fight.switchEdition(edition);
    expect(fight.edition()).toBe(edition);
    await exampleOf(edition)!.setup(fight);
    fight.selection = [fight.scene.tokens.Bob];
    for (const move of exampleOf(edition)!.moves) await fight.say(move.line);
    if (edition === 'threshold') {
      expect(bar(fight, 'Bob')).toMatchObject({ value: '20', max: '30' });
      expect(lastCard(fight).rows.Breakdown).toBe('Hit chance 19 beats Physical Armor 18: a hit\n20 - 10 Defense = 10\nVitality 30 -> 20');
    } else {
      expect(bar(fight, 'Bob').value).toBe('56');
      expect(lastCard(fight).rows.Breakdown).toContain('Damage 8 + 6 margin = 14');
    }
  });

  it('replays from its spec to the same table and the same chat', async () => {
    const fight = await Fight.start(BUNDLE);
    fight.selection = [fight.scene.tokens['Goblin 1']];
    await fight.say('!damage [[2d20]]');
    await fight.nextTurn();
    await fight.editBars('Goblin 2', { bar1_value: '3' });
    // Each speaker has her own selection: Alice's is Bob, the GM's stays Goblin 1 (a link holds the speaker's).
    fight.speaker = 'Alice';
    expect(fight.selectionNames()).toEqual([]);
    fight.selection = [fight.scene.tokens.Bob];
    await fight.say('/roll 1d20');
    const spec = decodeSpec(encodeSpec(fight.spec()));
    expect(spec.ok).toBe(true);
    const again = await Fight.start(BUNDLE, spec.ok ? spec.spec : emptySpec());
    expect(again.tokens()).toEqual(fight.tokens());
    expect(again.turnOrder()).toEqual(fight.turnOrder());
    expect(chatOf(again)).toEqual(chatOf(fight));
    expect(again.speaker).toBe('Alice');
    expect(again.selectionNames()).toEqual(['Bob']);
  });

  it('reports a step it cannot take and does not record it', async () => {
    const fight = await Fight.start(BUNDLE);
    expect(await fight.editBars('Nobody', { bar1_value: '1' })).toBe(false);
    expect(fight.steps).toEqual([]);
    expect(fight.entries.at(-1)).toMatchObject({ kind: 'notice', source: 'playground', text: 'no token named "Nobody"' });
  });
});

describe('the share format', () => {
  it('round-trips a fight, unicode included, and a fresh table has no fragment', () => {
    const spec = { ...emptySpec(), steps: [{ k: 'say' as const, as: 'Ben', sel: [], line: 'héllo ⚔ !' }], as: 'Ben' };
    expect(specFromFragment(fragmentOf(spec))).toEqual({ ok: true, spec });
    expect(fragmentOf(emptySpec())).toBe('');
    expect(specFromFragment('')).toEqual({ ok: true, spec: emptySpec() });
  });

  it('refuses a damaged or hostile link with a reason', () => {
    const bad = (value: unknown) => `#fight=${Buffer.from(JSON.stringify(value)).toString('base64url')}`;
    expect(specFromFragment('#fight=%%%')).toMatchObject({ ok: false });
    expect(specFromFragment('#other=1')).toMatchObject({ ok: false, error: 'the link holds no fight the playground knows' });
    expect(specFromFragment(bad({ ...emptySpec(), v: 2 }))).toMatchObject({ ok: false });
    expect(specFromFragment(bad({ ...emptySpec(), steps: [{ k: 'eval', code: 'x' }] }))).toMatchObject({ ok: false });
    expect(specFromFragment(bad({ ...emptySpec(), steps: [{ k: 'edit', token: 'Bob', set: { represents: 'x' } }] }))).toMatchObject({ ok: false });
    expect(specFromFragment(bad({ ...emptySpec(), steps: [{ k: 'say', as: 'GM', sel: [], line: 'x'.repeat(5000) }] }))).toMatchObject({ ok: false });
    expect(specFromFragment(bad({ ...emptySpec(), extra: 1 }))).toMatchObject({ ok: false });
  });
});

describe('chat as Roll20 shows it', () => {
  const record = (fields: Partial<ChatRecord>): ChatRecord => ({ who: 'DefenseRound', playerid: 'API', type: 'general', content: '', raw: '', ...fields });

  it('reads the script\'s card: a titled table, line breaks, buttons with decoded commands, inline rolls', () => {
    const view = viewOf(record({
      rolltemplate: 'default',
      content: ` {{name=${esc('Bob & co')}}} {{Breakdown=${esc('10 x 80% = 8')}<br>${esc('8 - 5 = 3')}}} {{Roll=$[[0]]}} {{Actions=[Apply damage](!damage &#63;{Damage} --ids -Nabc)}}`,
      inlinerolls: [{ expression: '1d20', results: { type: 'V', total: 17, rolls: [{ type: 'R', results: [{ v: 17 }] }] } }],
    }));
    expect(view.unescaped).toBeUndefined();
    expect(plain(view.template!.title!)).toBe('Bob & co');
    expect(view.template!.rows.map((r) => [plain(r.label), r.value])).toEqual([
      ['Breakdown', [{ t: 'text', text: '10 x 80% = 8' }, { t: 'br' }, { t: 'text', text: '8 - 5 = 3' }]],
      ['Roll', [{ t: 'roll', total: '17', expression: '1d20', faces: [17] }]],
      ['Actions', [{ t: 'button', label: [{ t: 'text', text: 'Apply damage' }], command: '!damage ?{Damage} --ids -Nabc' }]],
    ]);
  });

  it('shows the script\'s text as markup only when it is the escaper\'s output', () => {
    expect(viewOf(record({ content: 'Goblin &#91;boss&#93; &lt;b&gt;' })).body).toEqual([{ t: 'text', text: 'Goblin [boss] <b>' }]);
    const raw = viewOf(record({ content: 'Hit by <img src=x onerror=alert(1)>' }));
    expect(raw.unescaped).toMatch(/not the script's escaped text/);
    expect(raw.body).toEqual([{ t: 'text', text: 'Hit by <img src=x onerror=alert(1)>' }]);
    expect(viewOf(record({ rolltemplate: 'default', content: `{{name=${esc('Evil: [x](!x)')}}}` })).template!.title).toEqual([{ t: 'text', text: 'Evil: [x](!x)' }]);
    expect(viewOf(record({ rolltemplate: 'default', content: '{{name=a "quoted" name}}' })).unescaped).toBeDefined();
    expect(viewOf(record({ content: 'Goblin 1 edited 30 to 0' })).unescaped).toBeUndefined();
  });

  it('never reads a player\'s text as markup, and marks whispers and commands', () => {
    const player = viewOf(record({ who: 'Alice', playerid: '-Nalice', content: '<b>hi</b> &amp; <br> [go](!damage 5)' }));
    expect(player.unescaped).toBeUndefined();
    expect(player.body).toEqual([
      { t: 'text', text: '<b>hi</b> & <br> ' },
      { t: 'button', label: [{ t: 'text', text: 'go' }], command: '!damage 5' },
    ]);
    expect(viewOf(record({ type: 'whisper', whisperTo: 'gm', content: 'x' }))).toMatchObject({ kind: 'whisper', whisperTo: 'gm' });
    expect(viewOf(record({ type: 'api', playerid: '-Nalice', raw: '!damage 5 <i>', content: '!damage 5 <i>' }))).toMatchObject({ kind: 'api', body: [{ t: 'text', text: '!damage 5 <i>' }] });
  });

  it('never flags a message of the real script in a long session', async () => {
    const fight = await Fight.start(BUNDLE);
    fight.selection = [fight.scene.tokens.Bob, fight.scene.tokens['Goblin 1']];
    for (const line of ['!defense-round', '!damage 150', '!damage --help', '!defend --help', '!stance defensive', '!damage --undo', '!defense-round help']) await fight.say(line);
    fight.speaker = 'Alice';
    for (const line of ['!damage 10', '!defense-round']) await fight.say(line);
    const script = chatOf(fight).filter((v) => v.fromScript);
    expect(script.length).toBeGreaterThan(8);
    expect(script.filter((v) => v.unescaped)).toEqual([]);
  });
});

describe("Roll20's queries", () => {
  it('asks each prompt once, as a text box or a drop-down, and fills the answers in', () => {
    const command = '!x ?{Damage|1d6} ?{Bar|bar1|Second,bar2} ?{Damage|1d6} --ids @{target|Foe|token_id}';
    expect(questionsOf(command)).toEqual([
      { kind: 'text', prompt: 'Damage', fallback: '1d6' },
      { kind: 'choice', prompt: 'Bar', options: [{ label: 'bar1', value: 'bar1' }, { label: 'Second', value: 'bar2' }] },
      { kind: 'target', prompt: 'Foe' },
    ]);
    const answers = new Map([['q:Damage', '[[2d6]]'], ['q:Bar', 'bar2'], ['t:Foe', '-Nid']]);
    expect(answer(command, answers)).toBe('!x [[2d6]] bar2 [[2d6]] --ids -Nid');
  });
});

describe('the sandbox the script runs in', () => {
  it('sees the Roll20 API and none of the host', async () => {
    const probe = `on('ready', () => log(JSON.stringify({ process: typeof process, require: typeof require, console: typeof console,
      document: typeof document, selfIsGlobal: globalThis.sendChat === sendChat, TokenMod: typeof globalThis.TokenMod, state: typeof state })));`;
    const fight = await Fight.start(probe);
    expect(fight.entries.find((e) => e.kind === 'notice' && e.source === 'log')).toMatchObject({
      text: JSON.stringify({ process: 'undefined', require: 'undefined', console: 'undefined', document: 'undefined', selfIsGlobal: true, TokenMod: 'undefined', state: 'object' }),
    });
  });

  it('reports a script that throws as it loads, as Roll20 would crash', async () => {
    const fight = await Fight.start('throw new Error("broken build")');
    expect(fight.entries.find((e) => e.kind === 'crash')).toMatchObject({ event: 'script load', message: 'Error: broken build' });
  });
});

describe('an attack in the playground: declared, answered with the prompt\'s buttons as their players, resolved', () => {
  /** The buttons the current speaker sees (whispers to others are hidden, as in Roll20), by label. */
  function buttonsSeen(fight: Fight): Map<string, string> {
    const found = new Map<string, string>();
    const walk = (inlines: readonly Inline[]) => {
      for (const inline of inlines) if (inline.t === 'button') found.set(plain(inline.label), inline.command);
    };
    for (const entry of fight.entries) {
      if (entry.kind !== 'chat') continue;
      const view = viewOf(entry.record);
      if (hiddenFrom(view, fight.speaker, fight.speaker === 'GM', entry.record.who)) continue;
      walk(view.body);
      for (const row of view.template?.rows ?? []) walk(row.value);
    }
    return found;
  }

  it.each(['soak', 'threshold', 'opposed'] as const)('plays the %s example of the rules through !attack', async (edition) => {
    const fight = await Fight.start(BUNDLE);
    if (edition !== 'soak') await fight.switchEdition(edition);
    await exampleOf(edition)!.setup(fight);
    if (edition === 'soak') await fight.nextTurn();
    const hit = edition === 'soak' ? '200' : edition === 'threshold' ? '20 --hit 19' : '8 --attack 24';
    fight.selection = [fight.scene.tokens['Goblin 1']];
    await fight.say(`!attack ${hit} --ids ${fight.scene.tokens.Bob}`);
    // The GM sees no button for Bob: Bob's prompt is Alice's.
    const label = edition === 'soak' ? 'No defense' : edition === 'threshold' ? 'Defend (55)' : 'Passive';
    fight.speaker = 'Alice';
    const command = buttonsSeen(fight).get(label);
    expect(command).toBeDefined();
    // The example's own roll, given with the button's answer (a click would roll it).
    await fight.say(`${command}${edition === 'threshold' ? ' --roll 10' : edition === 'opposed' ? ' --roll 8' : ''}`);
    const vitality = edition === 'soak' ? '40' : edition === 'threshold' ? '20' : '56';
    expect(bar(fight, 'Bob').value).toBe(vitality);
    expect(fight.entries.filter((e) => e.kind === 'crash')).toEqual([]);
  });
});
