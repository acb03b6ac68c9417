// The local sandbox as a table (issue 33, "The sandbox and the playground as a table"): each
// speaker has her own selection and selects only what she controls, a player reads NPC numbers only
// as the script shows them to players, Ben's Cleo answers an attack beside Alice's Bob, `!attack`
// is in the help and every `--demo`, an edition switch gives the demo table the edition's sample
// values (and says so), and the docs' default attack gets through the demo's armor in every edition.
import { describe, expect, it } from 'vitest';
import { CliSession, HELP } from '../mocks/cli-session.js';
import { demoEditions, demoOf } from '../mocks/cli-demo.js';
import { DEFAULT_EDITION, editionIds, editionOf } from '../src/rules/editions.js';
import type { EditionId } from '../src/rules/edition.js';

const BUNDLE = 'dist/defense-round.js';

const open = async () => (await CliSession.start({ bundle: BUNDLE })).session;
const run = async (session: CliSession, ...lines: string[]) => {
  let last = '';
  for (const line of lines) last = (await session.run(line)).output;
  return last;
};
/** The tokens selected with the last command the mock heard, by name. */
const lastSelected = (session: CliSession) => {
  const api = session.mock.chatLog.filter((record) => record.type === 'api').at(-1)!;
  return (api.selected ?? []).map((s) => String(session.mock.globals.getObj('graphic', s._id)?.get('name')));
};

describe('each speaker has her own selection, of tokens she controls', () => {
  it('refuses a player\'s select of a token she does not control, saying why, and keeps hers', async () => {
    const session = await open();
    expect(await run(session, 'as Alice', 'select Goblin 1')).toBe('Alice cannot select Goblin 1: it is not hers: a player selects only the tokens she controls (the GM selects any).\nSelection unchanged.');
    expect(await run(session, 'select Bob, Goblin 2, Cleo')).toBe(
      'Alice cannot select Goblin 2: it is not hers: a player selects only the tokens she controls (the GM selects any).\n' +
        'Alice cannot select Cleo: it is not hers: a player selects only the tokens she controls (the GM selects any).\nSelected: Bob.',
    );
    expect(await run(session, 'select Crate')).toContain('Selection unchanged: Bob.');
    // A token on the GM layer is not hers to see, let alone select.
    session.mock.token('Bob').set('layer', 'gmlayer');
    expect(await run(session, 'select Bob')).toContain('Alice cannot select Bob: it is hidden from the players');
    session.mock.token('Bob').set('layer', 'objects');
    // The GM selects anything; Ben his own Cleo.
    expect(await run(session, 'as GM', 'select Goblin 1, Crate, Cleo')).toBe('Selected: Goblin 1, Crate, Cleo.');
    expect(await run(session, 'as Ben', 'select Cleo')).toBe('Selected: Cleo.');
  });

  it('keeps a selection per speaker: the GM\'s does not follow into Alice\'s commands, and switching back shows hers', async () => {
    const session = await open();
    await run(session, 'select Goblin 1');
    expect(await run(session, 'as Alice')).toBe('Now speaking as Alice.');
    await run(session, '!stance reactive');
    expect(lastSelected(session)).toEqual([]);
    expect(session.mock.token('Goblin 1').get('statusmarkers')).toBe('');
    await run(session, 'select Bob', '!stance reactive');
    expect(lastSelected(session)).toEqual(['Bob']);
    expect(await run(session, 'as GM')).toBe('Now speaking as GM (GM). Selected: Goblin 1.');
    await run(session, '!stance defensive');
    expect(lastSelected(session)).toEqual(['Goblin 1']);
    expect(await run(session, 'as Alice')).toBe('Now speaking as Alice. Selected: Bob.');
  });
});

