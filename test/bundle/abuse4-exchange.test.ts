// Proof under abuse, fourth round: the holes an outside attacker found in the exchange (`!attack`
// and its answers), replayed on the bundle (node:vm). Each failed on the bundle before its fix.
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, publicFromScript, texts, whispered, type Table } from '../support/table';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');
const contents = (records: Array<{ content: string }>) => records.map((record) => record.content).join('\n');

/** A PC of Ben's (the demo's player who controls nothing): Cat, with a sheet of her own. */
function cat(mock: MockRoll20, scene: DemoScene): void {
  const character = mock.create('character', { name: 'Cat', controlledby: scene.players.Ben });
  mock.create('graphic', {
    subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Cat', represents: character.id, controlledby: scene.players.Ben,
    bar1_value: 50, bar1_max: 50, bar2_value: 10, bar2_max: 10, bar3_value: 10, bar3_max: 10, imgsrc: String(mock.token('Bob').get('imgsrc')),
  });
}

/** Goblins of the demo's sheet, by name, on a layer. */
function goblins(names: readonly string[], layer = 'objects') {
  return (mock: MockRoll20, scene: DemoScene) => {
    for (const name of names) {
      mock.create('graphic', {
        subtype: 'token', pageid: scene.pageId, layer, name, represents: scene.characters.Goblin,
        bar1_value: 30, bar1_max: 30, bar2_value: 10, bar2_max: 10, bar3_value: 10, bar3_max: 10, imgsrc: String(mock.token('Goblin 1').get('imgsrc')),
      });
    }
  };
}

/** The demo table, one turn on (Goblin 1 acting: Bob may defend). */
async function table(setup?: (mock: MockRoll20, scene: DemoScene) => void, edition = 'soak'): Promise<Table> {
  const opened = await openTable('bundle', setup ? { setup } : {});
  if (edition !== 'soak') await opened.say('GM', `!defense-round config edition ${edition}`);
  await opened.passTurn();
  return opened;
}

