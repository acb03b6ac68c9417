// What chat shows, read as a table reads it (issue 21): every message of every edition's `--demo`
// fight and of every macro in docs/commands.md, on the built bundle, checked for length, repeats,
// buttons and links; and a refusal stays one short line whatever the input.
import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { CliSession } from '../../mocks/cli-session.js';
import { demoEditions, demoOf, SCRIPTED_DEMOS } from '../../mocks/cli-demo.js';
import { DEFAULT_EDITION } from '../../src/rules/editions.js';
import { extractMacros } from '../../mocks/doc-macros.js';
import { decodeEntities } from '../../mocks/chat-text.js';
import type { ChatRecord } from '../../mocks/chat-message.js';
import { openTable } from '../support/table.js';

const BUNDLE = 'dist/defense-round.js';
const HANDOUT_LINK = /^http:\/\/journal\.roll20\.net\/handout\/[-\w]+$/;

interface Button { label: string; command: string }
interface Shown { card: boolean; title: string; rows: Array<{ label: string; lines: string[] }>; text: string; buttons: Button[] }

/** A message as a reader sees it: a card's title and rows, or a line; its buttons apart; entities decoded. */
function shownOf(record: ChatRecord): Shown {
  const buttons: Button[] = [];
  // Buttons first: their commands may hold brackets and entities of their own.
  const body = record.content.replace(/\[([^\][]*)\]\(([^()]*)\)/g, (_all, label: string, command: string) => {
    buttons.push({ label: decodeEntities(label), command: decodeEntities(command) });
    return `[${decodeEntities(label)}]`;
  });
  // Roll20 (and the mock) keep a card's template apart from its fields.
  if (record.rolltemplate === undefined && !body.startsWith('&{template:')) {
    const text = decodeEntities(body.replace(/<[^>]*>/g, ''));
    return { card: false, title: '', rows: [], text, buttons };
  }
  let title = '';
  const rows: Shown['rows'] = [];
  for (const [, key, value] of body.matchAll(/\{\{([^=}]*)=([\s\S]*?)\}\}/g)) {
    const lines = value!.split('<br>').map((line) => decodeEntities(line.replace(/<[^>]*>/g, '')).trim()).filter((line) => line !== '');
    if (key === 'name') title = lines.join(' ');
    else rows.push({ label: decodeEntities(key!), lines });
  }
  const text = [title, ...rows.flatMap((row) => [row.label, ...row.lines])].join('\n');
  return { card: true, title, rows, text, buttons };
}

/** Characters a reader sees: a button is its label. */
function visibleLength(shown: Shown): number {
  return shown.text.length;
}

/** What a reader would trip over in one message of the script. */
function problemsOf(record: ChatRecord): string[] {
  const shown = shownOf(record);
  const where = `"${(shown.title || shown.text).slice(0, 80)}"`;
  const found: string[] = [];
  for (const button of shown.buttons) {
    if (!button.command.startsWith('!') && !HANDOUT_LINK.test(button.command)) found.push(`${where}: a button goes to ${button.command}`);
  }
  if (/Vitality Save/.test(shown.text)) found.push(`${where}: "Vitality Save" (one spelling: Vitality save)`);
  if (/seed \d{3}/i.test(shown.text)) found.push(`${where}: names a rules text by its file number`);
  if (/Usage: !/.test(shown.text) && !(shown.card && shown.title.startsWith('Help: '))) found.push(`${where}: a usage line outside --help`);
  // A value said to go from a number to the same number says nothing.
  for (const [all, from, to] of shown.text.matchAll(/[A-Z][a-z]+ (-?\d+) -> (-?\d+)/g)) if (from === to) found.push(`${where}: "${all}"`);
  if (shown.card) {
    const lines = shown.rows.flatMap((row) => row.lines);
    const seen = new Set<string>();
    for (const line of lines) {
      // Rows of buttons alone (each defender's answers) may be alike.
      if (/^(\[[^\]]*\]\s*)+$/.test(line)) continue;
      if (seen.has(line)) found.push(`${where}: "${line}" twice`);
      seen.add(line);
    }
    if ((shown.text.match(/saves? owed/g) ?? []).length > 1) found.push(`${where}: the saves owed said twice`);
    for (const row of shown.rows) {
      const first = row.lines[0] ?? '';
      // A row's line does not start by saying its label again ("Defense: No defense", "Goblin 1: Goblin 1 is hit").
      const head = first.toLowerCase().split(/[\s:,]+/).slice(0, 3);
      if (first.toLowerCase().startsWith(row.label.toLowerCase()) || (!/\s/.test(row.label) && head.includes(row.label.toLowerCase()))) found.push(`${where}: row "${row.label}" starts "${first}"`);
    }
    // The title tells the result: a Vitality loss in the title is the one the breakdown shows.
    const claimed = /loses (\d+) Vitality/.exec(shown.title);
    if (claimed) {
      const moved = lines.map((line) => /^Vitality (-?\d+) -> (-?\d+)$/.exec(line)).find((match) => match !== null);
      if (!moved || Number(moved[1]) - Number(moved[2]) !== Number(claimed[1])) found.push(`${where}: the title's loss is not the breakdown's`);
    }
    if (/takes no damage|blocks the hit|is missed/.test(shown.title) && lines.some((line) => /^Vitality (-?\d+) -> (-?\d+)$/.test(line))) found.push(`${where}: says no damage but moves Vitality`);
  } else if (isRefusal(shown)) {
    if (visibleLength(shown) > 200) found.push(`${where}: a refusal of ${visibleLength(shown)} characters`);
    if (shown.buttons.at(-1)?.label !== 'Help' || !/^![a-z-]+( [-a-z]+)* --help$/.test(shown.buttons.at(-1)!.command)) found.push(`${where}: a refusal without its Help button last`);
  }
  return found;
}