describe('a player reads NPC numbers only as the script shows them to players', () => {
  it('hides an NPC\'s bars from Alice in the token list and `tokens`, shows her own and Cleo\'s (PCs are public), and follows the GM\'s setting', async () => {
    const session = await open();
    await run(session, 'select Goblin 1', '!damage 12');
    const gm = await run(session, 'tokens');
    expect(gm).toMatch(/Goblin 1 {2}id \S+ {2}character Goblin\n {4}controlled by: the GM only \(an NPC\)\n {4}bar1 \d+\/30 {2}bar2 10\/10/);
    const listed = await run(session, 'as Alice', 'next-turn');
    expect(listed).toMatch(/Goblin 1 {2}Vitality \(hidden\) {2}Soul \(hidden\) {2}Power \(hidden\)/);
    expect(listed).not.toMatch(/Goblin 1 {2}Vitality \d/);
    const tokens = await run(session, 'tokens');
    expect(tokens).toContain('(hidden: numbers the script keeps from Alice, as the GM\'s visibility setting says for NPCs)');
    expect(tokens).toMatch(/Goblin 1 {2}id \S+ {2}character Goblin\n {4}controlled by: the GM only \(an NPC\)\n {4}bar1 \(hidden\) {2}bar2 \(hidden\) {2}bar3 \(hidden\)/);
    expect(tokens).toContain('bar1 70/70 (linked to vitality)');
    expect(tokens).toMatch(/Cleo {2}id \S+ {2}character Cleo\n {4}controlled by: Ben \(through the token and character\) and the GM\n {4}bar1 50\/50/);
    // The GM makes NPC breakdowns public: the script shows them, so does the sandbox.
    await run(session, 'as GM', '!defense-round config visibility.npc public');
    expect(await run(session, 'as Alice', 'tokens')).toMatch(/Goblin 1 {2}id \S+ {2}character Goblin\n {4}controlled by: the GM only \(an NPC\)\n {4}bar1 \d+\/30/);
  });
});

describe('Ben\'s Cleo on the demo table', () => {
  it('is Ben\'s PC: he and Alice each answer one attack on both with a click on their own whisper', async () => {
    const session = await open();
    expect(await run(session, 'tokens')).toMatch(/Cleo {2}id \S+ {2}character Cleo\n {4}controlled by: Ben/);
    await run(session, 'next-turn', 'select Goblin 1', 'target Bob, Cleo');
    const declared = await run(session, '!attack 30 --ids @{target|Defender 1|token_id} @{target|Defender 2|token_id}');
    expect(declared).toContain('DefenseRound (to Alice):');
    expect(declared).toContain('DefenseRound (to Ben):');
    // The same labels in both whispers: each player's click finds her own button.
    const alice = await run(session, 'as Alice', 'dice 20', 'click "Defend"');
    expect(alice).toMatch(/^\(Alice clicks: !defend --answer A1 --ids \S+ --action defend\)/m);
    expect(alice).toContain('Bob: Defend d100 20 vs 55: success.');
    const ben = await run(session, 'as Ben', 'click "No defense"');
    expect(ben).toMatch(/^\(Ben clicks: !defend --answer A1 --ids \S+ --action none\)/m);
    expect(ben).toContain('Vitality 50 -> 22');
    expect(session.mock.attribute('Cleo', 'vitality').get('current')).toBe(22);
    expect(session.mock.attribute('Bob', 'vitality').get('current')).toBe(70);
  });

  it('`dice` forces the next faces, and refuses what is no face', async () => {
    const session = await open();
    expect(await run(session, 'dice 3 4')).toBe('The next 2 dice show 3, 4.');
    expect(session.mock.dice.pendingForced()).toEqual([3, 4]);
    expect(await run(session, 'dice x')).toMatch(/^Usage: dice <face>/);
  });
});

