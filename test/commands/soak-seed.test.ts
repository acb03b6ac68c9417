// The `soak` edition closer to its seed (000): the revised rulings, each at the table, on the
// TypeScript and on the built bundle. Numbers are worked by hand in the comments.
import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, texts, whispered, type Table } from '../support/table';

describe.each(MODES)('soak, closer to its seed (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  describe('the armor is one piece: it stands while either protection is above 0', () => {
    it('a goblin with Physical 20 and no Magical soaks a magical hit: 20 x 90% = 18', async () => {
      table = await openTable(mode);
      const out = await table.say('GM', '!damage 20 --type magical', ['Goblin 1']);
      expect(table.bar('Goblin 1')).toBe(12); // 30 - 18
      expect(texts(out).join('\n')).toMatch(/20 x 90% soak = 18/);
    });

    it('Bob with Physical worn to 0 and Magical 40 keeps Soak and Defense: 50 x 80% = 40, - 30 Defense = 10', async () => {
      table = await openTable(mode);
      table.mock.attribute('Bob', 'armor_physical').set('current', 0);
      const out = await table.say('Alice', '!damage 50', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(60);
      expect(table.attr('Bob', 'armor_physical')).toBe(0); // nothing left to wear
      expect(publicFromScript(out).join('\n')).toMatch(/50 x 80% soak = 40.*40 - 0 Physical = 40.*40 - 30 Defense = 10/s);
    });

    it('with both protections at 0 the armor is destroyed: natural defense only', async () => {
      table = await openTable(mode);
      table.mock.attribute('Bob', 'armor_physical').set('current', 0);
      table.mock.attribute('Bob', 'armor_magical').set('current', 0);
      table.mock.attribute('Bob', 'natural_defense').set('current', 4);
      const out = await table.say('Alice', '!damage 50', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(24); // 70 - (50 - 4)
      expect(publicFromScript(out).join('\n')).toMatch(/Armor destroyed/);
    });
  });

  it('a character saved from dying still owes the one save that stands it up at 1 Vitality', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 45 --pierce 100', ['Goblin 2']); // 30 -> -15: dying, three saves
    expect(table.markers('Goblin 2')).toEqual(['death-zone']);
    const saved = await table.say('GM', '!defend --action save --roll 1', ['Goblin 2']);
    expect(table.bar('Goblin 2')).toBe(-9);
    expect(table.markers('Goblin 2')).toEqual(['sleepy']);
    expect(table.memory('Goblin 2').life).toEqual({ condition: 'incapacitated', savesOwed: 1 });
    expect(texts(saved).join('\n')).toMatch(/one save owed/);
    await table.say('GM', '!defend --action save --roll 1', ['Goblin 2']);
    expect(table.bar('Goblin 2')).toBe(1);
    expect(table.markers('Goblin 2')).toEqual([]);
  });

  it('one successful reaction check buys one reaction: a second counter against that attacker is refused', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn
    const attacker = table.id('Goblin 1');
    await table.say('Alice', '!stance reactive', ['Bob']);
    await table.say('Alice', `!defend --action react --vs ${attacker} --roll 10`, ['Bob']);
    const first = await table.say('Alice', `!defend --action counter --vs ${attacker}`, ['Bob']);
    expect(publicFromScript(first).join('\n')).toMatch(/Counter attack against Goblin 1/);
    const second = await table.say('Alice', `!defend --action counter --vs ${attacker}`, ['Bob']);
    expect(whispered(second, 'Alice').join('\n')).toMatch(/already spent.*one success buys one reaction/);
    expect(publicFromScript(second)).toEqual([]);
  });

  describe('aid comes from a reacting ally (--aided-by ID with --vs ID)', () => {
    async function bobReacts(roll: number) {
      await table.passTurn(); // Goblin 1's turn: Bob and Goblin 2 defend
      await table.say('Alice', '!stance reactive', ['Bob']);
      await table.say('Alice', `!defend --action react --vs ${table.id('Goblin 1')} --roll ${roll}`, ['Bob']);
    }

    it('adds +5 to the ally\'s check (40 + 5 = 45 against a roll of 43) and spends the aider\'s reaction', async () => {
      table = await openTable(mode);
      await bobReacts(10);
      const aided = `!defend --action defend --aided-by ${table.id('Bob')} --vs ${table.id('Goblin 1')} --roll 43`;
      const out = await table.say('GM', aided, ['Goblin 2']);
      expect(table.memory('Goblin 2').pendingDefense).toEqual({ result: 'success', action: 'defend', situation: 'front' });
      expect(texts(out).join('\n')).toMatch(/Aided by Bob: \+5/);
      expect(table.memory('Bob').reactions).toEqual({ [table.id('Goblin 1')]: 'used' });
      const again = await table.say('GM', aided, ['Goblin 2']);
      expect(whispered(again, 'gm').join('\n')).toMatch(/Aid needs an unspent reaction: Bob already spent/);
    });

    it('is refused, and nothing rolled or kept, when the aider has no successful reaction', async () => {
      table = await openTable(mode);
      await bobReacts(90); // a failed reaction check
      const out = await table.say('GM', `!defend --action defend --aided-by ${table.id('Bob')} --vs ${table.id('Goblin 1')} --roll 43`, ['Goblin 2']);
      expect(whispered(out, 'gm').join('\n')).toMatch(/Aid needs a successful reaction check: Bob has none against Goblin 1/);
      expect(table.memory('Goblin 2')).toBeUndefined();
    });

    it('a macro still sending the old --aided is told the new flag', async () => {
      table = await openTable(mode);
      const out = await table.say('GM', '!defend --action defend --aided --roll 43', ['Goblin 2']);
      expect(whispered(out, 'gm').join('\n')).toMatch(/--aided is replaced by --aided-by ID .* with --vs ID/);
      expect(table.memory('Goblin 2')).toBeUndefined();
    });
  });

  describe('the defensive round is not the acting token\'s', () => {
    it('the token on top of the Turn Tracker cannot defend, evade, react, counter or use a skill; saves stay allowed', async () => {
      table = await openTable(mode); // Bob's turn
      for (const action of ['defend --roll 1', 'evade --roll 1', `react --vs ${table.id('Goblin 1')} --roll 1`, `counter --vs ${table.id('Goblin 1')}`, 'skill']) {
        const out = await table.say('Alice', `!defend --action ${action}`, ['Bob']);
        expect(whispered(out, 'Alice').join('\n')).toMatch(/It is this token's turn/);
      }
      expect(table.memory('Bob')).toBeUndefined();
    });

    it('a token not in the Turn Tracker, or an empty Turn Tracker, is not limited', async () => {
      table = await openTable(mode);
      table.mock.setTurnOrder([]);
      await table.mock.settle();
      await table.say('Alice', '!defend --action defend --roll 1', ['Bob']);
      expect(table.memory('Bob').pendingDefense).toEqual({ result: 'success', action: 'defend', situation: 'front' });
    });

    it('saves stay allowed on the acting token', async () => {
      table = await openTable(mode);
      await table.say('GM', '!damage 71 --pierce 100', ['Bob']); // 70 -> -1: one save owed
      await table.say('Alice', '!defend --action save --roll 1', ['Bob']);
      expect(table.attr('Bob', 'vitality')).toBe(1);
    });
  });

  it('a token with no declared stance may defend; its card says so and offers the two !stance buttons', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!defend --action defend --roll 10', ['Goblin 1']);
    expect(texts(out).join('\n')).toMatch(/Stance: None declared: a defender must declare Defensive or Reactive/);
    const buttons = out.map((r) => r.content).join('\n');
    expect(buttons).toContain(`(!stance defensive --ids ${table.id('Goblin 1')})`);
    expect(buttons).toContain(`(!stance reactive --ids ${table.id('Goblin 1')})`);
    await table.say('GM', '!stance defensive', ['Goblin 1']);
    const declared = await table.say('GM', '!defend --action defend --roll 10', ['Goblin 1']);
    expect(texts(declared).join('\n')).not.toMatch(/None declared/);
    expect(declared.map((r) => r.content).join('\n')).not.toContain('!stance');
  });
});
