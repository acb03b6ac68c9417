// The exchange's time limit and nudge on the bundle (issue 33, "Time limit and nudge"; commands.md,
// "!attack"): `answer-timeout SECONDS` resolves an attack still waiting that long after its
// declaration, as the GM's Resolve now would, its rows saying who did not answer in time; never
// before, never one answered, resolved, cancelled or switched away; across a restart; 0 is off.
// `ping-defenders on` pings each prompted defender's token for its controllers only. Each failed on
// the bundle before (DEFENSE_ROUND_BUNDLE=old bundle).
import { afterEach, describe, expect, it } from 'vitest';
import { openTable, texts, whispered, type Table } from '../support/table';
import type { ChatRecord, MockRoll20 } from '../../mocks/roll20';
import type { DemoScene } from '../../mocks/scene';

const all = (records: ChatRecord[]) => texts(records).join('\n');
const publicOnes = (records: ChatRecord[]) => records.filter((record) => record.whisperTo === undefined);

/** A third goblin beside the demo's, out of the Turn Tracker. */
function goblin3(mock: MockRoll20, scene: DemoScene): void {
  mock.create('graphic', {
    subtype: 'token', pageid: scene.pageId, layer: 'objects', name: 'Goblin 3', represents: scene.characters.Goblin,
    bar1_value: 30, bar1_max: 30, bar2_value: 10, bar2_max: 10, bar3_value: 10, bar3_max: 10, imgsrc: String(mock.token('Goblin 1').get('imgsrc')),
  });
}

