// The rules of `flat`, a small edition that exists only in the tests (issue 31: an edition like it
// takes half the lines it took): a hit loses its amount less Defense; a d20 defense made ahead (11
// or more) doubles Defense against the next hit; at 0 a token is down, at -10 dead.
import { at, SUMMARY, TITLE, type Condition, type Facts, type Order, type Plan, type Resolution } from '../../../src/rules/edition';

/** Only a token entered dead for good keeps anything: that it is dead. */
export interface FlatState {
  dead?: true;
}
export type FlatAnswer = 'braced';

export const conditionAt = (vitality: number | null): Condition => (vitality === null || vitality > 0 ? 'none' : vitality > -10 ? 'incapacitated' : 'dead');
export const conditionOf = (state: FlatState, vitality: number | null): Condition => (state.dead ? 'dead' : conditionAt(vitality));

/** `!damage N [--pierce P]`: Defense (less piercing) comes off the hit, twice when braced. */
export function hitPlan(order: Order): Plan<FlatState, FlatAnswer> {
  const amount = order.amount ?? 0;
  const pierce = (order.pierce as number | undefined) ?? 0;
  return {
    values: ['armor_defense'],
    dice: [],
    resolve(facts: Facts<FlatState, FlatAnswer>): Resolution<FlatState, FlatAnswer> {
      const before = facts.bars.vitality.value;
      if (before === null) return { kind: 'bar', resource: 'vitality' };
      const braced = facts.answer === 'braced';
      const defense = Math.max(0, (facts.values.armor_defense?.current ?? 0) - pierce) * (braced ? 2 : 1);
      const after = before - Math.max(0, amount - defense);
      const who = facts.id;
      const falls = conditionAt(after) !== conditionAt(before);
      return {
        headline: after === before ? 'unharmed' : falls ? (conditionAt(after) === 'dead' ? 'dies' : 'falls') : 'hit',
        steps: [
          at(TITLE, { kind: 'flat-hit', who, amount }),
          at(SUMMARY, { kind: 'flat-summary', who, lost: before - after }),
          at('Breakdown', { kind: 'flat-defense', defense, braced }),
          at('Breakdown', { kind: 'flat-vitality', before, after }),
        ],
        changes: after === before ? [] : [{ kind: 'bar', resource: 'vitality', to: after }],
        state: after > 0 ? {} : facts.state,
        ...(facts.answer !== null ? { answer: null } : {}),
        detail: { before, after, defense },
      };
    },
  };
}

/** `!defend --action defend [--roll 1-20]`: a d20, 11 or more, braces for the next hit. */
export function checkPlan(): Plan<FlatState, FlatAnswer> {
  return {
    values: [],
    dice: [{ name: 'check', sides: 20, flag: 'roll' }],
    resolve(facts, rolls) {
      const roll = rolls.check ?? 1;
      const braced = roll >= 11;
      return {
        headline: 'acts',
        steps: [at(TITLE, { kind: 'flat-check', who: facts.id }), at(SUMMARY, { kind: 'flat-braced', who: facts.id, braced }), at('Check', { kind: 'flat-roll', roll, braced })],
        changes: [],
        ...(braced ? { answer: 'braced' as const } : {}),
        observed: false,
        detail: { roll },
      };
    },
  };
}
