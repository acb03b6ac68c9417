// The playground's demo table in every edition (issue 22): a switch gives the table that edition's
// values, so its worked example plays from the first move; a generic token's card shows the armor it
// wore; the switch's answer names the conditions it changed. Node only: the page draws these views.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { exampleOf } from '../../playground/src/examples.js';
import { EDITIONS, Fight, type Edition } from '../../playground/src/fight.js';
import { plain, viewOf } from '../../playground/src/chat.js';
import { DEFAULT_EDITION, editionOf, playableEditions, registerEdition, unregisterEdition } from '../../src/rules/editions.js';
import { VALUE_KEYS } from '../../src/rules/edition.js';

const BUNDLE = readFileSync('dist/defense-round.js', 'utf8');
const vitality = (fight: Fight, name: string) => fight.tokens().find((t) => t.name === name)!.bars.find((b) => b.resource === 'vitality')!;
const sheet = (fight: Fight, name: string, label: string) => fight.tokens().find((t) => t.name === name)!.sheet.find((v) => v.label === label)!;
const chat = (fight: Fight) => fight.entries.flatMap((e) => (e.kind === 'chat' ? [viewOf(e.record)] : []));
const lastCard = (fight: Fight) => {
  const card = chat(fight).filter((v) => v.template).at(-1)!.template!;
  return { title: plain(card.title ?? []), rows: Object.fromEntries(card.rows.map((r) => [plain(r.label), plain(r.value)])) };
};

/** The edition's worked example, as its page button plays it: Bob selected, then each move typed. */
async function playExample(fight: Fight, edition: Edition): Promise<void> {
  fight.selection = [fight.scene.tokens.Bob];
  for (const move of exampleOf(edition)!.moves) await fight.say(move.line);
}

/** As the page's edition switch does it: the config line, then the edition's table. */
async function switchTo(fight: Fight, edition: Edition): Promise<void> {
  expect(await fight.switchEdition(edition)).toBe(true);
  await exampleOf(edition)?.setup(fight);
}

describe('each edition\'s worked example plays right after a switch', () => {
  it('The Defensive Turn: Bob defends (10 vs 55), then 20 damage at hit chance 19 leaves Vitality 20', async () => {
    const fight = await Fight.start(BUNDLE);
    await switchTo(fight, 'threshold');
    expect(vitality(fight, 'Bob')).toMatchObject({ value: '30', max: '30' });
    await playExample(fight, 'threshold');
    expect(vitality(fight, 'Bob').value).toBe('20');
    expect(lastCard(fight).rows.Breakdown).toContain('20 - 10 Defense = 10');
  });

  it('Opposed Rolls: attack 24 against 8 + passive 10, weapon 8: 14 off Vitality (70 -> 56)', async () => {
    const fight = await Fight.start(BUNDLE);
    await switchTo(fight, 'opposed');
    await playExample(fight, 'opposed');
    expect(vitality(fight, 'Bob').value).toBe('56');
    expect(lastCard(fight).rows.Breakdown).toContain('Damage 8 + 6 margin = 14');
  });

  it('back to The Defensive Round: the demo table\'s values return and the README hit leaves Bob at 40', async () => {
    const fight = await Fight.start(BUNDLE);
    await switchTo(fight, 'threshold');
    await switchTo(fight, 'soak');
    expect(sheet(fight, 'Bob', 'Physical')).toMatchObject({ current: '100', max: '100' });
    expect(vitality(fight, 'Bob')).toMatchObject({ value: '70', max: '70' });
    await playExample(fight, 'soak');
    expect(vitality(fight, 'Bob').value).toBe('40');
  });

  it.each(EDITIONS)('in %s the goblins have the values the docs\' macros read: none of them is 0 or missing', async (edition) => {
    const fight = await Fight.start(BUNDLE);
    if (edition !== DEFAULT_EDITION) await switchTo(fight, edition);
    const values = fight.tokens().find((t) => t.name === 'Goblin 1')!.sheet;
    expect(values.length).toBeGreaterThan(3);
    for (const value of values) {
      if (value.key === 'exp' || value.key === 'armor_magical' || value.key === 'armor_spirit') continue; // goblins have no EXP and no magic armor
      expect({ [value.label]: value.current }).not.toEqual({ [value.label]: '' });
      expect({ [value.label]: value.current }).not.toEqual({ [value.label]: '0' });
    }
  });

  it('a switch made twice makes no second set of edits (each value is written only when it differs)', async () => {
    const fight = await Fight.start(BUNDLE);
    await switchTo(fight, 'opposed');
    const steps = fight.spec().steps.length;
    await exampleOf('opposed')!.setup(fight);
    expect(fight.spec().steps.length).toBe(steps);
  });
});

