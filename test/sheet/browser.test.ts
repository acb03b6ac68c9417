// The companion sheet in headless Chromium (issue 34): at 900 px wide nothing overflows, the
// edition choice shows that edition's fields and hides the others, the workers fill the derived
// value, and a screenshot goes to docs/sheet.png (and sheet/preview.png, sheet.json's preview).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, watch } from '../support/browser';
import { editionOf, playableEditions } from '../../src/rules/editions';
import { DEFAULT_ATTRIBUTES } from '../../src/state/settings';
import { DERIVED } from '../../sheet/fields';

const html = readFileSync('sheet/defense-round.html', 'utf8');
const css = readFileSync('sheet/defense-round.css', 'utf8');
const OUT = resolve('.tmp', 'sheet');

/** Bob as the demo table has him in soak, typed into the sheet. */
const BOB: Record<string, string> = { vitality: '70', vitality_max: '70', soul: '20', soul_max: '20', power: '30', power_max: '30', armor_soak: '20', armor_physical: '100', armor_physical_max: '100', armor_magical: '40', armor_magical_max: '40', armor_defense: '30', armor_spirit: '10', natural_defense: '5', natural_spirit: '5', fortitude: '59', defend_check: '60', evade_check: '45', perception_check: '50', mental_check: '40', reaction_check: '35', save_check: '55', exp: '12', passive_defense: '10', active_defense: '4', full_defense: '2', armor_score: '13' };

describe('the sheet in a browser, 900 px wide', () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUT, { recursive: true });
    const host = await build({ entryPoints: ['test/sheet/page/host.ts'], bundle: true, write: false, format: 'iife', platform: 'browser', logLevel: 'silent' });
    const sheetBody = html.slice(0, html.indexOf('<script type="text/worker">'));
    // Roll20 puts a legacy sheet inside .charsheet; the worker script runs apart, through the host.
    const doc = `<!doctype html><html><head><meta charset="utf-8"><style>body{margin:0;padding:8px;background:#fff}${css}</style></head><body><div class="charsheet">${sheetBody}</div><script>${host.outputFiles[0]!.text}</script><script>startSheet(${JSON.stringify(html).replace(/<\//g, '<\\/')}, ${JSON.stringify(BOB)});</script></body></html>`;
    writeFileSync(join(OUT, 'index.html'), doc);
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 900, height: 800 } });
    watch(page, problems);
    await page.goto(pathToFileURL(join(OUT, 'index.html')).href);
    await page.waitForSelector('body[data-state="ready"]', { timeout: 10_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  /** The value attributes of the fields shown now (a field's max counted as its value). */
  // (Run in the page: the project's TypeScript has no DOM types, so these are strings.)
  const shownValues = (): Promise<string[]> =>
    page.evaluate(`[...new Set([...document.querySelectorAll('.sheet-ed [name^="attr_"]')].filter((el) => el.offsetParent !== null).map((el) => el.getAttribute('name').slice(5).replace(/_max$/, '')))]`);

  it('overflows nothing horizontally, in every edition', async () => {
    for (const id of playableEditions()) {
      await page.selectOption('select[name="attr_sheet_edition"]', id);
      const over = await page.evaluate(`(() => {
        const width = document.documentElement.clientWidth;
        const out = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > width + 0.5 || (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible' && el.clientWidth > 0)).map((el) => el.outerHTML.slice(0, 80));
        return { page: document.documentElement.scrollWidth > width, out };
      })()`);
      expect(over, id).toEqual({ page: false, out: [] });
    }
  });

  it("the edition choice shows that edition's values, and hides the others'", async () => {
    for (const id of playableEditions()) {
      await page.selectOption('select[name="attr_sheet_edition"]', id);
      const derived = DERIVED.filter((d) => d.edition === id).map((d) => d.name);
      expect((await shownValues()).sort(), id).toEqual([...editionOf(id).table.reads.map((k) => DEFAULT_ATTRIBUTES[k]), ...derived].sort());
      const buttons = await page.locator('button[type="roll"]:visible').evaluateAll((els) => els.map((el) => el.getAttribute('name')));
      expect(buttons.length, id).toBeGreaterThan(0);
      for (const name of buttons) expect(name, id).toMatch(new RegExp(`^roll_${id}_`));
    }
  });

  it('the workers fill the defensive stance\'s flat defense as Fortitude is typed; worn armor is read-only', async () => {
    await page.selectOption('select[name="attr_sheet_edition"]', 'soak');
    await expect.poll(() => page.locator('[name="attr_defensive_flat"]').textContent()).toBe('2');
    await page.fill('input[name="attr_fortitude"]', '140');
    await page.locator('input[name="attr_fortitude"]').dispatchEvent('change');
    await expect.poll(() => page.locator('[name="attr_defensive_flat"]').textContent()).toBe('7');
    expect(await page.locator('input[name="attr_armor_physical"]').isEditable()).toBe(false);
    expect(await page.locator('input[name="attr_armor_physical_max"]').isEditable()).toBe(true);
  });

  it('writes the screenshot (soak, Bob filled in) to docs/sheet.png and sheet/preview.png', async () => {
    await page.selectOption('select[name="attr_sheet_edition"]', 'soak');
    await page.fill('input[name="attr_fortitude"]', '59');
    await page.locator('input[name="attr_fortitude"]').dispatchEvent('change');
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    await page.mouse.move(0, 0);
    const shot = await page.screenshot({ fullPage: true, caret: 'hide', animations: 'disabled' });
    writeFileSync('docs/sheet.png', shot);
    writeFileSync('sheet/preview.png', shot);
    expect(shot.length).toBeGreaterThan(1000);
    expect(problems).toEqual([]);
  });
});
