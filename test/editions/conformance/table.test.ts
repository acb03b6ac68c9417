// The edition conformance suite at the table (issue 31): over every registered edition, switched
// to by the GM and played through the whole script, a hand edit that changes the condition posts a
// card, an answer on file is used up by the hit, and an undone attack leaves no answer on file.
import { editionsUnderTest } from '../../support/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnyEdition } from '../../../src/rules/edition';
import { plainAttack } from '../../../src/rules/editions';
import { specLines, usageLine } from '../../support/conformance';
import { openTable, texts, type Table } from '../../support/table';

const EDITIONS = editionsUnderTest();

/** Editions whose `!defend` files an answer ahead of the hit (one that is not refused, with an answer besides none). */
const FILING = EDITIONS.filter(([, edition]) => !edition.check.refused && edition.check.answers.choices.some((choice) => choice !== 'none'));

/** A real hit's arguments (`200`, `8 --attack 15`): its spec's first example (else its usage's required form) without its command. */
const hitArguments = (edition: AnyEdition) => (edition.hit.examples?.[0] ?? usageLine(edition.hit.usage)).split(' ').slice(1).join(' ');

/** Each answer but none, and the rolls to try for it: lowest, highest and between, on its own die. */
function answerTries(edition: AnyEdition): Array<{ word: string; roll: number }> {
  const { answers } = edition.check;
  const tries: Array<{ word: string; roll: number }> = [];
  const words = answers.choices.filter((choice) => choice !== 'none');
  for (const word of words.length > 0 ? words : answers.choices) {
    const die = answers.planAnswer(word, plainAttack(null), { overwhelmLimit: 20, stamina: 'power', gm: true }, { positionals: [] }).dice.find((candidate) => candidate.flag === answers.rollFlag);
    const sides = die?.sides ?? 1;
    for (const roll of new Set([1, sides, Math.ceil(sides / 2)])) tries.push({ word, roll });
  }
  return tries;
}

let table: Table;
afterEach(() => table?.close());

async function playing(id: string): Promise<Table> {
  table = await openTable('src');
  await table.say('GM', `!defense-round config edition ${id}`);
  expect(table.stored().settings.edition).toBe(id);
  return table;
}

const all = (records: Array<{ content: string }>) => texts(records as never).join('\n');

describe.each(EDITIONS)('edition %s: a hand edit that changes the condition posts a card', (id, edition) => {
  it('Goblin 1 typed from 30 down to where its condition changes: the GM hears of it', async () => {
    const { life } = edition;
    const standing = life.enter(30, false);
    const before = life.condition(standing, 30);
    const typed = [0, -1, -5, -10, -11, -20, -30, -100].find((to) => {
      const set = life.setVitality(30, to, standing);
      return life.condition(set.state, set.vitality) !== before;
    });
    // Every edition marks a token somewhere at or below 0 (rules.md, "Switching editions").
    expect(typed, 'a Vitality at which the condition changes').toBeDefined();
    const t = await playing(id);
    t.mock.userEdit(t.mock.token('Goblin 1'), { bar1_value: typed });
    await t.mock.settle();
    t.mock.assertNoCrash();
    expect(all(t.mock.newMessages())).toMatch(/Goblin 1: Vitality edited by hand/);
  });
});

describe.each(FILING)('edition %s: an answer on file is used up by the hit', (id, edition) => {
  it('!defend files an answer for Goblin 1; the next !damage on it leaves none', async () => {
    const t = await playing(id);
    const goblin = t.id('Goblin 1');
    const { answerFlag, rollFlag } = edition.check.answers;
    let filed = false;
    for (const { word, roll } of answerTries(edition)) {
      await t.say('GM', `!defend --${answerFlag} ${word} --${rollFlag} ${roll}`, ['Goblin 1']);
      if ((filed = t.stored().exchange.waiting[goblin] !== undefined)) break;
    }
    expect(filed, 'some answer of its !defend is filed').toBe(true);
    const hit = await t.say('GM', `!damage ${hitArguments(edition)}`, ['Goblin 1']);
    expect(t.stored().exchange.waiting[goblin], all(hit)).toBeUndefined();
  });
});

describe.each(EDITIONS)('edition %s: undoing an attack leaves no answer on file', (id, edition) => {
  it('Bob attacks Goblin 1, it answers, the attack resolves; the undo leaves Goblin 1 no answer', async () => {
    const { answerFlag, rollFlag } = edition.check.answers;
    let undone = 0;
    // Each hit and answer at a fresh table, until one lands (a missed or blocked hit leaves nothing to undo).
    for (const line of specLines(edition.hit)) {
      for (const { word, roll } of answerTries(edition)) {
        const t = await playing(id);
        const goblin = t.id('Goblin 1');
        await t.say('GM', `${line.replace(/^!damage/, '!attack')} --ids ${goblin}`, ['Bob']);
        if (t.stored().exchange.attacks.A1 === undefined) break;
        const answered = await t.say('GM', `!defend --answer A1 --ids ${goblin} --${answerFlag} ${word} --${rollFlag} ${roll}`);
        expect(t.stored().exchange.attacks, all(answered)).toEqual({});
        const undo = await t.say('GM', '!damage --undo');
        t.close();
        if (/no damage to undo/.test(all(undo))) continue;
        undone += 1;
        expect(t.stored().exchange.waiting[goblin], `${line}, answered ${word} ${roll}: ${all(undo)}`).toBeUndefined();
      }
    }
    expect(undone, 'some attack landed, and was undone').toBeGreaterThan(0);
  });
});
