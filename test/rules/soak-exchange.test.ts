// The `soak` edition's side of `!attack` (rules.md, "An attack's answers"; issue 32), as pure rules:
// what a defender may announce beside its answer, the answers' labels, and the attacker out of turn.
import { describe, expect, it } from 'vitest';
import { announced, attackerPlan, counterSpent, refusalNow } from '../../src/rules/soak/check';
import { answerLabel } from '../../src/rules/soak/words';
import type { SoakAnswer, SoakState } from '../../src/rules/soak/state';
import { plainAttack } from '../../src/rules/editions';
import { isRefusal, type AttackAsked, type Facts } from '../../src/rules/edition';
import { factsOf, val } from '../support/facts';

const VALUES = { defend_check: val(55), evade_check: val(45), reaction_check: val(50), perception_check: val(50), mental_check: val(40) };
const bob = (state: SoakState = {}, over: Partial<Facts<SoakState, SoakAnswer>> = {}) => factsOf<SoakState, SoakAnswer>(state, { values: VALUES, ...over });
/** Goblin 1 attacks Bob and Goblin 2. */
const attack = (situation: string | null = null, order: Record<string, unknown> = {}): AttackAsked => {
  const plain = plainAttack(situation, 'gob-1', 'bob-1');
  return { ...plain, order: { ...plain.order, ...order }, defenders: ['bob-1', 'gob-2'] };
};
const seen = (id: string) => (id === 'gob-2' ? 'Goblin 2' : undefined);
const labelsOf = (steps: ReturnType<typeof announced>) => steps.map((step) => step.label);
const commandOf = (steps: ReturnType<typeof announced>, label: string) => steps.find((step) => step.label === label && step.kind === 'button');

describe('refusalNow: what !defend would refuse now, before any roll', () => {
  it('one reaction check per enemy, whatever its result; none on its own turn or while down', () => {
    expect(refusalNow(bob({}, { stance: 'reactive' }), 'react', 'gob-1')).toBeNull();
    expect(refusalNow(bob({ reactions: { 'gob-1': false } }, { stance: 'reactive' }), 'react', 'gob-1')).toMatchObject({ code: 'already-reacted' });
    expect(refusalNow(bob({ reactions: { 'gob-1': 'used' } }, { stance: 'reactive' }), 'react', 'gob-1')).toMatchObject({ code: 'already-reacted' });
    expect(refusalNow(bob({ reactions: { 'gob-2': true } }, { stance: 'reactive' }), 'react', 'gob-1')).toBeNull();
    expect(refusalNow(bob({}, { stance: 'reactive', acting: true }), 'react', 'gob-1')).toMatchObject({ code: 'acting-turn' });
    expect(refusalNow(bob({}, { stance: 'reactive', bars: { ...bob().bars, vitality: { value: -3, max: 70 } } }), 'react', 'gob-1')).toMatchObject({ code: 'cannot-act', condition: 'incapacitated' });
    expect(refusalNow(bob({}, { stance: 'reactive', values: {} }), 'react', 'gob-1')).toBe('missing');
  });
});

