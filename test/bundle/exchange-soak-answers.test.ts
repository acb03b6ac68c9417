// The Defensive Round's answers to `!attack` on the bundle (issue 32, soak items 3-8 and `--edge`):
// an answer carries what a `!defend` can (the Mental check against an unseen spell, the attack's
// perception penalty, an ally's aid), a defense made ahead answers only an attack it fits, and an
// area attack's edge may evade. Each failed on the bundle before (DEFENSE_ROUND_BUNDLE=old bundle).
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

const all = (records: Parameters<typeof texts>[0]) => texts(records).join('\n');
const contents = (records: Array<{ content: string }>) => records.map((record) => record.content).join('\n');

/** A third goblin beside the demo's, out of the Turn Tracker. */
function goblin3(mock: MockRoll20, scene: DemoScene): void {
  mock.create('graphic', {
    subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Goblin 3', represents: scene.characters.Goblin,
    bar1_value: 30, bar1_max: 30, bar2_value: 10, bar2_max: 10, bar3_value: 10, bar3_max: 10, imgsrc: String(mock.token('Goblin 1').get('imgsrc')),
  });
}

/** A goblin on the GM layer: the players do not see it. */
function lurker(mock: MockRoll20, scene: DemoScene): void {
  mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'gmlayer', name: 'Lurker', represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
}

/** The demo table a turn on (Goblin 1 acting, the attacker; Bob, Alice's, defends: Defend 55, Evade 45, Perception 50, Mental 40). */
async function table(): Promise<Table> {
  const opened = await openTable('bundle', {
    setup: (mock, scene) => {
      goblin3(mock, scene);
      lurker(mock, scene);
    },
  });
  await opened.passTurn();
  return opened;
}

/** What a table holds after a hit: the defenders' bars and memories, Bob's sheet, and what is on file. */
function holds(t: Table) {
  return {
    bars: ['Goblin 2', 'Goblin 3'].map((name) => t.bar(name)),
    bob: ['vitality', 'armor_physical'].map((name) => t.attr('Bob', name)),
    memories: ['Bob', 'Goblin 2', 'Goblin 3'].map((name) => t.memory(name as never)),
  };
}

