// `!attack` in the `opposed` edition: the defender answers with its defense mode (Opposed Rolls:
// "the opponent can choose"), and its d20 is rolled with the answer; a mode the overwhelm limit
// refuses now is not offered, and an answer naming it is refused (rules.md, "an answer the limit
// forbids"). The attack keeps both, typed; its hit reads them as `!damage` would its
// `--defense-mode` and `--defense-roll`.
import { at, SUMMARY, type AttackSpec } from '../edition';
import { affordableMode, DEFENSE_MODES, INITIATIVE_COST, type DefenseMode } from './attack';
import type { OpposedState } from './state';

/** A defender's answer to an attack: the mode it chose and its d20 (never on file: `!defend` is not used). */
export interface OpposedAnswer {
  mode: DefenseMode;
  roll: number;
}

/** A kept answer, checked at start-up: a mode and a d20's face. */
export function parseOpposedAnswer(raw: unknown): OpposedAnswer | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const { mode, roll, ...rest } = raw as { mode?: unknown; roll?: unknown };
  if (Object.keys(rest).length > 0 || !(DEFENSE_MODES as readonly unknown[]).includes(mode)) return null;
  return Number.isInteger(roll) && (roll as number) >= 1 && (roll as number) <= 20 ? { mode: mode as DefenseMode, roll: roll as number } : null;
}

const LABEL: Record<DefenseMode, string> = { passive: 'Passive', active: 'Active (-5 initiative)', full: 'Full (-10)' };

export const opposedAttack: AttackSpec<OpposedState, OpposedAnswer> = {
  flags: {},
  answerFlag: 'mode',
  rollFlag: 'roll',
  choices: DEFENSE_MODES,
  label: (word) => LABEL[word as DefenseMode] ?? word,
  situation: () => null,
  situationWords: (situation) => situation,
  planAnswer(word, _situation, _attacker, context) {
    const mode = word as DefenseMode;
    return {
      values: [],
      dice: [{ name: 'defense', sides: 20, flag: 'roll' }],
      readsTurnOrder: true,
      resolve(facts, rolls) {
        const turn = { defender: facts.initiative, current: facts.currentTurn?.initiative ?? null, limit: context.overwhelmLimit };
        if (affordableMode(mode, turn) !== mode) {
          return { kind: 'refused', reason: `${mode} defense costs ${INITIATIVE_COST[mode]} initiative, more than the overwhelm limit allows now` };
        }
        const roll = rolls.defense ?? 1;
        return {
          headline: 'acts',
          steps: [at(SUMMARY, { kind: 'mode-answer', who: facts.id, mode, roll }), at('Check', { kind: 'mode-roll', mode, roll })],
          changes: [],
          observed: false,
          detail: { mode, roll },
        };
      },
    };
  },
  keep: (word, _outcome, rolls) => ({ word, answer: { mode: word as DefenseMode, roll: rolls.defense ?? 1 }, roll: rolls.defense ?? 1 }),
  // The answer's d20 is the hit's defense roll.
  rolled: (answer) => ({ defense: answer.roll }),
};
