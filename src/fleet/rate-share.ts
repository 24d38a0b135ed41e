// One bot token's edit pace shared by all its processes through the fleet's PostgreSQL: each
// process writes its demand (posts waiting for an edit, smoothed) to a row renewed like a lease,
// reads the others', and paces at its part of the bot's budget. No database round trip per request:
// one statement every period. A process that cannot reach the database keeps its static share.
import type { Logger } from '../log.js';
import { errorMessage } from '../result.js';
import type { ScheduleClock } from '../clock.js';
import type { DemandTotal } from './store.js';

/** How often a process writes its demand and reads the others'. */
export const RATE_SHARE_PERIOD_MS = 2_000;
/** A row not renewed for this long is a process gone: its part goes to the others. */
export const RATE_SHARE_TTL_MS = 3 * RATE_SHARE_PERIOD_MS;

/**
 * A process's pace out of `budget` (the bot's requests a second for edits): a floor of
 * budget / (4 x processes) each, so that a process that was away (its row expired) is never
 * starved when it comes back, and the rest by demand. The parts add up to the budget.
 */
export function shareOfDemand(demand: number, all: DemandTotal, budget: number): number {
  const processes = Math.max(1, all.processes);
  const floor = budget / (4 * processes);
  const rest = budget - floor * processes;
  const part = all.total > 0 ? Math.max(0, demand) / all.total : 1 / processes;
  return Math.min(budget, floor + rest * part);
}

export interface RateShareOptions {
  store: {
    shareDemand(demand: number, now: number, ms: number): Promise<DemandTotal>;
    dropDemand(): Promise<void>;
  };
  /** The bot's requests a second for posts and edits, over all its processes. */
  budget: number;
  /** This process's pace without the database (its shards' part of the budget). */
  staticShare: number;
  /** Posts waiting for an edit here now. */
  waiting: () => number;
  /** ms since the epoch, and the timer of the renewals. */
  clock: ScheduleClock;
  logger: Logger;
}

export class RateShare {
  private pace: number;
  /** Demand smoothed over renewals: a moment's burst does not swing the shares. */
  private demand = 0;
  private cancel: (() => void) | null = null;
  private reachable = true;
  private closed = false;

  constructor(private readonly options: RateShareOptions) {
    this.pace = options.staticShare;
  }

  /** Edits a second this process may send now. */
  perSecond(): number {
    return this.pace;
  }

  /** Renews at once (after the caller's turn), then every period until close(). */
  start(): void {
    this.schedule(0);
  }

  /** Writes the demand, reads the others', and sets the pace; on failure, the static share. */
  async renew(): Promise<void> {
    const { store, clock, budget, staticShare, logger } = this.options;
    try {
      this.demand = (this.demand + this.options.waiting()) / 2;
      const all = await store.shareDemand(this.demand, clock.now(), RATE_SHARE_TTL_MS);
      if (this.closed) return;
      this.pace = shareOfDemand(this.demand, all, budget);
      if (!this.reachable) logger.info({ perSecond: this.pace }, 'rate share: the database answers again');
      this.reachable = true;
    } catch (error) {
      this.pace = staticShare;
      if (this.reachable)
        logger.warn(
          { error: errorMessage(error), perSecond: staticShare },
          'rate share: database unreachable, pacing at the static share',
        );
      this.reachable = false;
    }
  }

  /** Stops renewing and takes the row away, so that the others share at once. */
  async close(): Promise<void> {
    this.closed = true;
    this.cancel?.();
    await this.options.store.dropDemand().catch(() => undefined);
  }

  private schedule(ms: number): void {
    if (this.closed) return;
    this.cancel = this.options.clock.after(ms, () => {
      void this.renew().finally(() => this.schedule(RATE_SHARE_PERIOD_MS));
    });
  }
}
