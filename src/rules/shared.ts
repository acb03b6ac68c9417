// What the editions share, written once: the refusal of a defense on the defender's own turn, and
// how an answer to an attack is planned and kept. Each edition gives its own words and defaults.
import { type KeptAnswer, type Order, type Outcome, type Plan } from './edition';
import { parseFlags, type TypedFlagTable } from '../text/flags';

/** The Defensive Round and The Defensive Turn: the token on top of the Turn Tracker is acting, not defending (saves still are). */
export function actingRefusal(phase: 'round' | 'turn'): string {
  return `it is this token's turn (top of the Turn Tracker): the defensive ${phase} is for everyone but the one acting. Saves are still allowed.`;
}

/** A `!defend` order made from words (an answer to an attack), parsed as the typed command would be. */
export function defendOrder(flags: Record<string, string | null>, table: TypedFlagTable): Order {
  const map = new Map<string, string[]>();
  for (const [name, value] of Object.entries(flags)) if (value !== null) map.set(name, [value]);
  return { ...parseFlags({ command: '!defend', positionals: [], flags: map }, table), positionals: [] };
}

/**
 * An answer's plan: the `!defend` plan, its steps but the defense it leaves said as the check
 * alone (the answerer's one line: "Defend 58 vs 55: failure"), since the attack keeps the defense.
 */
export function answerPlan<S, A>(plan: Plan<S, A>, leaves: string): Plan<S, A> {
  return {
    ...plan,
    resolve(facts, rolls) {
      const resolution = plan.resolve(facts, rolls);
      if (!('kind' in resolution)) for (const step of resolution.steps) if (step.kind === leaves) delete step.section;
      return resolution;
    },
  };
}

/** What an attack keeps of a defense rolled ahead: the defense the check left, which its hit reads (none: no defense). */
export function keepFiled<S, A>(word: string, outcome: Outcome<S, A>, check?: { roll: number; success: boolean }): KeptAnswer<A> {
  const kept: KeptAnswer<A> = outcome.answer !== undefined && outcome.answer !== null ? { word, answer: outcome.answer } : { word };
  if (check) {
    kept.roll = check.roll;
    kept.success = check.success;
  }
  return kept;
}
