// `!stance defensive|reactive|none` in the `soak` edition: the stance lasts until changed and
// shows as a marker (seed 000, "Defensive Stance", "Reactive Stance").
import type { Plan } from '../edition';
import type { SoakState } from './state';

export const SOAK_STANCE_USAGE = '!stance defensive|reactive|none [--ids ID ...] (no mode: show the selected tokens\' stances)';

const STANCE_EFFECT: Record<string, string> = {
  defensive: '5% of Fortitude off every hit; defensive skills on itself only (one per attacker per round); no counter attacks',
  reactive: 'one Reaction Check per attacker per round; a success allows a counter attack, skills on allies and aided checks',
  none: 'no stance',
};

export const SOAK_STANCE_HELP = [`Defensive: ${STANCE_EFFECT.defensive}. Reactive: ${STANCE_EFFECT.reactive}.`];

export function soakStancePlan(stance: string): Plan<SoakState> {
  return {
    values: [],
    dice: [],
    resolve(facts) {
      // The same stance again changes nothing: said so, to the sender only (noop).
      const same = (facts.stance ?? 'none') === stance;
      const title = same
        ? stance === 'none' ? `${facts.name} already has no stance` : `${facts.name} is already in the ${stance} stance`
        : stance === 'none' ? `${facts.name} drops its stance` : `${facts.name} takes the ${stance} stance`;
      return {
        headline: 'acts',
        steps: [],
        card: { title, rows: [{ label: 'Stance', lines: [same ? `${stance}, unchanged` : `${facts.stance ?? 'none'} -> ${stance}`, STANCE_EFFECT[stance] ?? ''] }] },
        shortLine: `${title}.`,
        changes: [],
        stance: stance === 'none' ? null : stance,
        ...(same ? { noop: true } : {}),
        observed: false,
        detail: { stance },
      };
    },
  };
}
