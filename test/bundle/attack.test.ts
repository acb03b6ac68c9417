// `!attack` on the bundle (commands.md, "!attack"): in each edition an attack's result on the table
// is exactly what the same `!defend` + `!damage` would have made (a full round, and a property over
// random attacks and answers with the same dice); prompts offer only what the rules allow now;
// answers are their controllers' and once; an open attack survives a restart; `state` stays small.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';
import type { MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

type EditionName = 'soak' | 'threshold' | 'opposed';
const TOKENS = ['Bob', 'Goblin 1', 'Goblin 2', 'Goblin 3'] as const;

/** A third goblin beside the demo's, out of the Turn Tracker (a defender who never acts). */
function goblin3(mock: MockRoll20, scene: DemoScene): void {
  mock.create('graphic', {
    subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Goblin 3', represents: scene.characters.Goblin,
    bar1_value: 30, bar1_max: 30, bar2_value: 10, bar2_max: 10, bar3_value: 10, bar3_max: 10, imgsrc: String(mock.token('Goblin 1').get('imgsrc')),
  });
}

/**
 * The demo table in an edition, a turn on (Goblin 1 acting, the attacker), with a third goblin; with
 * `turns` false, no Turn Tracker (rules.md, "Out of turn": Bob attacks out of turn only then).
 */
async function tableIn(edition: EditionName, setup?: (mock: MockRoll20, scene: DemoScene) => void, seed = 11, turns = true): Promise<Table> {
  const table = await openTable('bundle', {
    seed,
    setup: (mock, scene) => {
      goblin3(mock, scene);
      setup?.(mock, scene);
    },
  });
  if (edition !== 'soak') await table.say('GM', `!defense-round config edition ${edition}`);
  await table.passTurn();
  if (!turns) table.mock.setTurnOrder([]);
  return table;
}

/** What the table holds: every bar, marker and memory of the tokens, Bob's sheet, the Turn Tracker, and the undo record's changes. */
function tableOf(table: Table) {
  const stored = table.stored();
  return {
    tokens: TOKENS.map((name) => ({ name, bars: [table.bar(name), table.bar(name, 'bar2'), table.bar(name, 'bar3')], markers: table.markers(name), memory: table.memory(name) })),
    bob: ['vitality', 'armor_physical', 'armor_magical'].map((name) => table.attr('Bob', name)),
    turnOrder: table.mock.turnOrder().map((entry) => [entry.id, entry.pr]),
    undo: stored.history.flatMap((entry: any) => entry.tokens.map((token: any) => ({ tokenId: token.tokenId, changes: withoutAnswers(token.changes) })).filter((token: any) => token.changes.length > 0)),
  };
}

/**
 * An undo record's changes without the answers on file: `!defend` files its defense and the hit
 * takes it (a change undo puts back), where an attack's answer is read by its hit and never filed
 * (undoing the attack gives no defense back). The rest of the record is the same.
 */
function withoutAnswers(changes: any[]): any[] {
  return changes.filter((change) => change.kind !== 'answer');
}

/** The answers of one attack: per defender, its answer word and roll, or nothing (it does not answer). */
interface Answer {
  token: (typeof TOKENS)[number];
  word: string;
  roll: number;
  /** soak: the perception check's roll where one comes first, and the Mental check's of an Evade against an unseen spell. */
  perception?: number;
  mental?: number;
}

/** soak: the situations whose perception check comes first (The Defensive Round's table). */
const PERCEIVED = ['behind', 'distracted', 'covert', 'spectator'];

/**
 * soak: the dice flags an answer gives, and the situation its `!defend` is made in (an area
 * attack's `--edge` defenders meet it on its farthest reach); the hit as `!damage` takes it.
 */
function soakAnswer(table: Table, hit: string, answer: Answer): { situation: string | undefined; dice: string; damage: string } {
  const declared = / --situation (\S+)/.exec(hit)?.[1];
  const edge = / --edge (\S+)/.exec(hit)?.[1];
  const situation = declared === 'aoe' && edge === table.id(answer.token) ? 'aoe-edge' : declared;
  const perception = situation !== undefined && PERCEIVED.includes(situation) && answer.perception !== undefined ? ` --perception-roll ${answer.perception}` : '';
  const mental = situation === 'spell-unseen' && answer.word === 'evade' && answer.mental !== undefined ? ` --mental-roll ${answer.mental}` : '';
  return { situation, dice: `${perception}${mental}`, damage: hit.replace(/ --(situation|perception-mod|edge) \S+/g, '') };
}

/** threshold: the situations whose defense is a React check, and those whose perceive check comes first (The Defensive Turn's table). */
const REACTED = ['projectile', 'spell-fast', 'spell-invisible'];
const PERCEIVES = ['behind', 'distracted', 'covert', 'spectator'];

/** threshold: the perceive check's roll an answer gives where one comes first. */
function thresholdDice(hit: string, answer: Answer): string {
  const situation = / --situation (\S+)/.exec(hit)?.[1];
  return situation !== undefined && PERCEIVES.includes(situation) && answer.perception !== undefined ? ` --perception-roll ${answer.perception}` : '';
}

/** The attack flow: declared by the GM from Goblin 1, answered, resolved by the GM. */
async function viaAttack(table: Table, edition: EditionName, hit: string, defenders: readonly string[], answers: readonly Answer[]) {
  const flag = edition === 'opposed' ? 'mode' : 'action';
  hit = hit.replace('EDGE', table.id('Bob'));
  await table.say('GM', `!attack ${hit} --ids ${defenders.map((name) => table.id(name)).join(' ')}`, ['Goblin 1']);
  for (const answer of answers) {
    const { token, word, roll } = answer;
    const who = token === 'Bob' ? 'Alice' : 'GM';
    const dice = edition === 'soak' ? soakAnswer(table, hit, answer).dice : edition === 'threshold' ? thresholdDice(hit, answer) : '';
    await table.say(who, `!defend --answer A1 --ids ${table.id(token)} --${flag} ${word}${word === 'none' ? '' : ` --roll ${roll}${dice}`}`);
  }
  if (table.stored().exchange.attacks.A1) await table.say('GM', '!attack --resolve A1');
}

/** The same by hand: each answer as a `!defend` made ahead, then `!damage` (opposed: its mode and roll on each defender's `!damage`). */
async function byHand(table: Table, edition: EditionName, hit: string, defenders: readonly string[], answers: readonly Answer[]) {
  if (edition === 'opposed') {
    for (const name of defenders) {
      const answer = answers.find((candidate) => candidate.token === name);
      const mode = answer ? ` --defense-mode ${answer.word} --defense-roll ${answer.roll}` : '';
      await table.say('GM', `!damage ${hit}${mode} --ids ${table.id(name)}`);
    }
    return;
  }
  hit = hit.replace('EDGE', table.id('Bob'));
  if (edition === 'soak') {
    // The same dice: the answer's Mental check is `--mental`'s, the attack's perception penalty `--perception-mod`'s.
    const mod = / --perception-mod (\S+)/.exec(hit)?.[1];
    for (const answer of answers) {
      if (answer.word === 'none') continue;
      const { situation, dice } = soakAnswer(table, hit, answer);
      const flags = `${situation ? ` --situation ${situation}` : ''}${dice.replace(' --mental-roll', ' --mental --mental-roll')}${mod ? ` --perception-mod ${mod}` : ''}`;
      await table.say(answer.token === 'Bob' ? 'Alice' : 'GM', `!defend --action ${answer.word} --roll ${answer.roll}${flags} --ids ${table.id(answer.token)}`);
    }
    await table.say('GM', `!damage ${soakAnswer(table, hit, answers[0] ?? { token: 'Bob', word: 'none', roll: 1 }).damage} --ids ${defenders.map((name) => table.id(name)).join(' ')}`);
    return;
  }
  // The attack's own flags reach each `!defend` (the difficulty, the perception penalty); `!damage` takes the rest.
  const own = [...hit.matchAll(/ --(difficulty|perception-mod) (\S+)/g)].map((match) => match[0]).join('');
  for (const answer of answers) {
    const { token, word, roll } = answer;
    if (word === 'none') continue;
    const who = token === 'Bob' ? 'Alice' : 'GM';
    const situation = / --situation (\S+)/.exec(hit)?.[1];
    // The Defensive Turn: against a projectile or a fast or invisible spell the defense is a React check, rolled with --react-roll.
    const rollFlag = edition === 'threshold' && situation !== undefined && REACTED.includes(situation) ? 'react-roll' : 'roll';
    await table.say(who, `!defend --action ${word} --${rollFlag} ${roll}${thresholdDice(hit, answer)}${situation ? ` --situation ${situation}` : ''}${own} --ids ${table.id(token)}`);
  }
  await table.say('GM', `!damage ${hit.replace(/ --(difficulty|perception-mod) \S+/g, '')} --ids ${defenders.map((name) => table.id(name)).join(' ')}`);
}

describe('an attack leaves the table exactly as the same !defend + !damage would', () => {
  const open: Table[] = [];
  afterEach(() => {
    for (const table of open.splice(0)) table.close();
  });

  async function both(edition: EditionName, hit: string, defenders: readonly string[], answers: readonly Answer[], setup?: (mock: MockRoll20, scene: DemoScene) => void) {
    const attackTable = await tableIn(edition, setup);
    const handTable = await tableIn(edition, setup);
    open.push(attackTable, handTable);
    await viaAttack(attackTable, edition, hit, defenders, answers);
    await byHand(handTable, edition, hit, defenders, answers);
    return { attack: tableOf(attackTable), hand: tableOf(handTable), attackTable };
  }

  it('soak, a full round: Bob evades (success), Goblin 2 defends (failure), Goblin 3 does not answer; the GM resolves', async () => {
    const { attack, hand, attackTable } = await both('soak', '40', ['Bob', 'Goblin 2', 'Goblin 3'], [
      { token: 'Bob', word: 'evade', roll: 30 },
      { token: 'Goblin 2', word: 'defend', roll: 90 },
    ]);
    expect(attack).toEqual(hand);
    // Bob's evade blocked the hit; the goblins took it (40 x 90% soak = 36, - 20 Physical = 16, - 5 Defense = 11).
    expect(attackTable.attr('Bob', 'vitality')).toBe(70);
    expect(attackTable.bar('Goblin 2')).toBe(19);
    expect(attackTable.bar('Goblin 3')).toBe(19);
    expect(attackTable.stored().exchange.attacks).toEqual({});
  });

  it('threshold, a full round, The Defensive Turn\'s example for Bob: Defend d100 55 vs 55 succeeds, hit 19 beats Physical 18, 20 - 10 = 10, Vitality 30 -> 20', async () => {
    const sheet = (mock: MockRoll20) => {
      for (const [name, value] of Object.entries({ vitality: 30, armor_defense: 10, armor_physical: 18 })) mock.attribute('Bob', name).set('current', value);
    };
    const { attack, hand, attackTable } = await both('threshold', '20 --hit 19', ['Bob', 'Goblin 2', 'Goblin 3'], [
      { token: 'Bob', word: 'defend', roll: 55 },
      { token: 'Goblin 2', word: 'defend', roll: 99 },
    ], sheet);
    expect(attack).toEqual(hand);
    expect(attackTable.attr('Bob', 'vitality')).toBe(20);
    // The goblins' Physical Armor 20: a hit chance of 19 does not beat it.
    expect(attackTable.bar('Goblin 2')).toBe(30);
  });

  it('opposed, a full round: Bob defends actively (d20 8), Goblin 2 fully (d20 12), Goblin 3 does not answer (its stance, its own d20)', async () => {
    const { attack, hand, attackTable } = await both('opposed', '8 --attack 24', ['Bob', 'Goblin 2', 'Goblin 3'], [
      { token: 'Bob', word: 'active', roll: 8 },
      { token: 'Goblin 2', word: 'full', roll: 12 },
    ]);
    expect(attack).toEqual(hand);
    // Bob's active defense cost 5 initiative (15 -> 10), Goblin 2's full 10 (8 -> -2).
    expect(attackTable.mock.turnOrder().find((entry) => entry.id === attackTable.id('Bob'))?.pr).toBe(10);
  });

  // The Defensive Round's situations, with dice that decide each (issue 32): the Mental check (Bob 30 against Evade 45 - 12,
  // Goblin 2 12 against 35 with a critical Mental), the attack's perception penalty (Perception 50 - 10 = 40 against 45,
  // 35 - 10 = 25 against 20), the area's edge (Evade 45 against 45), from behind (52 against Defend 55 - 5; 30 against 40 - 5).
  it.each([
    ['200 --situation spell-unseen', [{ token: 'Bob', word: 'evade', roll: 30, mental: 10 }, { token: 'Goblin 2', word: 'evade', roll: 12, mental: 1 }]],
    ['200 --situation covert --perception-mod -10', [{ token: 'Bob', word: 'defend', roll: 10, perception: 45 }, { token: 'Goblin 2', word: 'defend', roll: 10, perception: 20 }]],
    ['200 --situation aoe --edge EDGE', [{ token: 'Bob', word: 'evade', roll: 45 }, { token: 'Goblin 2', word: 'defend', roll: 30 }]],
    ['200 --situation behind', [{ token: 'Bob', word: 'defend', roll: 52, perception: 30 }, { token: 'Goblin 2', word: 'defend', roll: 30, perception: 10 }]],
  ] as Array<[string, Answer[]]>)('soak, !attack %s: the same table as !defend + !damage', async (hit, answers) => {
    const { attack, hand, attackTable } = await both('soak', hit, ['Bob', 'Goblin 2', 'Goblin 3'], answers);
    expect(attack).toEqual(hand);
    expect(attackTable.stored().exchange.attacks).toEqual({});
  });

  // The Defensive Turn's situations, with dice that decide each (issue 32), Bob on the text's sheet (Physical Armor 18, hit 25
  // beats it and the goblins' 20): the attack's difficulty (impossible: Perception 50 / 4 - 10 = 2 against 10, where hard
  // would be 15; React 50 / 4 = 12 against 20, where hard would be 25), a spectator's perception penalty (50 + 10 = 60 against 55).
  it.each([
    ['20 --hit 25 --situation covert --difficulty impossible --perception-mod -10', [{ token: 'Bob', word: 'defend', roll: 10, perception: 10 }, { token: 'Goblin 2', word: 'defend', roll: 10, perception: 1 }]],
    ['20 --hit 25 --situation spell-fast --difficulty impossible', [{ token: 'Bob', word: 'defend', roll: 20 }, { token: 'Goblin 2', word: 'defend', roll: 5 }]],
    ['20 --hit 25 --situation spectator --perception-mod 10', [{ token: 'Bob', word: 'defend', roll: 10, perception: 55 }, { token: 'Goblin 2', word: 'defend', roll: 10, perception: 40 }]],
  ] as Array<[string, Answer[]]>)('threshold, !attack %s: the same table as !defend + !damage', async (hit, answers) => {
    const sheet = (mock: MockRoll20) => {
      for (const [name, value] of Object.entries({ vitality: 30, armor_defense: 10, armor_physical: 18 })) mock.attribute('Bob', name).set('current', value);
    };
    const { attack, hand, attackTable } = await both('threshold', hit, ['Bob', 'Goblin 2', 'Goblin 3'], answers, sheet);
    expect(attack).toEqual(hand);
    expect(attackTable.stored().exchange.attacks).toEqual({});
  });

  it.each(['soak', 'threshold', 'opposed'] as const)('property: random attacks and answers in %s leave the same table (same dice)', async (edition) => {
    const words = edition === 'soak' ? ['defend', 'evade', 'none'] : edition === 'threshold' ? ['defend', 'none'] : ['passive', 'active', 'full'];
    const hits =
      edition === 'soak'
        ? fc.tuple(fc.integer({ min: 0, max: 300 }), fc.constantFrom('', ' --situation aoe', ' --situation side', ' --type magical', ' --pierce 50', ' --situation spell-unseen', ' --situation behind', ' --situation covert --perception-mod -10', ' --situation aoe --edge EDGE')).map(([n, rest]) => `${n}${rest}`)
        : edition === 'threshold'
          ? fc.tuple(fc.integer({ min: 0, max: 60 }), fc.integer({ min: -5, max: 40 }), fc.constantFrom('', ' --situation side', ' --situation projectile', ' --situation behind', ' --situation aoe', ' --situation spell-fast --difficulty impossible', ' --situation covert --difficulty impossible --perception-mod -10', ' --situation spectator --perception-mod 10')).map(([n, h, rest]) => `${n} --hit ${h}${rest}`)
          : fc.tuple(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 1, max: 40 }), fc.constantFrom('', ' --ap 5')).map(([n, a, rest]) => `${n} --attack ${a}${rest}`);
    const answer = (token: (typeof TOKENS)[number]) =>
      fc.option(fc.record({ token: fc.constant(token), word: fc.constantFrom(...words), roll: fc.integer({ min: 1, max: edition === 'opposed' ? 20 : 100 }), perception: fc.integer({ min: 1, max: 100 }), mental: fc.integer({ min: 1, max: 100 }) }), { nil: undefined });
    await fc.assert(
      fc.asyncProperty(hits, answer('Bob'), answer('Goblin 2'), answer('Goblin 3'), async (hit, ...maybe) => {
        const answers: Answer[] = maybe.filter((entry) => entry !== undefined);
        const { attack, hand } = await both(edition, hit, ['Bob', 'Goblin 2', 'Goblin 3'], answers);
        for (const table of open.splice(0)) table.close();
        expect(attack).toEqual(hand);
      }),
      { numRuns: edition === 'opposed' ? 12 : 30, seed: 20261201 },
    );
  }, 60_000);
});