describe('the fourth round of attacks: the exchange (bundle)', () => {
  let t: Table;
  afterEach(() => t?.close());

  it("4. a player's attack on another player's PC is settled by the GM alone, whoever else answers", async () => {
    t = await table(cat);
    t.mock.setTurnOrder([]); // no Turn Tracker: Bob attacks whenever (rules.md, "Out of turn")
    await t.say('Alice', `!attack 30 --ids ${t.id('Cat')}`, ['Bob']);
    const answered = await t.say('Ben', `!defend --answer A1 --ids ${t.id('Cat')} --action none`);
    expect(whispered(answered, 'Ben').join('\n')).toMatch(/Attack A1 waits for the GM to settle it/);
    // The GM is told it waits for them, with the buttons to settle it.
    expect(contents(answered.filter((record) => record.whisperTo === 'gm'))).toContain('!attack --resolve A1');
    expect(t.bar('Cat')).toBe(50);
    expect(t.stored().exchange.attacks.A1).toBeDefined();
    const early = await t.say('Alice', '!attack --resolve A1');
    expect(whispered(early, 'Alice').join('\n')).toMatch(/waits for the GM to settle Cat/);
    expect(t.bar('Cat')).toBe(50);
    await t.say('GM', '!attack --resolve A1');
    expect(t.bar('Cat')).toBeLessThan(50);
    // The GM's own answer settles it as well.
    await t.say('Alice', `!attack 10 --ids ${t.id('Cat')}`, ['Bob']);
    await t.say('GM', `!defend --answer A2 --ids ${t.id('Cat')} --action none`);
    expect(t.stored().exchange.attacks.A2).toBeUndefined();
  });

  it('5. an answer once given is the attack\'s, whatever !defend comes later', async () => {
    t = await table();
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')} ${t.id('Goblin 2')}`, ['Goblin 1']);
    const failed = await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend --roll 95`);
    expect(all(failed)).toMatch(/failure/i);
    // Before the GM resolves it, Alice makes a defense ahead, and it succeeds.
    await t.say('Alice', '!defend --action defend --roll 5', ['Bob']);
    const resolved = await t.say('GM', '!attack --resolve A1');
    expect(all(resolved)).not.toMatch(/blocks the hit/);
    expect(t.attr('Bob', 'vitality')).toBe(40);
    // The later success is a defense made ahead for the next hit: it is still on file.
    expect(t.memory('Bob')?.pendingDefense).toEqual({ result: 'success', action: 'defend', situation: 'front' });
  });

  it('6. numbers are kept by value: 100,000 zeros are stored as 5, and a restart keeps the attack', async () => {
    t = await table();
    const zeros = '0'.repeat(100_000);
    // Each a few seconds after the last (the same attack again at once is a double click, refused).
    for (let i = 0; i < 5; i += 1) {
      await t.say('GM', `!attack ${zeros}5 --pierce ${zeros}5 --ids ${t.id('Bob')}`, ['Goblin 1']);
      t.mock.advance(5000);
    }
    expect(Object.keys(t.stored().exchange.attacks)).toHaveLength(5);
    expect(t.stored().exchange.attacks.A1.positionals).toEqual(['5']);
    expect(JSON.stringify(t.stored()).length).toBeLessThan(20_000);
    await t.restart();
    expect(Object.keys(t.stored().exchange.attacks)).toHaveLength(5);
    // A value that is no number and too long to keep is refused at once, not forgotten at the next restart.
    const long = await t.say('GM', `!attack 5 --type ${'x'.repeat(300)} --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(whispered(long, 'gm').join('\n')).toMatch(/./);
    expect(Object.keys(t.stored().exchange.attacks)).toHaveLength(5);
  });

  it('8. undoing an answered attack gives the defender no defense the table never had', async () => {
    t = await table();
    await t.say('GM', `!attack 40 --ids ${t.id('Bob')}`, ['Goblin 1']);
    await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend --roll 5`);
    expect(t.stored().exchange.attacks).toEqual({});
    expect(t.attr('Bob', 'vitality')).toBe(70);
    await t.say('GM', '!damage --undo');
    expect(t.memory('Bob')?.pendingDefense).toBeUndefined();
    // The GM's next, unrelated hit lands.
    await t.say('GM', '!damage 200', ['Bob']);
    expect(t.attr('Bob', 'vitality')).toBe(40);
  });

  it('9. a defender the hit refuses keeps no answer', async () => {
    t = await table(goblins(['Goblin 3']));
    await t.say('GM', `!attack 40 --ids ${t.id('Goblin 3')} ${t.id('Goblin 2')}`, ['Goblin 1']);
    await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 3')} --action defend --roll 5`);
    // Goblin 3's Vitality turns to garbage before the hit: the hit refuses it.
    t.mock.token('Goblin 3').set('bar1_value', 'lots');
    const resolved = await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 2')} --action none`);
    expect(all(resolved)).toMatch(/Goblin 3/);
    expect(t.memory('Goblin 3')?.pendingDefense).toBeUndefined();
    t.mock.token('Goblin 3').set('bar1_value', 30);
    await t.say('GM', '!damage 40', ['Goblin 3']);
    expect(t.bar('Goblin 3')).toBeLessThan(30);
  });

  it('10. an edition switch while an attack\'s roll is out names it among the cancelled, and nothing is applied', async () => {
    t = await table(undefined, 'opposed');
    await t.say('GM', `!attack 8 --attack 24 --ids ${t.id('Bob')}`, ['Goblin 1']);
    const before = t.attr('Bob', 'vitality');
    t.mock.newMessages();
    // Bob does not answer: the GM resolves, and Bob's own d20 is rolled; the edition changes meanwhile.
    await Promise.all([
      t.mock.chat(t.scene.players.GM, '!attack --resolve A1'),
      t.mock.chat(t.scene.players.GM, '!defense-round config edition soak'),
    ]);
    await t.mock.settle();
    const out = t.mock.newMessages();
    expect(all(out)).toMatch(/Open attack cancelled: A1/);
    expect(all(out)).toMatch(/Attack A1 was cancelled while its roll was out: nothing applied/);
    expect(t.attr('Bob', 'vitality')).toBe(before);
    expect(t.stored().exchange.attacks).toEqual({});
  });

  it('10. while its roll is out an attack is open, and neither answered nor resolved twice', async () => {
    t = await table(undefined, 'opposed');
    await t.say('GM', `!attack 8 --attack 24 --ids ${t.id('Bob')} ${t.id('Goblin 2')}`, ['Goblin 1']);
    t.mock.newMessages();
    await Promise.all([
      t.mock.chat(t.scene.players.GM, '!attack --resolve A1'),
      t.mock.chat(t.scene.players.GM, '!attack --resolve A1'),
      t.mock.chat(t.scene.players.Alice, `!defend --answer A1 --ids ${t.id('Bob')} --mode active --roll 10`),
    ]);
    await t.mock.settle();
    const out = t.mock.newMessages();
    expect(whispered(out, 'gm').join('\n')).toMatch(/attack A1 is being resolved already/i);
    expect(whispered(out, 'Alice').join('\n')).toMatch(/attack A1 is being resolved/i);
    expect(t.stored().history).toHaveLength(1);
    expect(t.stored().exchange.attacks).toEqual({});
  });

  it('12. a stored answer its edition refuses drops its attack at start-up, named', async () => {
    t = await table();
    await t.say('GM', `!attack 40 --ids ${t.id('Bob')} ${t.id('Goblin 2')}`, ['Goblin 1']);
    await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend --roll 5`);
    const stored = t.mock.state.DefenseRound.exchange.attacks.A1;
    stored.answers[t.id('Bob')].answer = 'x'.repeat(30_000);
    await t.restart();
    expect(t.stored().exchange.attacks).toEqual({});
    const status = await t.say('GM', '!defense-round');
    expect(all(status)).toMatch(/exchange\.attacks\.A1: not a valid open attack; forgotten/);
    expect(JSON.stringify(t.stored()).length).toBeLessThan(20_000);
  });

  it('12. an open attack of another edition than the active one (settings reset at a restart) is cancelled at start-up, named, and takes no answer', async () => {
    t = await table(undefined, 'threshold');
    await t.say('GM', `!attack 7 --hit 21 --ids ${t.id('Goblin 2')} ${t.id('Bob')}`, ['Goblin 1']);
    expect(t.stored().exchange.attacks.A1).toBeDefined();
    // The stored edition setting is garbage: the start-up check puts the default edition back.
    t.mock.state.DefenseRound.settings.edition = 'no such edition';
    await t.restart();
    expect(t.stored().settings.edition).toBe('soak');
    expect(t.stored().exchange.attacks).toEqual({});
    const status = await t.say('GM', '!defense-round');
    expect(all(status)).toMatch(/exchange\.attacks\.A1: declared in the threshold edition, not the active one; cancelled/);
    const answer = await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 2')} --action evade --roll 10`);
    expect(all(answer)).toMatch(/No open attack A1/);
    await t.restart();
    expect(t.mock.logs.join('\n')).not.toMatch(/not a valid open attack/);
  });

  it('13. a player\'s answer never hints at a hidden defender', async () => {
    const words = async (hidden: boolean) => {
      t = await table(goblins(hidden ? ['Goblin A', 'Goblin B'] : ['Goblin A']));
      if (hidden) t.mock.token('Goblin B').set('layer', 'gmlayer');
      const ids = hidden ? [t.id('Bob'), t.id('Goblin A'), t.id('Goblin B')] : [t.id('Bob'), t.id('Goblin A')];
      await t.say('GM', `!attack 10 --ids ${ids.join(' ')}`, ['Goblin 1']);
      const first = whispered(await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action none`), 'Alice').join('\n');
      const listed = whispered(await t.say('Alice', '!attack --list'), 'Alice').join('\n');
      t.close();
      return { first, listed };
    };
    const without = await words(false);
    const withHidden = await words(true);
    expect(withHidden.first).toBe(without.first);
    expect(withHidden.first).toMatch(/Waiting for Goblin A\./);
    expect(withHidden.listed).not.toMatch(/others|Goblin B/);
    // Only hidden defenders left: nothing is said of them.
    t = await table(goblins(['Goblin B'], 'gmlayer'));
    await t.say('GM', `!attack 10 --ids ${t.id('Bob')} ${t.id('Goblin B')}`, ['Goblin 1']);
    const last = whispered(await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action none`), 'Alice').join('\n');
    expect(last).not.toMatch(/Waiting|the GM|others/);
  });

  it('14. keys of attacks a player cannot see answer as unused keys, and the public numbers show no gap', async () => {
    t = await table(goblins(['Shade'], 'gmlayer'));
    t.mock.setTurnOrder([]); // no Turn Tracker: Goblin 2 attacks too (rules.md, "Out of turn")
    t.mock.token('Goblin 1').set('layer', 'gmlayer');
    // Among hidden tokens only: nothing public, and a key of the GM's own series.
    const hidden = await t.say('GM', `!attack 40 --ids ${t.id('Shade')}`, ['Goblin 1']);
    expect(publicFromScript(hidden)).toEqual([]);
    const [key] = Object.keys(t.stored().exchange.attacks);
    expect(key).toMatch(/^G\d+$/);
    for (const command of [`!attack --resolve ${key}`, `!attack --cancel ${key}`]) {
      const guessed = whispered(await t.say('Alice', command), 'Alice').join('\n');
      const unused = whispered(await t.say('Alice', command.replace(key!, 'A77')), 'Alice').join('\n');
      expect(guessed).toBe(unused.replace('A77', key!));
    }
    const answer = whispered(await t.say('Alice', `!defend --answer ${key} --ids ${t.id('Bob')} --action none`), 'Alice').join('\n');
    const unusedAnswer = whispered(await t.say('Alice', `!defend --answer A77 --ids ${t.id('Bob')} --action none`), 'Alice').join('\n');
    expect(answer).toBe(unusedAnswer.replace('A77', key!));
    const next = await t.say('GM', `!attack 10 --ids ${t.id('Bob')}`, ['Goblin 2']);
    expect(publicFromScript(next).join('\n')).toMatch(/^Attack A1: Goblin 2 attacks Bob\./);
    // The GM resolves the hidden one by its key.
    await t.say('GM', `!attack --resolve ${key}`);
    expect(t.bar('Shade')).toBeLessThan(30);
  });

  it('15. NPC defense rolls stay off the public attack card', async () => {
    t = await table();
    await t.say('GM', `!attack 40 --ids ${t.id('Goblin 2')} ${t.id('Bob')}`, ['Goblin 1']);
    await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 2')} --action evade --roll 37`);
    const resolved = await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend --roll 90`);
    const shown = publicFromScript(resolved).join('\n');
    expect(shown).toMatch(/Goblin 2/);
    expect(shown).not.toMatch(/37/);
    // Bob's answer resolved the attack: its row says the check as the answer's line would have.
    expect(shown).toMatch(/Bob: Defend d100 90 vs 55: failure \(typed\)/);
    expect(whispered(resolved, 'gm').join('\n')).toMatch(/Goblin 2: Evade 37/);
  });

  it('17. a player answers for her own token on the GM layer', async () => {
    t = await table();
    t.mock.token('Bob').set('layer', 'gmlayer');
    const declared = await t.say('GM', `!attack 40 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(contents(declared.filter((record) => record.whisperTo === 'Alice'))).toContain(`--ids ${t.id('Bob')} --action defend`);
    const out = await t.say('Alice', `!defend --answer G1 --ids ${t.id('Bob')} --action defend --roll 5`);
    expect(all(out)).not.toMatch(/not a defender/);
    expect(t.stored().exchange.attacks).toEqual({});
    expect(t.attr('Bob', 'vitality')).toBe(70);
    // Ben, who controls nothing, still hears of no such token.
    await t.say('GM', `!attack 40 --ids ${t.id('Bob')}`, ['Goblin 1']);
    const ben = whispered(await t.say('Ben', `!defend --answer G2 --ids ${t.id('Bob')} --action none`), 'Ben').join('\n');
    expect(ben).toMatch(/no open attack G2/i);
  });

  it('18. prompt rows of defenders with one name are numbered: no buttons are lost', async () => {
    t = await table(goblins(['Goblin', 'Goblin']));
    const ids = (t.mock.globals.findObjs({ _type: 'graphic', name: 'Goblin' }) as Array<{ id: string }>).map((token) => token.id);
    const out = await t.say('GM', `!attack 10 --ids ${ids.join(' ')}`, ['Goblin 1']);
    const card = whispered(out, 'gm').join('\n');
    const gmCard = out.filter((record) => record.whisperTo === 'gm').map((record) => record.content).join('\n');
    expect(gmCard).toContain('{{Goblin=');
    expect(gmCard).toContain('{{Goblin (2)=');
    for (const id of ids) expect(gmCard).toContain(`--ids ${id} --action defend`);
    expect(card).toMatch(/Goblin/);
  });
});

