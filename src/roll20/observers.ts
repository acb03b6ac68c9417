// Other scripts hear about every change the script makes (API writes fire no Roll20 events):
// observers registered with DefenseRound.onDamage(fn), and HealthColors when it is installed.
import { reportFailure } from './guard';
import { healthColors, type HealthColorsApi } from './otherScripts';

export interface TokenResources {
  vitality: number | null;
  soul: number | null;
  power: number | null;
  statusmarkers: string;
  condition: string;
}

export type DamageObserver = (token: Roll20Graphic, before: TokenResources, after: TokenResources, outcome: unknown) => void;

const observers: DamageObserver[] = [];

export function addObserver(observer: unknown): boolean {
  if (typeof observer !== 'function') return false;
  observers.push(observer as DamageObserver);
  return true;
}

/** Called once per token per command, after its writes. An observer's failure is logged, not fatal. */
export function notifyObservers(
  token: Roll20Graphic,
  before: TokenResources,
  after: TokenResources,
  outcome: unknown,
  /** The token's properties before the command, made only if HealthColors is there to take them. */
  previousProperties: () => Record<string, unknown>,
  /** HealthColors as the command found it once (null: not installed); absent: looked up now. */
  found?: HealthColorsApi | null,
): void {
  for (const observer of observers) {
    try {
      observer(token, before, after, outcome);
    } catch (error) {
      reportFailure('an onDamage observer', error, undefined);
    }
  }
  const hc = found === undefined ? healthColors() : found;
  if (hc && typeof hc.Update === 'function') {
    try {
      hc.Update(token, previousProperties());
    } catch (error) {
      reportFailure('HealthColors.Update', error, undefined);
    }
  }
}
