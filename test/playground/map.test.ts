// The playground's map in a real browser: the demo scene drawn on its grid, tokens selected by
// click, shift+click and keyboard, markers as icons with Roll20's names, the GM layer faded for
// the GM and gone for a player, and a phone's width. UPDATE_SCREENSHOTS=1 also rewrites
// docs/playground-desktop.png and docs/playground-phone.png (npm test leaves them alone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildPage, openPage, ready } from '../support/browser';

const UPDATE = process.env.UPDATE_SCREENSHOTS === '1';

describe('the playground map', () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  const map = () => page.getByRole('group', { name: 'Map', exact: true });
  const token = (name: string) => map().locator(`[role="button"][data-token="${name}"]`);
  const opacity = async (name: string) => Number(await page.evaluate(`getComputedStyle(document.querySelector('svg.map [data-token="${name}"]')).opacity`));
  const selected = () => page.locator('#selected-names').textContent();
  const checkbox = (name: string) => page.getByRole('checkbox', { name: `Select ${name}`, exact: true });
  const say = async (line: string) => {
    const box = page.getByRole('combobox', { name: /^Message as / });
    await box.fill(line);
    await box.press('Enter');
    await ready(page);
  };
  const speakAs = async (name: string) => {
    await page.getByRole('combobox', { name: 'Speak as' }).selectOption(name);
    await ready(page);
  };

  beforeAll(async () => {
    ({ browser, page } = await openPage(buildPage('playground-map'), problems));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('draws every token of the demo on the map, with its name and bars', async () => {
    expect(await map().evaluate((el) => el.tagName.toLowerCase())).toBe('svg');
    const buttons = map().getByRole('button');
    expect(await buttons.count()).toBe(5);
    expect(await map().locator('.token-name').allTextContents()).toEqual(['Bob', 'Goblin 1', 'Goblin 2', 'Crate', 'Cleo']);
    for (const name of ['Bob', 'Goblin 1', 'Goblin 2', 'Crate', 'Cleo']) {
      const button = map().getByRole('button', { name: new RegExp(`^${name};`) });
      expect(await button.count()).toBe(1);
      expect(await button.getAttribute('aria-pressed')).toBe('false');
      expect(await button.getAttribute('tabindex')).toBe('0');
    }
    expect(await token('Bob').getAttribute('aria-label')).toBe('Bob; Vitality 70 of 70, Soul 40 of 40, Power 30 of 30; its turn');
    expect(await token('Bob').locator('.map-bar title').allTextContents()).toEqual(['Vitality 70 of 70', 'Soul 40 of 40', 'Power 30 of 30']);
    // Left to right as the scene places them (left 100, 200, 300, 400).
    const xs = await Promise.all(['Bob', 'Goblin 1', 'Goblin 2', 'Crate'].map(async (n) => (await token(n).locator('.token-body').boundingBox())!.x));
    expect([...xs].sort((a, b) => a - b)).toEqual(xs);
    // A GM named GM is not "GM (GM)".
    expect(await page.getByRole('combobox', { name: 'Speak as' }).locator('option').allTextContents()).toEqual(['GM', 'Alice', 'Ben']);
    expect(await page.locator('#chat-label').textContent()).toBe('Message as GM');
  });

  it('selects as Roll20 does: a click selects only that token, shift+click adds or takes out', async () => {
    await token('Goblin 1').click();
    await ready(page);
    expect(await checkbox('Goblin 1').isChecked()).toBe(true);
    expect(await selected()).toBe('Goblin 1');
    expect(await token('Goblin 1').getAttribute('aria-pressed')).toBe('true');
    expect(await token('Goblin 1').locator('.select-ring').count()).toBe(1);
    await token('Goblin 2').click();
    await ready(page);
    expect(await selected()).toBe('Goblin 2');
    expect(await checkbox('Goblin 1').isChecked()).toBe(false);
    expect(await token('Goblin 1').getAttribute('aria-pressed')).toBe('false');
    expect(await token('Goblin 1').locator('.select-ring').count()).toBe(0);
    await token('Goblin 1').click({ modifiers: ['Shift'] });
    await ready(page);
    expect(await selected()).toBe('Goblin 2, Goblin 1');
    expect(await checkbox('Goblin 2').isChecked()).toBe(true);
    await token('Goblin 2').click({ modifiers: ['Shift'] });
    await ready(page);
    expect(await selected()).toBe('Goblin 1');
  });

  it('selects from the keyboard: Enter selects, Shift+Enter adds, and the token keeps the focus', async () => {
    await token('Bob').focus();
    await page.keyboard.press('Enter');
    await ready(page);
    expect(await selected()).toBe('Bob');
    expect(await checkbox('Bob').isChecked()).toBe(true);
    expect(await page.evaluate('document.activeElement.getAttribute("data-token")')).toBe('Bob');
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.getAttribute("data-token")')).toBe('Goblin 1');
    await page.keyboard.press('Shift+Enter');
    await ready(page);
    expect(await selected()).toBe('Bob, Goblin 1');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press(' ');
    await ready(page);
    expect(await selected()).toBe('Bob');
  });

  it('shows a stance as a marker icon with its Roll20 name, on the map and on the card', async () => {
    await say('!stance reactive');
    const marker = token('Bob').locator('.map-marker');
    expect(await marker.count()).toBe(1);
    expect(await marker.getAttribute('aria-label')).toBe('fist');
    expect(await marker.locator('title').textContent()).toBe('fist');
    expect(await marker.locator('path, rect, circle').count()).toBeGreaterThan(1);
    expect(await token('Bob').getAttribute('aria-label')).toContain('markers: fist');
    // Focused from the keyboard, the token shows its markers' names.
    await token('Goblin 1').focus();
    await page.keyboard.press('Shift+Tab');
    expect(await page.evaluate('document.activeElement.getAttribute("data-token")')).toBe('Bob');
    expect(await map().locator('.map-tip').getAttribute('visibility')).toBe('visible');
    expect(await map().locator('.map-tip text').textContent()).toBe('fist');
    // Hovering the marker shows its name too.
    await marker.hover();
    expect(await map().locator('.map-tip text').textContent()).toBe('fist');
    // The card: an icon, and the name in words.
    const cardMarker = page.getByRole('list', { name: 'Markers on Bob' }).getByRole('listitem');
    expect(await cardMarker.count()).toBe(1);
    expect(await cardMarker.locator('svg.marker-icon').count()).toBe(1);
    expect(await cardMarker.textContent()).toContain('fist');
    expect(await cardMarker.getAttribute('data-marker')).toBe('fist');
  });

  it('draws a GM-layer token faded for the GM and not at all for a player', async () => {
    await page.evaluate(`playground.moveToLayer('Crate', 'gmlayer')`);
    await ready(page);
    expect(await token('Crate').count()).toBe(1);
    expect(await opacity('Crate')).toBeLessThan(0.6);
    expect(await opacity('Bob')).toBe(1);
    expect(await token('Crate').getAttribute('aria-label')).toContain('on the GM layer, hidden from the players');
    // Its card follows the map: faded for the GM, gone for a player.
    const crateCard = page.locator('li.token[data-token="Crate"]');
    expect(await crateCard.getAttribute('class')).toContain('gm-layer');
    await speakAs('Alice');
    expect(await token('Crate').count()).toBe(0);
    expect(await map().getByRole('button').count()).toBe(4);
    expect(await crateCard.isHidden()).toBe(true);
    expect(await page.getByRole('article').count()).toBe(4);
    await speakAs('GM');
    expect(await token('Crate').count()).toBe(1);
    expect(await crateCard.isVisible()).toBe(true);
  });

  it('redraws the map as the fight goes: a hurt goblin\'s bar shrinks', async () => {
    await token('Goblin 1').click();
    await ready(page);
    await say('!damage 40');
    const vitality = token('Goblin 1').locator('.map-bar-vitality');
    const said = await vitality.locator('title').textContent();
    expect(said).toMatch(/^Vitality \d+ of 30$/);
    expect(said).not.toBe('Vitality 30 of 30');
    const fill = Number(await vitality.locator('.map-bar-fill').getAttribute('width'));
    const track = Number(await vitality.locator('.map-bar-track').getAttribute('width'));
    expect(fill).toBeLessThan(track);
    // Bob selected in his reactive stance, Goblin 1 hurt, Crate on the GM layer.
    await token('Bob').click();
    await ready(page);
    await page.mouse.move(0, 0);
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    if (UPDATE) await page.screenshot({ path: 'docs/playground-desktop.png' });
  });

  it('fits a phone: no sideways scrolling, the map as wide as the page', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    const widths = (await page.evaluate('({ scroll: document.scrollingElement.scrollWidth, client: document.scrollingElement.clientWidth })')) as { scroll: number; client: number };
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    const box = (await map().boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(box.width).toBeGreaterThan(300);
    // Still a click target.
    await token('Goblin 2').click();
    await ready(page);
    expect(await selected()).toBe('Goblin 2');
    await token('Bob').click();
    await ready(page);
    await page.mouse.move(0, 0);
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    if (UPDATE) await page.screenshot({ path: 'docs/playground-phone.png' });
  });

  it('logged no error, warning or broken security policy in the browser', () => {
    expect(problems).toEqual([]);
  });
});
