// Log lines from outside input (a hostile server's lines, bad web requests, game-start notices)
// at most `burst` per window: the rest are counted, and the count is reported once when their
// window ends, so no input rate can fill the disk or the logger's memory.

export interface LogWindowLimits {
  /** Lines logged per window; the rest are only counted. */
  burst: number;
  windowMs: number;
}

/** What a window needs of a clock (src/fics/clock.ts's Clock fits). */
export interface WindowClock {
  now(): number;
  after(ms: number, fn: () => void): unknown;
}

export class LogWindow {
  private windowStart = Number.NEGATIVE_INFINITY;
  private logged = 0;
  private suppressed = 0;

  constructor(
    private readonly clock: WindowClock,
    private readonly limits: LogWindowLimits,
    /** Called when a window that suppressed lines ends, with how many it suppressed. */
    private readonly reportSuppressed: (suppressed: number, windowMs: number) => void,
  ) {}

  /** True when this line may be logged; false when it is only counted. */
  admit(): boolean {
    const now = this.clock.now();
    if (now - this.windowStart >= this.limits.windowMs) {
      this.windowStart = now;
      this.logged = 0;
    }
    if (this.logged < this.limits.burst) {
      this.logged++;
      return true;
    }
    if (this.suppressed++ === 0)
      this.clock.after(this.windowStart + this.limits.windowMs - now, () => this.report());
    return false;
  }

  private report(): void {
    const suppressed = this.suppressed;
    this.suppressed = 0;
    this.reportSuppressed(suppressed, this.limits.windowMs);
  }
}
