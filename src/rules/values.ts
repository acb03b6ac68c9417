// How the game's stored values become numbers (rules.md, "Reading values").
// Roll20 keeps bars and attributes as numbers, numeric strings, "" or whatever a user typed.

const INTEGER_TEXT = /^[+-]?\d+$/;

/** The integer a stored value holds, or null when it holds no integer ("", "12.5", "1e309", words). */
export function readInteger(value: unknown): number | null {
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? value + 0 : null; // `+ 0` turns -0 into 0
  }
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (!INTEGER_TEXT.test(text)) return null;
  const parsed = Number(text);
  return Number.isSafeInteger(parsed) ? parsed + 0 : null;
}

/** A percentage of a value, rounded down as every percentage in the game is (rules.md, "Rounding"). */
export function percentOf(value: number, percent: number): number {
  return Math.floor((value * percent) / 100);
}

/** Clamp into [low, high]. */
export function clamp(value: number, low: number, high: number): number {
  return Math.min(high, Math.max(low, value));
}

/** commands.md, "Syntax": an amount over a million is refused, in every edition. */
export const MAX_DAMAGE = 1_000_000;
