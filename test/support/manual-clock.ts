// A clock a test moves by hand for the edit scheduler (src/relay/schedule.ts): its timers fire
// only inside advance(), in time order.
import type { ScheduleClock } from '../../src/relay/schedule.js';

/** A clock the test moves: timers fire only in advance(). */
export class ManualClock implements ScheduleClock {
  t = 0;
  private timers: { at: number; run: () => void }[] = [];
  now(): number {
    return this.t;
  }
  /** Timers waiting for the clock to move. */
  get pending(): number {
    return this.timers.length;
  }
  /** Time until the next timer fires; undefined when none waits. */
  get nextIn(): number | undefined {
    if (this.timers.length === 0) return undefined;
    return Math.max(0, Math.min(...this.timers.map((t) => t.at)) - this.t);
  }
  after(ms: number, run: () => void): () => void {
    const timer = { at: this.t + ms, run };
    this.timers.push(timer);
    return () => (this.timers = this.timers.filter((t) => t !== timer));
  }
  /** Moves time on by `ms`, firing each timer at its moment, and lets the promises settle. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      await settle();
      const next = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0];
      if (next === undefined) break;
      this.timers = this.timers.filter((t) => t !== next);
      this.t = next.at;
      next.run();
    }
    this.t = end;
    await settle();
  }
}

async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}
