// The proof of the edition seam (architecture.md): a fourth edition that exists only in this test,
// registered beside the three, is switched to and plays every command through the one pipeline:
// !stance, !defend (a defense made ahead, waiting for its hit), !damage (which takes it), !heal, a
// hand edit, and undo. Nothing outside its object knows it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { at, SUMMARY, TITLE, type Edition, type Plan, type Step } from '../../src/rules/edition';
import { registerEdition, unregisterEdition } from '../../src/rules/editions';
import { keepFiled } from '../../src/rules/shared';
import { openTable, texts, whispered, type Table } from '../support/table';

/** What the toy edition keeps per token: nothing but whether it is down. */
interface TallyState {
  down?: true;
}
/** Its defense made ahead: a block that takes the next hit whole. */
type TallyAnswer = 'block';

const stateAt = (vitality: number): TallyState => (vitality <= 0 ? { down: true } : {});

// The toy rules: a hit loses its amount less armor_soak; a block made ahead (d20, 11 or more) takes
// the next hit whole; at 0 or below the token is down (shown dead); the braced stance halves a hit.
const tally: Edition<TallyState, TallyAnswer> = {
  id: 'tally',
  table: { playable: true, reads: ['armor_soak'], settings: [], markers: ['dead'], macros: [{ name: 'DR-Attack', action: '!attack ?{Tally|10} --ids @{target|Defender|token_id}', tokenAction: true }] },
  hit: {
  flags: { brutal: { kind: 'switch' } },
  usage: '!damage N [--brutal]',
  help: ['A hit of N, less armor_soak.'],
  amount: { what: 'the amount', missing: 'one amount', max: 1000 },
  plan(order): Plan<TallyState, TallyAnswer> {
    const amount = order.amount ?? 0;
    const brutal = order.brutal === true;
    return {
      values: ['armor_soak'],
      dice: [],
      resolve(facts) {
        const vitality = facts.bars.vitality.value;
        if (vitality === null) return { kind: 'bar', resource: 'vitality' };
        const who = facts.id;
        if (facts.answer === 'block' && !brutal) {
          return { headline: 'blocked', steps: [at(TITLE, { kind: 'tally-hit', who, amount }), at(SUMMARY, { kind: 'tally-blocked', who }), at('Block', { kind: 'tally-block-used' })], changes: [], answer: null, state: facts.state, detail: {} };
        }
        const armor = facts.values.armor_soak?.current ?? 0;
        let loss = Math.max(0, amount - armor);
        if (facts.stance === 'braced') loss = Math.floor(loss / 2);
        const after = vitality - loss;
        return {
          headline: after <= 0 && vitality > 0 ? 'falls' : 'hit',
          steps: [at(TITLE, { kind: 'tally-hit', who, amount }), at(SUMMARY, { kind: 'tally-struck', who }), at('Tally', { kind: 'tally-loss', amount, armor, loss, before: vitality, after })],
          changes: after !== vitality ? [{ kind: 'bar', resource: 'vitality', to: after }] : [],
          state: stateAt(after),
          ...(facts.answer !== null ? { answer: null } : {}),
          detail: { loss },
        };
      },
    };
  },
  handEdit(loss, context) {
    return tally.hit.plan({ amount: loss, brutal: false, positionals: [] }, context);
  },
  },
  check: {
  flags: { action: { kind: 'choice', choices: ['block'], required: true }, roll: { kind: 'die', sides: 20 } },
  usage: '!defend --action block [--roll 1-20]',
  help: ['A block made ahead takes the next hit whole.'],
  plan() {
    return {
      values: [],
      dice: [{ name: 'block', sides: 20, flag: 'roll' }],
      resolve(facts, rolls) {
        const roll = rolls.block ?? 1;
        const who = facts.id;
        const blocks = roll >= 11;
        return {
          headline: 'acts',
          steps: [at(TITLE, { kind: 'tally-block-title', who }), at(SUMMARY, { kind: 'tally-block-summary', who, blocks }), at('Check', { kind: 'tally-block-roll', roll, blocks })],
          changes: [],
          ...(blocks ? { answer: 'block' as const } : {}),
          observed: false,
          detail: { roll },
        };
      },
    };
  },
  answers: {
    flags: {},
    answerFlag: 'action',
    rollFlag: 'roll',
    choices: ['block', 'none'],
    label: (word) => (word === 'block' ? 'Block' : 'Take it'),
    situation: () => null,
    situationWords: (situation) => situation,
    planAnswer: (word) => tally.check.plan({ action: word, positionals: [] }),
    keep: (word, outcome) => keepFiled(word, outcome),
  },
  },
  stance: {
  flags: {},
  usage: '!stance braced|loose',
  help: ['Braced halves every hit.'],
  modes: ['loose', 'braced'],
  default: 'loose',
  row: 'Stance',
  says: {
    loose: { takes: 'stands loose', already: 'already stands loose', effect: 'hits land whole' },
    braced: { takes: 'braces', already: 'is already braced', effect: 'halves every hit' },
  },
  },
  life: {
  setVitality(before, after) {
    const change: Step[] = [{ kind: 'tally-set', before, after } as Step];
    return { vitality: after, state: stateAt(after), steps: change, conditions: [], now: after <= 0 ? at('Now', { kind: 'tally-down' }) : undefined, ...(after <= 0 ? { dropsAnswer: true as const } : {}) };
  },
  enter: (vitality) => (vitality === null ? {} : stateAt(vitality)),
  condition: (state, vitality) => (state.down || (vitality !== null && vitality <= 0) ? 'dead' : 'none'),
  deadForGood: () => false,
  parseState: (raw) => (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).every((key) => key === 'down') ? (raw as TallyState) : null),
  isEmptyState: (state) => state.down !== true,
  describeStateChange: () => 'has changed since',
  parseAnswer: (raw) => (raw === 'block' ? 'block' : null),
  },
  words(step, nameOf) {
    const s = step as Step & Record<string, any>;
    switch (s.kind) {
      case 'tally-hit':
        return `${nameOf(s.who)} takes a tally of ${s.amount}`;
      case 'tally-blocked':
        return `${nameOf(s.who)} blocks it.`;
      case 'tally-block-used':
        return 'The block made ahead takes the hit whole';
      case 'tally-struck':
        return `${nameOf(s.who)} is struck.`;
      case 'tally-loss':
        return `${s.amount} - ${s.armor} armor = ${s.loss}; Vitality ${s.before} -> ${s.after}`;
      case 'tally-block-title':
        return `${nameOf(s.who)}: block`;
      case 'tally-block-summary':
        return `${nameOf(s.who)} ${s.blocks ? 'will block the next hit' : 'fails to block'}.`;
      case 'tally-block-roll':
        return `Block ${s.roll} vs 11: ${s.blocks ? 'success' : 'failure'}`;
      case 'tally-set':
        return `Vitality ${s.before} -> ${s.after}`;
      case 'tally-down':
        return 'Down for the count';
      default:
        return s.kind;
    }
  },
};

