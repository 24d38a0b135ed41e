// Writes that do not hold up the bot. What must not be lost (a post's message, its end, a finished
// game) is queued and written in order, the head retried with back-off until the database takes
// it: while the database is down the relay goes on from memory, and what it could not store is
// stored when the database is back. What can wait (a post's last edit time) is batched: the
// newest value per key, written every `batchMs` in one transaction.
import { backoffDelay, type BackoffOptions } from '../backoff.js';
import type { Logger } from '../log.js';
import { errorMessage } from '../result.js';
import type { Sql, SqlStatement } from './sql.js';

export interface WritesOptions {
  logger?: Logger;
  /** Waits between tries of a refused write. */
  backoff?: BackoffOptions;
  /** How often batched writes go out. */
  batchMs?: number;
  /** Queued writes kept at most; one more is dropped and logged (the database has been down long). */
  maxQueued?: number;
}

export const WRITE_BACKOFF: BackoffOptions = { initialMs: 250, maxMs: 5_000, factor: 2, jitter: 0.2 };
export const BATCH_MS = 10_000;
export const MAX_QUEUED = 10_000;

interface Queued {
  what: string;
  write: () => Promise<unknown>;
}

export interface WritesStatus {
  /** Writes not yet taken by the database. */
  queued: number;
  /** Why the oldest queued write was refused last, while it still waits; else null. */
  failing: string | null;
}

export class Writes {
  readonly #sql: Sql;
  readonly #logger: Logger | undefined;
  readonly #backoff: BackoffOptions;
  readonly #batchMs: number;
  readonly #maxQueued: number;
  readonly #queue: Queued[] = [];
  readonly #batched = new Map<string, SqlStatement>();
  /** A batch write is in the queue: it takes every batched write there is when its turn comes. */
  #batchQueued = false;
  #batchTimer: NodeJS.Timeout | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #running = false;
  #failures = 0;
  #failing: string | null = null;
  #closed = false;
  /** idle() callers: woken when the queue is empty (or closed). */
  #idle: (() => void)[] = [];
  /** close() waiting for the write in progress. */
  #written: (() => void)[] = [];

  constructor(sql: Sql, options: WritesOptions = {}) {
    this.#sql = sql;
    this.#logger = options.logger;
    this.#backoff = options.backoff ?? WRITE_BACKOFF;
    this.#batchMs = options.batchMs ?? BATCH_MS;
    this.#maxQueued = options.maxQueued ?? MAX_QUEUED;
  }

  /** Queues a write that must not be lost; written after every write queued before it. */
  later(what: string, write: () => Promise<unknown>): void {
    if (this.#closed) {
      this.#logger?.error({ what }, 'database write after close: not stored');
      return;
    }
    if (this.#queue.length >= this.#maxQueued) {
      this.#logger?.error({ what, queued: this.#queue.length }, 'database write queue full: write dropped');
      return;
    }
    this.#queue.push({ what, write });
    this.#next();
  }

  /** A write that can wait: only the newest statement per key goes, within `batchMs`. */
  batch(key: string, statement: SqlStatement): void {
    if (this.#closed) return;
    this.#batched.set(key, statement);
    this.#batchTimer ??= setTimeout(() => {
      this.#batchTimer = undefined;
      this.#queueBatch();
    }, this.#batchMs).unref();
  }

  status(): WritesStatus {
    return { queued: this.#queue.length, failing: this.#failing };
  }

  /** Resolves once every write queued or batched so far is stored (or the writes are closed). */
  idle(): Promise<void> {
    if (this.#batched.size > 0) this.#flushBatch();
    if (this.#queue.length === 0 && !this.#running) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  /**
   * One last try of everything queued, now; what the database still refuses is logged, each
   * write by what it was, and is lost.
   */
  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#batched.size > 0) this.#flushBatch();
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    while (this.#running) await new Promise<void>((resolve) => this.#written.push(resolve));
    this.#closed = true;
    let refused: unknown = null;
    for (const queued of this.#queue.splice(0)) {
      try {
        // After one refusal the database is taken to be down: no wait on each of the others.
        if (refused === null) await queued.write();
        else throw refused;
      } catch (error) {
        refused = error;
        this.#logger?.error({ what: queued.what, err: error }, 'database write lost at shutdown');
      }
    }
    this.#settle();
  }

  #flushBatch(): void {
    clearTimeout(this.#batchTimer);
    this.#batchTimer = undefined;
    this.#queueBatch();
  }

  #queueBatch(): void {
    if (this.#batchQueued || this.#batched.size === 0) return;
    this.#batchQueued = true;
    this.#queue.push({
      what: 'note edits',
      write: async () => {
        const taken = [...this.#batched];
        await this.#sql.transaction(taken.map(([, statement]) => statement));
        // A newer value that came while this was written goes in the next batch.
        for (const [key, statement] of taken)
          if (this.#batched.get(key) === statement) this.#batched.delete(key);
        this.#batchQueued = false;
      },
    });
    this.#next();
  }

  #next(): void {
    if (this.#running || this.#retryTimer !== undefined || this.#closed) return;
    const head = this.#queue[0];
    if (head === undefined) {
      this.#settle();
      return;
    }
    this.#running = true;
    head.write().then(
      () => {
        this.#running = false;
        this.#queue.shift();
        if (this.#failures > 0)
          this.#logger?.info(
            { what: head.what, tries: this.#failures + 1 },
            'database write stored after a failure',
          );
        this.#failures = 0;
        this.#failing = null;
        this.#next();
      },
      (error: unknown) => {
        this.#running = false;
        this.#failing = errorMessage(error);
        // The first refusal of a write is an error; its retries are not logged again.
        if (this.#failures === 0)
          this.#logger?.error(
            { what: head.what, err: error, queued: this.#queue.length },
            'database write failed: retrying',
          );
        const delayMs = backoffDelay(this.#backoff, this.#failures++);
        if (!this.#closed) {
          this.#retryTimer = setTimeout(() => {
            this.#retryTimer = undefined;
            this.#next();
          }, delayMs);
          this.#retryTimer.unref();
        }
        this.#settle();
      },
    );
  }

  /** Nothing is being written: close() may go on; idle() callers too once the queue is empty. */
  #settle(): void {
    if (this.#running) return;
    for (const wake of this.#written.splice(0)) wake();
    if (this.#queue.length === 0 || this.#closed) for (const wake of this.#idle.splice(0)) wake();
  }
}
