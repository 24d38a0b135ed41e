// A clock that moves only when the test says so: keep-alives, idle logouts, back-off and
// command timeouts fire in order, without waiting.
import type { Clock, Timer } from '../../src/fics/clock.js';

interface Scheduled {
  at: number;
  seq: number;
  fn: () => void;
}

export class FakeClock implements Clock {
  private time = 0;
  private seq = 0;
  private queue: Scheduled[] = [];

  now(): number {
    return this.time;
  }

  after(ms: number, fn: () => void): Timer {
    const entry = { at: this.time + Math.max(0, ms), seq: this.seq++, fn };
    this.queue.push(entry);
    return { cancel: () => (this.queue = this.queue.filter((e) => e !== entry)) };
  }

  /** Moves time forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = this.queue.filter((e) => e.at <= end).sort((a, b) => a.at - b.at || a.seq - b.seq)[0];
      if (next === undefined) break;
      this.queue = this.queue.filter((e) => e !== next);
      this.time = next.at;
      next.fn();
    }
    this.time = end;
  }

  /** Timers still waiting. */
  get pending(): number {
    return this.queue.length;
  }
}
