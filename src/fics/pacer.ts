// How fast one connection sends commands: a burst at once, then a steady rate (a token bucket),
// in the order asked, with a bounded queue. A flood of requests (a server repeating notices, a
// reconnect with every game to observe again, many users at once) reaches FICS at a pace a
// server tolerates, and past the queue's bound a request is refused at once instead of waiting
// without end.
import type { Clock, Timer } from './clock.js';

export interface PaceOptions {
  /** Commands sent at once before the rate applies. */
  burst: number;
  /** Commands a second after the burst. */
  perSecond: number;
  /** Commands waiting their turn at most; more are refused. */
  maxQueued: number;
}

/** Enough for a reconnect's every observe and move list (30 games) at once, and a steady 20 a second. */
export const DEFAULT_PACE: PaceOptions = { burst: 80, perSecond: 20, maxQueued: 500 };

interface Turn {
  send(): void;
  drop(error: Error): void;
}

export class CommandPacer {
  private tokens: number;
  private refilledAt: number;
  private readonly queue: Turn[] = [];
  private timer: Timer | null = null;

  constructor(
    private readonly options: PaceOptions,
    private readonly clock: Clock,
  ) {
    this.tokens = options.burst;
    this.refilledAt = clock.now();
  }

  /** Waiting commands. */
  get queued(): number {
    return this.queue.length;
  }

  /** Sends now when a token is free and nothing waits, else queues; false when the queue is full. */
  admit(turn: Turn): boolean {
    this.refill();
    if (this.queue.length === 0 && this.tokens >= 1) {
      this.tokens--;
      turn.send();
      return true;
    }
    if (this.queue.length >= this.options.maxQueued) return false;
    this.queue.push(turn);
    this.schedule();
    return true;
  }

  /** Drops every waiting command (the connection closed). */
  close(error: Error): void {
    this.timer?.cancel();
    this.timer = null;
    for (const turn of this.queue.splice(0)) turn.drop(error);
  }

  private refill(): void {
    const now = this.clock.now();
    const earned = ((now - this.refilledAt) / 1000) * this.options.perSecond;
    this.tokens = Math.min(this.options.burst, this.tokens + earned);
    this.refilledAt = now;
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const wait = Math.ceil(((1 - this.tokens) / this.options.perSecond) * 1000);
    this.timer = this.clock.after(Math.max(0, wait), () => {
      this.timer = null;
      this.refill();
      while (this.queue.length > 0 && this.tokens >= 1) {
        this.tokens--;
        this.queue.shift()!.send();
      }
      if (this.queue.length > 0) this.schedule();
    });
  }
}
