// The character sheet in the playground, in a real browser (issue 34, "The playground shows it"):
// a token's card opens its character's sheet (sheet/defense-round.html and .css, as build.mjs
// inlines them) for the GM and the character's controller, never an NPC's for a player; an edit
// in it is the attribute changed on the table, so the next command reads it; its worker script
// runs against the same attributes; its roll buttons send their line as the current speaker.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildPage, openPage, ready, playground } from '../support/browser';
import { specFromFragment } from '../../playground/src/share';

describe('the character sheet in the playground', () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  const { card, log, say, speakAs } = playground(() => page);
  /** A card's Sheet button, named for the token's character ("Open Goblin's sheet" on Goblin 1). */
  const sheetButton = (name: string) => card(name).getByRole('button', { name: /^Open .+'s sheet$/ });
  const dialog = () => page.getByRole('dialog', { name: /'s sheet$/ });
  const field = (name: string) => dialog().locator(`[name="attr_${name}"]`).first();
  const sheetValue = (name: string, label: string) => card(name).locator('dl div').filter({ has: page.locator('dt', { hasText: new RegExp(`^${label}$`) }) }).locator('dd');
  const reset = async () => {
    if (await dialog().isVisible()) await dialog().getByRole('button', { name: 'Close' }).click();
    await page.getByRole('button', { name: 'Reset' }).click();
    await ready(page);
  };
  const openSheet = async (name: string) => {
    await sheetButton(name).click();
    await ready(page);
    await expect(dialog().getAttribute('aria-labelledby')).resolves.toBe('sheet-dialog-title');
    expect(await page.locator('#sheet-dialog-title').textContent()).toBe(`${name.replace(/ \d+$/, '')}'s sheet`);
  };
  /** Types a value into a sheet field as a person does: the change event on leaving it. */
  const edit = async (name: string, value: string) => {
    const input = field(name);
    await input.fill(value);
    await input.dispatchEvent('change');
    await ready(page);
  };
  /** Every attr_ field's shown value, by name (a span's text, an input's value). */
  const fieldValues = () =>
    dialog()
      .locator('[name^="attr_"]')
      .evaluateAll((elements) =>
        Object.fromEntries(
          elements.map((e) => {
            const el = e as unknown as { getAttribute(n: string): string | null; value?: string; textContent: string | null; tagName: string };
            return [el.getAttribute('name') ?? '', el.tagName === 'SPAN' ? (el.textContent ?? '') : (el.value ?? '')];
          }),
        ),
      );
  const lastStep = async () => {
    const decoded = specFromFragment(new URL(page.url()).hash);
    if (!decoded.ok) throw new Error(decoded.error);
    return decoded.spec.steps[decoded.spec.steps.length - 1];
  };

  beforeAll(async () => {
    ({ browser, page } = await openPage(buildPage('playground-sheet'), problems));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it("opens Bob's sheet for the GM and for Alice, and Goblin 1's for the GM but not for Alice", async () => {
    await openSheet('Bob');
    expect(await dialog().isVisible()).toBe(true);
    // The sheet's own markup and style, from sheet/: its fields show Bob's attributes, current and max.
    expect(await page.locator('#sheet-body [name="attr_armor_physical"]').count()).toBeGreaterThan(0);
    expect(await field('armor_physical').inputValue()).toBe('100');
    expect(await field('armor_physical_max').inputValue()).toBe('100');
    expect(await field('fortitude').inputValue()).toBe('60');
    await dialog().getByRole('button', { name: 'Close' }).click();
    expect(await dialog().isVisible()).toBe(false);
    expect(await sheetButton('Goblin 1').isVisible()).toBe(true);
    expect(await sheetButton('Goblin 1').getAttribute('aria-label')).toBe("Open Goblin's sheet");
    await openSheet('Goblin 1');
    await dialog().getByRole('button', { name: 'Close' }).click();
    // The crate represents no character: no sheet to open.
    expect(await card('Crate').getByRole('button', { name: /sheet$/, includeHidden: true }).isVisible()).toBe(false);

    await speakAs('Alice');
    await openSheet('Bob');
    expect(await field('armor_soak').inputValue()).toBe('20');
    // Not an NPC's, nor Ben's Cleo.
    expect(await sheetButton('Goblin 1').isVisible()).toBe(false);
    expect(await sheetButton('Cleo').isVisible()).toBe(false);
    // Speaking as Ben, Bob's sheet is no longer hers to see: it closes.
    await speakAs('Ben');
    expect(await dialog().isVisible()).toBe(false);
    expect(await sheetButton('Cleo').isVisible()).toBe(true);
    await speakAs('GM');
  });

  it("an edit in the sheet is the attribute changed: !damage 200 then reads Bob's new values", async () => {
    await reset();
    await card('Bob').locator('.bars').click();
    await openSheet('Bob');
    // The worn protection is the script's (read-only on the sheet); the undamaged max and the soak are the player's.
    expect(await field('armor_physical').getAttribute('readonly')).not.toBeNull();
    await edit('armor_soak', '50');
    // A user's edit of the attribute: a step of the fight (a share link replays it).
    expect(await lastStep()).toEqual({ k: 'sheet', char: 'Bob', attr: 'armor_soak', current: '50' });
    await edit('armor_physical_max', '80');
    expect(await lastStep()).toEqual({ k: 'sheet', char: 'Bob', attr: 'armor_physical', max: '80' });
    expect(await sheetValue('Bob', 'Physical').textContent()).toBe('100/80');
    // The panel leaves the chat in view: the command is typed with the sheet open.
    await say('!damage 200');
    const breakdown = await log().locator('table.roll-template').last().innerText();
    // The soak read from the sheet's edit (20% before it): 200 x 50% = 100, then Bob's 100 Physical.
    expect(breakdown).toContain('200 x 50% soak = 100');
    expect(breakdown).toContain('100 - 100 Physical = 0');
    // The script wore the armor down: the open sheet shows the table's new value.
    expect(await field('armor_physical').inputValue()).not.toBe('100');
  });

  it('runs the sheet workers against the same attributes: a field they derive follows Fortitude', async () => {
    await reset();
    await openSheet('Bob');
    const before = await fieldValues();
    await edit('fortitude', '200');
    const after = await fieldValues();
    const derived = Object.keys(after).filter((name) => name !== 'attr_fortitude' && after[name] !== before[name]);
    expect(derived.length).toBeGreaterThan(0);
    // 5% of Fortitude (the defensive stance's flat defense), written by a worker onto the table.
    expect(derived.some((name) => after[name] === '10')).toBe(true);
    const name = derived.find((n) => after[n] === '10')!.slice('attr_'.length);
    const step = (await lastStep())!;
    expect(step.k).toBe('sheet');
    expect(JSON.stringify(step)).toContain(name.replace(/_max$/, ''));
  });

  it('a roll button sends its line to the chat as the current speaker', async () => {
    await reset();
    await speakAs('Alice');
    await card('Bob').locator('.bars').click();
    await openSheet('Bob');
    const buttons = await dialog()
      .locator('button[type="roll"]:visible')
      .evaluateAll((elements) => elements.map((e, i) => ({ i, value: (e as unknown as { getAttribute(n: string): string | null }).getAttribute('value') ?? '' })));
    // One that asks nothing (no query, no target pick).
    const plain = buttons.find((b) => b.value.startsWith('!') && !b.value.includes('?{') && !b.value.includes('@{target'));
    expect(plain).toBeDefined();
    const messages = await log().locator('li').count();
    await dialog().locator('button[type="roll"]:visible').nth(plain!.i).click();
    await ready(page);
    const step = (await lastStep())!;
    expect(step.k).toBe('say');
    if (step.k !== 'say') return;
    expect(step.as).toBe('Alice');
    expect(step.sel).toEqual(['Bob']);
    expect(step.line.split(' ')[0]).toBe(plain!.value.split(' ')[0]);
    expect(step.line).not.toMatch(/@\{/);
    expect(await log().locator('li').count()).toBeGreaterThan(messages);
    expect(problems).toEqual([]);
  });
});
