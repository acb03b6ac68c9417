// `!stance MODE` in every edition: the pipeline plays the edition's stance table (architecture.md,
// "The edition seam"). The mode lasts until changed; the same mode again changes nothing, said to
// the sender alone; the default mode is never kept, so it shows no marker.
import { at, SUMMARY, TITLE, type Plan, type StanceSpec, type Step } from './edition';

export type StanceStep =
  | { kind: 'stance-title'; who: string; stance: string; same: boolean; summary?: true }
  | { kind: 'stance-change'; from: string; to: string }
  | { kind: 'stance-effect'; stance: string };

export const STANCE_KINDS: ReadonlySet<string> = new Set(['stance-title', 'stance-change', 'stance-effect']);

/** The plan of `!stance MODE` for one edition's stance table. */
export function stancePlan<S, A>(spec: StanceSpec, stance: string): Plan<S, A> {
  return {
    values: [],
    dice: [],
    resolve(facts) {
      const from = facts.stance ?? spec.default;
      const same = from === stance;
      const who = facts.id;
      const steps: Step[] = [
        at(TITLE, { kind: 'stance-title', who, stance, same }),
        at(SUMMARY, { kind: 'stance-title', who, stance, same, summary: true }),
        at(spec.row, { kind: 'stance-change', from, to: stance }),
        at(spec.row, { kind: 'stance-effect', stance }),
      ];
      return {
        headline: 'acts',
        steps,
        changes: [],
        stance: stance === spec.default ? null : stance,
        ...(same ? { noop: true } : {}),
        observed: false,
        detail: { stance },
      };
    },
  };
}

/** The words of a stance step, from the edition's stance table. */
export function stanceWords(step: StanceStep, spec: StanceSpec, nameOf: (id: string) => string): string {
  switch (step.kind) {
    case 'stance-title': {
      const mode = spec.says[step.stance];
      return `${nameOf(step.who)} ${step.same ? mode?.already : mode?.takes}${step.summary ? '.' : ''}`;
    }
    case 'stance-change':
      return step.from === step.to ? `${step.to}, unchanged` : `${step.from} -> ${step.to}`;
    case 'stance-effect':
      return spec.says[step.stance]?.effect ?? '';
  }
}
