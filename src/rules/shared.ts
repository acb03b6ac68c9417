// What the editions share, written once: the amount of a hit (one number, or one inline roll),
// the stance plan (a mode that lasts until changed, the same one again a no-op), and the refusal of
// a defense on the defender's own turn. Each edition gives its own words and defaults.
import { at, SUMMARY, TITLE, type KeptAnswer, type Outcome, type Plan } from './edition';
import { echo, integerArg, UsageError, type ParsedLine } from '../text/args';
import { MAX_DAMAGE, readInteger } from './values';

/**
 * The command's one amount (commands.md, "Syntax"): a whole number 0 to MAX_DAMAGE, or an inline
 * roll Roll20 has already worked out; an expression typed bare is refused with an example.
 */
export function amountArg(line: ParsedLine, words: { what: string; missing: string; example?: string }): number;
export function amountArg(line: ParsedLine, words: { what: string; missing: string; example?: string; optional: true }): number | undefined;
export function amountArg(line: ParsedLine, words: { what: string; missing: string; example?: string; optional?: true }): number | undefined {
  const { positionals } = line;
  if (positionals.length > 1) {
    const hint = words.example ? `; an expression must be an inline roll like ${words.example}` : '';
    throw new UsageError(`one amount only (got "${echo(positionals.join(' '))}")${hint}`);
  }
  const text = positionals[0];
  if (text === undefined) {
    if (words.optional) return undefined;
    throw new UsageError(words.missing);
  }
  // Dice typed bare ("2d6") are the likeliest slip: the example shows the inline roll.
  if (words.example && readInteger(text) === null) throw new UsageError(`${words.what} must be a whole number or an inline roll like ${words.example} (got "${echo(text)}")`);
  return integerArg(text, words.what, 0, MAX_DAMAGE);
}

/** A stance plan's words: its step kinds (the edition words them), the card row, and the stance a token without one has. */
export interface StanceWords {
  fallback: string;
  row: string;
  title: string;
  change: string;
  effect: string;
  /** The stance kept for the fallback (null: none is kept, no marker). */
  keep(stance: string): string | null;
  detail(stance: string): unknown;
}

/** `!stance MODE`: the mode lasts until changed; the same mode again changes nothing, said to the sender alone. */
export function stancePlan<S, A>(stance: string, words: StanceWords): Plan<S, A> {
  return {
    values: [],
    dice: [],
    resolve(facts) {
      const from = facts.stance ?? words.fallback;
      const same = from === stance;
      const who = facts.id;
      return {
        headline: 'acts',
        steps: [
          at(TITLE, { kind: words.title, who, stance, same }),
          at(SUMMARY, { kind: words.title, who, stance, same, summary: true }),
          at(words.row, { kind: words.change, from, to: stance }),
          at(words.row, { kind: words.effect, stance }),
        ],
        changes: [],
        stance: words.keep(stance),
        ...(same ? { noop: true } : {}),
        observed: false,
        detail: words.detail(stance),
      };
    },
  };
}

/** The Defensive Round and The Defensive Turn: the token on top of the Turn Tracker is acting, not defending (saves still are). */
export function actingRefusal(phase: 'round' | 'turn'): string {
  return `it is this token's turn (top of the Turn Tracker): the defensive ${phase} is for everyone but the one acting. Saves are still allowed.`;
}

/** A `!defend` line made from words (an answer to an attack, checked as the typed command would be). */
export function defendLine(flags: Record<string, string | null>): ParsedLine {
  const map = new Map<string, string[]>();
  for (const [name, value] of Object.entries(flags)) if (value !== null) map.set(name, [value]);
  return { command: '!defend', positionals: [], flags: map };
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
