// How refusals for several targets read in one whisper.

/**
 * Refusals as one whisper reads them: each reason without its full stop (they are joined with
 * "; "), and a reason shared by several targets said once with their count (twenty goblins all
 * named Raider are one "you do not control Raider (20 tokens)").
 */
export function tidyRefusals(refused: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const reason of refused) {
    const bare = reason.endsWith('.') ? reason.slice(0, -1) : reason;
    counts.set(bare, (counts.get(bare) ?? 0) + 1);
  }
  return [...counts].map(([reason, count]) => (count === 1 ? reason : `${reason} (${count} tokens)`));
}