describe('prompts, answers and the attack\'s life', () => {
  let table: Table;
  afterEach(() => table?.close());
  const all = (out: Parameters<typeof texts>[0]) => texts(out).join('\n');
  const contents = (out: Array<{ content: string }>) => out.map((record) => record.content).join('\n');

  it('offers only what the rules allow now, and says why not: no evade against an area attack, nothing for the incapacitated', async () => {
    table = await tableIn('soak', (mock) => mock.token('Goblin 3').set('bar1_value', -3));
    // Goblin 3 falls to -3 by hand: incapacitated.
    const out = await table.say('GM', `!attack 40 --situation aoe --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    const alice = whispered(out, 'Alice').join('\n');
    expect(alice).toMatch(/Defend \(55\)/);
    expect(alice).not.toMatch(/\[Evade/);
    expect(alice).toMatch(/Evade: /);
    expect(contents(out)).not.toContain(`--ids ${table.id('Bob')} --action evade`);
    expect(contents(out)).toContain(`--ids ${table.id('Bob')} --action none`);
    // An incapacitated defender is offered no defense but "No defense".
    table.mock.userEdit(table.mock.token('Goblin 3'), { bar1_value: -3 });
    await table.mock.settle();
    const down = await table.say('GM', `!attack 10 --ids ${table.id('Goblin 3')}`, ['Goblin 1']);
    expect(contents(down)).not.toContain(`--ids ${table.id('Goblin 3')} --action defend`);
    expect(contents(down)).toContain(`--ids ${table.id('Goblin 3')} --action none`);
  });

  it('opposed: a mode the overwhelm limit refuses now is not offered (Bob at 10, the current turn at 25, limit 20: full would leave 0)', async () => {
    table = await tableIn('opposed');
    const order = table.mock.turnOrder().map((entry) => ({ ...entry, pr: entry.id === table.id('Bob') ? 10 : entry.id === table.id('Goblin 1') ? 25 : entry.pr }));
    table.mock.setTurnOrder(order);
    const out = await table.say('GM', `!attack 8 --attack 24 --ids ${table.id('Bob')}`, ['Goblin 1']);
    expect(contents(out)).toContain('--mode active');
    expect(contents(out)).not.toContain('--mode full');
    expect(whispered(out, 'Alice').join('\n')).toMatch(/Full: full defense costs 10 initiative, more than the overwhelm limit allows now/);
  });

  it('opposed: an answer that names a mode the overwhelm limit refuses is refused, naming the cost; the attack stays open', async () => {
    table = await tableIn('opposed');
    const order = table.mock.turnOrder().map((entry) => ({ ...entry, pr: entry.id === table.id('Bob') ? 10 : entry.id === table.id('Goblin 1') ? 25 : entry.pr }));
    table.mock.setTurnOrder(order);
    await table.say('GM', `!attack 8 --attack 24 --ids ${table.id('Bob')}`, ['Goblin 1']);
    const out = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --mode full --roll 10`);
    expect(whispered(out, 'Alice').join('\n')).toMatch(/full defense costs 10 initiative, more than the overwhelm limit allows now/);
    expect(Object.keys(table.stored().exchange.attacks)).toEqual(['A1']);
  });

  it('a player answers only for her own token, once; never for a resolved or cancelled attack', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 40 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    const theirs = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action defend`);
    expect(whispered(theirs, 'Alice').join('\n')).toMatch(/only Goblin 2's controller or the GM answers for it/i);
    const first = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action evade --roll 30`);
    expect(whispered(first, 'Alice').join('\n')).toMatch(/Bob: Evade d100 30 vs 45: success.*Waiting for Goblin 2/);
    const twice = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action defend --roll 1`);
    expect(whispered(twice, 'Alice').join('\n')).toMatch(/Bob has answered attack A1 already \(evade\)/);
    await table.say('GM', '!attack --cancel A1');
    const late = await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action none`);
    expect(whispered(late, 'gm').join('\n')).toMatch(/no open attack A1/i);
    expect(table.bar('Goblin 2')).toBe(30);
  });

  it('a restart mid-attack loses nothing: the answer given before it counts when the attack resolves', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 40 --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action evade --roll 30`);
    await table.restart();
    expect(Object.keys(table.stored().exchange.attacks)).toEqual(['A1']);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action none`);
    expect(table.attr('Bob', 'vitality')).toBe(70);
    expect(table.bar('Goblin 2')).toBe(19);
  });

  it('the attacker is no defender of its own attack; an attack on it alone is refused, naming why', async () => {
    table = await tableIn('soak');
    const out = await table.say('GM', `!attack 40 --ids ${table.id('Goblin 1')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    expect(table.stored().exchange.attacks.A1.defenders).toEqual([table.id('Goblin 2')]);
    expect(whispered(out, 'gm').join('\n')).toMatch(/Goblin 1: the attacker does not defend against itself/);
    const alone = await table.say('GM', `!attack 40 --ids ${table.id('Goblin 1')}`, ['Goblin 1']);
    expect(whispered(alone, 'gm').join('\n')).toMatch(/No defender left \(Goblin 1: the attacker does not defend against itself\)/);
    expect(Object.keys(table.stored().exchange.attacks)).toEqual(['A1']);
  });

  it('one attack has at most 100 defenders: more is refused with the count, nothing declared', async () => {
    table = await tableIn('soak', (mock, scene) => {
      for (let i = 0; i < 101; i += 1) mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: `Raider ${i}`, represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
    });
    const raiders = table.mock.globals.findObjs({ _type: 'graphic' }).filter((token) => String(token.get('name')).startsWith('Raider ')).map((token) => token.id);
    expect(raiders).toHaveLength(101);
    const out = await table.say('GM', `!attack 40 --ids ${raiders.join(' ')}`, ['Goblin 1']);
    expect(whispered(out, 'gm').join('\n')).toMatch(/One attack has at most 100 defenders \(got 101\)/);
    expect(table.stored().exchange.attacks).toEqual({});
  });

  it('a stored attack counter below an attack still open is raised at load: no new attack takes its key', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 40 --ids ${table.id('Goblin 2')}`, ['Goblin 1']);
    table.mock.state.DefenseRound.exchange.lastAttack = 0; // lost or tampered
    await table.restart();
    await table.say('GM', `!attack 10 --ids ${table.id('Goblin 3')}`, ['Goblin 1']);
    expect(Object.keys(table.stored().exchange.attacks).sort()).toEqual(['A1', 'A2']);
    expect(table.stored().exchange.attacks.A1.positionals).toEqual(['40']);
  });

  it('the declarer\'s undo takes the whole attack back; the attack does not reopen', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 40 --ids ${table.id('Goblin 2')} ${table.id('Goblin 3')}`, ['Goblin 1']);
    await table.say('GM', '!attack --resolve A1');
    expect(table.bar('Goblin 2')).toBe(19);
    const undone = await table.say('GM', '!damage --undo');
    expect(all(undone)).toMatch(/Damage undone: Goblin 2, Goblin 3/);
    expect([table.bar('Goblin 2'), table.bar('Goblin 3')]).toEqual([30, 30]);
    expect(table.stored().exchange.attacks).toEqual({});
  });

  it('a player declares only from her own token; her attack on an NPC waits for the GM to settle it', async () => {
    table = await tableIn('soak', undefined, 11, false);
    const notHers = await table.say('Alice', `!attack 10 --ids ${table.id('Goblin 2')}`, ['Goblin 1']);
    expect(whispered(notHers, 'Alice').join('\n')).toMatch(/you do not control Goblin 1/i);
    await table.say('Alice', `!attack 10 --ids ${table.id('Goblin 2')}`, ['Bob']);
    const early = await table.say('Alice', '!attack --resolve A1');
    expect(whispered(early, 'Alice').join('\n')).toMatch(/waits for the GM to settle Goblin 2/);
    expect(table.bar('Goblin 2')).toBe(30);
    await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action none`);
    expect(table.bar('Goblin 2')).toBe(30 - Math.max(0, 9 - 20));
  });

  it('--list, the round\'s end reminder, and an edition switch that cancels what is open', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 10 --ids ${table.id('Goblin 2')}`, ['Goblin 1']);
    const listed = await table.say('GM', '!attack --list');
    expect(all(listed)).toMatch(/Attack A1 \(GM\): Goblin 1 attacks.*Waiting for: Goblin 2/s);
    const round = await table.say('GM', '!defense-round next-round');
    expect(contents(round)).toContain('!attack --resolve A1');
    const switched = await table.say('GM', '!defense-round config edition threshold');
    expect(all(switched)).toMatch(/Open attack cancelled: A1/);
    expect(table.stored().exchange.attacks).toEqual({});
  });

  it('state stays under 100 KB with 20 open attacks of 50 defenders; a 21st is refused', async () => {
    table = await tableIn('soak', (mock, scene) => {
      for (let i = 0; i < 50; i += 1) {
        mock.create('graphic', { subtype: 'token', pageid: scene.pageId, layer: 'objects', name: `Horde ${i}`, represents: scene.characters.Goblin, bar1_value: 30, bar1_max: 30 });
      }
    });
    const horde = Array.from({ length: 50 }, (_, i) => table.id(`Horde ${i}`)).join(' ');
    // Each a few seconds after the last (the same attack again at once is a double click, refused).
    for (let i = 0; i < 20; i += 1) {
      await table.say('GM', `!attack [[2d6+3]] --ids ${horde}`, ['Goblin 1']);
      table.mock.advance(5000);
    }
    // Half of each horde answers (no defense): the answers are kept too.
    for (let i = 0; i < 25; i += 1) await table.say('GM', `!defend --answer A1 --ids ${table.id(`Horde ${i}`)} --action defend --roll 99`);
    expect(Object.keys(table.stored().exchange.attacks)).toHaveLength(20);
    expect(JSON.stringify(table.stored()).length).toBeLessThan(100_000);
    const more = await table.say('GM', `!attack 5 --ids ${horde}`, ['Goblin 1']);
    expect(whispered(more, 'gm').join('\n')).toMatch(/20 attacks are open already.*!attack --list/);
  }, 30_000);

  it('!defense-round macros makes the docs\' macros for the edition, refreshes its own, and leaves one the GM made by hand', async () => {
    table = await tableIn('soak');
    table.mock.create('macro', { name: 'DR-Undo', action: '!my-own-undo', visibleto: '', istokenaction: false, _playerid: table.scene.players.GM });
    const made = await table.say('GM', '!defense-round macros');
    expect(all(made)).toMatch(/made DR-Attack, DR-Attack-Group, DR-Damage, DR-Defend, DR-Stance; left DR-Undo as they are/);
    const macro = (name: string) => (table.mock.globals.findObjs({ _type: 'macro', name }) as any[]).map((m) => ({ action: table.mock.peek(m, 'action'), visibleto: table.mock.peek(m, 'visibleto'), istokenaction: table.mock.peek(m, 'istokenaction') }));
    expect(macro('DR-Attack')).toEqual([{ action: expect.stringMatching(/^!attack \[\[\?\{Damage/), visibleto: 'all', istokenaction: true }]);
    expect(macro('DR-Damage')).toEqual([{ action: expect.stringMatching(/^!damage /), visibleto: '', istokenaction: true }]);
    expect(macro('DR-Undo')).toEqual([{ action: '!my-own-undo', visibleto: '', istokenaction: false }]);
    // A switch to another edition refreshes the script's own macros in place.
    await table.say('GM', '!defense-round config edition opposed');
    const again = await table.say('GM', '!defense-round macros');
    expect(all(again)).toMatch(/refreshed DR-Attack, DR-Attack-Group, DR-Damage, DR-Stance/);
    expect(macro('DR-Attack')).toEqual([{ action: expect.stringMatching(/--attack \[\[1d20/), visibleto: 'all', istokenaction: true }]);
    const menu = await table.say('GM', '!defense-round');
    expect(contents(menu)).toContain('!defense-round macros');
  });

  it('tells the players nothing of what they cannot see: a hidden attacker is unseen, a hidden defender is not named', async () => {
    table = await tableIn('soak', (mock) => {
      mock.token('Goblin 1').set('layer', 'gmlayer');
      mock.token('Goblin 3').set('layer', 'gmlayer');
    });
    const out = await table.say('GM', `!attack 10 --ids ${table.id('Bob')} ${table.id('Goblin 3')}`, ['Goblin 1']);
    const seen = [...texts(out.filter((record) => !record.whisperTo)), ...whispered(out, 'Alice')].join('\n');
    expect(seen).toMatch(/Attack A1: An unseen attacker attacks Bob\./);
    expect(seen).not.toMatch(/Goblin/);
    expect(contents(out.filter((record) => record.whisperTo === 'Alice'))).not.toContain(table.id('Goblin 1'));
    const answered = await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action none`);
    expect(whispered(answered, 'Alice').join('\n')).not.toMatch(/Waiting|others|the GM/);
    expect(whispered(answered, 'Alice').join('\n')).not.toMatch(/Goblin/);
  });

  it('the players\' attacks never fill the GM\'s room: five open at most for one player', async () => {
    table = await tableIn('soak', undefined, 11, false);
    // Each a few seconds after the last (the same attack again at once is a double click, refused).
    for (let i = 0; i < 5; i += 1) {
      await table.say('Alice', `!attack 5 --ids ${table.id('Goblin 2')}`, ['Bob']);
      table.mock.advance(5000);
    }
    const sixth = await table.say('Alice', `!attack 5 --ids ${table.id('Goblin 2')}`, ['Bob']);
    expect(whispered(sixth, 'Alice').join('\n')).toMatch(/you have enough attacks open/i);
    const gm = await table.say('GM', `!attack 5 --ids ${table.id('Bob')}`, ['Goblin 1']);
    expect(all(gm)).toMatch(/Attack A6: Goblin 1 attacks Bob/);
  });

  it('a defense made ahead answers a player\'s attack on an NPC, but the GM settles it (rules.md, section 5)', async () => {
    table = await tableIn('soak', undefined, 11, false);
    await table.say('GM', `!defend --action defend --roll 5 --ids ${table.id('Goblin 2')}`);
    const declared = await table.say('Alice', `!attack 40 --ids ${table.id('Goblin 2')}`, ['Bob']);
    expect(all(declared)).toMatch(/Answered by the defense it made ahead/);
    expect(table.stored().exchange.attacks.A1).toBeDefined();
    const early = await table.say('Alice', '!attack --resolve A1');
    expect(whispered(early, 'Alice').join('\n')).toMatch(/waits for the GM to settle Goblin 2/);
    const settled = await table.say('GM', '!attack --resolve A1');
    expect(all(settled)).toMatch(/Goblin 2 blocks the hit/);
    expect(table.bar('Goblin 2')).toBe(30);
    expect(table.memory('Goblin 2')?.pendingDefense).toBeUndefined();
  });

  it('each result row says how its defender answered: the check\'s roll and result, or that no check was made', async () => {
    table = await tableIn('soak');
    await table.say('GM', `!attack 40 --situation behind --ids ${table.id('Bob')} ${table.id('Goblin 2')}`, ['Goblin 1']);
    // The evade's d100 comes first, then the perception check's: Bob fails the perception check behind him, so no evade is made.
    table.mock.dice.force(10, 99);
    await table.say('Alice', `!defend --answer A1 --ids ${table.id('Bob')} --action evade`);
    table.mock.dice.force(5);
    const out = await table.say('GM', `!defend --answer A1 --ids ${table.id('Goblin 2')} --action defend --roll 5`);
    expect(all(out)).toMatch(/Bob: Evade: no check was made; /);
    // The GM's answer resolved it: its row says the check as the answer's line would have.
    expect(all(out)).toMatch(/Goblin 2: Perception d100 5 vs 35: success; .*Defend d100 5 vs 40 - 5 = 35: success; blocks the hit\./);
  });
});