describe('what players type never grows state past 100 KB (bundle)', () => {
  let t: Table;
  afterEach(() => t?.close());

  it('6./7. two players with twenty familiars of long names each: full undo shares, open attacks and answers', async () => {
    const long = (who: string, i: number) => `${who}'s familiar ${i} ${'~'.repeat(170)}`;
    t = await table((mock, scene) => {
      for (const who of ['Alice', 'Ben'] as const) {
        const sheet = mock.create('character', { name: `${who}'s familiars`, controlledby: scene.players[who] });
        for (const [name, current] of Object.entries({ defend_check: 55, evade_check: 45, armor_soak: 0, armor_physical: 0 })) mock.create('attribute', { characterid: sheet.id, name, current, max: current });
        for (let i = 0; i < 20; i += 1) {
          mock.create('graphic', {
            subtype: 'token', pageid: scene.pageId, layer: 'objects', name: long(who, i), controlledby: scene.players[who], represents: sheet.id,
            bar1_value: 30, bar1_max: 30, bar2_value: 10, bar2_max: 10, bar3_value: 10, bar3_max: 10, imgsrc: String(mock.token('Bob').get('imgsrc')),
          });
        }
      }
    });
    const ids = (who: string) => Array.from({ length: 20 }, (_, i) => t.id(long(who, i)));
    for (const who of ['Alice', 'Ben'] as const) {
      // Ten hits on all twenty, then five attacks on them: the most each may keep.
      for (let i = 0; i < 12; i += 1) {
        await t.say(who, `!damage 1 --ids ${ids(who).join(' ')}`);
        await t.say(who, `!heal 1 --ids ${ids(who).join(' ')}`);
      }
      for (let i = 0; i < 6; i += 1) await t.say(who, `!attack ${'0'.repeat(150)}5 --ids ${ids(who).join(' ')}`, [long(who, 0)]);
      for (const id of ids(who)) await t.say(who, `!stance defensive --ids ${id}`);
    }
    // The players' open attacks together hold 100 defenders at most.
    const open = Object.values<any>(t.stored().exchange.attacks);
    expect(open.reduce((sum, attack) => sum + attack.defenders.length, 0)).toBeLessThanOrEqual(100);
    // Every defender but the last answers: the answers are kept while the attack waits.
    for (const attack of open) for (const id of attack.defenders.slice(1)) await t.say(attack.by === t.scene.players.Alice ? 'Alice' : 'Ben', `!defend --answer ${attack.key} --ids ${id} --action defend --roll 50`);
    expect(JSON.stringify(t.stored()).length).toBeLessThan(100_000);
  }, 60_000);
});

