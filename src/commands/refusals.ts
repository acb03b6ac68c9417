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
  const reasons = [...counts].map(([reason, count]) => (count === 1 ? reason : `${reason} (${count} tokens)`));
  // One line of chat: past three reasons, how many more (each token's own card or --help says the rest).
  return reasons.length <= 3 ? reasons : [...reasons.slice(0, 2), `${reasons.length - 2} more problems`];
}

/** A list said back in a reply: all of it when short, else the first `shown` and how many more. */
export function shortList(items: readonly string[], shown = 5): string {
  if (items.length <= shown + 2) return items.join(', ');
  return `${items.slice(0, shown).join(', ')} and ${items.length - shown} more`;
}

/** Names as a list, each once, with how many tokens carry it: "Goblin 1, Raider (3 tokens)"; past twelve names, how many more. */
export function nameList(names: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
  return shortList([...counts].map(([name, count]) => (count === 1 ? name : `${name} (${count} tokens)`)), 10);
}

/** Reasons given for several tokens, each said once before all their names ("Goblin 1, Goblin 2: no save is owed"). */
export class GroupedRefusals {
  private readonly byReason = new Map<string, string[]>();

  add(name: string, reason: string): void {
    const names = this.byReason.get(reason);
    if (names) names.push(name);
    else this.byReason.set(reason, [name]);
  }

  lines(): string[] {
    const lines: string[] = [];
    this.byReason.forEach((names, reason) => lines.push(`${nameList(names)}: ${reason}`));
    return lines;
  }

}
