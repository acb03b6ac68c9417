// The card of a `soak` command as steps: its title, its rows' extra lines (the result, where the
// token stands now), its one public line and its buttons, each a step placed in its section, and
// their words. The renderer lays the card out; nothing here knows chat.
import { ACTION, at, SUMMARY, TITLE, type ButtonStep } from '../edition';
import type { SoakDamageOutcome } from './resolveDamage';
import type { Life } from './life';

export interface HitDescription {
  amount: number;
  track: 'physical' | 'magical';
  to: 'vitality' | 'soul' | 'power';
  piercePercent: number;
  instantKill: boolean;
}

/** What a hit did, for its public line. */
type HitResult = 'blocks' | 'incapacitated' | 'dying' | 'dead' | 'armor-holds' | 'hit' | 'unharmed';

export type SoakLayoutStep =
  /** `result` and `lost` (Vitality, or the bar hit): the title tells what the hit did. */
  | { kind: 'hit-title'; who: string; hit: HitDescription; result: HitResult; lost?: number }
  | { kind: 'hit-summary'; who: string; result: HitResult }
  /** Where the token stands now (its condition, or standing at a Vitality). */
  | { kind: 'life-now'; life: Life; vitality: number | null }
  | { kind: 'save-title'; who: string }
  | { kind: 'save-summary'; who: string; result: 'stands' | 'clings' | 'dies' | 'fails' }
  | { kind: 'check-title'; who: string; action: string; situation: string }
  | { kind: 'check-result'; who: string; result: 'success' | 'fail'; action?: string }
  | { kind: 'check-summary'; who: string; action: string; result: 'success' | 'fail' | null }
  /** The Defensive Round: "you must declare what kind of stance you are taking: Defensive or Reactive". */
  | { kind: 'no-stance-declared' };

export const LAYOUT_KINDS: ReadonlySet<string> = new Set<string>(['hit-title', 'hit-summary', 'life-now', 'save-title', 'save-summary', 'check-title', 'check-result', 'check-summary', 'no-stance-declared']);


export const STANCE_EFFECT: Record<string, string> = {
  defensive: '5% of Fortitude off every hit; defensive skills on itself only (one per attacker per round); no counter attacks',
  reactive: 'one Reaction Check per attacker per round; a success allows a counter attack, skills on allies and aided checks',
  none: 'no stance',
};

/** What the token's condition asks of the table next, in one line. */
export function lifeLine(life: Life): string | undefined {
  switch (life.condition) {
    case 'none':
      return undefined;
    case 'incapacitated':
      return life.savesOwed > 0 ? 'Incapacitated: one save owed (!defend --action save) to stand back up at 1 Vitality' : 'Incapacitated';
    case 'dying':
      return `Dying: ${life.savesOwed} save${life.savesOwed === 1 ? '' : 's'} owed (!defend --action save); the first success keeps it alive at -9`;
    case 'dead':
      return 'Dead';
  }
}

/** A "Now" step for a token that is down (none for one standing, unless `vitality` says where it stands). */
export function lifeNow(section: string, life: Life, vitality: number | null = null): SoakLayoutStep[] {
  return life.condition === 'none' && vitality === null ? [] : [at(section, { kind: 'life-now', life, vitality })];
}

/** The public line of a hit, when the breakdown is for the GM only: no numbers. */
export function hitResult(outcome: SoakDamageOutcome, lifeBefore: Life): HitResult {
  if (outcome.cancelled) return 'blocks';
  const changed = outcome.life.condition !== lifeBefore.condition;
  const condition = changed ? outcome.life.condition : 'none';
  if (condition !== 'none') return condition;
  if (outcome.steps.some((step) => step.kind === 'vitality-loss' && step.loss === 0)) return 'armor-holds';
  return outcome.changed ? 'hit' : 'unharmed';
}

/** The two stance buttons a defender who declared none is offered. */
export function stanceButtons(tokenId: string): ButtonStep[] {
  return ['defensive', 'reactive'].map((stance) => ({ kind: 'button', section: ACTION, label: `${stance === 'defensive' ? 'Defensive' : 'Reactive'} stance`, command: `!stance ${stance} --ids ${tokenId}` }));
}

export { TITLE, SUMMARY };

/** The card's title: what the hit did first, then the hit itself ("Bob loses 30 Vitality (200 physical)"). */
function hitTitle(name: string, hit: HitDescription, result: HitResult, lost: number | undefined): string {
  if (hit.instantKill) return `${name}: instant kill`;
  if (hit.to !== 'vitality') return `${name} takes ${lost ?? hit.amount} to ${hit.to === 'soul' ? 'Soul' : 'Power'}`;
  const what = `(${hit.amount} ${hit.track}${hit.piercePercent > 0 ? `, ${hit.piercePercent}% piercing` : ''})`;
  switch (result) {
    case 'blocks':
      return `${name} blocks the hit ${what}`;
    case 'armor-holds':
      return `${name} takes no damage: the armor holds ${what}`;
    case 'unharmed':
      return `${name} takes no damage ${what}`;
    case 'incapacitated':
    case 'dying':
      return `${name} loses ${lost} Vitality and falls, ${result} ${what}`;
    case 'dead':
      return `${name} loses ${lost} Vitality and dies ${what}`;
    case 'hit':
      return `${name} loses ${lost} Vitality ${what}`;
  }
}

const HIT_SUMMARY: Record<HitResult, string> = {
  blocks: 'blocks the hit',
  incapacitated: 'is hit and falls, incapacitated',
  dying: 'is hit and falls, dying',
  dead: 'is hit and dies',
  'armor-holds': 'is hit, but the armor holds',
  hit: 'is hit',
  unharmed: 'is unharmed',
};

/** A check's result, the action named as it was made ("fails to evade"). */
function checkResult(result: 'success' | 'fail', action: string | undefined): string {
  if (result === 'success') return action === 'evade' ? 'evades the next hit' : 'blocks the next hit';
  return `fails to ${action === 'evade' ? 'evade' : 'defend'}`;
}

export function layoutWords(step: SoakLayoutStep, nameOf: (id: string) => string): string {
  switch (step.kind) {
    case 'hit-title':
      return hitTitle(nameOf(step.who), step.hit, step.result, step.lost);
    case 'hit-summary':
      return `${nameOf(step.who)} ${HIT_SUMMARY[step.result]}.`;
    case 'life-now':
      return lifeLine(step.life) ?? `Standing, Vitality ${step.vitality}`;
    case 'save-title':
      return `${nameOf(step.who)}: Vitality save`;
    case 'save-summary': {
      const name = nameOf(step.who);
      if (step.result === 'stands') return `${name} makes a save and stands back up.`;
      if (step.result === 'clings') return `${name} makes a save and clings to life.`;
      return step.result === 'dies' ? `${name} fails a save and dies.` : `${name} fails a save.`;
    }
    case 'check-title':
      return `${nameOf(step.who)}: ${step.action}${step.situation !== 'front' ? ` (${step.situation})` : ''}`;
    case 'check-result':
      return `${nameOf(step.who)} ${checkResult(step.result, step.action)}`;
    case 'check-summary': {
      const name = nameOf(step.who);
      if (step.result === null) return `${name} makes a defensive action (${step.action}).`;
      return `${name} ${checkResult(step.result, step.action)}.`;
    }
    case 'no-stance-declared':
      return 'None declared: a defender must declare Defensive or Reactive';
  }
}
