// `flat`: an edition written only for the tests, declared on the seam (src/rules/edition.ts).
import { at, type Edition } from '../../../src/rules/edition';
import { checkPlan, conditionOf, hitPlan, type FlatAnswer, type FlatState } from './rules';
import { flatWords } from './words';

export const flat: Edition<FlatState, FlatAnswer> = {
  id: 'flat',
  table: { playable: true, reads: ['armor_defense'], settings: [], markers: ['incapacitated', 'dead'], macros: [] },
  hit: {
    flags: { pierce: { kind: 'integer', min: 0, max: 100 } },
    amount: { what: 'the damage', missing: 'no damage given: !damage 12' },
    usage: '!damage N [--pierce P]',
    help: ['A hit loses its amount less Defense (armor_defense).'],
    examples: ['!damage 12', '!damage 12 --pierce 3'],
    plan: hitPlan,
    handEdit: (loss) => hitPlan({ amount: loss, positionals: [] }),
  },
  check: {
    flags: { action: { kind: 'choice', choices: ['defend'], required: true }, roll: { kind: 'die', sides: 20 } },
    usage: '!defend --action defend [--roll 1-20]',
    help: ['A d20 of 11 or more doubles Defense against the next hit.'],
    examples: ['!defend --action defend', '!defend --action defend --roll 15'],
    plan: checkPlan,
    answers: { choices: ['defend', 'none'] },
  },
  stance: { flags: {}, usage: '!stance (flat has no stances)', help: [], modes: [], default: 'none', row: 'Stance', says: {} },
  life: {
    enter: (_vitality, deadForGood) => (deadForGood ? { dead: true } : {}),
    condition: conditionOf,
    // A hand edit above 0 brings back even a token dead for good (the GM's way to undo a death).
    setVitality(before, after, state) {
      const next = after > 0 ? {} : state;
      const now = conditionOf(next, after);
      return {
        vitality: after,
        state: next,
        steps: [{ kind: 'flat-set', before, after }],
        conditions: [],
        now: now === 'none' ? undefined : at('Now', { kind: 'flat-now', dead: now === 'dead' }),
        ...(now !== 'none' && conditionOf(state, before) === 'none' ? { dropsAnswer: true as const } : {}),
      };
    },
    parseState: (raw) => (raw !== null && typeof raw === 'object' && !Array.isArray(raw) && Object.keys(raw).every((key) => key === 'dead' && (raw as FlatState).dead === true) ? (raw as FlatState) : null),
    parseAnswer: (raw) => (raw === 'braced' ? 'braced' : null),
  },
  words: flatWords,
};
