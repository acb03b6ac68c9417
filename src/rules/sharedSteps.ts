// Steps every edition's cards share, and their words: heals (commands.md, "Heal"), hand edits
// (commands.md, "Hand edits"), a standing token, and the buttons a card offers. The renderer asks
// these words first, then the active edition's.
import { RESOURCE_LABEL, type AnyEdition, type Resource, type Step, type WordsContext } from './edition';
import { STANCE_KINDS, stanceWords, type StanceStep } from './stance';

export type SharedStep =
  | { kind: 'heal-title'; who: string; resource: Resource; amount: number }
  | { kind: 'healed'; resource: Resource; before: number; after: number; max: number | null; capped: boolean }
  | { kind: 'heal-summary'; who: string; healed: boolean; atMax: boolean }
  | { kind: 'hand-edit-title'; who: string }
  | { kind: 'hand-edit-read-title'; who: string; before: number; typed: number }
  /** `now`: where the token stands (a step of the edition's), said up to its first colon. */
  | { kind: 'hand-edit-summary'; who: string; now: Step | undefined }
  | { kind: 'standing' }
  | { kind: 'button'; label: string; command: string }
  /** A failed defense's button that applies damage (the renderer makes its command). */
  | { kind: 'offer-damage' };

const SHARED_KINDS = new Set<string>(['heal-title', 'healed', 'heal-summary', 'hand-edit-title', 'hand-edit-read-title', 'hand-edit-summary', 'standing', 'button', 'offer-damage']);

export function sharedWords(step: SharedStep, nameOf: (id: string) => string, say: (step: Step) => string): string {
  switch (step.kind) {
    case 'heal-title':
      return step.amount === 0 ? `${nameOf(step.who)} is not healed: ${RESOURCE_LABEL[step.resource]} already at its max` : `${nameOf(step.who)} is healed: ${RESOURCE_LABEL[step.resource]} +${step.amount}`;
    case 'healed': {
      // Nothing healed: the title said so, and no "30 -> 30" line is printed.
      if (step.before === step.after) return '';
      const capped = step.max === null ? ' (the bar has no max: not capped)' : step.capped ? ` (capped at max ${step.max})` : '';
      return `${RESOURCE_LABEL[step.resource]} ${step.before} -> ${step.after}${capped}`;
    }
    case 'heal-summary':
      // A short line carries no number (it is what the table sees of an NPC).
      return step.healed ? `${nameOf(step.who)} is healed.` : `${nameOf(step.who)} is not healed${step.atMax ? ': already at its max' : ''}.`;
    case 'hand-edit-title':
      return `${nameOf(step.who)}: Vitality edited by hand`;
    case 'hand-edit-read-title':
      return `${nameOf(step.who)}: Vitality edited by hand, ${step.before} -> ${step.typed}, read through armor`;
    case 'hand-edit-summary':
      return step.now ? `${nameOf(step.who)}: ${say(step.now).split(':')[0]}.` : `${nameOf(step.who)} is back on their feet.`;
    case 'standing':
      return 'Standing';
    case 'button':
      return step.label;
    case 'offer-damage':
      return 'Apply damage';
  }
}

/** The words of any step a card holds: the shared ones, then the edition's own (told `context`, or the one a call gives). */
export function wordsOf(edition: AnyEdition, nameOf: (id: string) => string, context?: WordsContext): (step: Step, told?: WordsContext) => string {
  const words = edition.words;
  const say = (step: Step, told = context): string =>
    SHARED_KINDS.has(step.kind) ? sharedWords(step as SharedStep, nameOf, say) : STANCE_KINDS.has(step.kind) ? stanceWords(step as StanceStep, edition.stance, nameOf) : words(step, nameOf, told);
  return say;
}
