// `!attack` in `soak` on the bundle (issue 32; rules.md, "An attack's answers"): the prompt offers
// exactly what a `!defend` would take now, beside the answers (one reaction check per enemy, none on
// the defender's own turn or while it is down; a counter attack, Reactive Guard, a defensive skill;
// the stance buttons for a defender with none), each answer labelled with the check that is rolled;
// and out of turn a token attacks only as a counter attack (`--counter`), which spends its reaction.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';
import { renderMessage, type ChatButton } from '../../mocks/chat-text';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';
import type { ChatRecord } from '../../mocks/chat-message';

/** A third goblin, on the GM layer: a defender the players do not see. */
function shade(mock: MockRoll20, scene: DemoScene): void {
  mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'gmlayer', name: 'Shade', represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
}

/** The demo table, a turn on: Goblin 1 acting (it attacks), Bob and Goblin 2 in their defensive round. */
async function table(setup?: (mock: MockRoll20, scene: DemoScene) => void): Promise<Table> {
  const opened = await openTable('bundle', setup ? { setup } : {});
  await opened.passTurn();
  return opened;
}

/** The buttons whispered to one reader, as Roll20 sends them when clicked. */
function buttons(out: ChatRecord[], to: string): ChatButton[] {
  return out.filter((record) => record.whisperTo?.toLowerCase() === to.toLowerCase()).flatMap((record) => renderMessage(record).buttons);
}

const labels = (out: ChatRecord[], to: string) => buttons(out, to).map((button) => button.label);
const button = (out: ChatRecord[], to: string, label: string) => buttons(out, to).find((one) => one.label === label);