describe('a fourth edition, registered only in this test, plays every command through the pipeline', () => {
  let table: Table;
  beforeAll(() => registerEdition(tally));
  afterAll(() => unregisterEdition('tally'));
  afterEach(() => table?.close());

  const all = (out: Parameters<typeof texts>[0]) => texts(out).join('\n');

  async function tallyTable(): Promise<Table> {
    table = await openTable('src');
    const out = await table.say('GM', '!defense-round config edition tally');
    expect(whispered(out, 'gm').join('\n')).toMatch(/Edition is now tally/);
    expect(table.stored().settings.edition).toBe('tally');
    return table;
  }

  it('is offered in the settings menu and switched to by name', async () => {
    table = await openTable('src');
    const menu = await table.say('GM', '!defense-round');
    expect(menu.map((record) => record.content).join('\n')).toContain('!defense-round config edition tally');
    await table.say('GM', '!defense-round config edition tally');
    expect(table.stored().settings.edition).toBe('tally');
  });

  it('!stance takes its own stances, refuses others by its own list, and keeps the stance', async () => {
    await tallyTable();
    const out = await table.say('Alice', '!stance braced', ['Bob']);
    expect(all(out)).toMatch(/Bob braces/);
    expect(table.memory('Bob')).toEqual({ stance: 'braced' });
    const refused = await table.say('Alice', '!stance reactive', ['Bob']);
    expect(all(refused)).toMatch(/unknown stance "reactive" \(stances: loose, braced\)/i);
  });

  it('!defend rolls its named die (or takes --roll, marked typed for a player), and files the block as an answer waiting for its hit', async () => {
    await tallyTable();
    const typed = await table.say('Alice', '!defend --action block --roll 15', ['Bob']);
    expect(all(typed)).toMatch(/Block 15 vs 11: success/);
    expect(all(typed)).toMatch(/typed, not rolled: --roll 15/);
    expect(table.stored().exchange.waiting[table.id('Bob')]).toEqual({ edition: 'tally', answer: 'block' });
    const rolled = await table.say('GM', '!defend --action block', ['Goblin 1']);
    expect(all(rolled)).toMatch(/Block \d+ vs 11/);
    const bad = await table.say('GM', '!defend --action block --roll 30', ['Goblin 2']);
    expect(all(bad)).toMatch(/--roll must be from 1 to 20 \(got 30\)/);
    // A flag of another edition is named as meaning nothing here.
    const other = await table.say('GM', '!defend --action block --vs x', ['Goblin 2']);
    expect(all(other)).toMatch(/--vs means nothing in the tally edition/);
  });

  it('!damage takes the answer on file (used up), then hits; the undo puts the hit and the answer back', async () => {
    await tallyTable();
    await table.say('GM', '!defend --action block --roll 12', ['Goblin 1']);
    const blocked = await table.say('GM', '!damage 25', ['Goblin 1']);
    expect(all(blocked)).toMatch(/The block made ahead takes the hit whole/);
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.stored().exchange.waiting[table.id('Goblin 1')]).toBeUndefined();
    const hit = await table.say('GM', '!damage 25', ['Goblin 1']);
    // Goblin armor_soak 10: 25 - 10 = 15.
    expect(all(hit)).toMatch(/25 - 10 armor = 15; Vitality 30 -> 15/);
    expect(table.bar('Goblin 1')).toBe(15);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 1')).toBe(30);
    await table.say('GM', '!damage --undo');
    expect(table.stored().exchange.waiting[table.id('Goblin 1')]).toEqual({ edition: 'tally', answer: 'block' });
  });

  it('!heal raises a bar through its setVitality; a hand edit to 0 marks it down (dead marker) and drops its answer', async () => {
    await tallyTable();
    await table.say('GM', '!damage 30', ['Goblin 2']);
    expect(table.bar('Goblin 2')).toBe(10);
    await table.say('GM', '!heal 5', ['Goblin 2']);
    expect(table.bar('Goblin 2')).toBe(15);
    await table.say('GM', '!defend --action block --roll 20', ['Goblin 2']);
    table.mock.userEdit(table.mock.token('Goblin 2'), { bar1_value: 0 });
    await table.mock.settle();
    const out = table.mock.newMessages();
    expect(all(out)).toMatch(/Goblin 2: Vitality edited by hand.*Vitality 15 -> 0.*Down for the count/s);
    expect(table.markers('Goblin 2')).toEqual(['dead']);
    expect(table.stored().exchange.waiting[table.id('Goblin 2')]).toBeUndefined();
    // The dead are not healed.
    const heal = await table.say('GM', '!heal 5', ['Goblin 2']);
    expect(all(heal)).toMatch(/Goblin 2 is dead: healing does not bring the dead back/);
  });

  it('a hand edit read through armor is its hit.handEdit, recorded for undo', async () => {
    await tallyTable();
    await table.say('GM', '!defense-round config armor-on-manual-edits on');
    table.mock.userEdit(table.mock.token('Goblin 1'), { bar1_value: 5 });
    await table.mock.settle();
    // 25 typed off, less 10 armor: 15 lost, Vitality 15 (not the 5 typed).
    expect(table.bar('Goblin 1')).toBe(15);
    expect(all(table.mock.newMessages())).toMatch(/read through armor.*25 - 10 armor = 15; Vitality 30 -> 15/s);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 1')).toBe(30);
  });

  it('!attack prompts with its own answers, keeps the block until the hit, and resolves through the pipeline', async () => {
    await tallyTable();
    const goblin1 = table.id('Goblin 1');
    const goblin2 = table.id('Goblin 2');
    const declared = await table.say('GM', `!attack 25 --ids ${goblin1} ${goblin2}`, ['Bob']);
    expect(all(declared)).toMatch(/Attack A1: Bob attacks Goblin 1, Goblin 2/);
    expect(declared.map((record) => record.content).join('\n')).toContain(`!defend --answer A1 --ids ${goblin1} --action block`);
    await table.say('GM', `!defend --answer A1 --ids ${goblin1} --action block --roll 15`);
    expect(table.bar('Goblin 1')).toBe(30);
    const resolved = await table.say('GM', `!defend --answer A1 --ids ${goblin2} --action none`);
    // The result's title names the attacker (an edition whose words put no hit in its title: no amount).
    expect(all(resolved)).toMatch(/Bob's attack A1 \(GM\)/);
    expect(table.bar('Goblin 1')).toBe(30);
    expect(table.bar('Goblin 2')).toBe(15);
    await table.say('GM', '!damage --undo');
    expect(table.bar('Goblin 2')).toBe(30);
  });
});
