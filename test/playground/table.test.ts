// The playground as a table, in a real browser (issue 33, "The sandbox and the playground as a
// table"): a click on a selected token keeps it selected; each speaker has her own selection and
// a player selects only her own tokens; a player's cards and map hide NPC numbers as the script
// hides them; Ben's Cleo is on the table and answers an attack with a click; `!attack` is in the
// chat hint and in each edition's examples; an edition switch (the control, or typed) gives the
// table the edition's sample values and the log says which.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { buildPage, openPage, ready, playground } from '../support/browser';
import { editionOf, playableEditions } from '../../src/rules/editions';

describe('the playground as a table', () => {
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  const { token, card, log, chatBox, say, speakAs } = playground(() => page);
  const vitality = (name: string) => card(name).getByRole('meter', { name: 'Vitality' });
  const selected = () => page.locator('#selected-names').textContent();
  const note = () => page.locator('#selection-note').textContent();
  const reset = async () => {
    await page.getByRole('button', { name: 'Reset' }).click();
    await ready(page);
  };

  beforeAll(async () => {
    ({ browser, page } = await openPage(buildPage('playground-table'), problems));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
  });

  it('keeps a selected token selected on a click, on the map and on its card', async () => {
    await token('Goblin 1').click();
    await ready(page);
    await token('Goblin 1').click();
    await ready(page);
    expect(await selected()).toBe('Goblin 1');
    await card('Goblin 1').locator('.bars').click();
    await ready(page);
    expect(await selected()).toBe('Goblin 1');
    // A card's click selects only its token, as the map's does; shift adds.
    await card('Goblin 2').locator('.bars').click();
    expect(await selected()).toBe('Goblin 2');
    await card('Goblin 1').locator('.bars').click({ modifiers: ['Shift'] });
    expect(await selected()).toBe('Goblin 2, Goblin 1');
  });

  it('gives each speaker her own selection, of the tokens she controls, and says why a click selected nothing', async () => {
    await speakAs('Alice');
    expect(await selected()).toBe('none');
    await token('Goblin 1').click();
    await ready(page);
    expect(await selected()).toBe('none');
    expect(await note()).toBe('Alice cannot select Goblin 1: it is not hers: a player selects only the tokens she controls (the GM selects any).');
    await card('Cleo').getByRole('checkbox', { name: 'Select Cleo' }).click();
    await ready(page);
    expect(await card('Cleo').getByRole('checkbox', { name: 'Select Cleo' }).isChecked()).toBe(false);
    expect(await note()).toContain('Alice cannot select Cleo');
    await token('Bob').click();
    await ready(page);
    expect(await selected()).toBe('Bob');
    expect(await note()).toBe('');
    // Her line goes with her selection, not the GM's.
    await say('!stance reactive');
    expect(await log().locator('.msg-api').last().textContent()).toMatch(/^Alice sent !stance reactive with Bob selected/);
    await speakAs('GM');
    expect(await selected()).toBe('Goblin 2, Goblin 1');
    await speakAs('Ben');
    await token('Cleo').click();
    await ready(page);
    expect(await selected()).toBe('Cleo');
    await speakAs('Alice');
    expect(await selected()).toBe('Bob');
  });

  it('shows a player no NPC numbers where the script hides them: no bars on the map, a note on the card', async () => {
    await reset();
    await speakAs('GM');
    await token('Goblin 1').click();
    await ready(page);
    await say('!damage 40');
    expect(await vitality('Goblin 1').getAttribute('aria-valuenow')).not.toBe('30');
    await speakAs('Alice');
    expect(await vitality('Goblin 1').count()).toBe(0);
    expect(await card('Goblin 1').locator('.hidden-numbers').textContent()).toBe('Numbers hidden from Alice: the script shows them to the GM only (visibility.npc gm).');
    expect(await card('Goblin 1').locator('dl.sheet').isHidden()).toBe(true);
    expect(await card('Goblin 1').getByText('Edit by hand').isVisible()).toBe(false);
    expect(await token('Goblin 1').locator('.map-bar').count()).toBe(0);
    expect(await token('Goblin 1').getAttribute('aria-label')).toContain('its numbers hidden from players');
    expect(await card('Crate').locator('.hidden-numbers').count()).toBe(1);
    // Her own Bob and Ben's Cleo (a PC: public by default) keep their numbers.
    expect(await vitality('Bob').getAttribute('aria-valuetext')).toBe('70 of 70');
    expect(await vitality('Cleo').getAttribute('aria-valuetext')).toBe('50 of 50');
    expect(await card('Cleo').locator('.owner').textContent()).toBe("Ben's PC");
    // The GM makes NPC breakdowns public: the page follows the script.
    await speakAs('GM');
    await say('!defense-round config visibility.npc public');
    await speakAs('Alice');
    expect(await vitality('Goblin 1').count()).toBe(1);
    expect(await card('Goblin 1').locator('.hidden-numbers').count()).toBe(0);
  });

  it('lets Ben answer an attack on Cleo with one click in his whisper', async () => {
    await reset();
    await page.getByRole('button', { name: 'Next turn' }).click();
    await ready(page);
    await token('Goblin 1').click();
    await ready(page);
    // The defender is asked for: a click on Cleo picks her.
    await chatBox().fill('!attack 30 --ids @{target|Defender|token_id}');
    await chatBox().press('Enter');
    await expect.poll(() => page.getByRole('dialog').isVisible()).toBe(true);
    await token('Cleo').click();
    await ready(page);
    await speakAs('Ben');
    const whisper = log().locator('li.msg').filter({ hasText: 'whisper to Ben' }).last();
    await whisper.getByRole('button', { name: 'No defense' }).click();
    await ready(page);
    expect(await log().locator('.msg-api').last().textContent()).toMatch(/^Ben sent !defend --answer A1 --ids \S+ --action none/);
    expect(await vitality('Cleo').getAttribute('aria-valuenow')).toBe('22');
  });

  it('has !attack in the chat hint and an attack macro in each edition\'s examples, put in the chat box as the GM with Goblin 1 selected', async () => {
    expect(await page.locator('#chat-hint').textContent()).toContain('!attack');
    for (const edition of playableEditions()) {
      await page.getByRole('combobox', { name: 'Edition' }).selectOption(edition);
      await ready(page);
      const macro = editionOf(edition).table.macros.find((m) => m.name === 'DR-Attack')!.action;
      const item = page.locator('#example-moves li.attack-move');
      expect(await item.locator('code').textContent()).toBe(macro);
    }
    await speakAs('Alice');
    await page.getByRole('button', { name: 'Put the attack macro in the chat box, with Goblin 1 selected' }).click();
    await ready(page);
    expect(await page.getByRole('combobox', { name: 'Speak as' }).inputValue()).toBe('GM');
    expect(await selected()).toBe('Goblin 1');
    expect(await chatBox().inputValue()).toMatch(/^!attack /);
    await chatBox().fill('');
  });

  it('says what a switch changes, from the control or typed: the table gets the edition\'s sample values', async () => {
    await reset();
    await page.getByRole('combobox', { name: 'Edition' }).selectOption('threshold');
    await ready(page);
    expect(await page.locator('#edition-note').textContent()).toContain("gives the demo table that edition's sample values");
    const last = () => log().locator('li.msg').last().textContent();
    expect(await last()).toBe(
      "The page gives the demo table the threshold sample's values, as the GM's own sheet edits (the script itself keeps values on a switch): Bob: Vitality 30, Defense 10, Physical armor 18; the goblins' sheet: Physical armor 12, Defense 3. Cleo keeps her light armor. The page also moved the Turn Tracker on: the example's defense is made when it is not Bob's turn.",
    );
    // Typed in the chat box, the switch does the same.
    await say('!defense-round config edition soak');
    expect(await last()).toContain("The page gives the demo table the soak sample's values");
    expect(await vitality('Bob').getAttribute('aria-valuetext')).toBe('70 of 70');
    await say('!defense-round config edition threshold');
    expect(await vitality('Bob').getAttribute('aria-valuetext')).toBe('30 of 30');
    expect(await card('Goblin 1').locator('dl div').filter({ hasText: 'Physical armor' }).locator('dd').textContent()).toBe('12/12');
  });

  it('logged no error, warning or broken security policy in the browser', () => {
    expect(problems).toEqual([]);
  });
});
