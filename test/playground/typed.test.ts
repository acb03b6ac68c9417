// A line typed into the playground's chat box behaves as in Roll20, in a real browser: its queries
// are asked in the dialog the chat buttons use, @{target|...} is answered from the dialog's list or
// by clicking a token, @{selected|...} and @{Character|attr} are filled in, a line that cannot be
// filled in (or is over the share link's bounds) is not sent and the log says why, and Cancel sends
// nothing. Then the share links: the biggest link the bounds allow replays quickly, a bigger one
// falls back to a fresh table with a plain reason, and a fragment that is no fight is left alone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildPage, openPage, ready } from '../support/browser';
import { encodeSpec, emptySpec, LIMITS, rollCost, specFromFragment, type FightSpec, type Step } from '../../playground/src/share.js';

describe('typing Roll20 macros into the playground chat box', () => {
  let browser: Browser;
  let page: Page;
  let url: string;
  const problems: string[] = [];

  const chatBox = () => page.getByRole('combobox', { name: /^Message as / });
  const type = async (line: string) => {
    await chatBox().fill(line);
    await chatBox().press('Enter');
  };
  const dialog = () => page.getByRole('dialog');
  const card = (name: string, p: Page = page) => p.getByRole('article', { name, exact: true });
  const vitality = (name: string, p: Page = page) => card(name, p).getByRole('meter', { name: 'Vitality' });
  const log = (p: Page = page) => p.getByRole('log', { name: 'Chat' });
  const messages = () => log().locator('li.msg');
  const lastMessage = () => messages().last();
  const steps = async () => {
    const decoded = specFromFragment(await page.evaluate('location.hash'));
    if (!decoded.ok) throw new Error(decoded.error);
    return decoded.spec.steps;
  };
  const lastLine = async () => {
    const step = (await steps()).at(-1);
    return step?.k === 'say' ? step.line : undefined;
  };
  const selectOnly = async (name: string) => {
    const clear = page.getByRole('button', { name: 'Clear', exact: true });
    if (await clear.isVisible()) await clear.click();
    await card(name).getByRole('checkbox', { name: `Select ${name}` }).check();
    expect(await page.locator('#selected-names').textContent()).toBe(name);
  };
  const fresh = async () => {
    await page.getByRole('button', { name: 'Reset' }).click();
    await ready(page);
  };
  const focused = () => page.evaluate('document.activeElement && document.activeElement.id');
  const isModal = () => page.locator('#ask').evaluate((d) => d.matches(':modal'));

  beforeAll(async () => {
    url = buildPage('playground-typed');
    ({ browser, page } = await openPage(url, problems));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("asks a docs macro's queries in one dialog, then sends it: Goblin 1 takes the damage", async () => {
    await selectOnly('Goblin 1');
    expect(await vitality('Goblin 1').getAttribute('aria-valuenow')).toBe('30');
    await type('!damage [[?{Damage|2d6+3}]] --type ?{Type|Physical,physical|Magical,magical}');
    await expect.poll(() => dialog().isVisible()).toBe(true);
    expect(await isModal()).toBe(true);
    const damage = dialog().getByRole('textbox', { name: 'Damage' });
    expect(await damage.inputValue()).toBe('2d6+3');
    expect(await focused()).toBe(await damage.getAttribute('id'));
    const kind = dialog().getByRole('combobox', { name: 'Type' });
    expect(await kind.locator('option').allTextContents()).toEqual(['Physical', 'Magical']);
    expect(await dialog().locator('label').count()).toBe(2);
    await kind.selectOption({ label: 'Magical' });
    await dialog().getByRole('button', { name: 'Send' }).click();
    await ready(page);
    expect(await dialog().isVisible()).toBe(false);
    expect(await log().locator('table.roll-template').last().locator('caption').textContent()).toMatch(/^Goblin 1 loses \d+ Vitality \(\d+ magical\)$/);
    expect(Number(await vitality('Goblin 1').getAttribute('aria-valuenow'))).toBeLessThan(30);
    expect(await log().locator('.msg-api').last().textContent()).toMatch(/ sent !damage \[\[2d6\+3\]\] --type magical with Goblin 1 selected/);
    // The link holds the line as sent: a replay asks nothing.
    expect(await lastLine()).toBe('!damage [[2d6+3]] --type magical');
    expect(await chatBox().inputValue()).toBe('');
    expect(await focused()).toBe('chat-input');
  });

  it('asks a choice: Bob takes the reactive stance', async () => {
    await selectOnly('Bob');
    await type('!stance ?{Stance|Defensive,defensive|Reactive,reactive|None,none}');
    await dialog().getByRole('combobox', { name: 'Stance' }).selectOption({ label: 'Reactive' });
    await dialog().getByRole('button', { name: 'Send' }).click();
    await ready(page);
    expect(await card('Bob').locator('.marker-reactive').count()).toBe(1);
    expect(await log().locator('table.roll-template').last().locator('caption').textContent()).toBe('Bob takes the reactive stance');
    expect(await lastLine()).toBe('!stance reactive');
  });

  it('picks @{target|...} by a click on the token\'s card: Goblin 2 is hit, and the selection stays', async () => {
    await selectOnly('Goblin 1');
    const goblin1 = await vitality('Goblin 1').getAttribute('aria-valuenow');
    await type('!damage 40 --ids @{target|Target|token_id}');
    await expect.poll(() => dialog().isVisible()).toBe(true);
    // Not modal: the page's tokens can be clicked; the dialog says so, and offers a list too.
    expect(await isModal()).toBe(false);
    expect(await dialog().getByText('click the token on the map or its card').isVisible()).toBe(true);
    const list = dialog().getByRole('combobox', { name: 'Target' });
    expect(await list.locator('option').allTextContents()).toEqual(['Bob', 'Goblin 1', 'Goblin 2', 'Crate', 'Cleo']);
    await card('Goblin 2').locator('.bars').click();
    await ready(page);
    expect(await dialog().isVisible()).toBe(false);
    expect(await vitality('Goblin 2').getAttribute('aria-valuenow')).not.toBe('30');
    expect(await vitality('Goblin 1').getAttribute('aria-valuenow')).toBe(goblin1);
    expect(await log().locator('table.roll-template').last().locator('caption').textContent()).toMatch(/^Goblin 2 /);
    expect(await page.locator('#selected-names').textContent()).toBe('Goblin 1');
    expect(await lastLine()).toMatch(/^!damage 40 --ids -\S+$/);
    // The pick is over: a click selects again (shift adds).
    await card('Goblin 2').locator('.bars').click({ modifiers: ['Shift'] });
    expect(await page.locator('#selected-names').textContent()).toBe('Goblin 1, Goblin 2');
  });

  it('takes a target click and still asks the rest, then fills in @{selected|...}, bars and sheets', async () => {
    await selectOnly('Goblin 1');
    await type('/w gm @{selected|token_name} (Defense @{selected|armor_defense}, bar1 @{selected|bar1}) eyes @{target|Foe|token_name} for ?{Amount|5}; Bob has Defense @{Bob|armor_defense}');
    await expect.poll(() => dialog().isVisible()).toBe(true);
    const foe = dialog().getByRole('combobox', { name: 'Foe' });
    // The list starts on a token that is not selected.
    expect(await foe.inputValue()).not.toBe(await foe.locator('option', { hasText: 'Goblin 1' }).getAttribute('value'));
    await card('Crate').locator('.bars').click();
    expect(await dialog().isVisible()).toBe(true);
    expect(await dialog().getByRole('status').textContent()).toBe('Foe: Crate');
    const amount = dialog().getByRole('textbox', { name: 'Amount' });
    expect(await focused()).toBe(await amount.getAttribute('id'));
    await amount.fill('7');
    await dialog().getByRole('button', { name: 'Send' }).click();
    await ready(page);
    const bar1 = await vitality('Goblin 1').getAttribute('aria-valuenow');
    expect(await lastMessage().locator('.body').textContent()).toBe(`Goblin 1 (Defense 5, bar1 ${bar1}) eyes Crate for 7; Bob has Defense 30`);
    expect(await lastLine()).toBe(`/w gm Goblin 1 (Defense 5, bar1 ${bar1}) eyes Crate for 7; Bob has Defense 30`);
  });

  it('fills in @{selected|token_id} with nothing to ask', async () => {
    await selectOnly('Goblin 2');
    const before = (await steps()).length;
    await type('!heal 3 --ids @{selected|token_id}');
    await ready(page);
    expect(await dialog().isVisible()).toBe(false);
    const line = await lastLine();
    expect(line).toMatch(/^!heal 3 --ids -\S+$/);
    expect(line).not.toContain('@{');
    expect((await steps()).length).toBe(before + 1);
  });

  it('does not send a line it cannot fill in, and says why in the log', async () => {
    await page.getByRole('button', { name: 'Clear', exact: true }).click();
    const before = (await steps()).length;
    const count = await messages().count();
    await type('!damage @{selected|bar1}');
    await ready(page);
    expect(await messages().count()).toBe(count + 1);
    const note = lastMessage();
    expect(await note.getAttribute('class')).toContain('msg-system');
    expect(await note.getAttribute('role')).toBe('note');
    expect(await note.textContent()).toBe(
      'Not sent: @{selected|bar1} reads the selected token, and none is selected: click a token (its card or on the map) to select it, then send again.',
    );
    expect((await steps()).length).toBe(before);
    // The line is back in the box, to fix.
    expect(await chatBox().inputValue()).toBe('!damage @{selected|bar1}');
    await selectOnly('Bob');
    await type('!damage @{selected|no_such_thing}');
    await ready(page);
    expect(await lastMessage().textContent()).toBe('Not sent: No attribute was found for @{selected|no_such_thing}: Bob has no attribute "no_such_thing".');
    expect((await steps()).length).toBe(before);
    expect(await page.getByRole('alert').count()).toBe(0);
  });

  it('sends nothing on Cancel, or on Escape while picking a target', async () => {
    await selectOnly('Bob');
    const before = (await steps()).length;
    const count = await messages().count();
    await type('!damage ?{Damage|10}');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    await ready(page);
    expect(await dialog().isVisible()).toBe(false);
    expect(await messages().count()).toBe(count);
    expect((await steps()).length).toBe(before);
    expect(await chatBox().inputValue()).toBe('!damage ?{Damage|10}');
    await chatBox().fill('');
    await type('!damage 40 --ids @{target|Target|token_id}');
    await expect.poll(() => dialog().isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await ready(page);
    expect(await dialog().isVisible()).toBe(false);
    expect(await messages().count()).toBe(count);
    expect((await steps()).length).toBe(before);
    // Nothing waits for a pick any more: a click on a card selects (shift adds).
    await chatBox().fill('');
    await card('Crate').locator('.bars').click({ modifiers: ['Shift'] });
    expect(await page.locator('#selected-names').textContent()).toBe('Bob, Crate');
  });

  it('refuses a typed roll over the bounds, in plain words, and records nothing', async () => {
    await fresh();
    await type('[[999d9]] [[999d9]] [[999d9]]');
    await ready(page);
    expect(await lastMessage().textContent()).toMatch(/^Not sent: the line can roll up to 2,997 dice; a line may roll at most 2,000/);
    expect(await log().locator('.inlineroll').count()).toBe(0);
    expect(await page.evaluate('location.hash')).toBe('');
    await chatBox().fill('');
  });

  it('replays the biggest link the bounds allow in a couple of seconds', async () => {
    // Every bound at once: the most steps, characters, rolls and dice a shared fight may have.
    const rollsPerStep = LIMITS.fightRolls / LIMITS.steps;
    const dicePerRoll = LIMITS.fightDice / LIMITS.fightRolls;
    const charsPerStep = LIMITS.fightChars / LIMITS.steps;
    const rolls = Array.from({ length: rollsPerStep }, () => `[[${dicePerRoll}d10]]`).join(' ');
    const all = ['Bob', 'Goblin 1', 'Goblin 2', 'Crate'];
    const lines = [`!damage ${rolls} --type physical`, `!defend --action defend ${rolls}`, `/w gm ${rolls}`, `!heal ${rolls}`];
    const stepsOf: Step[] = Array.from({ length: LIMITS.steps }, (_, i) => {
      const line = lines[i % lines.length]!;
      return { k: 'say', as: 'GM', sel: all, line: `${line} ${'x'.repeat(charsPerStep - line.length - 1)}` };
    });
    const spec: FightSpec = { ...emptySpec(), steps: stepsOf };
    const used = stepsOf.reduce((sum, s) => (s.k === 'say' ? { chars: sum.chars + s.line.length, rolls: sum.rolls + rollCost(s.line).rolls, dice: sum.dice + rollCost(s.line).dice } : sum), { chars: 0, rolls: 0, dice: 0 });
    expect(used).toEqual({ chars: LIMITS.fightChars, rolls: LIMITS.fightRolls, dice: LIMITS.fightDice });
    const started = Date.now();
    await page.goto(`${url}#fight=${encodeSpec(spec)}`);
    await ready(page);
    const took = Date.now() - started;
    expect(took).toBeLessThan(3000);
    expect(await log().getByText('could not be loaded').count()).toBe(0);
    // Every step was taken: the commands' lines, and the whispers' rolls in the log.
    expect(await log().locator('.msg-api').count()).toBe((LIMITS.steps * 3) / 4);
    expect(await log().locator('.inlineroll').count()).toBe((LIMITS.steps / 4) * rollsPerStep);
    expect((await steps()).length).toBe(LIMITS.steps);
  }, 30_000);

  it('falls back to a fresh table, saying why in plain words, for a link over a bound or from a newer playground', async () => {
    const over: FightSpec = { ...emptySpec(), steps: Array.from({ length: 51 }, () => ({ k: 'say', as: 'GM', sel: [], line: '[[999d9]]' }) as Step) };
    await page.goto('about:blank');
    await page.goto(`${url}#fight=${encodeSpec(over)}`);
    await ready(page);
    const note = log().locator('li.msg-system');
    expect(await note.textContent()).toBe(
      "This link's fight could not be loaded: the link's fight can roll up to 50,949 dice by step 51, more than the 50,000 a shared fight may roll. Here is a fresh table.",
    );
    expect(await log().locator('.inlineroll').count()).toBe(0);
    expect(await vitality('Bob').getAttribute('aria-valuetext')).toBe('70 of 70');
    const newer = Buffer.from(JSON.stringify({ ...emptySpec(), v: 9 })).toString('base64url');
    await page.goto('about:blank');
    await page.goto(`${url}#fight=${newer}`);
    await ready(page);
    expect(await log().locator('li.msg-system').textContent()).toMatch(/^This link's fight could not be loaded: this link was made by a newer playground \(format 9\)/);
  });

  it('opens a fragment that is no fight (#top) as a fresh table, with no note about a link', async () => {
    await page.goto('about:blank');
    await page.goto(`${url}#top`);
    await ready(page);
    expect(await log().locator('li.msg-system').count()).toBe(0);
    expect(await log().textContent()).not.toContain('could not be loaded');
    expect(await vitality('Bob').getAttribute('aria-valuetext')).toBe('70 of 70');
    expect(await page.evaluate('location.hash')).toBe('#top');
    // The first step puts the fight in the address.
    await selectOnly('Bob');
    await type('!damage 200');
    await ready(page);
    expect(await vitality('Bob').getAttribute('aria-valuenow')).toBe('40');
    expect(await page.evaluate('location.hash')).toMatch(/^#fight=/);
  });

  it('logged no error or warning in the browser', () => {
    expect(problems).toEqual([]);
  });
});
