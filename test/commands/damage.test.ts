import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, texts, whispered, type Table } from '../support/table';

describe.each(MODES)('!damage (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it("applies the seed's worked example to Bob: Vitality 70 -> 40, Physical 100 -> 60, with the breakdown", async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!damage 200', ['Bob']);
    expect(table.bar('Bob')).toBe(40);
    expect(table.attr('Bob', 'vitality')).toBe(40);
    expect(table.attr('Bob', 'armor_physical')).toBe(60);
    expect(table.attr('Bob', 'armor_physical', 'max')).toBe(100);
    const card = publicFromScript(out).join('\n');
    expect(card).toContain('200 x 80% soak = 160');
    expect(card).toContain('160 - 100 Physical = 60');
    expect(card).toContain('60 - 30 Defense = 30');
    expect(card).toContain('Vitality 70 -> 40');
    expect(card).toContain('Physical 100 -> 60');
  });

  it('wears a generic token\'s armor per token, leaving the sheet and the other goblin alone', async () => {
    table = await openTable(mode);
    await table.say('GM', '!damage 20', ['Goblin 1']);
    // 20 x 90% = 18; 18 - 20 Physical = 0; wear floor(18/4) = 4 -> Physical 16
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.attr('Goblin', 'armor_physical')).toBe(20);
    expect(table.memory('Goblin 1').wear).toEqual({ physical: 16 });
    await table.say('GM', '!damage 40', ['Goblin 1', 'Goblin 2']);
    // Goblin 1: 40 x 90% = 36 - 16 = 20 - 5 = 15 -> 15; Goblin 2: 36 - 20 = 16 - 5 = 11 -> 19
    expect(table.bar('Goblin 1')).toBe(15);
    expect(table.bar('Goblin 2')).toBe(19);
    expect(table.memory('Goblin 1').wear).toEqual({ physical: 7 });
    expect(table.memory('Goblin 2').wear).toEqual({ physical: 11 });
  });

  it('sends an NPC breakdown to the GM only, with a short public line without numbers', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!damage 200', ['Goblin 1']);
    const gm = whispered(out, 'gm').join('\n');
    expect(gm).toContain('Goblin 1 loses 155 Vitality and falls, dying (200 physical)');
    expect(gm).toContain('Actions: [Undo](!damage --undo --entry U1)');
    const pub = publicFromScript(out);
    expect(pub).toEqual(['Goblin 1 is hit and falls, dying.']);
    expect(table.markers('Goblin 1')).toContain('death-zone');
  });

  it('takes a token with no character unreduced and says it has no armor', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!damage 7', ['Crate']);
    expect(table.bar('Crate')).toBe(13);
    expect(texts(out).join('\n')).toMatch(/No character, so no armor/);
  });

  it('reads an inline roll as the amount', async () => {
    table = await openTable(mode);
    table.mock.dice.force(3, 4);
    await table.say('GM', '!damage [[2d6]]', ['Crate']);
    expect(table.bar('Crate')).toBe(13);
  });

  it.each([
    ['!damage abc', /the damage amount must be a whole number or an inline roll like \[\[2d6\+3\]\] \(got "abc"\)/i],
    ['!damage -5', /from 0 to 1000000 \(got -5\)/],
    ['!damage 5.5', /whole number or an inline roll like \[\[2d6\+3\]\] \(got "5\.5"\)/],
    ['!damage 99999999', /from 0 to 1000000/],
    ['!damage', /no damage amount given: a number or an inline roll, like !damage 12 or !damage \[\[2d6\+3\]\]/i],
    ['!damage 5 --type fire', /--type must be one of physical, magical, energy, breath \(got "fire"\)/],
    ['!damage 5 --pierce 150', /--pierce must be from 0 to 100 \(got 150\)/],
    ['!damage 5 --hit 12', /--hit means nothing in the soak edition/],
    ['!damage 5 --color red', /unknown flag --color: Help lists the flags/i],
    ['!damage 5 --instant-kill --to soul', /cannot be combined/],
  ])('refuses %s with a whisper naming the problem and a Help button, changing nothing', async (command, problem) => {
    table = await openTable(mode);
    const out = await table.say('Alice', command, ['Bob']);
    expect(table.bar('Bob')).toBe(70);
    expect(publicFromScript(out)).toEqual([]);
    const said = whispered(out, 'Alice');
    expect(said).toHaveLength(1);
    expect(said[0]).toMatch(problem);
    expect(said[0]).toMatch(/\[Help\]\(!damage --help\)$/);
    expect(said[0]).not.toContain('Usage:');
  });

  it('refuses when nothing is selected', async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!damage 5');
    expect(whispered(out, 'Alice')[0]).toMatch(/no token selected/i);
  });

  it('refuses a token whose Vitality bar is not a number, and still applies to the others', async () => {
    for (const garbage of ['abc', '12.5']) {
      table = await openTable(mode);
      table.mock.token('Goblin 1').set('bar1_value', garbage);
      const out = await table.say('GM', '!damage 10', ['Goblin 1', 'Crate']);
      expect(table.bar('Goblin 1')).toBe(garbage);
      expect(table.bar('Crate')).toBe(10);
      expect(whispered(out, 'gm').join('\n')).toMatch(new RegExp(`Goblin 1: its Vitality bar \\(bar1\\) holds "${garbage.replace('.', '\\.')}", not a whole number`));
      table.close();
    }
  });

  it('refuses a player a token they do not control, selected or by --ids, applying to the rest', async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!damage 10', ['Bob', 'Goblin 1']);
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.attr('Bob', 'armor_physical')).toBe(98); // 10 x 80% = 8, all stopped; wear floor(8 x 25%) = 2
    expect(whispered(out, 'Alice').join('\n')).toMatch(/you do not control Goblin 1/i);
    const out2 = await table.say('Ben', `!damage 10 --ids ${table.id('Bob')}`);
    expect(whispered(out2, 'Ben').join('\n')).toMatch(/you do not control Bob/i);
  });

  it('lets players damage any token when the GM allows it', async () => {
    table = await openTable(mode);
    await table.say('GM', '!defense-round config players-target-any on');
    await table.say('Ben', `!damage 10 --ids ${table.id('Crate')}`);
    expect(table.bar('Crate')).toBe(10);
  });

  it('answers --help with a short card, whispered: the usage, then what it does', async () => {
    table = await openTable(mode);
    const out = await table.say('Ben', '!damage --help');
    expect(whispered(out, 'Ben')).toHaveLength(1);
    expect(whispered(out, 'Ben')[0]).toMatch(/^Help: !damage \| Usage: !damage N .* \| What it does: Applies one hit/);
  });

  it('answers --help for the undo on its own', async () => {
    table = await openTable(mode);
    const out = await table.say('Ben', '!damage --undo --help');
    expect(whispered(out, 'Ben')[0]).toMatch(/^Help: !damage --undo \| Usage: !damage --undo \[--entry KEY\] \[--force\] \| What it does: Puts back the last damage/);
  });

  it('answers --help for each !defense-round sub-command', async () => {
    table = await openTable(mode);
    for (const sub of ['help', 'config', 'set', 'repair', 'next-round', 'refresh', 'reset-state', 'details']) {
      const out = await table.say('GM', `!defense-round ${sub} --help`);
      expect(whispered(out, 'gm')).toEqual([expect.stringMatching(new RegExp(`^Help: !defense-round ${sub} \\| Usage: !defense-round ${sub}`))]);
    }
    // The general help names every sub-command.
    const all = await table.say('GM', '!defense-round --help');
    for (const sub of ['config', 'set', 'repair', 'next-round', 'refresh', 'reset-state', 'details']) expect(whispered(all, 'gm')[0]).toContain(sub);
  });

  it('keeps the GM\'s changes in the chat archive: set, repair, config, next-round (menus and help are not kept)', async () => {
    table = await openTable(mode);
    const results = [
      ...(await table.say('GM', '!defense-round set armor_physical 50', ['Goblin 1'])),
      ...(await table.say('GM', '!defense-round repair', ['Goblin 1'])),
      ...(await table.say('GM', '!defense-round config overwhelm-limit 15')),
      ...(await table.say('GM', '!defense-round next-round')),
    ].filter((record) => record.who === 'DefenseRound');
    expect(results).toHaveLength(4);
    for (const record of results) expect(record.noarchive).toBeFalsy();
    const help = (await table.say('GM', '!defense-round --help')).filter((record) => record.who === 'DefenseRound');
    expect(help.every((record) => record.noarchive === true)).toBe(true);
  });
});

