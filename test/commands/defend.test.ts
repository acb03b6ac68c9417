import { afterEach, describe, expect, it } from 'vitest';
import { MODES, openTable, publicFromScript, readable, texts, whispered, type Table } from '../support/table';

describe.each(MODES)('!defend and !stance (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('a successful defend blocks the next hit, and the breakdown says so', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    const out = await table.say('Alice', '!defend --action defend --roll 20', ['Bob']);
    expect(publicFromScript(out).join('\n')).toMatch(/Defend d100 20 vs 55.*success/i);
    const hit = await table.say('Alice', '!damage 200', ['Bob']);
    expect(table.bar('Bob')).toBe(70);
    expect(table.attr('Bob', 'armor_physical')).toBe(100);
    expect(publicFromScript(hit).join('\n')).toMatch(/Defense: Succeeded \(from !defend\): the hit is blocked/);
    // The pending defense is used up: the next hit lands.
    await table.say('Alice', '!damage 200', ['Bob']);
    expect(table.bar('Bob')).toBe(40);
  });

  it('a failed defend lets the hit land and offers a button that applies damage to that token', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!defend --action defend --roll 90', ['Goblin 1']);
    const button = out.find((r) => r.content.includes('!damage &#91;&#91;?{Damage}&#93;&#93; --ids'));
    expect(button?.content).toContain(`!damage &#91;&#91;?{Damage}&#93;&#93; --ids ${table.id('Goblin 1')}`);
    expect(readable(button!)).toContain(`!damage [[?{Damage}]] --ids ${table.id('Goblin 1')}`);
    expect(button?.whisperTo).toBe('gm'); // an NPC's details stay with the GM
    await table.say('GM', '!damage 30', ['Goblin 1']);
    // 30 x 90% = 27 - 20 = 7 - 5 = 2
    expect(table.bar('Goblin 1')).toBe(28);
  });

  it('--defense overrides the pending defense and uses it up', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    await table.say('Alice', '!defend --action defend --roll 20', ['Bob']);
    const out = await table.say('Alice', '!damage 200 --defense fail', ['Bob']);
    expect(table.bar('Bob')).toBe(40);
    expect(publicFromScript(out).join('\n')).toMatch(/Defense: Failed \(--defense\): the hit lands/);
    expect(table.memory('Bob')?.pendingDefense).toBeUndefined();
  });

  it('rolls through Roll20 when no roll is given', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    table.mock.dice.force(54);
    const out = await table.say('Alice', '!defend --action defend', ['Bob']);
    expect(publicFromScript(out).join('\n')).toMatch(/54/);
    // Filed with the action and situation it was made for (rules.md: it answers only an attack it fits).
    expect(table.memory('Bob').pendingDefense).toEqual({ result: 'success', action: 'defend', situation: 'front' });
  });

  it('an inline roll can be the --roll', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    table.mock.dice.force(99);
    await table.say('Alice', '!defend --action evade --roll [[1d100]]', ['Bob']);
    expect(table.memory('Bob').pendingDefense).toEqual({ result: 'fail', action: 'evade', situation: 'front' });
  });

  it('a roll typed as a plain number is shown as typed, not rolled; an inline roll and the script\'s own roll are not', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    const typed = await table.say('Alice', '!defend --action defend --roll 3', ['Bob']);
    expect(texts(typed).join('\n')).toMatch(/Rolls: typed, not rolled: --roll 3/);
    await table.say('GM', '!defense-round next-round');
    table.mock.dice.force(3);
    const inline = await table.say('Alice', '!defend --action defend --roll [[1d100]]', ['Bob']);
    expect(texts(inline).join('\n')).not.toMatch(/typed/);
    await table.say('GM', '!defense-round next-round');
    const rolled = await table.say('Alice', '!defend --action defend', ['Bob']);
    expect(texts(rolled).join('\n')).not.toMatch(/typed/);
    // The GM knows what the GM typed: not marked.
    const gm = await table.say('GM', '!defend --action defend --roll 1', ['Bob', 'Goblin 2']);
    expect(texts(gm).join('\n')).not.toMatch(/typed/);
    // A player's typed rolls on several targets: the cards' titles say it.
    await table.say('GM', '!defense-round next-round');
    table.mock.token('Goblin 2').set('controlledby', table.mock.player('Alice').id);
    const many = await table.say('Alice', '!defend --action defend --roll 1', ['Bob', 'Goblin 2']);
    expect(publicFromScript(many).join('\n')).toMatch(/Defense: 2 tokens \(typed, not rolled: --roll 1\)/);
  });

  it('applies the situation penalty (side -5) to the check', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    const out = await table.say('Alice', '!defend --action defend --situation side --roll 52', ['Bob']);
    expect(table.memory('Bob').pendingDefense).toEqual({ result: 'fail', action: 'defend', situation: 'side' });
    expect(publicFromScript(out).join('\n')).toMatch(/-5/);
  });

  it('a failed perception gate behind the defender means no defense', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    await table.say('Alice', '!defend --action defend --situation behind --perception-roll 80 --roll 1', ['Bob']);
    expect(table.memory('Bob').pendingDefense).toEqual({ result: 'fail', action: 'defend', situation: 'behind' });
  });

  it('refuses evading an area attack, saying defend is still possible, and keeps the pending defense', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    await table.say('Alice', '!defend --action defend --roll 1', ['Bob']);
    const out = await table.say('Alice', '!defend --action evade --situation aoe --roll 1', ['Bob']);
    expect(whispered(out, 'Alice').join('\n')).toMatch(/cannot be evaded.*--action defend/);
    expect(table.memory('Bob').pendingDefense).toEqual({ result: 'success', action: 'defend', situation: 'front' });
  });

  it('sets a stance with its marker, and reduces hits by 5% of Fortitude in the defensive stance', async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!stance defensive', ['Bob']);
    expect(table.markers('Bob')).toContain('bolt-shield');
    expect(texts(out).join('\n')).toMatch(/defensive stance/);
    await table.say('Alice', '!damage 200', ['Bob']);
    // 30 after Defense, - floor(60 x 5%) = 3 -> 27
    expect(table.bar('Bob')).toBe(43);
    await table.say('Alice', '!stance reactive', ['Bob']);
    expect(table.markers('Bob')).toEqual(['fist']);
    await table.say('Alice', '!stance none', ['Bob']);
    expect(table.markers('Bob')).toEqual([]);
  });

  it('shows the stances when no mode is given', async () => {
    table = await openTable(mode);
    await table.say('Alice', '!stance defensive', ['Bob']);
    const out = await table.say('Alice', '!stance', ['Bob']);
    expect(whispered(out, 'Alice')[0]).toMatch(/Bob: defensive/);
  });

  it('a counter needs the reactive stance and a successful reaction check against that attacker', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    const attacker = table.id('Goblin 1');
    const refused = await table.say('Alice', `!defend --action counter --vs ${attacker}`, ['Bob']);
    expect(whispered(refused, 'Alice').join('\n')).toMatch(/reactive stance/);
    await table.say('Alice', '!stance reactive', ['Bob']);
    const noReaction = await table.say('Alice', `!defend --action counter --vs ${attacker}`, ['Bob']);
    expect(whispered(noReaction, 'Alice').join('\n')).toMatch(/successful reaction check against Goblin 1|successful reaction check against/);
    await table.say('Alice', `!defend --action react --vs ${attacker} --roll 10`, ['Bob']);
    const again = await table.say('Alice', `!defend --action react --vs ${attacker} --roll 10`, ['Bob']);
    expect(whispered(again, 'Alice').join('\n')).toMatch(/already made your reaction check/);
    const counter = await table.say('Alice', `!defend --action counter --vs ${attacker}`, ['Bob']);
    expect(publicFromScript(counter).join('\n')).toMatch(/[Cc]ounter/);
  });

  it('per-round limits and pending defenses end when the Turn Tracker wraps around', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    const attacker = table.id('Goblin 1');
    await table.say('Alice', '!stance reactive', ['Bob']);
    await table.say('Alice', `!defend --action react --vs ${attacker} --roll 10`, ['Bob']);
    await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
    table.mock.nextTurn(); // Goblin 2
    await table.mock.settle();
    expect(table.memory('Bob').pendingDefense).toEqual({ result: 'success', action: 'defend', situation: 'front' });
    table.mock.nextTurn(); // back to the first entry (Bob): a new round
    await table.mock.settle();
    expect(table.memory('Bob').pendingDefense).toBeUndefined();
    await table.passTurn(); // Goblin 1 again: Bob may react anew this round
    const out = await table.say('Alice', `!defend --action react --vs ${attacker} --roll 10`, ['Bob']);
    expect(whispered(out, 'Alice')).toEqual([]);
    expect(table.memory('Bob').stance).toBe('reactive'); // a stance lasts until changed
  });

  it('the GM can end the round by hand', async () => {
    table = await openTable(mode);
    await table.passTurn(); // Goblin 1's turn: Bob is in his defensive round
    await table.say('Alice', '!defend --action defend --roll 10', ['Bob']);
    const out = await table.say('GM', '!defense-round next-round');
    expect(whispered(out, 'gm').join('\n')).toMatch(/Round 2 begins/);
    expect(table.memory('Bob')?.pendingDefense).toBeUndefined();
  });

  it.each([
    ['!stance flying', 'Alice', /unknown stance "flying"/i, /\[Help\]\(!stance --help\)$/],
    ['!defend --action fly', 'Alice', /--action must be one of defend, evade, react, counter, skill, save \(got "fly"\)/, /\[Help\]\(!defend --help\)$/],
    ['!defend', 'Alice', /^No action given: add --action defend\|evade\|react\|counter\|skill\|save\./, /\[Help\]\(!defend --help\)$/],
    ['!defend --action save', 'Alice', /no save is owed/i, /\[Help\]\(!defend --help\)$/],
    ['!defend --action defend --roll 0', 'Alice', /--roll must be from 1 to 100 \(got 0\)/, /\[Help\]\(!defend --help\)$/],
    ['!defend --action react --situation side', 'Alice', /--situation does not apply to --action react/, /\[Help\]\(!defend --help\)$/],
    ['!defend --action defend --hit 5', 'Alice', /Unknown flag --hit: Help lists the flags\./, /\[Help\]\(!defend --help\)$/],
    ['!defend --action defend --difficulty hard', 'Alice', /--difficulty means nothing in the soak edition/, /\[Help\]\(!defend --help\)$/],
  ])('refuses %s with a specific whisper and changes nothing', async (command, player, problem, usage) => {
    table = await openTable(mode);
    const before = JSON.stringify(table.stored());
    const out = await table.say(player as 'Alice', command, ['Bob']);
    const said = whispered(out, player).join('\n');
    expect(said).toMatch(problem);
    expect(said).toMatch(usage);
    expect(publicFromScript(out)).toEqual([]);
    expect(JSON.stringify(table.stored())).toBe(before);
    expect(table.markers('Bob')).toEqual([]);
  });

  it('a reaction, a counter or aid without --vs is a malformed command: the refusal offers the help', async () => {
    table = await openTable(mode);
    for (const line of ['!defend --action counter', '!defend --action react --roll 5', `!defend --action defend --aided-by ${table.id('Bob')}`]) {
      const out = await table.say('GM', line, ['Goblin 1']);
      expect(whispered(out, 'gm')).toEqual([expect.stringMatching(/needs --vs with the attacker's token id\. \[Help\]\(!defend --help\)$/)]);
    }
  });

  it('a token does not react to itself: --vs naming the target is refused for it', async () => {
    table = await openTable(mode);
    await table.say('Alice', '!stance reactive', ['Bob']);
    const out = await table.say('Alice', `!defend --action react --vs ${table.id('Bob')} --roll 5`, ['Bob']);
    expect(whispered(out, 'Alice')).toEqual(['Bob: --vs names the token itself. [Help](!defend --help)']);
    expect(table.memory('Bob')?.reactions).toBeUndefined();
  });

  it('refuses a check whose target attribute is missing, naming the attribute', async () => {
    table = await openTable(mode);
    const out = await table.say('GM', '!defend --action defend --roll 5', ['Crate']);
    // The crate has no character: it is told so, with the way to give it a value of its own.
    expect(whispered(out, 'gm')).toEqual(['Crate: cannot roll this check: it represents no character and has no defend_check of its own (!defense-round set defend_check N). [Help](!defend --help)']);
    table.mock.attribute('Goblin', 'defend_check').remove();
    await table.say('GM', '!defense-round refresh');
    const goblin = await table.say('GM', '!defend --action defend --roll 5', ['Goblin 1']);
    expect(whispered(goblin, 'gm').join('\n')).toMatch(/its character has no number in the attribute "defend_check"/);
  });
});

describe.each(MODES)('!stance with no mode (%s)', (mode) => {
  let table: Table;
  afterEach(() => table?.close());

  it('answers with its help when nothing is selected', async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!stance');
    expect(whispered(out, 'Alice')[0]).toEqual('No stance given: !stance defensive|reactive|none. [Help](!stance --help)');
  });

  it('shows the selected tokens\' stances, with how to change one', async () => {
    table = await openTable(mode);
    const out = await table.say('Alice', '!stance', ['Bob']);
    expect(whispered(out, 'Alice')[0]).toBe('Stances: Bob: none. To change one: !stance defensive|reactive|none');
  });
});