function isRefusal(shown: Shown): boolean {
  return shown.buttons.some((button) => button.label === 'Help');
}

/** Runs lines in a session, checking every message the script sends; also that a write of Vitality by damage offers its Undo. */
async function runChecked(session: CliSession, lines: readonly string[], failures: string[], label: string): Promise<number> {
  let read = 0;
  for (const line of lines) {
    const before = session.mock.chatLog.length;
    const { output } = await session.run(line);
    const records = session.mock.chatLog.slice(before).filter((record) => record.who === 'DefenseRound');
    read += records.length;
    for (const problem of records.flatMap(problemsOf)) failures.push(`${label}: ${line}\n    ${problem}`);
    if (/SANDBOX CRASH/.test(output)) failures.push(`${label}: ${line}: a crash`);
    const shown = records.map(shownOf);
    const hit = /^(!damage|!attack|click)/.test(line) && !/--undo/.test(line) && shown.some((item) => item.card && /loses \d+/.test(item.title));
    if (hit && !shown.some((item) => item.buttons.some((button) => /^!damage --undo --entry U\d+$/.test(button.command)))) failures.push(`${label}: ${line}: a damage card without its Undo`);
  }
  return read;
}

describe('the --demo fights read at a glance', () => {
  it.each(demoEditions())('every message of the %s demo: short refusals with Help, no repeats, titles that tell the result, Undo on damage', async (edition) => {
    const { session } = await CliSession.start({ bundle: BUNDLE, tokenList: 'changed' });
    const failures: string[] = [];
    for (const step of demoOf(edition).steps) await runChecked(session, step.lines, failures, `${edition} demo, ${step.title}`);
    expect(failures).toEqual([]);
    // A fight scripted by hand is long; the one a sample makes plays the worked example only.
    const scripted = SCRIPTED_DEMOS[edition] !== undefined;
    // Cards were read as cards (their rows checked), not as lines.
    expect(session.mock.chatLog.filter((record) => record.who === 'DefenseRound' && shownOf(record).card && shownOf(record).rows.length > 1).length).toBeGreaterThanOrEqual(scripted ? 3 : 1);
    // The fight said something: cards and lines, not nothing.
    expect(session.mock.chatLog.filter((record) => record.who === 'DefenseRound').length).toBeGreaterThan(scripted ? 8 : 3);
  });
});