describe('soak: what an answer carries (bundle)', () => {
  const open: Table[] = [];
  afterEach(() => {
    for (const t of open.splice(0)) t.close();
  });
  const fresh = async () => {
    const t = await table();
    open.push(t);
    return t;
  };

  it('3. an Evade against an unseen or very fast spell makes the Mental check: a success halves the -25 (Evade 45 - 12 = 33 against 30 succeeds)', async () => {
    const t = await fresh();
    await t.say('GM', `!attack 200 --situation spell-unseen --ids ${t.id('Bob')}`, ['Goblin 1']);
    // The Mental check is rolled with the answer (a 10 against Mental 40).
    t.mock.dice.force(10);
    const out = await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action evade --roll 30`);
    // The answer resolves the attack: its check is said on the result's Answer row (no line of its own).
    expect(whispered(out, 'Alice')).toEqual([]);
    expect(texts(out).join('\n')).toMatch(/Answer: .*Mental.*10.*40/i);
    expect(t.attr('Bob', 'vitality')).toBe(70);
    // The same with the Mental roll given (--mental-roll); a failed one leaves the -25 (30 against 20 fails).
    await t.say('GM', '!defense-round next-round');
    // A few seconds on (the same attack again at once is a double click, refused).
    t.mock.advance(5000);
    await t.say('GM', `!attack 200 --situation spell-unseen --ids ${t.id('Bob')}`, ['Goblin 1']);
    await t.say('Alice', `!defend --answer A2 --ids ${t.id('Bob')} --action evade --roll 30 --mental-roll 90`);
    expect(t.attr('Bob', 'vitality')).toBe(40);
  });

  it('3. the same exchange as !defend --action evade --situation spell-unseen --mental + !damage, with the same dice', async () => {
    const [viaAttack, byHand] = [await fresh(), await fresh()];
    await viaAttack.say('GM', `!attack 200 --situation spell-unseen --ids ${viaAttack.id('Bob')}`, ['Goblin 1']);
    await viaAttack.say('Alice', `!defend --answer A1 --ids ${viaAttack.id('Bob')} --action evade --roll 33 --mental-roll 39`);
    await byHand.say('Alice', '!defend --action evade --situation spell-unseen --mental --roll 33 --mental-roll 39', ['Bob']);
    await byHand.say('GM', `!damage 200 --ids ${byHand.id('Bob')}`);
    expect(viaAttack.stored().exchange.attacks).toEqual({});
    expect(holds(viaAttack)).toEqual(holds(byHand));
    // 33 against Evade 45 - 12 (Mental 39 against 40 halves the -25).
    expect(viaAttack.attr('Bob', 'vitality')).toBe(70);
  });

  it.each(['covert', 'spectator'])('4/5. a %s attack gives its perception penalty to each answer (--perception-mod): Perception 50 - 20 = 30, a 40 fails and the hit lands', async (situation) => {
    const t = await fresh();
    const declared = await t.say('GM', `!attack 200 --situation ${situation} --perception-mod -20 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(Object.keys(t.stored().exchange.attacks)).toEqual(['A1']);
    expect(all(declared)).not.toMatch(/unknown flag|means nothing/);
    await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend --roll 10 --perception-roll 40`);
    expect(t.attr('Bob', 'vitality')).toBe(40);
    // A 30 passes it: the defense succeeds.
    await t.say('GM', `!attack 200 --situation ${situation} --perception-mod -20 --ids ${t.id('Goblin 2')}`, ['Goblin 1']);
    await t.say('GM', `!defend --answer A2 --ids ${t.id('Goblin 2')} --action defend --roll 10 --perception-roll 15`);
    expect(t.bar('Goblin 2')).toBe(30);
  });

  it('4/5. --perception-mod on !attack only with --situation covert or spectator: refused otherwise, nothing declared', async () => {
    const t = await fresh();
    const out = await t.say('GM', `!attack 200 --situation behind --perception-mod -20 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(whispered(out, 'gm').join('\n')).toMatch(/--perception-mod applies only to --situation covert or spectator/);
    expect(t.stored().exchange.attacks).toEqual({});
  });

  describe('6. an aided answer (--aided-by ALLY): +5 from the ally\'s successful reaction, spent with the hit and undone with it', () => {
    /** Bob takes the reactive stance and reacts to Goblin 1 (a success with 10, a failure with 90). */
    async function bobReacts(t: Table, roll: number) {
      await t.say('Alice', '!stance reactive', ['Bob']);
      await t.say('Alice', `!defend --action react --vs ${t.id('Goblin 1')} --roll ${roll}`, ['Bob']);
    }

    it('Goblin 2 defends 43 against 40 + 5; Bob\'s reaction is spent only when the attack resolves, and undo gives it back', async () => {
      const t = await fresh();
      await bobReacts(t, 10);
      const goblin1 = t.id('Goblin 1');
      await t.say('GM', `!attack 45 --ids ${t.id('Goblin 2')} ${t.id('Goblin 3')}`, ['Goblin 1']);
      const answered = await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 2')} --action defend --roll 43 --aided-by ${t.id('Bob')}`);
      expect(all(answered)).toMatch(/Aided by Bob: \+5/);
      // Nothing is written until the attack resolves.
      expect(t.memory('Bob').reactions).toEqual({ [goblin1]: true });
      await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 3')} --action none`);
      expect(t.stored().exchange.attacks).toEqual({});
      expect(t.bar('Goblin 2')).toBe(30);
      expect(t.bar('Goblin 3')).toBe(15);
      expect(t.memory('Bob').reactions).toEqual({ [goblin1]: 'used' });
      await t.say('GM', '!damage --undo');
      expect(t.bar('Goblin 3')).toBe(30);
      expect(t.memory('Bob').reactions).toEqual({ [goblin1]: true });
    });

    it('the same exchange as !defend --aided-by ALLY --vs ATTACKER + !damage, with the same dice', async () => {
      const [viaAttack, byHand] = [await fresh(), await fresh()];
      for (const t of [viaAttack, byHand]) await bobReacts(t, 10);
      await viaAttack.say('GM', `!attack 45 --ids ${viaAttack.id('Goblin 2')}`, ['Goblin 1']);
      await viaAttack.say('GM', `!defend --answer A1 --ids ${viaAttack.id('Goblin 2')} --action defend --roll 44 --aided-by ${viaAttack.id('Bob')}`);
      await byHand.say('GM', `!defend --action defend --roll 44 --aided-by ${byHand.id('Bob')} --vs ${byHand.id('Goblin 1')}`, ['Goblin 2']);
      await byHand.say('GM', `!damage 45 --ids ${byHand.id('Goblin 2')}`);
      expect(viaAttack.stored().exchange.attacks).toEqual({});
      expect(holds(viaAttack)).toEqual(holds(byHand));
      expect(viaAttack.memory('Bob').reactions).toEqual({ [viaAttack.id('Goblin 1')]: 'used' });
    });

    it('one reaction, one aid: a second open answer aided by Bob against the same attacker is refused', async () => {
      const t = await fresh();
      await bobReacts(t, 10);
      await t.say('GM', `!attack 45 --ids ${t.id('Goblin 2')} ${t.id('Goblin 3')}`, ['Goblin 1']);
      await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 2')} --action defend --roll 43 --aided-by ${t.id('Bob')}`);
      const second = await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 3')} --action defend --roll 43 --aided-by ${t.id('Bob')}`);
      expect(whispered(second, 'gm').join('\n')).toMatch(/Bob already helps Goblin 2's answer to A1: one reaction, one aid/);
      expect(t.stored().exchange.attacks.A1.answers[t.id('Goblin 3')]).toBeUndefined();
    });

    it('the aider is a token the answerer sees: one on the GM layer is, to a player, no token at all', async () => {
      const t = await fresh();
      await t.say('GM', `!attack 200 --ids ${t.id('Bob')}`, ['Goblin 1']);
      const lurking = t.mock.globals.findObjs({ _type: 'graphic', name: 'Lurker' })[0]!.id;
      const out = await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend --roll 10 --aided-by ${lurking}`);
      expect(whispered(out, 'Alice').join('\n')).toMatch(/--aided-by: no token on the table has that id/);
      expect(all(out)).not.toMatch(/Lurker/);
      expect(t.stored().exchange.attacks.A1.answers).toEqual({});
    });

    it('the aider must be able to aid now: a failed reaction aids nothing, and the answer is refused, saying why', async () => {
      const t = await fresh();
      await bobReacts(t, 90);
      await t.say('GM', `!attack 45 --ids ${t.id('Goblin 2')}`, ['Goblin 1']);
      const out = await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 2')} --action defend --roll 43 --aided-by ${t.id('Bob')}`);
      expect(whispered(out, 'gm').join('\n')).toMatch(/Aid needs a successful reaction check: Bob has none against Goblin 1/);
      expect(t.stored().exchange.attacks.A1.answers).toEqual({});
    });
  });
});