describe('announced: the buttons beside the answers', () => {
  it('React against a known attacker in the reactive stance; once reacted, a line says why it is gone', () => {
    const fresh = announced(bob({}, { stance: 'reactive' }), attack(), seen);
    expect(commandOf(fresh, 'React (50)')).toMatchObject({ command: '!defend --action react --vs gob-1 --ids bob-1' });
    const reacted = announced(bob({ reactions: { 'gob-1': false } }, { stance: 'reactive' }), attack(), seen);
    expect(labelsOf(reacted)).toEqual(['React: made against this attacker this round already (one per enemy)', 'Defensive skill']);
    expect(labelsOf(announced(bob({}, { stance: 'reactive' }), { ...attack(), attacker: null }, seen))).toEqual(['Defensive skill']);
  });

  it('a counter attack and Reactive Guard for each other defender the reader sees, only after a successful, unused reaction', () => {
    const success = announced(bob({ reactions: { 'gob-1': true } }, { stance: 'reactive' }), attack('behind'), seen);
    expect(commandOf(success, 'Counter attack')).toMatchObject({ command: '!defend --action counter --vs gob-1 --situation behind --ids bob-1' });
    expect(commandOf(success, 'Reactive Guard: Goblin 2')).toMatchObject({ command: '!defend --action counter --vs gob-1 --ally gob-2 --skill Reactive Guard --situation behind --ids bob-1' });
    // A defender the reader does not see is not offered.
    expect(labelsOf(announced(bob({ reactions: { 'gob-1': true } }, { stance: 'reactive' }), attack(), () => undefined))).not.toContain('Reactive Guard: Goblin 2');
    for (const reaction of [false, 'used'] as const) expect(labelsOf(announced(bob({ reactions: { 'gob-1': reaction } }, { stance: 'reactive' }), attack(), seen))).not.toContain('Counter attack');
    expect(labelsOf(announced(bob({ reactions: { 'gob-1': true } }, { stance: 'defensive' }), attack(), seen))).not.toContain('Counter attack');
  });

  it('a covert attack\'s perception penalty goes with the counter it gates', () => {
    const steps = announced(bob({ reactions: { 'gob-1': true } }, { stance: 'reactive' }), attack('covert', { 'perception-mod': -10 }), seen);
    expect(commandOf(steps, 'Counter attack')).toMatchObject({ command: '!defend --action counter --vs gob-1 --situation covert --perception-mod -10 --ids bob-1' });
  });

  it('a defensive skill, once per attacker in the defensive stance', () => {
    expect(commandOf(announced(bob({}, { stance: 'defensive' }), attack(), seen), 'Defensive skill')).toMatchObject({ command: '!defend --action skill --vs gob-1 --ids bob-1' });
    expect(labelsOf(announced(bob({ skillsVs: ['gob-1'] }, { stance: 'defensive' }), attack(), seen))).toEqual([]);
    // With no attacker known, the defensive stance's skill cannot name it: not offered.
    expect(labelsOf(announced(bob({}, { stance: 'defensive' }), { ...attack(), attacker: null }, seen))).toEqual([]);
  });

  it('the stance buttons once for a standing defender with none; nothing for one that is down or on its own turn but what it may still do', () => {
    expect(labelsOf(announced(bob(), attack(), seen))).toEqual(['Defensive skill', 'Defensive stance', 'Reactive stance']);
    expect(labelsOf(announced(bob({}, { acting: true }), attack(), seen))).toEqual(['Defensive stance', 'Reactive stance']);
    expect(labelsOf(announced(bob({}, { stance: 'reactive', bars: { ...bob().bars, vitality: { value: -3, max: 70 } } }), attack(), seen))).toEqual([]);
    expect(labelsOf(announced(bob({}, { bars: { ...bob().bars, vitality: { value: -3, max: 70 } } }), attack(), seen))).toEqual([]);
  });
});

describe('answerLabel: the check that is rolled, with its final target', () => {
  it.each([
    [null, 'defend', 'Defend (55)'],
    ['side', 'defend', 'Defend (50)'],
    ['projectile', 'evade', 'Evade (25)'],
    ['projectile', 'defend', 'Defend (55)'],
    ['gun', 'evade', 'Evade (-5)'],
    ['spell-unseen', 'evade', 'Evade (20, Mental 40 first)'],
    ['spell-unseen', 'defend', 'Defend (55)'],
    ['behind', 'evade', 'Evade (40, Perception 50 first)'],
    ['none', 'none', 'No defense'],
  ])('%s: %s is "%s"', (situation, word, label) => {
    expect(answerLabel(word, VALUES, attack(situation === 'none' ? null : situation))).toBe(label);
  });

  it('a covert attack\'s perception penalty is in the perception target; a missing target is not guessed', () => {
    expect(answerLabel('defend', VALUES, attack('covert', { 'perception-mod': -10 }))).toBe('Defend (55, Perception 40 first)');
    expect(answerLabel('defend', { defend_check: val(55) }, attack('behind'))).toBe('Defend (50, Perception first)');
    expect(answerLabel('evade', {}, attack())).toBe('Evade');
  });
});