describe('every edition the registry holds is offered and played', () => {
  it('offers every playable edition, in the registry\'s order', () => {
    expect(EDITIONS).toEqual(playableEditions());
    expect(EDITIONS.length).toBeGreaterThanOrEqual(3);
  });

  it.each(EDITIONS)('%s: the switch, its table, its example (or its hit) played on Bob, no crash, its sheet on the cards', async (edition) => {
    const fight = await Fight.start(BUNDLE);
    if (edition !== DEFAULT_EDITION) await switchTo(fight, edition);
    expect(fight.edition()).toBe(edition);
    const sample = editionOf(edition).table.sample;
    if (sample) {
      for (const [key, value] of Object.entries(sample.hero)) {
        if (key === 'vitality') expect(vitality(fight, 'Bob').value).toBe(String(value));
        else expect(fight.tokens().find((t) => t.name === 'Bob')!.sheet.find((v) => v.key === key)?.current).toBe(String(value));
      }
    }
    const before = vitality(fight, 'Bob').value;
    fight.selection = [fight.scene.tokens.Bob];
    for (const line of sample ? sample.example.moves.map((move) => move.line) : ['!damage 10']) expect(await fight.say(line)).toBe(true);
    expect(fight.entries.filter((e) => e.kind === 'crash')).toEqual([]);
    expect(chat(fight).length).toBeGreaterThan(1);
    if (sample) expect(vitality(fight, 'Bob').value).not.toBe(before);
    expect(fight.tokens().find((t) => t.name === 'Bob')!.sheet.map((v) => v.label)).toEqual(sample ? Object.values(sample.sheet) : expect.any(Array));
  });

  it('an edition with no sample: no worked example, and the cards show every value the sheet holds, by its key', async () => {
    const bare = { ...editionOf(DEFAULT_EDITION), id: 'bare', table: { ...editionOf(DEFAULT_EDITION).table, sample: undefined } };
    registerEdition(bare);
    try {
      expect(exampleOf('bare')).toBeUndefined();
      const fight = await Fight.start(BUNDLE);
      // As the settings would hold it had the script switched to it (the shipped script does not know it).
      (fight.mock.state.DefenseRound as { settings: { edition: string } }).settings.edition = 'bare';
      expect(fight.edition()).toBe('bare');
      const keys = fight.tokens().find((t) => t.name === 'Bob')!.sheet.map((v) => v.label);
      expect(keys).toEqual(VALUE_KEYS.filter((key) => fight.attributeValue('Bob', key) !== undefined));
      expect(keys).toContain('armor_physical');
    } finally {
      unregisterEdition('bare');
    }
  });
});

describe('token cards show what each token has now', () => {
  it('Goblin 1\'s card shows the Physical it wore (its own, not the sheet\'s), Goblin 2 the sheet\'s', async () => {
    const fight = await Fight.start(BUNDLE);
    fight.selection = [fight.scene.tokens['Goblin 1']];
    await fight.say('!damage 40');
    expect(lastCard(fight).rows.Breakdown).toContain('Physical 20 -> 11');
    expect(sheet(fight, 'Goblin 1', 'Physical')).toMatchObject({ current: '11', max: '20', own: 'worn' });
    expect(sheet(fight, 'Goblin 2', 'Physical')).toMatchObject({ current: '20', max: '20' });
    expect(sheet(fight, 'Goblin 2', 'Physical').own).toBeUndefined();
  });

  it('a value set for one token shows as that token\'s own', async () => {
    const fight = await Fight.start(BUNDLE);
    fight.selection = [fight.scene.tokens['Goblin 2']];
    await fight.say('!defense-round set armor_defense 9');
    expect(sheet(fight, 'Goblin 2', 'Defense')).toMatchObject({ current: '9', own: 'set' });
    expect(sheet(fight, 'Goblin 1', 'Defense')).toMatchObject({ current: '5' });
  });
});

describe('the switch names the conditions it changed', () => {
  it('Goblin 2 dying in soak: the GM reads "Goblin 2 dying -> dead" on the switch to threshold', async () => {
    const fight = await Fight.start(BUNDLE);
    fight.selection = [fight.scene.tokens['Goblin 2']];
    await fight.say('!damage 100');
    await switchTo(fight, 'threshold');
    expect(chat(fight).map((v) => plain(v.body)).join('\n')).toContain('Conditions read again: Goblin 2 dying -> dead.');
  });
});

