// The companion sheet's buttons run against the bundle (issue 34): each is a roll button whose value
// Roll20 sends as chat (queries and target picks first, as the sandbox's fill-in does), for the
// selected token; each command they send is one the script accepts as written, in the edition the
// sheet shows them for: no usage error, no refusal.
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, type PlayerName, type Table } from '../support/table';
import { renderMessage } from '../../mocks/chat-text';
import { expandMacro } from '../../mocks/cli-macro';
import type { MockObject } from '../../mocks/roll20';
import { playableEditions } from '../../src/rules/editions';

const html = readFileSync('sheet/defense-round.html', 'utf8');
const decode = (text: string): string => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');

/** The buttons the sheet shows in an edition: name and what the button sends. */
function buttonsOf(edition: string): Array<{ name: string; value: string }> {
  const block = new RegExp(`<div class="sheet-buttons sheet-ed sheet-in-${edition}">([\\s\\S]*?)</div>`).exec(html)?.[1] ?? '';
  return [...block.matchAll(/<button type="roll" name="(roll_[a-z0-9_]+)" value="([^"]*)">/g)].map((m) => ({ name: m[1]!, value: decode(m[2]!) }));
}

let table: Table | undefined;
afterEach(() => table?.close());

describe.each(playableEditions())('the sheet\'s buttons in %s', (edition) => {
  const buttons = buttonsOf(edition);

  it('has an attack, undo, and a defensive action or stance', () => {
    const sent = buttons.map((b) => b.value);
    expect(sent.some((v) => v.startsWith('!attack '))).toBe(true);
    expect(sent).toContain('!damage --undo');
    expect(sent.some((v) => /^!(defend|stance) /.test(v))).toBe(true);
  });

  it.each(buttons.map((b) => [b.name, b]))('%s is accepted as written', async (_name, button) => {
    table = await openTable('bundle', { seed: 5 });
    if (edition !== 'soak') await table.say('GM', `!defense-round config edition ${edition}`);
    await table.passTurn(); // Goblin 1 acts: Bob may defend
    const attack = button.value.startsWith('!attack ');
    const gm = attack || /\(GM\)/.test(html.slice(html.indexOf(`name="${button.name}"`)).split('</button>')[0]!);
    const [player, selected]: [PlayerName, string] = gm ? ['GM', attack ? 'Goblin 1' : 'Bob'] : ['Alice', 'Bob'];
    // Undo needs something to undo: a hit on Bob first.
    if (button.value === '!damage --undo') await table.say('GM', edition === 'opposed' ? '!damage 30 --attack 40' : '!damage 30', ['Bob']);
    const tokens = table.mock.globals.findObjs({ _type: 'graphic' }) as unknown as MockObject[];
    const expanded = await expandMacro(button.value, {
      mock: table.mock,
      selection: [table.mock.token(selected)],
      tokens,
      targetPicks: [],
      answers: [],
      prompter: { ask: async (question) => (question.startsWith('Pick') ? 'Bob' : '') },
    });
    expect(expanded.ok).toBe(true);
    if (!expanded.ok) return;
    const out = await table.say(button.value === '!damage --undo' ? 'GM' : player, expanded.line, [selected]);
    const refused = out.filter((record) => renderMessage(record).buttons.some((b) => b.label === 'Help'));
    expect(texts(refused), expanded.line).toEqual([]);
    expect(out.length, expanded.line).toBeGreaterThan(0);
  });
});
