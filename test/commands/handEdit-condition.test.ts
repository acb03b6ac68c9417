// A plain hand edit speaks when the condition changes, not only when the edition's stored state
// does (issue 31: "a plain hand edit that drops a `flat` token to 0 posts no card"). The edition
// here, registered only in this test, stores nothing: its condition is read from Vitality alone.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { at, SUMMARY, TITLE, type Edition, type Step } from '../../src/rules/edition';
import { registerEdition, unregisterEdition } from '../../src/rules/editions';
import { UsageError } from '../../src/text/args';
import { openTable, texts, type Table } from '../support/table';

type Bare = Record<string, never>;

/** Dead at 0 or below, read from the bar: nothing is kept per token. */
const bare: Edition<Bare, never> = {
  id: 'bare',
  table: { playable: true, reads: [], settings: [], markers: ['dead'], macros: [] },
  hit: {
    flags: {},
    usage: '!damage N',
    help: ['A hit of N.'],
    amount: { what: 'the amount', missing: 'no amount', max: 1000 },
    plan(order) {
      const amount = order.amount ?? 0;
      return {
        values: [],
        dice: [],
        resolve(facts) {
          const before = facts.bars.vitality.value;
          if (before === null) return { kind: 'bar', resource: 'vitality' };
          const who = facts.id;
          return {
            headline: 'hit',
            steps: [at(TITLE, { kind: 'bare-hit', who }), at(SUMMARY, { kind: 'bare-hit', who }), at('Hit', { kind: 'bare-set', before, after: before - amount })],
            changes: [{ kind: 'bar', resource: 'vitality', to: before - amount }],
            state: {},
            detail: {},
          };
        },
      };
    },
    handEdit(loss, context) {
      return bare.hit.plan({ command: '!damage', positionals: [String(loss)], flags: new Map() }, context);
    },
  },
  check: {
    flags: {},
    usage: '!defend (none here)',
    help: [],
    refused: 'the bare edition has no defense',
    plan: () => {
      throw new UsageError('the bare edition has no defense');
    },
    answers: {
      flags: {},
      answerFlag: 'action',
      rollFlag: 'roll',
      choices: ['none'],
      label: () => 'Take it',
      situation: () => null,
      situationWords: (situation) => situation,
      planAnswer: () => ({ values: [], dice: [], resolve: () => ({ kind: 'refused', reason: 'no defense' }) }),
      keep: (word) => ({ word }),
    },
  },
  stance: { flags: {}, usage: '!stance (none here)', help: [], modes: [], default: 'none', row: 'Stance', says: {} },
  life: {
    enter: () => ({}),
    condition: (_state, vitality) => (vitality !== null && vitality <= 0 ? 'dead' : 'none'),
    setVitality: (before, after) => ({
      vitality: after,
      state: {},
      steps: [{ kind: 'bare-set', before, after }],
      conditions: [],
      now: after <= 0 ? { kind: 'bare-dead' } : undefined,
    }),
    parseState: (raw) => (typeof raw === 'object' && raw !== null && !Array.isArray(raw) && Object.keys(raw).length === 0 ? {} : null),
  },
  words(step: Step & { who?: string; before?: number; after?: number }, nameOf) {
    if (step.kind === 'bare-hit') return `${nameOf(step.who!)} is hit`;
    if (step.kind === 'bare-set') return `Vitality ${step.before} -> ${step.after}`;
    return step.kind === 'bare-dead' ? 'Dead: at or below 0' : '';
  },
};

describe('a plain hand edit in an edition that stores no state', () => {
  let table: Table;
  beforeAll(() => registerEdition(bare));
  afterAll(() => unregisterEdition('bare'));
  afterEach(() => table?.close());

  async function edit(value: number) {
    table.mock.userEdit(table.mock.token('Goblin 1'), { bar1_value: value });
    await table.mock.settle();
    table.mock.assertNoCrash();
    return texts(table.mock.newMessages()).join('\n');
  }

  it('posts a card when the condition changes (down to 0, and back up), and none when it does not', async () => {
    table = await openTable('src');
    await table.say('GM', '!defense-round config edition bare');
    expect(table.stored().settings.edition).toBe('bare');
    expect(await edit(12)).toBe('');
    const down = await edit(0);
    expect(down).toMatch(/Goblin 1: Vitality edited by hand.*Vitality 12 -> 0.*Dead: at or below 0/s);
    expect(table.markers('Goblin 1')).toEqual(['dead']);
    expect(await edit(-5)).toBe('');
    expect(await edit(8)).toMatch(/Goblin 1: Vitality edited by hand.*Vitality -5 -> 8/s);
    expect(table.markers('Goblin 1')).toEqual([]);
  });
});