describe('the answer time limit and the nudge (bundle)', () => {
  const open: Table[] = [];
  afterEach(() => {
    for (const t of open.splice(0)) t.close();
  });
  /** The demo table a turn on: Goblin 1 acting (the attacker); Bob is Alice's (Vitality 70). */
  const fresh = async (options: { edition?: string; setup?: (mock: MockRoll20, scene: DemoScene) => void; turn?: boolean } = {}) => {
    const t = await openTable('bundle', { seed: 11, setup: (mock, scene) => { goblin3(mock, scene); options.setup?.(mock, scene); } });
    open.push(t);
    if (options.edition !== undefined) await t.say('GM', `!defense-round config edition ${options.edition}`);
    if (options.turn !== false) await t.passTurn();
    return t;
  };
  /** The GM sets the limit; the reply is one whisper saying so. */
  const limit = async (t: Table, seconds: number) => {
    const said = await t.say('GM', `!defense-round config answer-timeout ${seconds}`);
    expect(whispered(said, 'gm')).toHaveLength(1);
    expect(all(said)).toMatch(seconds === 0 ? /no time limit/ : new RegExp(`still waiting ${seconds} s after its declaration now resolves as Resolve now would`));
    return said;
  };
  /** What the table says while the clock moves on `ms` (the sandbox's short work run too). */
  const wait = async (t: Table, ms: number) => {
    t.mock.newMessages();
    t.mock.advance(ms);
    await t.mock.settle();
    t.mock.assertNoCrash();
    return t.mock.newMessages();
  };

  it('an attack still waiting when the limit runs out resolves by itself, not a moment before: the defender takes no defense, its row says "No answer in time"', async () => {
    const t = await fresh();
    await limit(t, 30);
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(Object.keys(t.stored().exchange.attacks)).toEqual(['A1']);
    expect(t.stored().exchange.attacks.A1.waitingSince).toBe(t.mock.clock());
    expect(await wait(t, 29_999)).toEqual([]);
    expect(t.bar('Bob')).toBe(70);
    const late = await wait(t, 1);
    // One message: the result, public (Bob's breakdown is), as the GM's Resolve now makes it.
    expect(late).toHaveLength(1);
    expect(publicOnes(late)).toHaveLength(1);
    expect(all(late)).toMatch(/Bob loses 30 Vitality/);
    expect(all(late)).toMatch(/Answer: No answer in time/);
    expect(t.bar('Bob')).toBe(40);
    expect(t.stored().exchange.attacks).toEqual({});
    // Undone as the attack it is: the declarer's (the GM's) entry.
    expect(all(await t.say('GM', '!damage --undo'))).toMatch(/Undone/i);
    expect(t.bar('Bob')).toBe(70);
    // The time limit ran once: nothing more later.
    expect(await wait(t, 3_600_000)).toEqual([]);
  });

  it('several defenders: the one who answered keeps its answer, the one who did not is named; a player\'s attack on the GM\'s goblin is settled as the GM\'s Resolve now would', async () => {
    const t = await fresh();
    await limit(t, 20);
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')} ${t.id('Goblin 3')}`, ['Goblin 1']);
    t.mock.dice.force(99);
    const answered = await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend`);
    expect(all(answered)).toMatch(/Waiting for/);
    const late = await wait(t, 20_000);
    // The public card and the GM's (Goblin 3's breakdown is the GM's): Bob's row says his answer, Goblin 3's that none came in time.
    expect(late).toHaveLength(2);
    expect(all(publicOnes(late))).toMatch(/Bob: Defend 99: failure/);
    expect(whispered(late, 'gm').join('\n')).toMatch(/Goblin 3: No answer in time/);
    expect(all(late).match(/No answer in time/g)).toHaveLength(1);
    expect(t.stored().exchange.attacks).toEqual({});

    // Alice attacks a goblin from Bob on Bob's turn: the goblin is the GM's to settle, and the GM never answers.
    const u = await fresh({ turn: false });
    await limit(u, 15);
    const declared = await u.say('Alice', `!attack 200 --ids ${u.id('Goblin 2')}`, ['Bob']);
    expect(all(declared)).toMatch(/Attack A1: Bob attacks Goblin 2/);
    expect(await wait(u, 14_000)).toEqual([]);
    // Alice may not settle it herself; the limit does, as the GM.
    expect(all(await u.say('Alice', '!attack --resolve A1'))).toMatch(/waits for the GM/);
    const settled = await wait(u, 1_000);
    expect(all(settled)).toMatch(/No answer in time/);
    expect(u.bar('Goblin 2')).not.toBe(30);
    expect(u.stored().exchange.attacks).toEqual({});
    // Recorded as Alice's attack: her undo takes it back.
    await u.say('Alice', '!damage --undo');
    expect(u.bar('Goblin 2')).toBe(30);
  });

  it('nothing happens at the limit to an attack answered, resolved, cancelled, or cancelled by an edition switch', async () => {
    const t = await fresh();
    await limit(t, 10);
    // Answered: the answer resolves it at once.
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')}`, ['Goblin 1']);
    t.mock.dice.force(99);
    await t.say('Alice', `!defend --answer A1 --ids ${t.id('Bob')} --action defend`);
    const afterAnswer = t.bar('Bob');
    // Resolved by the GM.
    await t.say('GM', `!attack 200 --ids ${t.id('Goblin 2')}`, ['Goblin 1']);
    await t.say('GM', '!attack --resolve A2');
    const goblin = t.bar('Goblin 2');
    // Cancelled.
    await t.say('GM', `!attack 200 --ids ${t.id('Goblin 3')}`, ['Goblin 1']);
    await t.say('GM', '!attack --cancel A3');
    expect(t.stored().exchange.attacks).toEqual({});
    const history = t.stored().history.length;
    expect(await wait(t, 60_000)).toEqual([]);
    expect([t.bar('Bob'), t.bar('Goblin 2'), t.bar('Goblin 3')]).toEqual([afterAnswer, goblin, 30]);
    expect(t.stored().history).toHaveLength(history);

    // An edition switch cancels the open attack: its limit does nothing in the new edition.
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')}`, ['Goblin 1']);
    const switched = await t.say('GM', '!defense-round config edition threshold');
    expect(all(switched)).toMatch(/cancelled: A4/);
    const before = t.bar('Bob');
    expect(await wait(t, 60_000)).toEqual([]);
    expect(t.bar('Bob')).toBe(before);
  });

  it('the limit outlives a restart: the time goes on while the sandbox is down; an attack already past it resolves as the script starts', async () => {
    const t = await fresh();
    await limit(t, 30);
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(await wait(t, 10_000)).toEqual([]);
    // Down for 5 s: 15 s left after the restart.
    const count = t.mock.chatLog.length;
    await t.restart(5_000);
    expect(t.mock.chatLog.slice(count)).toEqual([]);
    expect(await wait(t, 14_999)).toEqual([]);
    const late = await wait(t, 1);
    expect(all(late)).toMatch(/No answer in time/);
    expect(t.bar('Bob')).toBe(40);

    // Declared, then the sandbox is down past the limit: it resolves as the script starts, once.
    await t.say('GM', `!attack 200 --ids ${t.id('Goblin 2')}`, ['Goblin 1']);
    const before = t.mock.chatLog.length;
    await t.restart(60_000);
    const atStart = t.mock.chatLog.slice(before).filter((record) => /No answer in time/.test(texts([record])[0]!));
    expect(atStart).toHaveLength(1);
    expect(t.stored().exchange.attacks).toEqual({});
    expect(t.bar('Goblin 2')).not.toBe(30);
    expect(await wait(t, 3_600_000)).toEqual([]);
  });

  it('a roll the resolution makes (opposed: an unanswered defender rolls its own d20) comes back and is applied', async () => {
    const t = await fresh({ edition: 'opposed' });
    await limit(t, 5);
    await t.say('GM', `!attack 8 --attack 24 --ids ${t.id('Goblin 3')}`, ['Goblin 1']);
    t.mock.dice.force(1);
    const late = await wait(t, 5_000);
    expect(all(late)).toMatch(/No answer in time/);
    expect(t.bar('Goblin 3')).not.toBe(30);
    expect(t.stored().exchange.attacks).toEqual({});
  });

  it('0 is off, the default: an attack waits for an hour and more; a limit set or changed gives the open attacks its full time from then; 0 again lets them wait', async () => {
    const t = await fresh();
    expect(all(await t.say('GM', '!defense-round'))).toMatch(/Answer time limit: off \| Ping defenders: off/);
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(await wait(t, 7_200_000)).toEqual([]);
    expect(Object.keys(t.stored().exchange.attacks)).toEqual(['A1']);

    // Set while A1 has waited two hours: A1 gets its 10 s from now, not a resolution at once.
    expect(await limit(t, 10)).toHaveLength(2);
    expect(await wait(t, 9_000)).toEqual([]);
    await t.say('GM', `!attack 200 --ids ${t.id('Goblin 2')}`, ['Goblin 1']);
    const off = await limit(t, 0);
    expect(all(off)).toMatch(/no time limit/);
    expect(await wait(t, 60_000)).toEqual([]);
    expect(Object.keys(t.stored().exchange.attacks)).toEqual(['A1', 'A2']);
    expect(t.bar('Bob')).toBe(70);

    // On again: both get the full 20 s from then, and resolve together.
    await limit(t, 20);
    expect(await wait(t, 19_999)).toEqual([]);
    const late = await wait(t, 1);
    expect(all(late).match(/No answer in time/g)).toHaveLength(2);
    expect(t.stored().exchange.attacks).toEqual({});
  });

  it('the settings card shows both settings with their buttons; a bad value is refused in one line, nothing changed', async () => {
    const t = await fresh();
    await limit(t, 45);
    await t.say('GM', '!defense-round config ping-defenders on');
    const card = await t.say('GM', '!defense-round');
    expect(all(card)).toMatch(/Answer time limit: 45 s \| Ping defenders: on/);
    const contents = card.map((record) => record.content).join('\n');
    expect(contents).toContain('!defense-round config answer-timeout ?{Answer time limit in seconds - 0 is off|45}');
    expect(contents).toContain('!defense-round config ping-defenders off');
    expect(all(await t.say('GM', '!defense-round config --help'))).toMatch(/answer-timeout 30 \(seconds an attack waits for answers; 0: no limit\), ping-defenders on/);
    for (const [value, why] of [['abc', /whole number/], ['-1', /from 0 to 3600/], ['3601', /from 0 to 3600/], ['1.5', /whole number/], ['', /needs a value/]] as const) {
      const said = await t.say('GM', `!defense-round config answer-timeout ${value}`.trim());
      expect(said.filter((record) => record.who === 'DefenseRound')).toHaveLength(1);
      expect(all(said)).toMatch(why);
      expect(t.stored().settings.answerTimeout).toBe(45);
    }
    const maybe = await t.say('GM', '!defense-round config ping-defenders maybe');
    expect(maybe.filter((record) => record.who === 'DefenseRound')).toHaveLength(1);
    expect(t.stored().settings.pingDefenders).toBe(true);
    // A player may not set them.
    const player = await t.say('Alice', '!defense-round config answer-timeout 5');
    expect(player.filter((record) => record.who === 'DefenseRound')).toHaveLength(1);
    expect(t.stored().settings.answerTimeout).toBe(45);
    // A tampered stored value is reset on load, and named.
    t.mock.state.DefenseRound.settings.answerTimeout = 99_999;
    t.mock.state.DefenseRound.exchange.attacks = { A9: { key: 'A9', by: t.scene.players.GM, gm: true, attacker: null, edition: 'soak', positionals: ['5'], flags: [], situation: null, round: 1, waitingSince: -5, defenders: [t.id('Bob')], answers: {} } };
    await t.restart();
    expect(t.stored().settings.answerTimeout).toBe(0);
    expect(t.stored().exchange.attacks).toEqual({});
    expect(all(await t.say('GM', '!defense-round'))).toMatch(/settings\.answerTimeout: 99999 is not valid; reset to 0.*exchange\.attacks\.A9: not a valid open attack/);
  });

  it('ping-defenders on: each prompted defender\'s token is pinged for its controllers only, at its place, no view moved; the GM\'s goblins are not; off: no ping', async () => {
    const t = await fresh({ setup: (mock, scene) => mock.globals.getObj('graphic', scene.tokens.Bob)!.set('controlledby', `${scene.players.Alice},${scene.players.Ben}`) });
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')} ${t.id('Goblin 2')}`, ['Goblin 1']);
    expect(t.mock.pings).toEqual([]);
    const on = await t.say('GM', '!defense-round config ping-defenders on');
    expect(all(on)).toMatch(/Prompted defenders are now pinged for their players/);
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')} ${t.id('Goblin 3')}`, ['Goblin 1']);
    const bob = t.mock.token('Bob');
    expect(t.mock.pings).toEqual([{ left: bob.get('left'), top: bob.get('top'), pageId: t.scene.pageId, playerId: null, moveAll: false, visibleTo: [t.scene.players.Alice, t.scene.players.Ben] }]);
    expect(t.mock.warnings.filter((warning) => /sendPing/.test(warning))).toEqual([]);
    // A defender that made its defense ahead is answered already: not prompted, not pinged.
    await t.say('Alice', '!defend --action defend', ['Bob']);
    await t.say('GM', `!attack 200 --ids ${t.id('Bob')}`, ['Goblin 1']);
    expect(t.mock.pings).toHaveLength(1);
    // Off again: no ping.
    await t.say('GM', '!defense-round config ping-defenders off');
    await t.say('GM', `!attack 200 --ids ${t.id('Goblin 2')} ${t.id('Bob')}`, ['Goblin 1']);
    expect(t.mock.pings).toHaveLength(1);
  });
});
