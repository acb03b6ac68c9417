// The exchange's GM side on the bundle (issue 33): an attack needs its attacker (or the GM's
// `--unseen`), a double click opens it once, the GM's card and `!attack --list` carry every answer
// button (the GM answers for an absent player), the result says "No answer" where nobody answered,
// and one exchange costs 2 public messages and at most 3 read by the GM and by the answering player,
// the result's title naming the attacker, the defender and the hit.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, type Table } from '../support/table';
import { flatText, renderMessage, type ChatButton } from '../../mocks/chat-text';
import type { ChatRecord } from '../../mocks/chat-message';
import type { MockRoll20 } from '../../mocks/roll20';

type EditionName = 'soak' | 'threshold' | 'opposed';

/** threshold: Bob as The Defensive Turn's (Vitality 30, Physical Armor 18, Defense 10), so a hit chance of 19 lands. */
function defensiveTurnBob(mock: MockRoll20): void {
  for (const [name, value] of Object.entries({ vitality: 30, armor_defense: 10, armor_physical: 18 })) mock.attribute('Bob', name).set('current', value);
}

/** The demo table in an edition, a turn on: Goblin 1 acting (the attacker), Bob (Alice's) and Goblin 2 defending; with `turns` false, no Turn Tracker. */
async function tableIn(edition: EditionName, turns = true): Promise<Table> {
  const table = await openTable('bundle', edition === 'threshold' ? { seed: 11, setup: defensiveTurnBob } : { seed: 11 });
  if (edition !== 'soak') await table.say('GM', `!defense-round config edition ${edition}`);
  await table.passTurn();
  if (!turns) table.mock.setTurnOrder([]);
  return table;
}

/** The script's messages one audience reads: the public ones, and those whispered to it ('public': the public ones only). */
function readBy(out: ChatRecord[], audience: 'public' | 'gm' | 'Alice'): ChatRecord[] {
  return out.filter((record) => record.who === 'DefenseRound' && (!record.whisperTo || record.whisperTo.toLowerCase() === audience.toLowerCase()));
}

/** The buttons of the messages whispered to one reader. */
function buttonsTo(out: ChatRecord[], to: string): ChatButton[] {
  return out.filter((record) => record.whisperTo?.toLowerCase() === to.toLowerCase()).flatMap((record) => renderMessage(record).buttons);
}

/** A message as its reader sees it: buttons as [label]. */
const readable = (record: ChatRecord) => flatText(record.content).replace(/\]\([^)]*\)/g, ']');
const text = (out: ChatRecord[]) => out.map(readable).join('\n');