describe('the playground\'s table as the script shows it (issue 33)', () => {
  it('gives each speaker her own selection and refuses a player\'s selection of a token not hers, naming why', async () => {
    const fight = await Fight.start(BUNDLE);
    expect(fight.select(fight.scene.tokens['Goblin 1'])).toBeUndefined();
    fight.speaker = 'Alice';
    expect(fight.selectionNames()).toEqual([]);
    expect(fight.select(fight.scene.tokens['Goblin 1'])).toBe('Alice cannot select Goblin 1: it is not hers: a player selects only the tokens she controls (the GM selects any)');
    expect(fight.select(fight.scene.tokens.Cleo)).toMatch(/^Alice cannot select Cleo/);
    expect(fight.select(fight.scene.tokens.Bob)).toBeUndefined();
    // A click on a selected token keeps it selected; shift takes it out.
    expect(fight.select(fight.scene.tokens.Bob)).toBeUndefined();
    expect(fight.selectionNames()).toEqual(['Bob']);
    fight.speaker = 'GM';
    expect(fight.selectionNames()).toEqual(['Goblin 1']);
    // A link whose step has Alice select a goblin is refused, as Roll20 would not let her.
    const steps = fight.steps.length;
    expect(await fight.apply({ k: 'say', as: 'Alice', sel: ['Goblin 1'], line: '!stance reactive' })).toBe(false);
    expect(fight.steps.length).toBe(steps);
  });

  it('shows a player no NPC bars or armor where the script keeps them from her, her own and the PCs\' always', async () => {
    const fight = await Fight.start(BUNDLE);
    const view = (viewer: string, name: string) => fight.tokens(viewer).find((t) => t.name === name)!;
    expect(view('GM', 'Goblin 1')).toMatchObject({ numbersHidden: false });
    expect(view('GM', 'Goblin 1').sheet.length).toBeGreaterThan(0);
    expect(view('Alice', 'Goblin 1')).toMatchObject({ numbersHidden: true, bars: [], sheet: [] });
    expect(view('Alice', 'Crate')).toMatchObject({ numbersHidden: true, bars: [] });
    expect(view('Alice', 'Bob')).toMatchObject({ numbersHidden: false });
    expect(view('Alice', 'Cleo')).toMatchObject({ numbersHidden: false, owner: "Ben's PC" });
    fight.speaker = 'Alice';
    expect(fight.tokens().find((t) => t.name === 'Goblin 1')!.numbersHidden).toBe(true);
    fight.speaker = 'GM';
    await fight.say('!defense-round config visibility.pc gm');
    expect(view('Alice', 'Cleo')).toMatchObject({ numbersHidden: true, bars: [] });
    expect(view('Ben', 'Cleo')).toMatchObject({ numbersHidden: false });
  });

  it.each(EDITIONS)("%s: the docs' DR-Attack at its least damage gets through Cleo's armor, and Ben answers with a click", async (edition) => {
    const fight = await Fight.start(BUNDLE);
    if (edition !== DEFAULT_EDITION) await switchTo(fight, edition);
    // Goblin 1's turn (a switch whose example defends ahead has moved it on already).
    if (fight.turnOrder()[0]?.name === 'Bob') await fight.nextTurn();
    fight.selection = [fight.scene.tokens['Goblin 1']];
    const macro = editionOf(edition).table.macros.find((m) => m.name === 'DR-Attack')!.action;
    // Every query at its default, every defender Cleo (as the page's dialog fills them in).
    const line = macro
      .replace(/\?\{[^|}]*\|([^,|}]*)[^}]*\}/g, (_all, first: string) => first)
      .replace(/@\{target\|[^}]*\}/g, fight.scene.tokens.Cleo);
    const rolls = line.match(/\[\[[^\]]*\]\]/g) ?? [];
    // Every damage die at 1; the hit roll lands (a d20 of 2 beats Cleo's threshold armor 1, an attack of 20 her opposed 8 + 1).
    const faces = rolls.flatMap((roll) => (/1d20/.test(roll) ? [edition === 'opposed' ? 20 : 2] : Array.from({ length: Number(/(\d+)d\d+/.exec(roll)?.[1] ?? 0) }, () => 1)));
    fight.mock.dice.force(...faces, 1);
    const before = fight.tokens('GM').find((t) => t.name === 'Cleo')!.bars.map((b) => Number(b.value));
    expect(await fight.say(line)).toBe(true);
    fight.speaker = 'Ben';
    const prompt = chat(fight).filter((v) => v.template && v.whisperTo === 'Ben').at(-1)!;
    const button = prompt.template!.rows.flatMap((r) => r.value).find((part) => part.t === 'button' && /^(No defense|Passive)$/.test(plain(part.label))) as { command: string } | undefined;
    expect(button, JSON.stringify(prompt)).toBeDefined();
    expect(await fight.say(button!.command)).toBe(true);
    const after = fight.tokens('GM').find((t) => t.name === 'Cleo')!.bars.map((b) => Number(b.value));
    expect(after.reduce((a, b) => a + b, 0)).toBeLessThan(before.reduce((a, b) => a + b, 0));
  });
});
