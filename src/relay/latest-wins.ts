// Keeps one message current without flooding: at most one edit in flight, and when positions
// come faster than edits may go, the ones in between are skipped — the newest always goes out.

import { REAL_CLOCK, type ScheduleClock } from '../clock.js';

/**
 * Thrown by a send that may not go yet (a rate limit): the sender waits, then sends the newest
 * value it has. Waiting here rather than in the HTTP client means that what goes out after the
 * wait is the position of that moment, not the one of when the edit was queued.
 */
export class RetryLater extends Error {
  override readonly name = 'RetryLater';
  constructor(readonly afterMs: number) {
    super(`retry in ${afterMs} ms`);
  }
}

/** Why the receiving side refused a value for good, in terms the sender's owner acts on. */
export interface RefusalDetail {
  /** The refusing side's own code (Discord's JSON error code), 0 when it gave none. */
  code: number;
  /** Refused for its size: the same value with less in it may pass. */
  tooLarge: boolean;
  /** The place the value was for can still take a short notice saying what happened. */
  canNotify: boolean;
}

/**
 * Thrown by a send that was refused for good (the message deleted, the channel or the permission
 * gone): the sender stops at once and takes no more values; retrying would only be refused again.
 */
export class Refused extends Error {
  override readonly name = 'Refused';
  constructor(
    /** A few words for people: "the board message was deleted". */
    readonly reason: string,
    readonly detail: RefusalDetail,
  ) {
    super(reason);
  }
}

export interface LatestWinsOptions<T> {
  /** Sends one update; resolves when Discord (or whoever) has taken it. */
  send: (value: T) => Promise<void>;
  /**
   * Where each send waits for its turn (the bot-wide EditScheduler, schedule.ts): the value is
   * taken only when the turn comes, so that the newest one goes. At once when absent.
   */
  turn?: Turn;
  /** A value that goes before ordinary ones (a game's end, a button's answer). */
  urgent?: (value: T) => boolean;
  /** Told when the values waiting for a turn turned urgent: the turn's standing changed. */
  hasten?: () => void;
  /** Told about a failed send; the next update is still tried (no retry loop here). */
  onError?: (error: unknown, value: T) => void;
  /** Told once when a send is refused for good; the sender has stopped by then. */
  onRefused?: (refusal: Refused, value: T) => void;
}

/** Runs `go` in the caller's turn; resolves without running it when `signal` aborts first. */
export type Turn = (
  standing: () => { since: number; urgent: boolean },
  go: () => Promise<void>,
  signal: AbortSignal,
) => Promise<unknown>;

export class LatestWins<T> {
  private pending: { value: T } | null = null;
  /** When the oldest value not shown yet came, and whether any of them is urgent. */
  private since = 0;
  private urgent = false;
  private readonly aborted = new AbortController();
  private inFlight: Promise<void> | null = null;
  private closed = false;
  private cancelled = false;
  /** Ends a wait for a retry early (close()). */
  private wake: (() => void) | null = null;
  /** What a turn is asked with: one function for all of them. */
  private readonly standing = (): { since: number; urgent: boolean } => ({
    since: this.since,
    urgent: this.urgent,
  });
  /** How many updates were skipped because a newer one replaced them. */
  skipped = 0;
  sent = 0;

  constructor(
    private readonly options: LatestWinsOptions<T>,
    /** The clock `since` is read from and retries wait on (the scheduler's). */
    private readonly clock: ScheduleClock = REAL_CLOCK,
  ) {}

  /** Queues a value, replacing any value not yet sent. */
  push(value: T): void {
    if (this.closed) return;
    if (this.pending !== null) this.skipped++;
    else this.since = this.clock.now();
    const wasUrgent = this.urgent;
    this.urgent ||= this.options.urgent?.(value) ?? false;
    this.pending = { value };
    if (this.urgent && !wasUrgent) this.options.hasten?.();
    if (this.inFlight === null) this.inFlight = this.drain();
  }

  /** Sends a last value after whatever is in flight, then takes no more. */
  async finish(value: T): Promise<void> {
    this.push(value);
    this.closed = true;
    await this.idle();
  }

  /** Drops what is not sent yet, retries included (shutdown). */
  close(): void {
    this.closed = true;
    this.cancelled = true;
    this.pending = null;
    this.aborted.abort();
    this.wake?.();
  }

  /** Resolves once nothing is pending or in flight. */
  async idle(): Promise<void> {
    while (this.inFlight !== null) await this.inFlight;
  }

  private async drain(): Promise<void> {
    while (this.pending !== null) {
      const turn: { taken: { value: T; since: number; urgent: boolean } | null } = { taken: null };
      const go = async (): Promise<void> => {
        // Taken in the turn, not before: whatever came while waiting goes instead.
        if (this.pending === null) return;
        turn.taken = { value: this.pending.value, since: this.since, urgent: this.urgent };
        this.pending = null;
        this.urgent = false;
        await this.options.send(turn.taken.value);
        this.sent++;
      };
      try {
        if (this.options.turn === undefined) await go();
        else await this.options.turn(this.standing, go, this.aborted.signal);
      } catch (error) {
        const taken = turn.taken;
        // Only the send fails, never the wait for a turn.
        if (taken === null) break;
        if (error instanceof Refused) {
          this.close();
          this.options.onRefused?.(error, taken.value);
          break;
        }
        if (!(error instanceof RetryLater)) {
          this.options.onError?.(error, taken.value);
          continue;
        }
        if (!this.cancelled) await this.sleep(error.afterMs);
        if (this.cancelled) break;
        // Nothing newer came meanwhile: this value is still the newest. It keeps its age and urgency.
        if (this.pending === null) this.pending = { value: taken.value };
        else this.skipped++;
        this.since = taken.since;
        this.urgent ||= taken.urgent;
      }
      // Aborted before its turn (close()): nothing was taken.
      if (turn.taken === null) break;
    }
    this.inFlight = null;
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.clock.after(ms, () => {
        this.wake = null;
        resolve();
      });
      this.wake = () => {
        cancel();
        this.wake = null;
        resolve();
      };
    });
  }
}
