// The playground page in a real browser: playwright-core driving a headless Chromium.
// It builds the page the way `npm run playground` does, opens it from disk (file://, no server)
// and plays it as a person would, checking what the page says, not its pixels.
//
// The browser comes from the lockfile, like every other test dependency: @sparticuz/chromium ships
// a headless Chromium inside the npm package (nothing is downloaded at install or run time) and
// unpacks it into the temp folder on first use. It is pinned to 147.0.0, the newest release that
// still declares Node >= 20.11 (148 and later ask for Node 22). CHROMIUM_PATH points the test at
// another Chrome or Chromium instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from '../support/browser';
import { editionOf, playableEditions } from '../../src/rules/editions';
import { suggestionsOf } from '../../playground/src/suggestions';

const OUT = resolve('.tmp', 'playground');
const PAGE = join(OUT, 'index.html');
const VERSION: string = JSON.parse(readFileSync('package.json', 'utf8')).version;

describe('the playground in a browser', () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  const watch = (p: Page) => {
    p.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`${m.type()}: ${m.text()}`);
    });
    p.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  };
  const ready = (p: Page = page) => p.waitForSelector('body[data-state="ready"]', { timeout: 10_000 });
  const chatBox = () => page.getByRole('combobox', { name: /^Message as / });
  const say = async (line: string) => {
    await chatBox().fill(line);
    await chatBox().press('Enter');
    await ready();
  };
  const card = (name: string, p: Page = page) => p.getByRole('article', { name, exact: true });
  const vitality = (name: string, p: Page = page) => card(name, p).getByRole('meter', { name: 'Vitality' });
  const log = (p: Page = page) => p.getByRole('log', { name: 'Chat' });
  const lastTemplate = (p: Page = page) => log(p).locator('table.roll-template').last();
  const row = (table: Locator, label: string) => table.getByRole('row').filter({ has: page.getByRole('rowheader', { name: label, exact: true }) }).getByRole('cell');
  const sheetValue = (name: string, label: string) => card(name).locator('dl div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    // As `npm run playground` does (typecheck of the page's code included), into a scratch folder.
    execFileSync(process.execPath, ['playground/build.mjs', '--out', PAGE], { encoding: 'utf8', stdio: 'pipe' });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(page);
    await page.goto(pathToFileURL(PAGE).href);
    await ready();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('opens from disk with the shipped script, verbatim, and the demo table', async () => {
    expect(await page.locator('#defense-round-source').textContent()).toBe(readFileSync('dist/defense-round.js', 'utf8'));
    await expect(page.locator('#version').textContent()).resolves.toBe(`v${VERSION}`);
    expect(await page.getByRole('combobox', { name: 'Edition' }).inputValue()).toBe('soak');
    // Every edition the registry offers the GM, and only those.
    expect(await page.getByRole('combobox', { name: 'Edition' }).locator('option').evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value))).toEqual(playableEditions());
    expect(await page.getByRole('article').count()).toBe(5);
    expect(await card('Bob').locator('.owner').textContent()).toBe("Alice's PC");
    expect(await card('Cleo').locator('.owner').textContent()).toBe("Ben's PC");
    expect(await vitality('Bob').getAttribute('aria-valuetext')).toBe('70 of 70');
    expect(await page.locator('#turn-list li[aria-current="true"]').textContent()).toBe('Bob15');
    expect(await log().textContent()).toContain(`DefenseRound v${VERSION} is installed`);
  });

  it('selects Bob by clicking his card, applies !damage 200 and shows Vitality 40 and the breakdown', async () => {
    await card('Bob').locator('.bars').click();
    expect(await card('Bob').getByRole('checkbox', { name: 'Select Bob' }).isChecked()).toBe(true);
    expect(await page.locator('#selected-names').textContent()).toBe('Bob');
    await say('!damage 200');
    expect(await vitality('Bob').getAttribute('aria-valuenow')).toBe('40');
    expect(await card('Bob').locator('.bar-vitality .bar-num').textContent()).toBe('40 / 70');
    expect(await sheetValue('Bob', 'Physical').textContent()).toBe('60/100');
    const card200 = lastTemplate();
    expect(await card200.locator('caption').textContent()).toBe('Bob loses 30 Vitality (200 physical)');
    const breakdown = await row(card200, 'Breakdown').innerText();
    expect(breakdown.split('\n')).toEqual([
      '200 x 80% soak = 160',
      '160 - 100 Physical = 60',
      '60 - 30 Defense = 30',
      'Vitality loss 30',
      'Vitality 70 -> 40',
      'Physical 100 -> 60 (wears 25% of 160 = 40)',
    ]);
    expect(await log().locator('.msg-api').last().textContent()).toMatch(/^GM \(GM\) sent !damage 200 with Bob selected/);
  });

  it('sends a chat button\'s command as the current speaker', async () => {
    await say('!defense-round');
    const menu = log().locator('li.msg').last();
    expect(await menu.getByText('whisper to the GM').count()).toBe(1);
    await menu.getByRole('button', { name: 'visibility.npc: gm' }).click();
    await ready();
    expect(await log().locator('.msg-api').last().textContent()).toMatch(/^GM \(GM\) sent !defense-round config visibility\.npc public/);
    expect(await log().locator('li.msg').last().textContent()).toContain('Full breakdowns for NPCs now go to everyone.');
  });

  it('speaks as a player: whispers to others are marked, and typed HTML stays text', async () => {
    await page.getByRole('combobox', { name: 'Speak as' }).selectOption('Alice');
    expect(await chatBox().getAttribute('id')).toBe('chat-input');
    await say('!defense-round');
    expect(await log().locator('li.msg').last().textContent()).toContain('whisper to Alice');
    expect(await log().locator('li.msg.unseen').count()).toBeGreaterThan(0);
    const title = await page.title();
    await say('<img src=x onerror="document.title=\'pwned\'"> <b>bold</b> &amp; [[1d20]]');
    const said = log().locator('li.msg').last();
    expect(await said.locator('img, b').count()).toBe(0);
    expect(await said.locator('.body').textContent()).toMatch(/^<img src=x onerror="document.title='pwned'"> <b>bold<\/b> & \d+$/);
    expect(await said.locator('.inlineroll').count()).toBe(1);
    expect(await page.title()).toBe(title);
    await page.getByRole('combobox', { name: 'Speak as' }).selectOption('GM');
  });

  it('switches to threshold and plays the rules\' example: defend, then !damage 20 --hit 19 leaves Vitality 20', async () => {
    await page.getByRole('combobox', { name: 'Edition' }).selectOption('threshold');
    await ready();
    expect(await page.getByRole('combobox', { name: 'Edition' }).inputValue()).toBe('threshold');
    // The script's answer, then the page's own line: what it changed on the demo table.
    expect(await log().locator('li.msg').nth(-2).textContent()).toContain('Edition is now threshold');
    expect(await log().locator('li.msg').last().textContent()).toContain("The page gives the demo table the threshold sample's values");
    expect(await page.locator('#example-title').textContent()).toContain('The Defensive Turn');
    await page.getByRole('button', { name: 'Set up the example' }).click();
    await ready();
    expect(await vitality('Bob').getAttribute('aria-valuetext')).toBe('30 of 30');
    expect(await sheetValue('Bob', 'Defense').textContent()).toBe('10');
    expect(await sheetValue('Bob', 'Physical armor').textContent()).toBe('18/18');
    expect(await page.locator('#turn-list li[aria-current="true"] .turn-name').textContent()).toBe('Goblin 1');
    await say('!defend --action defend --roll 10');
    expect(await row(lastTemplate(), 'Check').innerText()).toContain('Defend d100 10 vs 55: success');
    await say('!damage 20 --hit 19');
    expect(await vitality('Bob').getAttribute('aria-valuenow')).toBe('20');
    expect((await row(lastTemplate(), 'Breakdown').innerText()).split('\n')).toEqual([
      'Hit chance 19 beats Physical Armor 18: a hit',
      '20 - 10 Defense = 10',
      'Vitality 30 -> 20',
    ]);
  });

  it('resets, switches to opposed, edits Bob\'s sheet by hand and plays the worked example\'s 14 damage', async () => {
    await page.getByRole('button', { name: 'Reset' }).click();
    await ready();
    expect(await vitality('Bob').getAttribute('aria-valuetext')).toBe('70 of 70');
    expect(await log().locator('li.msg').count()).toBe(1);
    expect(await page.evaluate('location.hash')).toBe('');
    // Reset is a new history entry: Back brings the fight back, Forward the fresh table.
    await page.goBack();
    await expect.poll(() => vitality('Bob').getAttribute('aria-valuenow'), { timeout: 10_000 }).toBe('20');
    await ready();
    await page.goForward();
    await expect.poll(() => vitality('Bob').getAttribute('aria-valuenow'), { timeout: 10_000 }).toBe('70');
    await ready();
    await page.getByRole('combobox', { name: 'Edition' }).selectOption('opposed');
    await ready();
    await card('Bob').getByText('Edit by hand').click();
    await card('Bob').getByLabel('Passive defense', { exact: true }).fill('10');
    await card('Bob').getByRole('button', { name: 'Apply' }).click();
    await ready();
    expect(await sheetValue('Bob', 'Passive defense').textContent()).toBe('10');
    await card('Bob').locator('.bars').click();
    await say('!damage 8 --attack 24 --defense-roll 8');
    const breakdown = await row(lastTemplate(), 'Breakdown').innerText();
    expect(breakdown).toContain('Defense (passive) d20 8 + 10 passive = 18');
    expect(breakdown).toContain('Damage 8 + 6 margin = 14');
    expect(await vitality('Bob').getAttribute('aria-valuenow')).toBe('56');
  });

  it('gives every edition its table on a switch: each worked example plays from its first move, the GM reads the conditions the switch changed, and a goblin\'s card shows the armor it wore', async () => {
    await page.getByRole('button', { name: 'Reset' }).click();
    await ready();
    await card('Goblin 1').locator('.bars').click();
    await say('!damage 40');
    expect(await sheetValue('Goblin 1', 'Physical').textContent()).toBe('11/20 (worn on this token)');
    expect(await sheetValue('Goblin 2', 'Physical').textContent()).toBe('20/20');
    await card('Goblin 1').locator('.bars').click();
    await card('Goblin 2').locator('.bars').click();
    await say('!damage 100');
    await page.getByRole('combobox', { name: 'Edition' }).selectOption('threshold');
    await ready();
    expect(await log().textContent()).toContain('Edition is now threshold. Conditions read again: Goblin 2 dying -> dead.');
    expect(await page.locator('#example-title').textContent()).toContain('The Defensive Turn');
    await card('Goblin 2').locator('.bars').click();
    await card('Bob').locator('.bars').click();
    expect(await page.locator('#selected-names').textContent()).toBe('Bob');
    await say('!defend --action defend --roll 10');
    await say('!damage 20 --hit 19');
    expect(await vitality('Bob').getAttribute('aria-valuenow')).toBe('20');
    await page.getByRole('combobox', { name: 'Edition' }).selectOption('opposed');
    await ready();
    expect(await page.locator('#example-title').textContent()).toContain('Opposed Rolls');
    expect(await sheetValue('Bob', 'Passive defense').textContent()).toBe('10');
    await say('!damage 8 --attack 24 --defense-roll 8');
    expect(await row(lastTemplate(), 'Breakdown').innerText()).toContain('Damage 8 + 6 margin = 14');
    expect(await vitality('Bob').getAttribute('aria-valuenow')).toBe('56');
  });

  it('asks a button\'s query in a labelled dialog before sending', async () => {
    await say('!defense-round');
    await log().locator('li.msg').last().getByRole('button', { name: 'overwhelm-limit: 20' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('textbox', { name: 'Overwhelm limit' }).fill('25');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await ready();
    expect(await log().locator('.msg-api').last().textContent()).toMatch(/^GM \(GM\) sent !defense-round config overwhelm-limit 25/);
  });

  it('shares the fight: the link replays it in a new tab', async () => {
    await page.getByRole('button', { name: 'Share this fight' }).click();
    const url = await page.getByRole('textbox', { name: 'Link to this fight' }).inputValue();
    expect(url).toMatch(/^file:.*index\.html#fight=[\w-]+$/);
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(other);
    await other.goto(url);
    await ready(other);
    expect(await vitality('Bob', other).getAttribute('aria-valuenow')).toBe('56');
    expect(await other.getByRole('combobox', { name: 'Edition' }).inputValue()).toBe('opposed');
    // The chat replays exactly; the page's own notes (what a switch gave the table) are the page's, not in the link.
    const chat = (p: Page) => log(p).locator('li.msg:not(.msg-system)');
    expect(await chat(other).count()).toBe(await chat(page).count());
    expect(await chat(other).allTextContents()).toEqual(await chat(page).allTextContents());
    expect(await log().locator('li.msg-system').count()).toBeGreaterThan(0);
    expect(await other.locator('#selected-names').textContent()).toBe('Bob');
    await other.close();
  });

  it('works from the keyboard and has a name for every control', async () => {
    // A reload replays the fight from the address, and Tab starts again at the top.
    await page.reload();
    await ready();
    expect(await vitality('Bob').getAttribute('aria-valuenow')).toBe('56');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to the chat box');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.activeElement.id')).toBe('chat-input');
    await page.keyboard.type('!heal 4');
    await page.keyboard.press('Enter');
    await ready();
    expect(await vitality('Bob').getAttribute('aria-valuenow')).toBe('60');
    const unnamed = await page.evaluate(`[...document.querySelectorAll('button, input, select, summary')]
      .filter((el) => !el.closest('[hidden], dialog:not([open])'))
      .filter((el) => !(el.getAttribute('aria-label') || (el.labels && el.labels.length) || el.textContent.trim()))
      .map((el) => el.outerHTML)`);
    expect(unnamed).toEqual([]);
  });

  it('looks right on a desktop and a phone (screenshots under .tmp/playground/)', async () => {
    const desktop = await page.screenshot({ path: join(OUT, 'desktop.png'), fullPage: true });
    expect(desktop.subarray(1, 4).toString()).toBe('PNG');
    expect(desktop.readUInt32BE(16)).toBe(1280);
    await page.setViewportSize({ width: 390, height: 844 });
    const phone = await page.screenshot({ path: join(OUT, 'phone.png'), fullPage: true });
    expect(phone.readUInt32BE(16)).toBe(390);
    // Nothing wider than the phone, the chat box as wide as it can be, the cards side by side.
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const box = await chatBox().boundingBox();
    expect(box!.width).toBeGreaterThan(250);
    const bob = await card('Bob').boundingBox();
    const goblin = await card('Goblin 1').boundingBox();
    expect(goblin!.y).toBe(bob!.y);
    expect(await page.evaluate('getComputedStyle(document.querySelector(".bar-num")).fontSize')).toMatch(/^1[2-9]/);
  });

  it('suggests in the chat box each edition\'s own commands and says its flags, after every switch', async () => {
    const other = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    watch(other);
    await other.goto(pathToFileURL(PAGE).href);
    await ready(other);
    const box = other.getByRole('combobox', { name: /^Message as / });
    // The list the box is bound to (its `list` attribute), not just some datalist on the page.
    const offered = () => box.evaluate((input) => Array.from((input as unknown as { list: { options: ArrayLike<{ value: string }> } }).list.options).map((o) => o.value));
    const editions = playableEditions();
    // The first edition is the one the page opens with: it is checked last, switched back to.
    for (const id of [...editions.slice(1), editions[0]!]) {
      await other.getByRole('combobox', { name: 'Edition' }).selectOption(id);
      await ready(other);
      const own = suggestionsOf(id);
      const lines = await offered();
      expect(lines, id).toEqual(own);
      for (const example of editionOf(id).hit.examples ?? []) expect(lines, id).toContain(example);
      for (const otherId of editions.filter((e) => e !== id)) {
        for (const line of suggestionsOf(otherId)) if (!own.includes(line)) expect(lines, `${id} offers ${otherId}'s ${line}`).not.toContain(line);
      }
      const flags = other.locator('#chat-flags');
      if (!(await flags.evaluate((details) => (details as unknown as { open: boolean }).open))) await flags.getByText(/^Flags in this edition/).click();
      const damage = flags.getByRole('list', { name: '!damage flags' });
      const said = await damage.textContent();
      for (const flag of Object.keys(editionOf(id).hit.flags)) expect(said, `${id} --${flag}`).toContain(`--${flag}`);
      expect(await damage.getByRole('listitem').count()).toBe(Object.keys(editionOf(id).hit.flags).length);
    }
    await other.close();
  });

  it('logged no error, warning or broken security policy in the browser', () => {
    expect(problems).toEqual([]);
  });
});