describe.each(MODES)('the damage card (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('reads like the seed: soak, Physical, Defense, then Vitality, then the armor wear', async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!damage 200', ['Bob']);
    const breakdown = publicFromScript(out).join('\n');
    const order = ['200 x 80% soak = 160', '160 - 100 Physical = 60', '60 - 30 Defense = 30', 'Vitality 70 -> 40', 'Physical 100 -> 60'].map((line) =>
      breakdown.indexOf(line),
    );
    expect(order.every((at) => at >= 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('says the armor holds when a hit on an NPC takes no Vitality', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!damage 10', ['Goblin 1']);
    expect(publicFromScript(out)).toEqual(['Goblin 1 is hit, but the armor holds.']);
  });
});

describe.each(MODES)('!damage --to soul|power and --instant-kill (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('takes the whole amount off Soul, with no armor, even when Vitality is not a number', async () => {
    table = await openTable(mode);
    table.mock.token('Goblin 1').set('bar1_value', 'unknown');
    await table.say('GM', '!damage 4 --to soul', ['Goblin 1']);
    expect(table.bar('Goblin 1', 'bar2')).toBe(6);
    expect(table.bar('Goblin 1')).toBe('unknown');
    expect(table.markers('Goblin 1')).toEqual([]);
  });

  it.each([
    ['!damage 4 --to soul --type magical', /--type and --pierce mean nothing with --to soul/],
    ['!damage 4 --to power --pierce 10', /mean nothing with --to power/],
    ['!damage 4 --instant-kill', /--instant-kill takes no amount/i],
    ['!damage --instant-kill --type magical', /mean nothing with --instant-kill/],
  ])('refuses %s rather than ignoring a flag', async (command, problem) => {
    table = await openTable(mode);
    const out = await table.say('GM', command, ['Goblin 1']);
    expect(whispered(out, 'gm')[0]).toMatch(problem);
    expect(table.bar('Goblin 1')).toBe(30);
  });
});