describe('soak: a defense made ahead answers an attack only where it fits (bundle)', () => {
  let t: Table;
  afterEach(() => t?.close());

  it('7. an Evade made ahead does not answer an area attack: Bob is prompted, may Defend, and his answer replaces it', async () => {
    t = await table();
    await t.say('Alice', '!defend --action evade --roll 10', ['Bob']);
    const out = await t.say('GM', `!attack 200 --situation aoe --ids ${t.id('Bob')}`, ['Goblin 1']);
    const alice = whispered(out, 'Alice').join('\n');
    expect(alice).toMatch(/Its defense made ahead does not answer this attack: an evade made for Front; this attack: Area attack: no evade/);
    expect(contents(out)).toContain(`--ids ${t.id('Bob')} --action defend`);
    expect(t.stored().exchange.attacks.A1).toBeDefined();
    expect(t.attr('Bob', 'vitality')).toBe(70);
    await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend --roll 60`);
    expect(t.attr('Bob', 'vitality')).toBe(40);
    expect(t.stored().exchange.waiting[t.id('Bob')]).toBeUndefined();
    // A Defend made ahead does answer it (The Defensive Round: an area attack cannot be evaded, not defended).
    await t.say('GM', '!damage --undo');
    await t.say('GM', '!defense-round next-round');
    await t.passTurn();
    await t.say('Alice', '!defend --action defend --roll 10', ['Bob']);
    await t.say('GM', `!attack 200 --situation aoe --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(t.stored().exchange.attacks).toEqual({});
    expect(t.attr('Bob', 'vitality')).toBe(70);
  });

  it('8. a Defend made ahead for a frontal attack does not answer one from behind (no perception check, no -5); one made for behind does', async () => {
    t = await table();
    await t.say('Alice', '!defend --action defend --roll 10', ['Bob']);
    const out = await t.say('GM', `!attack 200 --situation behind --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(whispered(out, 'Alice').join('\n')).toMatch(/Its defense made ahead does not answer this attack: a defend made for Front; this attack: Behind: a perception check first, defend -5/);
    expect(t.attr('Bob', 'vitality')).toBe(70);
    // Bob does not perceive it (80 against Perception 50): the hit lands.
    await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend --roll 10 --perception-roll 80`);
    expect(t.attr('Bob', 'vitality')).toBe(40);
    await t.say('GM', '!defense-round next-round');
    await t.passTurn();
    // Made for an attack from behind, it answers one when the attacker is distracted too (the same checks and penalties).
    await t.say('Alice', '!defend --action defend --situation behind --roll 10 --perception-roll 10', ['Bob']);
    await t.say('GM', `!attack 200 --situation distracted --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(t.stored().exchange.attacks).toEqual({});
    expect(t.attr('Bob', 'vitality')).toBe(40);
  });

  it.each(['covert', 'spectator'])('8. a Defend made ahead for a frontal attack does not answer a %s one (it lacked the perception check)', async (situation) => {
    t = await table();
    await t.say('Alice', '!defend --action defend --roll 10', ['Bob']);
    const out = await t.say('GM', `!attack 200 --situation ${situation} --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(whispered(out, 'Alice').join('\n')).toMatch(/Its defense made ahead does not answer this attack/);
    expect(t.stored().exchange.attacks.A1).toBeDefined();
    expect(t.attr('Bob', 'vitality')).toBe(70);
  });
});

describe('soak: an area attack\'s edge (--edge ID ...) (bundle)', () => {
  let t: Table;
  afterEach(() => t?.close());

  it('the defenders on its farthest reach may evade with no penalty (Evade 45 against 45); the others may not evade', async () => {
    t = await table();
    const out = await t.say('GM', `!attack 200 --situation aoe --edge ${t.id('Bob')} --ids ${t.id('Bob')} ${t.id('Goblin 2')}`, ['Goblin 1']);
    expect(contents(out)).toContain(`--ids ${t.id('Bob')} --action evade`);
    expect(contents(out)).not.toContain(`--ids ${t.id('Goblin 2')} --action evade`);
    await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action evade --roll 45`);
    const refused = await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 2')} --action evade --roll 1`);
    expect(whispered(refused, 'gm').join('\n')).toMatch(/cannot be evaded/);
    await t.say('GM', `!defend --answer A1 --ids ${t.id('Goblin 2')} --action none`);
    expect(t.attr('Bob', 'vitality')).toBe(70);
    expect(t.bar('Goblin 2')).toBeLessThan(30);
  });

  it('an edge that is no defender of the attack refuses it, naming the id; --edge only with --situation aoe', async () => {
    t = await table();
    const stray = await t.say('GM', `!attack 200 --situation aoe --edge ${t.id('Goblin 3')} --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(whispered(stray, 'gm').join('\n')).toContain(`--edge: ${t.id('Goblin 3')} is no defender of this attack`);
    const side = await t.say('GM', `!attack 200 --situation side --edge ${t.id('Bob')} --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(whispered(side, 'gm').join('\n')).toMatch(/--edge applies only to --situation aoe/);
    expect(t.stored().exchange.attacks).toEqual({});
  });
});
