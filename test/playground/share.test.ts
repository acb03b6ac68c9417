// The share link and the line it records, without a browser: the decoder's plain words for a link
// it cannot load, the bounds that keep any link quick to replay (and the chat box inside them), and
// the filling-in of a typed line (attribute calls, queries, targets) that gives the line recorded.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { Fight } from '../../playground/src/fight.js';
import { fillLine, keyOf, type Question } from '../../playground/src/queries.js';
import {
  addStep,
  decodeSpec,
  emptySpec,
  emptyTally,
  isFightFragment,
  LIMITS,
  overBound,
  rollCost,
  specFromFragment,
  type FightSpec,
  type Step,
} from '../../playground/src/share.js';
import type { MockObject } from '../../mocks/roll20.js';

const BUNDLE = readFileSync('dist/defense-round.js', 'utf8');
const link = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const errorOf = (value: unknown) => {
  const decoded = decodeSpec(link(value));
  if (decoded.ok) throw new Error('the link was accepted');
  return decoded.error;
};
const say = (line: string, sel: string[] = []): Step => ({ k: 'say', as: 'GM', sel, line });
const spec = (steps: Step[]): FightSpec => ({ ...emptySpec(), steps });

describe("a link the playground cannot load says why in plain words", () => {
  it('names a newer format, an unknown step by its number, and what is wrong with a known one', () => {
    expect(errorOf({ ...emptySpec(), v: 9 })).toMatch(/^this link was made by a newer playground \(format 9\)/);
    expect(errorOf({ ...emptySpec(), v: 0 })).toBe("the link's format (0) is not one this playground reads (it reads format 1)");
    const { v: _v, ...noFormat } = emptySpec();
    expect(errorOf(noFormat)).toMatch(/^the link holds no format number/);
    const steps = [...Array.from({ length: 11 }, () => say('hi')), { k: 'eval', code: 'alert(1)' }];
    expect(errorOf({ ...emptySpec(), steps })).toBe('step 12 is not a step this playground knows (a "eval" step)');
    expect(errorOf({ ...emptySpec(), steps: [say('hi'), 5] })).toBe('step 2 is not a step this playground knows (it is not a step at all)');
    expect(errorOf(spec([say('x'.repeat(5000))]))).toBe('step 1 is not a step this playground knows: its line is 5,000 characters long, more than the 4,000 a line may have');
    expect(errorOf(spec([say('')]))).toBe('step 1 is not a step this playground knows: its line is empty');
    expect(errorOf({ ...emptySpec(), steps: [{ ...say('hi'), x: 1 }] })).toBe('step 1 is not a step this playground knows: a say step holds no "x"');
    expect(errorOf({ ...emptySpec(), steps: [{ k: 'edit', token: 'Bob', set: { represents: 'x' } }] })).toMatch(/^step 1 is not a step this playground knows: it does not type into a token's bars/);
    expect(errorOf({ ...emptySpec(), extra: 1 })).toBe('the link holds "extra", which is not part of a fight this playground knows');
    expect(errorOf({ ...emptySpec(), seed: 0 })).toBe("the link's dice seed is not a whole number from 1 to 2147483647");
    expect(errorOf({ ...emptySpec(), scene: 'moon' })).toBe('the link\'s scene "moon" is not one this playground has (it has demo)');
    expect(errorOf([])).toBe('the link holds no fight: its data is not a fight');
    expect(decodeSpec('%%%')).toEqual({ ok: false, error: 'the link is damaged: its fight cannot be read' });
  });

  it("never passes on the schema library's own words", () => {
    const bad: unknown[] = [
      { ...emptySpec(), v: 9 },
      { ...emptySpec(), v: '1' },
      { ...emptySpec(), steps: 'none' },
      { ...emptySpec(), steps: [{ k: 'say', as: '', sel: [], line: 'x' }] },
      { ...emptySpec(), steps: [{ k: 'say', as: 'GM', sel: 'Bob', line: 'x' }] },
      { ...emptySpec(), steps: [{ k: 'sheet', char: 'Bob', attr: 'x', current: 'y'.repeat(200) }] },
      { ...emptySpec(), steps: [{ k: 'next', extra: true }] },
      { ...emptySpec(), as: 7 },
      { ...emptySpec(), sel: Array(21).fill('Bob') },
      null,
      'fight',
    ];
    for (const value of bad) {
      const error = errorOf(value);
      expect(error).not.toMatch(/Invalid|Expected|received|never/);
      expect(error.length).toBeGreaterThan(20);
    }
  });

  it('tells a fight fragment from the page\'s own fragments', () => {
    expect(isFightFragment('')).toBe(true);
    expect(isFightFragment('#fight=abc')).toBe(true);
    expect(isFightFragment('#top')).toBe(false);
    expect(isFightFragment('#chat-input')).toBe(false);
    expect(specFromFragment('#top')).toMatchObject({ ok: false });
  });
});

describe('the bounds of a fight', () => {
  it('counts the dice a line can roll without rolling them', () => {
    expect(rollCost('!damage [[2d6+3]] --type physical')).toMatchObject({ rolls: 1, dice: 2 });
    expect(rollCost('[[999d9]]')).toMatchObject({ rolls: 1, dice: 999 });
    expect(rollCost('/roll 3d6+d4')).toMatchObject({ rolls: 1, dice: 4 });
    expect(rollCost('/w gm [[1d20]] and [[ [[1d4]] + 2d6 ]]')).toMatchObject({ rolls: 3, dice: 4 });
    expect(rollCost('!damage 200 --ids -Nabc1d4')).toMatchObject({ rolls: 0, dice: 0 });
    expect(rollCost('[[{999d9,999d9}kh1]]').dice).toBe(1998);
    expect(rollCost('[[(3)d6]]').dice).toBe(3);
    // A number of dice worked out in the roll counts as the most the parser rolls.
    expect(rollCost('[[(1d4)d6]]').dice).toBe(1000);
    expect(rollCost('[[ [[1d4]]d6 ]]').dice).toBe(1001);
    // Exploding and rerolling dice: twice their average, or all the parser's rerolls.
    expect(rollCost('[[3d6!]]').dice).toBe(12);
    expect(rollCost('[[1d6ro<2]]').dice).toBe(2);
    expect(rollCost('[[1d1!]]').dice).toBe(1001);
    expect(rollCost('[[1d6!>1]]').dice).toBe(1001);
    expect(rollCost('[[1d1000r<999]]').dice).toBe(1001);
  });

  it('refuses a line, and a fight, over a bound', () => {
    expect(overBound(say('[[1000d6]]'), emptyTally())).toBeUndefined();
    expect(overBound(say('[[1001d6]]'), emptyTally())).toMatchObject({ kind: 'rollDice', amount: 1001 });
    expect(overBound(say('[[1000d6]] [[1000d6]] [[1d6]]'), emptyTally())).toMatchObject({ kind: 'lineDice', amount: 2001 });
    expect(overBound(say('[[1]]'.repeat(101)), emptyTally())).toMatchObject({ kind: 'lineRolls', amount: 101 });
    expect(overBound(say('x'.repeat(4001)), emptyTally())).toMatchObject({ kind: 'lineChars' });
    const full = { steps: 10, chars: 10, rolls: 10, dice: LIMITS.fightDice - 5, refs: 0 };
    expect(overBound(say('[[5d6]]'), full)).toBeUndefined();
    expect(overBound(say('[[6d6]]'), full)).toMatchObject({ kind: 'fightDice', amount: LIMITS.fightDice + 1 });
    expect(overBound({ k: 'next' }, { ...emptyTally(), steps: LIMITS.steps })).toMatchObject({ kind: 'steps' });
    expect(addStep(addStep(emptyTally(), say('[[2d6]] [[1d4]]')), { k: 'next' })).toEqual({ steps: 2, chars: 15, rolls: 2, dice: 3, refs: 0 });
  });

  it('refuses a link over a bound, naming the step', () => {
    const big = Array.from({ length: 100 }, () => say('[[999d9]]'));
    expect(errorOf(spec(big))).toBe("the link's fight can roll up to 50,949 dice by step 51, more than the 50,000 a shared fight may roll");
    expect(errorOf(spec([say('hi'), say('[[1001d9]]')]))).toBe('step 2 can roll up to 1,001 dice in one roll ([[1001d9]]), more than the 1,000 a roll may have');
    expect(errorOf(spec(Array.from({ length: 501 }, () => ({ k: 'next' as const }))))).toBe('the link holds 501 steps, more than the 500 a shared fight may have');
    expect(decodeSpec(link(spec(big.slice(0, 50))))).toMatchObject({ ok: true });
  });

  it('keeps the chat inside the bounds: a refused line is said to be refused and is not recorded', async () => {
    const fight = await Fight.start(BUNDLE);
    expect(await fight.say('[[999d9]] [[999d9]] [[999d9]]')).toBe(false);
    expect(fight.steps).toEqual([]);
    expect(fight.entries.at(-1)).toMatchObject({ kind: 'notice', source: 'playground', text: expect.stringMatching(/^Not sent: the line can roll up to 2,997 dice; a line may roll at most 2,000/) });
    for (let i = 0; i < 50; i++) expect(await fight.say('[[999d9]] [[1d1]]')).toBe(true);
    expect(await fight.say('[[1d6]]')).toBe(false);
    expect(fight.entries.at(-1)).toMatchObject({ text: expect.stringMatching(/^Not sent: this fight could then roll up to 50,001 dice in all/) });
    expect(fight.steps).toHaveLength(50);
    // What it did record is a link that loads.
    expect(decodeSpec(link(fight.spec()))).toMatchObject({ ok: true });
  });
});

describe('2. (issue 29) sheet formulas in a share link', () => {
  const sheet = (attr: string, current: string): Step => ({ k: 'sheet', char: 'Bob', attr, current });
  /** armor_defense refers to l1 as many times as fit in a field (100 characters), l1 to l2 ... down to l`depth` = 0. */
  const chainSteps = (depth: number): Step[] => {
    const field = (ref: string) => Array.from({ length: Math.floor(101 / (ref.length + 1)) }, () => ref).join('+');
    const steps = [sheet('armor_defense', field('@{l1}'))];
    for (let level = 1; level < depth; level += 1) steps.push(sheet(`l${level}`, field(`@{l${level + 1}}`)));
    return [...steps, sheet(`l${depth}`, '0')];
  };
  const fightOf = (steps: Step[]) => ({ ...emptySpec(), steps: [...steps, say('!damage 200', ['Bob'])] });
  const said = (fight: Fight) => fight.entries.map((entry) => (entry.kind === 'chat' ? entry.record.content : entry.kind === 'notice' ? entry.text : entry.message)).join('\n');

  it('2. a 9-step link of formulas referring to formulas, within every bound, replays in a moment and reads them as Roll20 would', async () => {
    // Small to big: a page that works each look-up out again is slow on the small ones already.
    for (const depth of [2, 4, 7]) {
      const spec = fightOf(chainSteps(depth));
      expect(decodeSpec(link(spec))).toMatchObject({ ok: true });
      const started = performance.now();
      const fight = await Fight.start(BUNDLE, spec);
      const took = performance.now() - started;
      expect(took, `depth ${depth}: ${took.toFixed(0)} ms`).toBeLessThan(1000);
      expect(fight.steps).toHaveLength(spec.steps.length);
      // Worked out as 0: the hit goes through as with no Defense (Bob 70 -> 10).
      expect(String(fight.mock.attribute('Bob', 'vitality').get('current')), said(fight)).toBe('10');
    }
    expect(fightOf(chainSteps(7)).steps).toHaveLength(9);
  });

  it('2. the formula work of a link is bounded: its sheets refer to attributes at most LIMITS.fightRefs times', async () => {
    const twenty = Array.from({ length: 20 }, () => '@{a}').join('+');
    expect(twenty.length).toBeLessThanOrEqual(100);
    const steps = Array.from({ length: LIMITS.fightRefs / 20 }, (_, i) => sheet(`f${i}`, twenty));
    expect(decodeSpec(link(fightOf(steps)))).toMatchObject({ ok: true });
    expect(errorOf(fightOf([...steps, sheet('one_more', '@{a}')]))).toBe(
      `the link's sheets refer to attributes ${LIMITS.fightRefs + 1} times by step ${steps.length + 1}, more than the ${LIMITS.fightRefs} a shared fight's sheets may`,
    );
    // The sheet edit over the bound is not made, and said so, in the page too.
    const fight = await Fight.start(BUNDLE, fightOf(steps));
    expect(await fight.editSheet('Bob', 'one_more', '@{a}')).toBe(false);
    expect(fight.entries.at(-1)).toMatchObject({ kind: 'notice', source: 'playground', text: expect.stringMatching(/^Not done: this fight's sheets would refer to attributes 501 times/) });
  });

  it('2. the heaviest formulas the bound allows, read by every step after them, replay in a couple of seconds', async () => {
    // Two fan-out chains, 14 references a field: Bob's 20 deep (the deepest worked out), the goblins' 15: 490 references.
    const chainOn = (char: string, depth: number): Step[] => {
      const field = (level: number) => Array.from({ length: 14 }, () => `@{l${level}}`).join('+');
      const steps: Step[] = [{ k: 'sheet', char, attr: 'armor_defense', current: field(1) }];
      for (let level = 1; level < depth; level += 1) steps.push({ k: 'sheet', char, attr: `l${level}`, current: field(level + 1) });
      return [...steps, { k: 'sheet', char, attr: `l${depth}`, current: '0' }];
    };
    const steps = [...chainOn('Bob', 20), ...chainOn('Goblin', 15)];
    const all = ['Bob', 'Goblin 1', 'Goblin 2', 'Crate'];
    while (steps.length < LIMITS.steps) steps.push(say(steps.length % 2 === 0 ? '!damage 1' : '!heal 1', all));
    const spec = { ...emptySpec(), steps };
    expect(addStepsOf(spec.steps).refs).toBe(490);
    expect(decodeSpec(link(spec))).toMatchObject({ ok: true });
    const started = performance.now();
    const fight = await Fight.start(BUNDLE, spec);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(fight.steps).toHaveLength(LIMITS.steps);
    expect(said(fight)).not.toMatch(/put a number there/); // every read worked the formulas out (to 0)
  }, 30_000);
});

const addStepsOf = (steps: Step[]) => steps.reduce(addStep, emptyTally());

describe('a typed line filled in as Roll20 does (what the share link records)', () => {
  async function table(selected: string[] = []) {
    const fight = await Fight.start(BUNDLE);
    fight.selection = selected.map((name) => fight.tokenNamed(name)!.id);
    const live = (ids: string[]) => ids.map((id) => fight.tokenById(id)).filter((t): t is MockObject => t !== undefined);
    const env = () => ({ mock: fight.mock, selection: live(fight.selection), tokens: live(fight.tokens().map((t) => t.id)) });
    return { fight, env };
  }
  /** An asker that records what it was asked and answers from `given` (by prompt), else the defaults. */
  function asker(given: Record<string, string> = {}) {
    const asked: Question[][] = [];
    const ask = async (questions: Question[]) => {
      asked.push(questions);
      return new Map(
        questions.map((q) => [
          keyOf(q),
          given[q.prompt] ?? (q.kind === 'text' ? q.fallback : q.kind === 'choice' ? q.options[0]!.value : (q.fallback ?? '')),
        ]),
      );
    };
    return { asked, ask };
  }

  it('asks the docs macro\'s queries together, each once, and fills the answers in', async () => {
    const { env } = await table(['Goblin 1']);
    const { asked, ask } = asker({ Type: 'magical' });
    const line = '!damage [[?{Damage|2d6+3}]] --type ?{Type|Physical,physical|Magical,magical} --note ?{Damage|2d6+3}';
    expect(await fillLine(line, env(), ask)).toEqual({ ok: true, line: '!damage [[2d6+3]] --type magical --note 2d6+3' });
    expect(asked).toEqual([
      [
        { kind: 'text', prompt: 'Damage', fallback: '2d6+3' },
        { kind: 'choice', prompt: 'Type', options: [{ label: 'Physical', value: 'physical' }, { label: 'Magical', value: 'magical' }] },
      ],
    ]);
  });

  it('reads the selection, the sheets and the picked targets, and asks the targets first', async () => {
    const { fight, env } = await table(['Goblin 1']);
    const { asked, ask } = asker({ Foe: fight.scene.tokens.Bob, Amount: '7' });
    const line = '/em @{selected|token_name} (@{selected|token_id}, bar1 @{selected|bar1}/@{selected|bar1|max}, Defense @{selected|armor_defense}) eyes @{target|Foe|token_name} (@{Bob|armor_defense}) for ?{Amount|5}: @{target|Foe|token_id}';
    const filled = await fillLine(line, env(), ask);
    expect(filled).toEqual({ ok: true, line: `/em Goblin 1 (${fight.scene.tokens['Goblin 1']}, bar1 30/30, Defense 5) eyes Bob (30) for 7: ${fight.scene.tokens.Bob}` });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.map((q) => `${q.kind}:${q.prompt}`)).toEqual(['target:Foe', 'text:Amount']);
    // The target's list starts on a token that is not selected.
    expect(asked[0]![0]).toMatchObject({ kind: 'target', fallback: fight.scene.tokens.Bob });
  });

  it('fills in the attribute calls of an answer, after the answer', async () => {
    const { env } = await table(['Bob']);
    const { asked, ask } = asker({ Amount: '@{selected|armor_defense}' });
    expect(await fillLine('!damage ?{Amount}', env(), ask)).toEqual({ ok: true, line: '!damage 30' });
    expect(asked).toHaveLength(1);
  });

  it('refuses a line it cannot fill in, in plain words, and asks nothing then', async () => {
    const { env } = await table();
    const { asked, ask } = asker();
    expect(await fillLine('!damage @{selected|bar1} ?{Why}', env(), ask)).toEqual({
      ok: false,
      cancelled: false,
      error: '@{selected|bar1} reads the selected token, and none is selected: click a token (its card or on the map) to select it, then send again.',
    });
    const crate = await table(['Crate']);
    expect(await fillLine('!damage @{selected|armor_defense}', crate.env(), ask)).toMatchObject({ ok: false, error: expect.stringMatching(/^No character was found for 'selected': Crate represents no character/) });
    const bob = await table(['Bob']);
    expect(await fillLine('!damage @{selected|nonsense}', bob.env(), ask)).toMatchObject({ ok: false, error: 'No attribute was found for @{selected|nonsense}: Bob has no attribute "nonsense".' });
    expect(await fillLine('!damage @{Nobody|hp}', bob.env(), ask)).toMatchObject({ ok: false, error: "No character was found for 'Nobody' (@{Nobody|hp})." });
    expect(asked).toEqual([]);
  });

  it('sends nothing when the questions are cancelled, and leaves a plain line alone', async () => {
    const { env } = await table(['Bob']);
    expect(await fillLine('!stance ?{Stance|Defensive,defensive|None,none}', env(), async () => undefined)).toEqual({ ok: false, cancelled: true });
    const { asked, ask } = asker();
    expect(await fillLine('!damage 200 [[2d6]] ?not a query', env(), ask)).toEqual({ ok: true, line: '!damage 200 [[2d6]] ?not a query' });
    expect(asked).toEqual([]);
  });
});