describe('attackerPlan: out of turn only a counter attack (The Defensive Round: "You cannot ... attack")', () => {
  const turn = { initiative: 12, hidden: false };
  const resolve = (counter: boolean, facts: Facts<SoakState, SoakAnswer>) => {
    const plan = attackerPlan({ positionals: [], counter }, ['bob-1']);
    const resolution = plan.resolve(facts, {});
    return isRefusal(resolution) ? (resolution.kind === 'refused' ? resolution.reason : resolution.kind) : null;
  };

  it('reads the Turn Tracker, and the defenders only for a counter', () => {
    expect(attackerPlan({ positionals: [], counter: false }, ['bob-1'])).toMatchObject({ readsTurnOrder: true, values: [], dice: [] });
    expect(attackerPlan({ positionals: [], counter: false }, ['bob-1']).others).toBeUndefined();
    expect(attackerPlan({ positionals: [], counter: true }, ['bob-1']).others).toEqual(['bob-1']);
  });

  it('no Turn Tracker, or its own turn: any attack; another\'s turn: refused, saying why', () => {
    expect(resolve(false, bob())).toBeNull();
    expect(resolve(false, bob({}, { currentTurn: turn, acting: true }))).toBeNull();
    expect(resolve(false, bob({}, { currentTurn: turn }))).toMatch(/^not its turn .*--counter/);
  });

  it('--counter: the reactive stance and a successful, unused reaction against each defender; not on its own turn', () => {
    const others = { 'bob-1': { name: 'Bob', stance: null, state: {}, answer: null } };
    expect(resolve(true, bob({ reactions: { 'bob-1': true } }, { stance: 'reactive', currentTurn: turn, others }))).toBeNull();
    expect(resolve(true, bob({ reactions: { 'bob-1': 'used' } }, { stance: 'reactive', currentTurn: turn, others }))).toMatch(/reaction against Bob is already spent/);
    expect(resolve(true, bob({ reactions: { 'bob-1': false } }, { stance: 'reactive', others }))).toMatch(/need a successful reaction check against that attacker/);
    expect(resolve(true, bob({ reactions: { 'bob-1': true } }, { stance: 'defensive', others }))).toMatch(/defensive stance you cannot counter attack/);
    expect(resolve(true, bob({ reactions: { 'bob-1': true } }, { stance: 'reactive', currentTurn: turn, acting: true, others }))).toMatch(/its own turn/);
  });
});

describe('counterSpent: a counter attack spends the reaction it used, with the hit', () => {
  const attacker = (state: SoakState) => ({ name: 'Goblin 1', stance: 'reactive', state, answer: null });
  const counter = (counterFlag: boolean): AttackAsked => ({ ...attack(), order: { positionals: [], counter: counterFlag } });

  it('each defender\'s unused success becomes used; nothing else changes', () => {
    expect(counterSpent(attacker({ reactions: { 'bob-1': true, 'gob-2': false, 'elf-3': true }, skillsVs: ['x'] }), counter(true))).toEqual([
      { kind: 'ally-state', tokenId: 'gob-1', state: { reactions: { 'bob-1': 'used', 'gob-2': false, 'elf-3': true }, skillsVs: ['x'] } },
    ]);
  });

  it('nothing to spend: no change (not a counter, or no unused success left)', () => {
    expect(counterSpent(attacker({ reactions: { 'bob-1': true } }), counter(false))).toEqual([]);
    expect(counterSpent(attacker({ reactions: { 'bob-1': 'used' } }), counter(true))).toEqual([]);
    expect(counterSpent(attacker({}), counter(true))).toEqual([]);
  });
});
