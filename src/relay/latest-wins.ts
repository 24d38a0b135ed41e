// Keeps one message current without flooding: at most one edit in flight, and when positions
// come faster than edits may go, the ones in between are skipped — the newest always goes out.

export interface LatestWinsOptions<T> {
  /** Sends one update; resolves when Discord (or whoever) has taken it. */
  send: (value: T) => Promise<void>;
  /** Told about a failed send; the next update is still tried (no retry loop here). */
  onError?: (error: unknown, value: T) => void;
}

export class LatestWins<T> {
  private pending: { value: T } | null = null;
  private inFlight: Promise<void> | null = null;
  private closed = false;
  /** How many updates were skipped because a newer one replaced them. */
  skipped = 0;
  sent = 0;

  constructor(private readonly options: LatestWinsOptions<T>) {}

  /** Queues a value, replacing any value not yet sent. */
  push(value: T): void {
    if (this.closed) return;
    if (this.pending !== null) this.skipped++;
    this.pending = { value };
    if (this.inFlight === null) this.inFlight = this.drain();
  }

  /** Sends a last value after whatever is in flight, then takes no more. */
  async finish(value: T): Promise<void> {
    this.push(value);
    this.closed = true;
    await this.idle();
  }

  /** Resolves once nothing is pending or in flight. */
  async idle(): Promise<void> {
    while (this.inFlight !== null) await this.inFlight;
  }

  private async drain(): Promise<void> {
    while (this.pending !== null) {
      const { value } = this.pending;
      this.pending = null;
      try {
        await this.options.send(value);
        this.sent++;
      } catch (error) {
        this.options.onError?.(error, value);
      }
    }
    this.inFlight = null;
  }
}
