// One bot token's edit pace shared by all its processes through the fleet's PostgreSQL. Each
// process has a static share (its shards' part of the bot's budget: the static shares of a fleet add
// up to at most the budget) and lends or borrows the rest by demand: every period it writes its
// demand and its grant to a row renewed like a lease, under one lock for all, taking at most what
// the other live processes' grants leave of their static shares and its own. A process slows down
// before its smaller grant is written and speeds up only after its larger one is, so the paces add
// up to at most the budget at every moment, not only on average. A process that cannot renew in
// time (cut off, or dead) falls to the smaller of its grant and its static share, and the others
// stop counting its static share once its row expires: so what it may still send is never lent.
// No database round trip per request: one short transaction every period.
import type { Logger } from '../log.js';
import { errorMessage } from '../result.js';
import type { ScheduleClock } from '../clock.js';
import type { OtherRates } from './store.js';

/** How often a process writes its demand and reads the others'. */
export const RATE_SHARE_PERIOD_MS = 2_000;
/** A row not renewed for this long is a process gone or cut off: the others stop counting it. */
export const RATE_SHARE_TTL_MS = 3 * RATE_SHARE_PERIOD_MS;

/** A renewal is trusted this much less than its row lives: machines' clocks may differ by as much. */
export const RATE_SHARE_SKEW_MS = RATE_SHARE_PERIOD_MS;

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

/** Every live process's demand for Discord's requests, and how many they are. */
export interface DemandTotal {
  total: number;
  processes: number;
}

/**
 * This process's grant: its part by demand of the live processes' static shares (at most the
 * budget), but never more than the others' grants leave of them.
 */
export function grantOf(demand: number, share: number, others: OtherRates, budget: number): number {
  const pool = Math.min(budget, share + others.shares);
  const wanted = shareOfDemand(
    demand,
    { total: demand + others.demand, processes: others.processes + 1 },
    pool,
  );
  return Math.max(0, Math.min(wanted, pool - others.granted));
}

export interface RateShareOptions {
  store: {
    shareRate(
      mine: { demand: number; share: number },
      now: number,
      ms: number,
      decide: (others: OtherRates) => number,
    ): Promise<number>;
    dropDemand(): Promise<void>;
  };
  /** The bot's requests a second for posts and edits, over all its processes. */
  budget: number;
  /** This process's shards' part of the budget: its pace without the database. */
  staticShare: number;
  /** Posts waiting for an edit here now. */
  waiting: () => number;
  /** ms since the epoch, and the timer of the renewals. */
  clock: ScheduleClock;
  logger: Logger;
}

export class RateShare {
  /**
   * The grant this process paces at, at most: 0 until the first renewal (a process of the same
   * shards that this one replaces may still hold a row lending its share to others).
   */
  private pace = 0;
  /** Until when the last grant holds, before the others may count this process's row expired. */
  private validUntil = 0;
  /** Demand smoothed over renewals: a moment's burst does not swing the shares. */
  private demand = 0;
  private cancel: (() => void) | null = null;
  private reachable = true;
  private closed = false;

  constructor(private readonly options: RateShareOptions) {}

  /** Edits a second this process may send now: its grant, or past it the smaller with its static share. */
  perSecond(): number {
    if (this.options.clock.now() < this.validUntil) return this.pace;
    return Math.min(this.pace, this.options.staticShare);
  }

  /** Renews at once (after the caller's turn), then every period until close(). */
  start(): void {
    this.schedule(0);
  }

  /** Writes the demand and takes a grant from what the others leave; on failure, keeps the smaller. */
  async renew(): Promise<void> {
    const { store, clock, budget, staticShare, logger } = this.options;
    const sentAt = clock.now();
    try {
      this.demand = (this.demand + this.options.waiting()) / 2;
      const granted = await store.shareRate(
        { demand: this.demand, share: staticShare },
        sentAt,
        RATE_SHARE_TTL_MS,
        (others) => {
          const grant = grantOf(this.demand, staticShare, others, budget);
          // Slower before the row says so; faster only once it does (below).
          this.pace = Math.min(this.pace, grant);
          return grant;
        },
      );
      if (this.closed) return;
      this.pace = granted;
      this.validUntil = sentAt + RATE_SHARE_TTL_MS - RATE_SHARE_SKEW_MS;
      if (!this.reachable) logger.info({ perSecond: this.pace }, 'rate share: the database answers again');
      this.reachable = true;
    } catch (error) {
      if (this.reachable)
        logger.warn(
          { error: errorMessage(error), perSecond: this.perSecond() },
          'rate share: database unreachable, pacing at most at the static share',
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