describe('the exchange, the GM\'s side (issue 33, bundle)', () => {
  let table: Table;
  afterEach(() => table?.close());

  it.each([
    ['soak', '200', 'Defend (55)', 90, 'Goblin 1 hits Bob: 200 physical, Bob loses 30 Vitality'],
    ['threshold', '20 --hit 19', 'Defend (55)', 90, 'Goblin 1 hits Bob: 20 physical, Bob loses 20 Vitality'],
    ['opposed', '8 --attack 24', 'Passive', 8, 'Goblin 1 hits Bob: attack 24 vs passive defense, Bob loses'],
  ] as Array<[EditionName, string, string, number, string]>)('%s: one ordinary exchange costs 2 public messages, 3 read by the GM and 3 by Alice, her answer one click', async (edition, hit, label, roll, title) => {
    table = await tableIn(edition);
    const declared = await table.say('GM', `!attack ${hit} --ids ${table.id('Bob')}`, ['Goblin 1']);
    const click = buttonsTo(declared, 'Alice').find((button) => button.label === label);
    expect(click?.command).toBe(`!defend --answer A1 --ids ${table.id('Bob')} --${edition === 'opposed' ? 'mode passive' : 'action defend'}`);
    table.mock.dice.force(roll);
    const answered = await table.say('Alice', click!.command);
    expect(table.stored().exchange.attacks).toEqual({});
    const all = [...declared, ...answered];
    expect(readBy(all, 'public')).toHaveLength(2);
    expect(readBy(all, 'gm')).toHaveLength(3);
    expect(readBy(all, 'Alice')).toHaveLength(3);
    // Her answer resolves it: no line of its own, the result says it once, in the exchange's words.
    expect(answered.filter((record) => record.whisperTo)).toEqual([]);
    const result = text(readBy(answered, 'public'));
    expect(result.startsWith(title)).toBe(true);
    expect(result.match(/Answer: /g)).toHaveLength(1);
    expect(result).not.toMatch(/from !defend|Failed|Succeeded/);
  });

  it('the GM answers for an absent player from the GM card\'s button, marked as hers; the result is the only message', async () => {
    table = await tableIn('soak');
    const declared = await table.say('GM', `!attack 200 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    const gmCard = text(readBy(declared, 'gm').filter((record) => record.whisperTo));
    expect(gmCard).toMatch(/Bob \(Alice's\): \[Defend \(55\)\]/);
    expect(gmCard).toMatch(/Goblin 2: \[Defend \(40\)\]/);
    // Her own card is hers: not marked.
    expect(text(readBy(declared, 'Alice'))).not.toMatch(/Alice's/);
    const forBob = buttonsTo(declared, 'gm').filter((button) => button.command.includes(`--ids ${table.id('Bob')} `));
    expect(forBob.map((button) => button.label)).toEqual(expect.arrayContaining(['Defend (55)', 'Evade (45)', 'No defense']));
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action none`);
    const answered = await table.say('GM', forBob.find((button) => button.label === 'No defense')!.command);
    expect(table.stored().exchange.attacks).toEqual({});
    expect(table.attr('Bob', 'vitality')).toBe(40);
    // No answer line: the public card and the GM's rows, nothing else.
    expect(answered.filter((record) => record.who === 'DefenseRound').map((record) => record.whisperTo ?? 'public')).toEqual(['public', 'gm']);
    expect(text(answered)).toMatch(/Bob: No defense; /);
  });

  it('!attack --list carries the answer buttons of those still to answer: all of them for the GM, hers for a player', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 200 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action none`);
    const gm = await table.say('GM', '!attack --list');
    expect(text(gm)).toMatch(/Bob \(Alice's\): \[Defend \(55\)\] \[Evade \(45\)\] \[No defense\]/);
    expect(text(gm)).toMatch(/Waiting for: Bob \[Resolve now\] \[Cancel\]/);
    expect(buttonsTo(gm, 'gm').some((button) => button.command.includes(`--ids ${table.id('Goblin 2')}`))).toBe(false);
    const alice = await table.say('Alice', '!attack --list');
    expect(text(alice)).toMatch(/A1: Goblin 1 attacks; waiting for Bob/);
    const hers = buttonsTo(alice, 'Alice');
    expect(hers.map((button) => button.label)).toEqual(expect.arrayContaining(['Defend (55)', 'No defense']));
    // A click on the list's button answers, as the prompt's would.
    await table.say('GM', buttonsTo(gm, 'gm').find((button) => button.label === 'Evade (45)')!.command);
    expect(table.stored().exchange.attacks).toEqual({});
  });

  it('after Resolve now, each defender nobody answered says "No answer" (not "No defense", which is an answer)', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 200 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action none`);
    const resolved = await table.say('GM', '!attack --resolve A1');
    expect(text(readBy(resolved, 'public'))).toMatch(/Bob: No answer; is hit/);
    expect(text(resolved)).toMatch(/Goblin 2: No defense; is hit/);
    await table.say('GM', `!attack 40 --ids ${table.id('Bob')}`, ['Goblin 1']);
    const alone = text(await table.say('GM', '!attack --resolve A2'));
    expect(alone).toMatch(/Answer: No answer \| Defense: The hit lands/);
    expect(alone).not.toMatch(/None/);
  });

  it('the same attack declared twice within a few seconds by the same player is refused as a double click; later, or after a cancel, it is another', async () => {
    // No Turn Tracker: either goblin may attack.
    table = await tableIn('soak', false);
    const line = `!attack [[2d6]] --ids ${table.id('Bob')}`;
    await table.say('GM', line, ['Goblin 1']);
    const twice = await table.say('GM', line, ['Goblin 1']);
    expect(readBy(twice, 'public')).toEqual([]);
    expect(text(twice.filter((record) => record.whisperTo === 'gm'))).toMatch(/^This attack was already declared as A1 a moment ago \(a double click\?\): nothing declared; to attack twice, send it again in a few seconds\. \[Help\]$/);
    expect(Object.keys(table.stored().exchange.attacks)).toEqual(['A1']);
    // Another attacker, or other defenders: another attack.
    await table.say('GM', line, ['Goblin 2']);
    await table.say('GM', `!attack [[2d6]] --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    expect(Object.keys(table.stored().exchange.attacks)).toEqual(['A1', 'A2', 'A3']);
    table.mock.advance(5000);
    await table.say('GM', line, ['Goblin 1']);
    expect(Object.keys(table.stored().exchange.attacks)).toContain('A4');
    await table.say('GM', '!attack --cancel A4');
    await table.say('GM', line, ['Goblin 1']);
    expect(Object.keys(table.stored().exchange.attacks)).toContain('A5');
  });

  it('an attack with no attacker selected and no --from is refused in one line, unless the GM says --unseen (a player may not)', async () => {
    table = await tableIn('soak');
    const none = await table.say('GM', `!attack 40 --ids ${table.id('Bob')}`);
    expect(readBy(none, 'public')).toEqual([]);
    expect(readBy(none, 'gm').map(readable)).toEqual(['No attacker: select the attacking token, give --from with its id, or --unseen for none. [Help]']);
    expect(table.stored().exchange.attacks).toEqual({});
    const unseen = await table.say('GM', `!attack 40 --unseen --ids ${table.id('Bob')}`);
    expect(text(readBy(unseen, 'public'))).toBe('Attack A1: An unseen attacker attacks Bob.');
    expect(table.stored().exchange.attacks.A1.attacker).toBeNull();
    const both = await table.say('GM', `!attack 40 --unseen --from ${table.id('Goblin 1')} --ids ${table.id('Bob')}`);
    expect(text(both)).toMatch(/--unseen declares no attacker: leave out --from/);
    const player = await table.say('Alice', `!attack 40 --unseen --ids ${table.id('Goblin 2')}`, ['Bob']);
    expect(readBy(player, 'Alice').map(readable)).toEqual([expect.stringMatching(/^--unseen is the GM's: select your attacking token/)]);
    expect(Object.keys(table.stored().exchange.attacks)).toEqual(['A1']);
  });

  it('titles: one defender names the attacker, the defender and the hit; several the attacker and the hit; a hidden attacker stays unseen to players', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 200 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    const several = await table.say('GM', '!attack --resolve A1');
    expect(readBy(several, 'public').map((record) => readable(record).split(' | ')[0])).toEqual(["Goblin 1's attack A1: 200 physical"]);
    expect(several.filter((record) => record.whisperTo === 'gm').map((record) => readable(record).split(' | ')[0])).toEqual(["Goblin 1's attack A1: 200 physical (GM)"]);
    // Goblin 1 on the GM layer: the players read of an unseen attacker, the GM of Goblin 1.
    await table.say('GM', '!defense-round next-round');
    table.mock.token('Goblin 1').set('layer', 'gmlayer');
    await table.say('GM', `!attack 10 --ids ${table.id('Bob')}`, ['Goblin 1']);
    const hidden = await table.say('GM', '!attack --resolve A2');
    expect(text(readBy(hidden, 'public'))).toMatch(/^An unseen attacker (hits|attacks) Bob: 10 physical, Bob /);
    expect(text(readBy(hidden, 'Alice'))).not.toMatch(/Goblin 1/);
  });

  it('a player\'s attack on an NPC: the GM\'s answer gives the GM the result only (its card and the public line), with one Undo', async () => {
    table = await tableIn('soak', false);
    const declared = await table.say('Alice', `!attack 40 --ids ${table.id('Goblin 2')}`, ['Bob']);
    expect(readBy(declared, 'gm')).toHaveLength(2);
    const answer = buttonsTo(declared, 'gm').find((button) => button.label === 'No defense')!;
    const answered = await table.say('GM', answer.command);
    const gm = readBy(answered, 'gm');
    expect(gm).toHaveLength(2);
    expect(gm.flatMap((record) => renderMessage(record).buttons).filter((button) => button.label === 'Undo')).toHaveLength(1);
    expect(text(gm)).toMatch(/^Bob hits Goblin 2: 40 physical, Goblin 2 /);
    // Her Undo rides on the public line, and works.
    const undo = renderMessage(readBy(answered, 'public')[0]!).buttons.find((button) => button.label === 'Undo')!;
    await table.say('Alice', undo.command);
    expect(table.bar('Goblin 2')).toBe(30);
  });

  it('nobody to wait for (a defense made ahead): no prompt and no waiting card, the attack just resolves', async () => {
    table = await tableIn('soak');
    await table.say('Alice', '!defend --action defend --roll 90', ['Bob']);
    const out = await table.say('GM', `!attack 200 --ids ${table.id('Bob')}`, ['Goblin 1']);
    expect(out.filter((record) => record.whisperTo)).toEqual([]);
    expect(readBy(out, 'public')).toHaveLength(2);
    // A defense made ahead with `!defend` is said to be one.
    expect(text(out)).toMatch(/Defense: Failed \(from !defend\): the hit lands/);
  });
});
