// The fuzzer's one source of chance: seeded, so a seed replays the same run step for step.
import { mulberry32 } from '../mocks/random';

export class Rng {
  private readonly next: () => number;

  constructor(seed: number) {
    this.next = mulberry32(seed);
  }

  /** A float in [0, 1). */
  float(): number {
    return this.next();
  }

  /** An integer in [low, high], both included. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from nothing');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** One key, with odds proportional to its weight. */
  weighted<K extends string>(weights: Readonly<Record<K, number>>): K {
    const entries = Object.entries(weights) as Array<[K, number]>;
    const total = entries.reduce((sum, [, w]) => sum + Math.max(0, w), 0);
    let r = this.next() * total;
    for (const [key, w] of entries) {
      r -= Math.max(0, w);
      if (r < 0) return key;
    }
    return entries[entries.length - 1]![0];
  }

  /** One of the items, or undefined when there are none. */
  maybe<T>(items: readonly T[]): T | undefined {
    return items.length === 0 ? undefined : this.pick(items);
  }

  /** From `min` up to `max` distinct items (fewer when there are fewer), in random order. */
  some<T>(items: readonly T[], max: number, min = 0): T[] {
    const pool = [...items];
    const out: T[] = [];
    const n = Math.min(pool.length, this.int(min, max));
    for (let i = 0; i < n; i += 1) out.push(pool.splice(Math.floor(this.next() * pool.length), 1)[0]!);
    return out;
  }

  /** A seed for a sub-generator, derived from this one. */
  fork(): number {
    return Math.floor(this.next() * 0x7fffffff);
  }
}
