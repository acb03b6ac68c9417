// The card of a `threshold` command as steps (title, public line, result, where the token stands
// now), each placed in its section, and their words. The renderer lays the card out.
import type { Headline, Step } from '../edition';
import { isDead, isDeadForGood, triesLeft, type ThresholdState } from './state';

export type ThresholdLayoutStep =
  /** `headline` and `lost`: the title tells what the attack did. */
  | { kind: 'attack-title'; who: string; amount: number; track: 'physical' | 'magical'; headline: Headline; lost: number }
  | { kind: 'attack-summary'; who: string; headline: Headline }
  /** Where a dead token stands; `standing`: a standing one says its Vitality too. */
  | { kind: 'dead-now'; state: ThresholdState; vitality: number; standing?: true }
  | { kind: 'defense-title'; who: string; action: string; situation: string }
  | { kind: 'defense-result'; who: string; guarded: string | null; result: 'success' | 'fail'; summary?: true }
  | { kind: 'defense-announced'; who: string; action: string }
  | { kind: 'save-title'; who: string }
  | { kind: 'save-summary'; who: string; stood: boolean };

const LAYOUT_KINDS = new Set<string>(['attack-title', 'attack-summary', 'dead-now', 'defense-title', 'defense-result', 'defense-announced', 'save-title', 'save-summary']);

export function isLayoutStep(step: Step): step is ThresholdLayoutStep & Step {
  return LAYOUT_KINDS.has(step.kind);
}

/** Where a dead token stands, in one line; undefined for one alive. */
export function nowLine(state: ThresholdState, vitality: number): string | undefined {
  if (!isDead(vitality)) return undefined;
  if (isDeadForGood(state, vitality)) return 'Dead for good: no save is left';
  if (!state.freeSaveUsed) return 'Dead: the free Vitality save is owed (!defend --action save)';
  const left = triesLeft(state);
  return `Dead: ${left} paid ${left === 1 ? 'try' : 'tries'} left, one a round, 1d% EXP each${state.triedThisRound ? ' (this round\'s try is used)' : ''}`;
}

/** A "Now" step for a dead token (or, `standing`, for any token). */
export function deadNow(section: string, state: ThresholdState, vitality: number, standing = false): ThresholdLayoutStep[] {
  if (!standing && !isDead(vitality)) return [];
  return [{ kind: 'dead-now', section, state, vitality, ...(standing ? { standing: true as const } : {}) } as ThresholdLayoutStep];
}

const ATTACK_SUMMARY: Partial<Record<Headline, string>> = { missed: 'is missed', dies: 'is hit and dies', hit: 'is hit' };

export function layoutWords(step: ThresholdLayoutStep, nameOf: (id: string) => string): string {
  switch (step.kind) {
    case 'attack-title': {
      const name = nameOf(step.who);
      const what = `(${step.amount} ${step.track})`;
      if (step.headline === 'missed') return `${name} takes no damage: the armor holds ${what}`;
      if (step.headline === 'dies') return `${name} loses ${step.lost} Vitality and dies ${what}`;
      if (step.headline === 'hit') return `${name} loses ${step.lost} Vitality ${what}`;
      return `${name} takes no damage ${what}`;
    }
    case 'attack-summary':
      return `${nameOf(step.who)} ${ATTACK_SUMMARY[step.headline] ?? 'is unharmed'}.`;
    case 'dead-now':
      return nowLine(step.state, step.vitality) ?? `Standing, Vitality ${step.vitality}`;
    case 'defense-title':
      return `${nameOf(step.who)}: ${step.action}${step.situation !== 'front' ? ` (${step.situation})` : ''}`;
    case 'defense-result': {
      const who = step.guarded !== null ? `${nameOf(step.who)} guards ${nameOf(step.guarded)}` : nameOf(step.who);
      const line = step.result === 'success' ? `${who}: the armor's Defense will apply to the next hit` : `${who}: no defense against the next hit`;
      return step.summary ? `${line}.` : line;
    }
    case 'defense-announced':
      return `${nameOf(step.who)} makes a defensive action (${step.action}).`;
    case 'save-title':
      return `${nameOf(step.who)}: Vitality save`;
    case 'save-summary':
      return step.stood ? `${nameOf(step.who)} makes a save and stands back up.` : `${nameOf(step.who)} stays dead.`;
  }
}