describe('every macro of docs/commands.md reads at a glance', () => {
  const macros = extractMacros(readFileSync('docs/commands.md', 'utf8'));

  it('for the GM and for a player, in its edition', async () => {
    expect(macros.length).toBeGreaterThanOrEqual(15);
    const failures: string[] = [];
    let read = 0;
    for (const macro of macros) {
      for (const player of ['GM', 'Alice'] as const) {
        const { session } = await CliSession.start({ bundle: BUNDLE, tokenList: 'changed' });
        const setup = ['as GM', ...(macro.edition === DEFAULT_EDITION ? [] : [`!defense-round config edition ${macro.edition}`]), 'next-turn', `as ${player}`, player === 'GM' ? 'select Goblin 2' : 'select Bob'];
        for (const line of setup) await session.run(line);
        read += await runChecked(session, macro.lines, failures, `${macro.edition}: ${macro.title || macro.heading} (${player})`);
      }
    }
    expect(failures).toEqual([]);
    // Every macro, for both, got an answer that was read.
    expect(read).toBeGreaterThanOrEqual(macros.length * 2);
  });
});

describe('the checks above can fail', () => {
  const record = (content: string, whisperTo?: string): ChatRecord => ({
    who: 'DefenseRound', playerid: 'API', type: 'general', raw: content, ...(whisperTo ? { whisperTo } : {}),
    // As Roll20 keeps a card: its template apart from its fields.
    ...(content.startsWith('&{template:default} ') ? { content: content.slice('&{template:default}'.length), rolltemplate: 'default' } : { content }),
  });

  it('finds the old walls of text and repeats', () => {
    expect(problemsOf(record(`Unknown flag --typ. Usage: !damage N ${'[--x y] '.repeat(30)}`, 'gm'))).not.toEqual([]);
    expect(problemsOf(record(`${'x'.repeat(220)} [Help](!damage --help)`, 'gm'))).toEqual([expect.stringContaining('a refusal of')]);
    expect(problemsOf(record('&{template:default} {{name=Bob takes 40 physical}} {{Defense=No defense&#58; the hit lands}}'))).toEqual([expect.stringContaining('row "Defense"')]);
    expect(problemsOf(record('&{template:default} {{name=Bob}} {{Breakdown=Vitality 70 -&gt; 70}}'))).toEqual([expect.stringContaining('Vitality 70 -> 70')]);
    expect(problemsOf(record('&{template:default} {{name=Damage: 2 tokens}} {{Goblin 1=Goblin 1 is hit.}}'))).toEqual([expect.stringContaining('row "Goblin 1"')]);
    expect(problemsOf(record('&{template:default} {{name=G}} {{Breakdown=Incapacitated&#58; 1 save owed}} {{Now=Incapacitated&#58; one save owed}}'))).toEqual([expect.stringContaining('saves owed said twice')]);
    expect(problemsOf(record('&{template:default} {{name=Bob loses 30 Vitality (200 physical)}} {{Breakdown=Vitality 70 -&gt; 50}}'))).toEqual([expect.stringContaining("title's loss")]);
    expect(problemsOf(record('Bad. [Help](http://example.com)', 'gm'))).toEqual(expect.arrayContaining([expect.stringContaining('a button goes to')]));
    expect(problemsOf(record('Bad. [Help](!damage --help)', 'gm'))).toEqual([]);
  });
});

describe('a refusal is one short line whatever the input', () => {
  const words = ['!damage', '!defend', '!stance', '!heal', '!attack', '!defense-round', '!defense-round config', '!defense-round set', '!damage --undo'];
  // Roll20 refuses a line with an unclosed inline roll before any script sees it (so does the mock).
  const junk = fc.oneof(
    fc.string({ maxLength: 30 }).filter((text) => !text.includes('[[')),
    fc.string({ minLength: 500, maxLength: 3000 }).filter((text) => !text.includes('[[')),
    fc.array(fc.stringMatching(/^-N[a-zA-Z0-9_-]{18}$/), { minLength: 1, maxLength: 400 }).map((ids) => `--ids ${ids.join(' ')}`),
    fc.constantFrom('--typ physical', '--type fire', '--pierce 150', '--action fly', '--roll 0', '--zz', '--ids', 'abc', '2d6', '--undo --ids x', '--entry U999', '--force'),
  );

  it('under 200 visible characters, with the command\'s Help button last, and nothing public', async () => {
    const table = await openTable('bundle');
    await table.passTurn();
    let checked = 0;
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...words), fc.array(junk, { minLength: 1, maxLength: 3 }), fc.constantFrom('GM', 'Alice') as fc.Arbitrary<'GM' | 'Alice'>, async (word, parts, player) => {
        const messages = await table.say(player, `${word} ${parts.join(' ')}`, ['Bob']);
        const fromScript = messages.filter((record) => record.who === 'DefenseRound');
        for (const record of fromScript) {
          const shown = shownOf(record);
          if (!isRefusal(shown) || shown.card) continue;
          expect(visibleLength(shown)).toBeLessThanOrEqual(200);
          expect(record.whisperTo).toBeDefined();
          expect(shown.buttons.at(-1)!.command).toMatch(/^![a-z-]+( [-a-z]+)* --help$/);
          checked += 1;
        }
      }),
      { numRuns: 150, seed: 21 },
    );
    // The runs did reach refusals (most junk is refused): the checks above were made, not skipped.
    expect(checked).toBeGreaterThan(75);
    table.close();
  }, 60_000);
});

