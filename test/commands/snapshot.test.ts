// Issue 31, "A plain snapshot read before the rules run": every registered edition's plans (its hit,
// check, stance, answers and hand edit) go through the pipeline over plain
// facts read before `resolve`: a Roll20 read made while a rule resolves is caught, the facts are
// frozen while it runs, and the writer asks the edition for a token's condition once.
import { orderOf } from '../../src/commands/orders';
import { stancePlan } from '../../src/rules/stance';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MockObject } from '../../mocks/objects';
import { createRoll20, type MockRoll20 } from '../../mocks/roll20';
import { buildDemoScene } from '../../mocks/scene';
import { allEditions, registerEdition, unregisterEdition } from '../../src/rules/editions';
import { isRefusal, type AnyDeclaredEdition, type AnyEdition, type Plan, type PlanContext } from '../../src/rules/edition';
import { defaultSettings } from '../../src/state/settings';
import type { TokenRecord } from '../../src/state/tokens';
import type { AnswerBox } from '../../src/state/memory';
import { AttributeIndex } from '../../src/roll20/attributes';
import { characterOf, readFacts, readToken } from '../../src/roll20/read';
import { applyOutcome } from '../../src/roll20/write';
import { parseLine } from '../../src/text/args';
import { CONTEXT } from '../support/facts';
import { openTable, whispered, type Table } from '../support/table';

/** The Roll20 reads made while a rule resolved (what was read), and how many resolves ran. */
const inside: string[] = [];
let resolving = false;
let resolves = 0;

/** Everything reachable from it frozen: a rule that changes what it was handed throws. */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

/** A plan whose resolve runs over frozen facts and notes any Roll20 read made meanwhile. */
function watchedPlan<P extends Plan<unknown, unknown>>(plan: P): P {
  return {
    ...plan,
    resolve(facts, rolls) {
      deepFreeze(facts);
      Object.freeze(rolls);
      resolves += 1;
      resolving = true;
      try {
        return plan.resolve(facts, rolls);
      } finally {
        resolving = false;
      }
    },
  };
}

/** The edition under another id, every plan it makes watched. */
function watched(edition: AnyEdition, id: string, resolveHit?: (resolve: Plan<unknown, unknown>['resolve']) => Plan<unknown, unknown>['resolve']): AnyDeclaredEdition {
  const { hit, check } = edition;
  const hitPlan = (plan: Plan<unknown, unknown>) => watchedPlan(resolveHit ? { ...plan, resolve: resolveHit(plan.resolve) } : plan);
  return {
    ...edition,
    id,
    hit: { ...hit, plan: (line, context) => hitPlan(hit.plan(line, context)), handEdit: (loss, context) => hitPlan(hit.handEdit(loss, context)) },
    check: { ...check, plan: (line) => watchedPlan(check.plan(line)), answers: { ...check.answers, planAnswer: (...args) => watchedPlan(check.answers.planAnswer(...args)) } },
  };
}

// Any Roll20 read while a rule resolves: an object's property, or a look-up through the API's functions.
const realGet = MockObject.prototype.get;
beforeAll(() => {
  MockObject.prototype.get = function get(this: MockObject, property: string, callback?: (value: unknown) => void) {
    if (resolving) inside.push(`${this.type}.get('${property}')`);
    return realGet.call(this, property, callback);
  };
});
afterAll(() => {
  MockObject.prototype.get = realGet;
});

function watchApi(): void {
  const api = globalThis as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ['getObj', 'findObjs', 'filterObjs', 'getAllObjs', 'getAttrByName', 'Campaign']) {
    const real = api[name]!;
    api[name] = (...args) => {
      if (resolving) inside.push(`${name}()`);
      return real(...args);
    };
  }
}

/** The lines an edition's spec takes (the first that parses for each command it has). */
const HIT_LINES = ['!damage 12', '!damage 12 --attack 15 --defense-roll 5', '!damage 200', '!damage 60 --type magical', '!damage 14 --hit 60', '!damage 5 --to soul', '!damage 30 --attack 40 --defense-roll 1'];
const CHECK_LINES = ['!defend --action defend --roll 40', '!defend --action evade --roll 90', '!defend --action save --roll 30', '!defend --action defend --situation behind --roll 5 --perception-roll 5'];

/** Whether a command's spec takes the line: its flags are the spec's, and it makes a plan of it. */
function takes(spec: { flags: object }, line: string, plan: (line: ReturnType<typeof parseLine>) => unknown): boolean {
  const parsed = parseLine(line);
  if ([...parsed.flags.keys()].some((flag) => !Object.prototype.hasOwnProperty.call(spec.flags, flag))) return false;
  try {
    plan(parsed);
    return true;
  } catch {
    return false;
  }
}

