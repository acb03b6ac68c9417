// The chat card of one hit on one token: the defense used, every step, and where it left the token.
import type { SoakDamageOutcome } from './resolveDamage';
import type { Life } from './life';
import type { DamageStep } from './damageSteps';
import { describeDamageStep } from './damageText';
import type { CardWords } from '../edition';

export interface HitDescription {
  amount: number;
  track: 'physical' | 'magical';
  to: 'vitality' | 'soul' | 'power';
  piercePercent: number;
  instantKill: boolean;
}

function hitTitle(name: string, hit: HitDescription): string {
  if (hit.instantKill) return `${name}: instant kill`;
  if (hit.to !== 'vitality') return `${name} takes ${hit.amount} to ${hit.to === 'soul' ? 'Soul' : 'Power'}`;
  const pierce = hit.piercePercent > 0 ? `, ${hit.piercePercent}% piercing` : '';
  return `${name} takes ${hit.amount} ${hit.track}${pierce}`;
}

/** What the token's condition asks of the table next, in one line. */
export function lifeLine(life: Life): string | undefined {
  switch (life.condition) {
    case 'none':
      return undefined;
    case 'incapacitated':
      return life.savesOwed > 0
        ? 'Incapacitated: one save owed (!defend --action save) to stand back up at 1 Vitality'
        : 'Incapacitated';
    case 'dying':
      return `Dying: ${life.savesOwed} save${life.savesOwed === 1 ? '' : 's'} owed (!defend --action save); the first success keeps it alive at -9`;
    case 'dead':
      return 'Dead';
  }
}

/** The seed tells the Vitality change first, then the armor's wear: show them in that order. */
function inSeedOrder(steps: DamageStep[]): DamageStep[] {
  const wear = steps.find((step) => step.kind === 'protection-wear');
  const vitality = steps.findIndex((step) => step.kind === 'vitality-change');
  if (!wear || vitality === -1) return steps;
  const rest = steps.filter((step) => step !== wear);
  const at = rest.findIndex((step) => step.kind === 'vitality-change');
  return [...rest.slice(0, at + 1), wear, ...rest.slice(at + 1)];
}

export function damageCard(name: string, hit: HitDescription, outcome: SoakDamageOutcome): CardWords {
  const steps = inSeedOrder(outcome.steps.filter((step) => step.kind !== 'defense-used')).map(describeDamageStep);
  const defense = outcome.steps.find((step) => step.kind === 'defense-used');
  const now = lifeLine(outcome.life);
  return {
    title: hitTitle(name, hit),
    rows: [
      { label: 'Defense', lines: defense ? [describeDamageStep(defense)] : [] },
      { label: 'Breakdown', lines: steps },
      { label: 'Now', lines: now ? [now] : [] },
    ],
  };
}

/** The public line when the breakdown goes to the GM only: no numbers. */
export function damageShortLine(name: string, outcome: SoakDamageOutcome, lifeBefore: Life): string {
  if (outcome.cancelled) return `${name} blocks the hit.`;
  const changed = outcome.life.condition !== lifeBefore.condition;
  switch (changed ? outcome.life.condition : 'none') {
    case 'incapacitated':
      return `${name} is hit and falls, incapacitated.`;
    case 'dying':
      return `${name} is hit and falls, dying.`;
    case 'dead':
      return `${name} is hit and dies.`;
    default:
      if (outcome.steps.some((step) => step.kind === 'vitality-loss' && step.loss === 0)) {
        return `${name} is hit, but the armor holds.`;
      }
      return outcome.changed ? `${name} is hit.` : `${name} is unharmed.`;
  }
}
