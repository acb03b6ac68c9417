// `!stance defensive|reactive|none` in the `soak` edition: the stance lasts until changed and
// shows as a marker (The Defensive Round, "Defensive Stance", "Reactive Stance").
import type { Plan } from '../edition';
import { stancePlan } from '../shared';
import type { SoakAnswer, SoakState } from './state';
import { STANCE_EFFECT } from './layout';

export const SOAK_STANCE_USAGE = '!stance defensive|reactive|none [--ids ID ...] (no mode: show the selected tokens\' stances)';

export const SOAK_STANCE_HELP = [`Defensive: ${STANCE_EFFECT.defensive}. Reactive: ${STANCE_EFFECT.reactive}.`];

export function soakStancePlan(stance: string): Plan<SoakState, SoakAnswer> {
  return stancePlan(stance, {
    fallback: 'none',
    row: 'Stance',
    title: 'stance-title',
    change: 'stance-change',
    effect: 'stance-effect',
    keep: (chosen) => (chosen === 'none' ? null : chosen),
    detail: (chosen) => ({ stance: chosen }),
  });
}