describe('!attack in the sandbox\'s help and in every --demo', () => {
  it('the help shows an attack and its one-click answer', () => {
    expect(HELP).toContain('!attack [[1d8+2]] --ids @{target|Defender|token_id}');
    expect(HELP).toContain('as Alice, click "Defend"');
  });

  it.each(demoEditions())('the %s demo declares an !attack and a player answers it with a button click', (edition) => {
    const steps = demoOf(edition).steps;
    const attack = steps.findIndex((step) => step.lines.some((line) => line.startsWith('!attack ')));
    expect(attack).toBeGreaterThanOrEqual(0);
    const answered = steps.slice(attack + 1).find((step) => step.lines.some((line) => line.startsWith('click ')));
    expect(answered?.expect?.some((text) => /^\((Alice|Ben) clicks: !defend --answer/.test(text))).toBe(true);
  });
});

/** The edition's DR-Attack macro, as `!defense-round macros` makes it (the docs' own). */
const attackMacro = (edition: EditionId) => editionOf(edition).table.macros.find((macro) => macro.name === 'DR-Attack')!.action;

describe('an edition switch in the sandbox gives the demo table the edition\'s sample values, and says so', () => {
  it('threshold: Bob and the goblins get armor on the d20 scale, so the macro\'s hit chance can beat it', async () => {
    const session = await open();
    const switched = await run(session, '!defense-round config edition threshold');
    expect(switched).toContain('Edition is now threshold');
    expect(switched).toContain(
      "(The sandbox gives the demo table the threshold sample's values, as the GM's own sheet edits (the script itself keeps values on a switch): Bob: Vitality 30, Defense 10, Physical armor 18; the goblins' sheet: Physical armor 12, Defense 3. Cleo keeps her light armor.)",
    );
    expect(session.mock.attribute('Bob', 'armor_physical').get('current')).toBe('18');
    expect(session.mock.attribute('Goblin', 'armor_physical').get('current')).toBe('12');
    expect(session.mock.attribute('Cleo', 'armor_physical').get('current')).toBe(1);
    // The docs' attack with a hit chance of 19 (its 1d20 forced) and 2d6 = 7: it hits Bob, who does not defend.
    await run(session, 'next-turn', 'select Goblin 1', 'target Bob, Bob');
    session.mock.dice.force(3, 4, 19);
    await run(session, attackMacro('threshold'));
    const hit = await run(session, 'as Alice', 'click "No defense"');
    expect(hit).toContain('Hit chance 19 beats Physical Armor 18');
    expect(session.mock.attribute('Bob', 'vitality').get('current')).toBe(23);
    // Back to soak: the README's numbers return; a switch to the edition already played changes nothing and says nothing.
    expect(await run(session, 'as GM', '!defense-round config edition soak')).toContain('Bob: Vitality 70, Physical 100, Defense 30');
    expect(session.mock.attribute('Bob', 'armor_physical').get('max')).toBe('100');
    expect(await run(session, '!defense-round config edition soak')).not.toContain('The sandbox gives');
  });

  it.each(editionIds())('%s: the docs\' attack at its least damage still gets through Cleo\'s armor', async (edition) => {
    const session = await open();
    if (edition !== DEFAULT_EDITION) await run(session, `!defense-round config edition ${edition}`);
    await run(session, 'next-turn', 'select Goblin 1', 'target Cleo, Cleo');
    const before = { vitality: Number(session.mock.attribute('Cleo', 'vitality').get('current')), power: Number(session.mock.attribute('Cleo', 'power').get('current')) };
    // Every damage die at 1; a hit roll that lands (a d20 of 2 beats Cleo's threshold armor 1; an attack of 20 her opposed defense of 8 + 1).
    const rolls = attackMacro(edition).match(/\[\[[^\]]*\]\]/g) ?? [];
    const faces = rolls.flatMap((roll) => {
      if (/1d20/.test(roll)) return [edition === 'opposed' ? 20 : 2];
      const dice = /(\d+)d(\d+)/.exec(roll);
      return dice ? Array.from({ length: Number(dice[1]) }, () => 1) : [];
    });
    session.mock.dice.force(...faces, 1);
    const declared = await run(session, attackMacro(edition));
    expect(declared).toContain('DefenseRound (to Ben):');
    const answer = editionOf(edition).check.answers.choices.includes('none') ? 'No defense' : 'Passive';
    await run(session, 'as Ben', `click "${answer}"`);
    const after = { vitality: Number(session.mock.attribute('Cleo', 'vitality').get('current')), power: Number(session.mock.attribute('Cleo', 'power').get('current')) };
    expect(after.vitality + after.power, JSON.stringify({ before, after, faces })).toBeLessThan(before.vitality + before.power);
  });
});