describe('Undo on every card of a damage application', () => {
  const undoIn = (record: ChatRecord | undefined) => shownOf(record!).buttons.find((button) => button.label === 'Undo')?.command;

  it('a player\'s hit on an NPC: the GM\'s card and the public line she reads both carry it, and hers works', async () => {
    const table = await openTable('bundle');
    await table.say('GM', '!defense-round config players-target-any on');
    const out = await table.say('Alice', '!damage 40', ['Goblin 1']);
    const gmCard = out.find((record) => record.whisperTo === 'gm' && shownOf(record).card);
    const line = out.find((record) => !record.whisperTo && record.who === 'DefenseRound');
    expect(undoIn(gmCard)).toMatch(/^!damage --undo --entry U\d+$/);
    expect(undoIn(line)).toBe(undoIn(gmCard));
    expect(table.bar('Goblin 1')).not.toBe(30);
    const undone = await table.say('Alice', undoIn(line)!);
    expect(table.bar('Goblin 1')).toBe(30);
    expect(undone.map((record) => shownOf(record).text)).toContain('Damage undone: Goblin 1.');
    // The numbers of an NPC reach the GM only.
    expect(undone.filter((record) => record.whisperTo === 'gm').map((record) => shownOf(record).text)).toEqual([expect.stringMatching(/^Damage undone \(GM\): Goblin 1 \(Vitality \d+ -> 30\)\.$/)]);
    table.close();
  });

  it('the GM\'s hit on several: the GM\'s card carries it, the public card does not; another player\'s click is refused', async () => {
    const table = await openTable('bundle');
    const out = await table.say('GM', '!damage 40', ['Goblin 1', 'Goblin 2', 'Bob']);
    const cards = out.filter((record) => shownOf(record).card);
    const gmCard = cards.find((record) => record.whisperTo === 'gm');
    const publicCard = cards.find((record) => !record.whisperTo);
    expect(undoIn(gmCard)).toMatch(/^!damage --undo --entry U\d+$/);
    expect(undoIn(publicCard)).toBeUndefined();
    const refused = await table.say('Alice', undoIn(gmCard)!);
    expect(refused.map((record) => shownOf(record).text)).toEqual(['!damage --undo --entry U1', "That damage is its sender's or the GM's to undo. [Help]"]);
    expect(table.bar('Goblin 1')).not.toBe(30);
    table.close();
  });
});

describe('help replies link the handout', () => {
  it('!defense-round help answers with the handout\'s journal link, and every --help card carries it once the handout exists', async () => {
    const table = await openTable('bundle');
    const before = await table.say('Alice', '!damage --help');
    expect(shownOf(before.at(-1)!).buttons).toEqual([]); // no handout yet: no link to nowhere
    const made = await table.say('GM', '!defense-round help');
    const handout = table.mock.globals.findObjs({ _type: 'handout', name: 'Help: DefenseRound' })[0]!;
    const link = `http://journal.roll20.net/handout/${handout.id}`;
    expect(shownOf(made.at(-1)!).buttons).toEqual([{ label: 'Help: DefenseRound', command: link }]);
    for (const line of ['!damage --help', '!defend --help', '!damage --undo --help', '!defense-round config --help']) {
      const help = shownOf((await table.say('Alice', line)).at(-1)!);
      expect(help.title).toMatch(/^Help: /);
      expect(help.buttons).toEqual([{ label: 'Help: DefenseRound', command: link }]);
    }
    table.close();
  });
});
