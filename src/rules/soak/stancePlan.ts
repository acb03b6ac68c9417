// `!stance defensive|reactive|none` in the `soak` edition: the stance lasts until changed and
// shows as a marker (The Defensive Round, "Defensive Stance", "Reactive Stance").
import { at, SUMMARY, TITLE, type Plan } from '../edition';
import type { SoakAnswer, SoakState } from './state';
import { STANCE_EFFECT } from './layout';

export const SOAK_STANCE_USAGE = '!stance defensive|reactive|none [--ids ID ...] (no mode: show the selected tokens\' stances)';

export const SOAK_STANCE_HELP = [`Defensive: ${STANCE_EFFECT.defensive}. Reactive: ${STANCE_EFFECT.reactive}.`];

export function soakStancePlan(stance: string): Plan<SoakState, SoakAnswer> {
  return {
    values: [],
    dice: [],
    resolve(facts) {
      // The same stance again changes nothing: said so, to the sender only (noop).
      const from = facts.stance ?? 'none';
      const same = from === stance;
      const who = facts.id;
      return {
        headline: 'acts',
        steps: [
          at(TITLE, { kind: 'stance-title', who, stance, same }),
          at(SUMMARY, { kind: 'stance-title', who, stance, same, summary: true }),
          at('Stance', { kind: 'stance-change', from, to: stance }),
          at('Stance', { kind: 'stance-effect', stance }),
        ],
        changes: [],
        stance: stance === 'none' ? null : stance,
        ...(same ? { noop: true } : {}),
        observed: false,
        detail: { stance },
      };
    },
  };
}
