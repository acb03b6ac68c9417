// The words of `flat`'s steps.
import type { Step } from '../../../src/rules/edition';

type FlatStep =
  | { kind: 'flat-hit'; who: string; amount: number }
  | { kind: 'flat-summary'; who: string; lost: number }
  | { kind: 'flat-defense'; defense: number; braced: boolean }
  | { kind: 'flat-vitality' | 'flat-set'; before: number; after: number }
  | { kind: 'flat-check'; who: string }
  | { kind: 'flat-braced'; who: string; braced: boolean }
  | { kind: 'flat-roll'; roll: number; braced: boolean }
  | { kind: 'flat-now'; dead: boolean };

export function flatWords(step: Step, nameOf: (id: string) => string): string {
  const s = step as FlatStep;
  switch (s.kind) {
    case 'flat-hit':
      return `${nameOf(s.who)} is hit for ${s.amount}`;
    case 'flat-summary':
      return `${nameOf(s.who)} ${s.lost > 0 ? 'is hurt' : 'is unharmed'}.`;
    case 'flat-defense':
      return `Defense ${s.defense}${s.braced ? ' (braced: doubled)' : ''}`;
    case 'flat-vitality':
    case 'flat-set':
      return s.before === s.after ? '' : `Vitality ${s.before} -> ${s.after}`;
    case 'flat-check':
      return `${nameOf(s.who)} braces`;
    case 'flat-braced':
      return `${nameOf(s.who)} ${s.braced ? 'is braced for the next hit' : 'fails to brace'}.`;
    case 'flat-roll':
      return `d20 ${s.roll} vs 11: ${s.braced ? 'success' : 'failure'}`;
    case 'flat-now':
      return s.dead ? 'Dead' : 'Down';
  }
}