describe('the fuzzer finds (bundle)', () => {
  let t: Table;
  afterEach(() => t?.close());

  it('undo names a token with no name of its own by its character\'s, as its cards do', async () => {
    t = await table();
    t.mock.token('Bob').set('name', '');
    const hit = await t.say('GM', `!damage 200 --ids ${t.id('Bob')}`);
    expect(publicFromScript(hit).join('\n')).toMatch(/Bob loses 30 Vitality/);
    const undo = await t.say('GM', '!damage --undo');
    expect(publicFromScript(undo).join('\n')).toMatch(/^Damage undone: Bob \(/);
    expect(all(undo)).not.toMatch(/an unnamed token/);
  });

  it('a stored stance no edition has is forgotten at start-up, named, and the next hit keeps its undo entry across a restart', async () => {
    t = await table();
    await t.say('GM', '!damage 5', ['Crate']);
    t.mock.state.DefenseRound.tokens[t.id('Crate')] = { stance: '', worn: { physical: 3 } };
    await t.restart();
    expect(t.stored().tokens[t.id('Crate')]).toEqual({ worn: { physical: 3 } });
    const status = await t.say('GM', '!defense-round');
    expect(all(status)).toMatch(/stance: no edition has that stance; forgotten/);
    await t.say('GM', '!damage 1000', ['Crate']);
    const entries = t.stored().history.length;
    await t.restart();
    expect(t.stored().history).toHaveLength(entries);
    expect(t.mock.logs.join('\n')).not.toMatch(/not a valid undo entry/);
  });
});
