// Deferred work on a virtual clock: sendChat answers, chat deliveries and the script's timers.
// Work due now runs on the next real macrotask by itself (so it is never in the same tick);
// delayed timers run when settle() or advance() moves the clock, so tests never sleep. settle()
// waits out what a command sets off, timers of SHORT_WORK_MS or less (a linked bar's copy, another
// script's next step); a longer one (a time limit) runs when advance() brings its time, as at a
// table, where the time between two commands is the players'.
import type { CrashRecorder } from './crashes.js';

// Captured at load, so installing the mock's timers on globalThis cannot loop back into them.
const realSetImmediate = globalThis.setImmediate;

interface Task {
  id: number;
  due: number;
  seq: number;
  label: string;
  run: () => void;
  /** Repeat period for setInterval. */
  every?: number;
  /** The wait it was set for (virtual ms). */
  delay: number;
}

/** The longest timer settle() runs (the mock's own are 50 ms at most): a longer one waits for advance(). */
export const SHORT_WORK_MS = 100;

const MAX_RUNS_PER_PUMP = 10_000;
const MAX_SETTLE_ROUNDS = 2_000;

export class Scheduler {
  private tasks = new Map<number, Task>();
  private nextId = 1;
  private seq = 0;
  private pumpQueued = false;
  now = 0;

  constructor(private readonly crashes: CrashRecorder) {}

  /** Queues fn after delay virtual ms; returns an id for cancel(). */
  schedule(label: string, fn: () => void, delay = 0, every?: number): number {
    const id = this.nextId++;
    const wait = Math.max(0, Number(delay) || 0);
    this.tasks.set(id, { id, due: this.now + wait, seq: this.seq++, label, run: fn, every, delay: wait });
    if (wait === 0) this.queuePump();
    return id;
  }

  cancel(id: unknown): void {
    if (typeof id === 'number') this.tasks.delete(id);
  }

  clear(): void {
    this.tasks.clear();
  }

  pending(): string[] {
    return [...this.tasks.values()].map((t) => `${t.label} at ${t.due}ms`);
  }

  /** Runs every task due by now, in due order, including ones they queue for now. */
  runDue(): number {
    let runs = 0;
    for (;;) {
      const task = this.nextDue();
      if (!task) return runs;
      if (++runs > MAX_RUNS_PER_PUMP) throw new Error(`more than ${MAX_RUNS_PER_PUMP} tasks at ${this.now}ms: ${task.label}`);
      if (task.every !== undefined) {
        task.due = this.now + Math.max(1, task.every);
        task.seq = this.seq++;
      } else {
        this.tasks.delete(task.id);
      }
      this.crashes.guard(task.label, task.run);
    }
  }

  /** Moves the clock forward by ms, running timers as their time comes. */
  advance(ms: number): void {
    const end = this.now + Math.max(0, ms);
    let runs = this.runDue();
    for (;;) {
      const next = this.earliest(() => true);
      if (!next || next.due > end) break;
      this.now = next.due;
      runs += this.runDue();
      if (runs > MAX_RUNS_PER_PUMP) throw new Error(`more than ${MAX_RUNS_PER_PUMP} timer runs while advancing ${ms}ms`);
    }
    this.now = end;
  }

  /**
   * Runs everything pending until quiet: due work, then the clock moves on to the next one-shot timer
   * set for SHORT_WORK_MS or less. Intervals run while one-shot work remains, but alone they do not
   * keep settle() going; a longer timer waits for advance().
   */
  async settle(): Promise<void> {
    let quiet = 0;
    for (let round = 0; round < MAX_SETTLE_ROUNDS; round++) {
      await new Promise<void>((resolve) => realSetImmediate(resolve)); // lets promise chains run
      if (this.runDue() > 0) {
        quiet = 0;
        continue;
      }
      const next = this.earliest((t) => t.every === undefined && t.delay <= SHORT_WORK_MS);
      if (next) {
        this.advance(next.due - this.now); // intervals due on the way run in their turn
        quiet = 0;
        continue;
      }
      if (++quiet >= 2) return;
    }
    throw new Error(`the sandbox did not settle after ${MAX_SETTLE_ROUNDS} rounds; pending: ${this.pending().join(', ')}`);
  }

  private nextDue(): Task | undefined {
    return this.earliest((t) => t.due <= this.now);
  }

  private earliest(accept: (t: Task) => boolean): Task | undefined {
    let best: Task | undefined;
    for (const t of this.tasks.values()) {
      if (!accept(t)) continue;
      if (!best || t.due < best.due || (t.due === best.due && t.seq < best.seq)) best = t;
    }
    return best;
  }

  private queuePump(): void {
    if (this.pumpQueued) return;
    this.pumpQueued = true;
    realSetImmediate(() => {
      this.pumpQueued = false;
      try {
        this.runDue();
      } catch (error) {
        this.crashes.record('scheduler', error);
      }
    });
  }
}