describe.each(allEditions().map((edition) => [edition.id, edition] as const))('%s: the rules run over a plain snapshot, read before them', (id, edition) => {
  let table: Table | undefined;
  const watchedId = `${id}-watched`;
  afterEach(() => {
    table?.close();
    unregisterEdition(watchedId);
  });

  it('no Roll20 read happens while its hit, check, stance, answer and hand edit plans resolve, over facts frozen for them', async () => {
    registerEdition(watched(edition, watchedId));
    table = await openTable('src');
    watchApi();
    const t = table;
    const all = ['Bob', 'Goblin 1', 'Goblin 2', 'Crate'];
    const switched = await t.say('GM', `!defense-round config edition ${watchedId}`);
    expect(whispered(switched, 'gm').join('\n')).toMatch(new RegExp(`Edition is now ${watchedId}`));
    await t.say('GM', '!defense-round config armor-on-manual-edits on');
    await t.passTurn(); // Goblin 1 acts: Bob defends
    inside.length = 0;
    resolves = 0;

    // Each command resolves through the watched plans (a token refused as read never reaches them).
    const run = async (line: string, selected: readonly string[] = all) => {
      const before = resolves;
      const out = await t.say('GM', line, selected);
      expect(resolves, `${line}: ${whispered(out, 'gm').join(' / ')}`).toBeGreaterThan(before);
    };
    // Stances are table data the pipeline plays (src/rules/stance.ts): no edition plan to watch, but they run among the rest.
    for (const mode of edition.stance.modes) await t.say('GM', `!stance ${mode}`, all);
    // A hand edit that lowers Vitality, read through armor.
    const before = resolves;
    t.mock.userEdit(t.mock.token('Goblin 2'), { bar1_value: 20 });
    await t.mock.settle();
    t.mock.assertNoCrash();
    expect(resolves, 'a hand edit').toBeGreaterThan(before);
    const checks = edition.check.refused === undefined ? CHECK_LINES.filter((line) => takes(edition.check, line, (parsed) => edition.check.plan(orderOf(parsed, edition.check.flags)))) : [];
    for (const line of checks) await run(line);
    const hits = HIT_LINES.filter((line) => takes(edition.hit, line, (parsed) => edition.hit.plan(orderOf(parsed, edition.hit.flags, edition.hit.amount), CONTEXT)));
    expect(hits.length, `none of the hit lines parse in ${id}: add one it takes`).toBeGreaterThan(0);
    for (const line of hits) await run(line);
    // A heal between (the pipeline's own plan, not the edition's).
    await t.say('GM', '!heal 5', all);
    // An attack on Goblin 2, answered with the edition's first answer, resolved.
    const spec = edition.check.answers;
    await run(`${hits[0]!.replace('!damage', '!attack')} --ids ${t.id('Goblin 2')}`, ['Goblin 1']);
    const key = Object.keys(t.stored().exchange.attacks)[0];
    expect(key, 'the attack is open').toBeDefined();
    await run(`!defend --answer ${key} --ids ${t.id('Goblin 2')} --${spec.answerFlag} ${spec.choices[0]} --${spec.rollFlag} 10`, []);
    if (t.stored().exchange.attacks[key!]) await run(`!attack --resolve ${key}`, []);

    expect(inside).toEqual([]);
  });

  it('the check itself can fail: a rule that reads Roll20 while it resolves is caught', async () => {
    registerEdition(watched(edition, watchedId, (resolve) => (facts, rolls) => {
      getObj('graphic', facts.id);
      return resolve(facts, rolls);
    }));
    table = await openTable('src');
    watchApi();
    await table.say('GM', `!defense-round config edition ${watchedId}`);
    inside.length = 0;
    const line = HIT_LINES.find((candidate) => takes(edition.hit, candidate, (parsed) => edition.hit.plan(orderOf(parsed, edition.hit.flags, edition.hit.amount), CONTEXT)))!;
    await table.say('GM', line, ['Goblin 1']);
    expect(inside).toEqual(['getObj()']);
  });
});

describe('the writer asks the edition for a token\'s condition once', () => {
  let mock: MockRoll20;
  afterEach(() => mock?.uninstall());

  it.each(allEditions().map((edition) => [edition.id, edition] as const))('%s: once for a hit that changes its state (the condition before is the one read), never for a stance', (_id, edition) => {
    mock = createRoll20({ seed: 3 });
    buildDemoScene(mock);
    mock.install(globalThis);
    let asked = 0;
    const counting: AnyEdition = { ...edition, life: { ...edition.life, condition: (state, vitality) => (asked++, edition.life.condition(state, vitality)) } };
    const settings = defaultSettings();
    const tokens: Record<string, TokenRecord> = {};
    const waiting: Record<string, AnswerBox> = {};
    const reads = { settings, attributes: new AttributeIndex(), edition: counting, tokens, waiting };
    const writes = { settings, edition: counting, memories: { tokens, exchange: { waiting } } };
    const context: PlanContext = { ...CONTEXT, stamina: 'power' };
    const line = HIT_LINES.find((candidate) => takes(edition.hit, candidate, (parsed) => edition.hit.plan(orderOf(parsed, edition.hit.flags, edition.hit.amount), context)))!;
    const plans: Array<[Plan<unknown, unknown>, number]> = [[edition.hit.plan(orderOf(parseLine(line), edition.hit.flags, edition.hit.amount), context), 1]];
    if (edition.stance.modes.length > 0) plans.push([stancePlan(edition.stance, edition.stance.modes[1] ?? edition.stance.modes[0]!), 0]);
    for (const [plan, times] of plans) {
      for (const name of ['Goblin 1', 'Goblin 2']) {
        const token = mock.token(name);
        const reading = readFacts(readToken(token, characterOf(token), settings), tokens[token.id], plan, reads);
        const outcome = plan.resolve(reading.facts, { defense: 5 });
        if (isRefusal(outcome)) throw new Error(`${line}: refused ${JSON.stringify(outcome)}`);
        asked = 0;
        applyOutcome(writes, reading, outcome);
        expect(asked, `${name}: ${outcome.state === undefined ? 'a stance' : 'a hit'}`).toBe(outcome.state === undefined ? 0 : times);
      }
    }
  });
});