describe('soak prompts offer what !defend would take now (issue 32)', () => {
  let t: Table;
  afterEach(() => t?.close());

  it('1. one Reaction Check per enemy: once made against an attacker, whatever its result, React is not offered again, and the card says why', async () => {
    t = await table();
    await t.say('Alice', '!stance reactive', ['Bob']);
    const first = await t.say('GM', `!attack 10 --ids ${t.id('Bob')}`, ['Goblin 1']);
    const react = button(first, 'Alice', 'React (50)');
    expect(react?.command).toBe(`!defend --action react --vs ${t.id('Goblin 1')} --ids ${t.id('Bob')}`);
    // The button as clicked: a failed reaction check (roll 90 vs 50).
    const failed = await t.say('Alice', `${react!.command} --roll 90`);
    expect(texts(failed).join('\n')).toMatch(/failure/i);
    // A few seconds on (the same attack again at once is a double click, refused).
    t.mock.advance(5000);
    const again = await t.say('GM', `!attack 10 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(labels(again, 'Alice').filter((label) => label.startsWith('React'))).toEqual([]);
    expect(whispered(again, 'Alice').join('\n')).toMatch(/React: made against this attacker this round already \(one per enemy\)/);
    // Another enemy is another reaction check (no Turn Tracker: Goblin 2 attacks too).
    t.mock.setTurnOrder([]);
    const other = await t.say('GM', `!attack 10 --ids ${t.id('Bob')}`, ['Goblin 2']);
    expect(button(other, 'Alice', 'React (50)')?.command).toBe(`!defend --action react --vs ${t.id('Goblin 2')} --ids ${t.id('Bob')}`);
  });

  it('2. no React for a defender that is down, or on its own turn', async () => {
    t = await table((mock) => mock.token('Bob').set('bar1_value', -3));
    await t.say('GM', `!stance reactive --ids ${t.id('Bob')} ${t.id('Goblin 1')}`);
    t.mock.userEdit(t.mock.token('Bob'), { bar1_value: -3 });
    await t.mock.settle();
    const down = await t.say('GM', `!attack 10 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(labels(down, 'Alice')).toEqual(['No defense']);
    // Bob's own turn: Goblin 1 counters him (a successful reaction), and Bob is offered no React.
    t.mock.userEdit(t.mock.token('Bob'), { bar1_value: 70 });
    await t.mock.settle();
    t.mock.setTurnOrder([{ id: t.id('Bob'), pr: 15 }, { id: t.id('Goblin 1'), pr: 12 }]);
    await t.say('GM', `!defend --action react --vs ${t.id('Bob')} --roll 5 --ids ${t.id('Goblin 1')}`);
    const own = await t.say('GM', `!attack 10 --counter --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(labels(own, 'Alice')).toEqual(['No defense']);
    expect(whispered(own, 'Alice').join('\n')).toMatch(/Defend, Evade: it is this token's turn/);
  });

  it('9. a defender with no stance gets the two stance buttons on its prompt, once; one with a stance does not', async () => {
    t = await table();
    await t.say('Alice', '!stance defensive', ['Bob']);
    const out = await t.say('GM', `!attack 10 --ids ${t.id('Bob')} ${t.id('Goblin 2')}`, ['Goblin 1']);
    expect(buttons(out, 'gm').filter((one) => /stance/.test(one.label))).toEqual([
      { label: 'Defensive stance', command: `!stance defensive --ids ${t.id('Goblin 2')}` },
      { label: 'Reactive stance', command: `!stance reactive --ids ${t.id('Goblin 2')}` },
    ]);
    expect(labels(out, 'Alice').filter((label) => /stance/.test(label))).toEqual([]);
  });

  it('announced: a defensive skill once per attacker (defensive stance), its button taken as written', async () => {
    t = await table();
    await t.say('GM', `!stance defensive --ids ${t.id('Goblin 2')}`);
    const first = await t.say('GM', `!attack 10 --ids ${t.id('Goblin 2')}`, ['Goblin 1']);
    const skill = button(first, 'gm', 'Defensive skill');
    expect(skill?.command).toBe(`!defend --action skill --vs ${t.id('Goblin 1')} --ids ${t.id('Goblin 2')}`);
    const used = await t.say('GM', skill!.command);
    expect(texts(used).join('\n')).toMatch(/Goblin 2 makes a defensive action \(skill\)/);
    const again = await t.say('GM', `!attack 10 --ids ${t.id('Goblin 2')}`, ['Goblin 1']);
    expect(labels(again, 'gm')).not.toContain('Defensive skill');
  });

  it('announced: a counter attack and Reactive Guard after a successful, unused reaction; each button taken as written; a counter spends it', async () => {
    t = await table(shade);
    await t.say('Alice', '!stance reactive', ['Bob']);
    // No reaction yet: no counter.
    const before = await t.say('GM', `!attack 10 --ids ${t.id('Bob')} ${t.id('Goblin 2')} ${t.id('Shade')}`, ['Goblin 1']);
    expect(labels(before, 'Alice').filter((label) => /Counter|Guard/.test(label))).toEqual([]);
    await t.say('Alice', `!defend --action react --vs ${t.id('Goblin 1')} --roll 10`, ['Bob']);
    // A few seconds on (the same attack again at once is a double click, refused).
    t.mock.advance(5000);
    const out = await t.say('GM', `!attack 10 --ids ${t.id('Bob')} ${t.id('Goblin 2')} ${t.id('Shade')}`, ['Goblin 1']);
    const counter = button(out, 'Alice', 'Counter attack');
    const guard = button(out, 'Alice', 'Reactive Guard: Goblin 2');
    expect(counter?.command).toBe(`!defend --action counter --vs ${t.id('Goblin 1')} --ids ${t.id('Bob')}`);
    expect(guard?.command).toBe(`!defend --action counter --vs ${t.id('Goblin 1')} --ally ${t.id('Goblin 2')} --skill Reactive Guard --ids ${t.id('Bob')}`);
    // A defender on the GM layer is no ally a player is offered to guard, by name or by id.
    expect(out.filter((record) => record.whisperTo === 'Alice').map((record) => record.content).join('\n')).not.toContain(t.id('Shade'));
    const guarded = await t.say('Alice', guard!.command);
    expect(texts(guarded).join('\n')).toMatch(/Counter attack for Goblin 2 against Goblin 1 \(Reactive Guard\)/);
    // The one success is spent: no counter is offered any more.
    const after = await t.say('GM', `!attack 10 --ids ${t.id('Bob')} ${t.id('Goblin 2')}`, ['Goblin 1']);
    expect(labels(after, 'Alice').filter((label) => /Counter|Guard/.test(label))).toEqual([]);
  });

  it('announced: the counter button is taken as written, from behind with its perception check', async () => {
    t = await table();
    await t.say('Alice', '!stance reactive', ['Bob']);
    await t.say('Alice', `!defend --action react --vs ${t.id('Goblin 1')} --roll 10`, ['Bob']);
    const out = await t.say('GM', `!attack 10 --situation behind --ids ${t.id('Bob')}`, ['Goblin 1']);
    const counter = button(out, 'Alice', 'Counter attack');
    expect(counter?.command).toBe(`!defend --action counter --vs ${t.id('Goblin 1')} --situation behind --ids ${t.id('Bob')}`);
    const made = await t.say('Alice', `${counter!.command} --perception-roll 5`);
    expect(texts(made).join('\n')).toMatch(/Counter attack against Goblin 1/);
    expect(t.memory('Bob').reactions[t.id('Goblin 1')]).toBe('used');
  });

  it('labels: each answer shows the check that is rolled in the attack\'s situation, with its final target and what comes first', async () => {
    t = await table();
    const say = async (situation: string) => labels(await t.say('GM', `!attack 10 --situation ${situation} --ids ${t.id('Bob')}`, ['Goblin 1']), 'Alice');
    expect(await say('side')).toEqual(expect.arrayContaining(['Defend (50)', 'Evade (40)']));
    expect(await say('projectile')).toEqual(expect.arrayContaining(['Defend (55)', 'Evade (25)']));
    expect(await say('spell-unseen')).toEqual(expect.arrayContaining(['Defend (55)', 'Evade (20, Mental 40 first)']));
    expect(await say('behind')).toEqual(expect.arrayContaining(['Defend (50, Perception 50 first)', 'Evade (40, Perception 50 first)']));
    // An Evade no roll makes is not offered, and the card says so with its target.
    const gun = await t.say('GM', `!attack 10 --situation gun --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(labels(gun, 'Alice')).not.toContain('Evade (-5)');
    expect(whispered(gun, 'Alice').join('\n')).toMatch(/Evade \(-5\): cannot succeed here/);
  });

  it('out of turn: with the Turn Tracker in use, a token not on its turn attacks only as a counter attack; with none, or with no attacker, there is no check', async () => {
    t = await table();
    const refused = await t.say('GM', `!attack 10 --ids ${t.id('Bob')}`, ['Goblin 2']);
    expect(whispered(refused, 'gm').join('\n')).toMatch(/Goblin 2: not its turn \(top of the Turn Tracker\): out of turn it attacks only as a counter attack \(--counter\)/);
    expect(t.stored().exchange.attacks).toEqual({});
    // A player's token too, said to her.
    const alice = await t.say('Alice', `!attack 10 --ids ${t.id('Goblin 2')}`, ['Bob']);
    expect(whispered(alice, 'Alice').join('\n')).toMatch(/Bob: not its turn/);
    // --counter needs the reactive stance and a successful reaction against the defender.
    const noReaction = await t.say('GM', `!attack 10 --counter --ids ${t.id('Bob')}`, ['Goblin 2']);
    expect(whispered(noReaction, 'gm').join('\n')).toMatch(/Goblin 2: To counter attack you need the reactive stance/);
    // The GM declaring with no attacker (--unseen), and any token with no Turn Tracker: no check.
    await t.say('GM', `!attack 10 --unseen --ids ${t.id('Bob')}`);
    t.mock.setTurnOrder([]);
    await t.say('GM', `!attack 10 --ids ${t.id('Bob')}`, ['Goblin 2']);
    expect(Object.keys(t.stored().exchange.attacks)).toEqual(['A1', 'A2']);
  });

  it('--counter: allowed after a successful reaction against the defender, out of turn; it spends that reaction with the hit, and undo gives it back', async () => {
    t = await table();
    await t.say('GM', `!stance reactive --ids ${t.id('Goblin 2')}`);
    await t.say('GM', `!defend --action react --vs ${t.id('Bob')} --roll 5 --ids ${t.id('Goblin 2')}`);
    const declared = await t.say('GM', `!attack 10 --counter --ids ${t.id('Bob')}`, ['Goblin 2']);
    expect(texts(declared).join('\n')).toMatch(/Attack A1: Goblin 2 attacks Bob/);
    // Declared, not yet spent: spent when the hit is applied.
    expect(t.memory('Goblin 2').reactions[t.id('Bob')]).toBe(true);
    await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action none`);
    expect(t.stored().exchange.attacks).toEqual({});
    expect(t.memory('Goblin 2').reactions[t.id('Bob')]).toBe('used');
    const twice = await t.say('GM', `!attack 10 --counter --ids ${t.id('Bob')}`, ['Goblin 2']);
    expect(whispered(twice, 'gm').join('\n')).toMatch(/Goblin 2: Your successful reaction against Bob is already spent this round/);
    // Undoing the attack gives the reaction back.
    await t.say('GM', '!damage --undo');
    expect(t.memory('Goblin 2').reactions[t.id('Bob')]).toBe(true);
    // On its own turn a token attacks without --counter.
    const own = await t.say('GM', `!attack 10 --counter --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(whispered(own, 'gm').join('\n')).toMatch(/Goblin 1: it is its own turn \(top of the Turn Tracker\): a counter attack is made out of turn/);
  });
});
