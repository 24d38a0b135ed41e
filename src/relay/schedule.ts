// One edit scheduler for the whole bot: every live post that has something new to show waits here
// for its turn, and turns are given at the rate the receiving side allows (Discord's, given by the
// Discord side as an EditPace). Each turn goes to the most urgent waiter (a game's end, a new post,
// a button's answer), then to the one whose oldest unshown update came first: that is the post whose
// picture is the most out of date, so turns follow staleness and no busy game starves a quiet one.
// The waiters are kept in that order (a heap), so a turn costs O(log n), not a pass over every post.
// The waiter renders its picture and builds its request inside its turn, never before: nothing is
// drawn or built only to be held back, and what goes out is the newest position of that moment.
import { REAL_CLOCK, type ScheduleClock } from '../clock.js';
import { Heap } from '../heap.js';
import { RetryLater } from './latest-wins.js';

export type { ScheduleClock } from '../clock.js';

/** What the receiving side allows; every field is a bound the scheduler keeps. */
export interface EditPace {
  /** Turns per second for the whole process (Discord: its share of the bot's 50 requests/s). */
  perSecond: number;
  /** Turns allowed in a row above the steady rate (after an idle moment). */
  burst: number;
  /** Turns per bucket (a channel's message edits) in any window of `windowMs`. */
  perBucket: { limit: number; windowMs: number };
  /** At most this many sends at once (each waits for the receiving side's answer). */
  inFlight: number;
  /** Ms until nothing may go at all (the receiving side refusing everything); 0: it may. */
  pausedForMs?: () => number;
}

/** How soon a scheduler whose pace is 0 looks at it again. */
export const NO_PACE_RECHECK_MS = 250;

/** No pace: every turn at once (tests, tools). */
export const UNPACED: EditPace = {
  perSecond: Number.POSITIVE_INFINITY,
  burst: 1,
  perBucket: { limit: Number.POSITIVE_INFINITY, windowMs: 1 },
  inFlight: Number.POSITIVE_INFINITY,
};

/**
 * One waiter's standing, read when it starts waiting and again when its owner says it changed
 * (`restand`: a waiter may turn urgent while it waits).
 */
export interface Standing {
  /** When its oldest unshown update came (the scheduler's clock). */
  since: number;
  /** A game's end, a new post or a button's answer: before every ordinary move. */
  urgent: boolean;
}

export interface TurnRequest {
  /** The rate-limit bucket the send counts in (a channel's edits); null: none but the global one. */
  bucket: () => string | null;
  /** Read when the request starts waiting, and at `restand`. */
  standing: () => Standing;
  /** Aborted: the waiter leaves the queue and its task never runs. */
  signal?: AbortSignal;
}

/** Counted, never logged one by one: the metrics read them. */
export interface ScheduleFigures {
  /** Turns given. */
  turns: number;
  /** Turns given to urgent waiters. */
  urgentTurns: number;
  /** Sends the receiving side still held back (RetryLater): each holds its bucket. */
  heldBack: number;
  /** Waiters now. */
  waiting: number;
  /** Ms the last turn's waiter had waited for its oldest unshown update. */
  lastWaitMs: number;
  /** Turns given whose sends have not finished. */
  inFlight: number;
}

interface Waiter {
  request: TurnRequest;
  /** As last read. */
  standing: Standing;
  run: () => void;
  /** Order of arrival: ties in `since` go first come, first served. */
  seq: number;
}

export class EditScheduler {
  private readonly waiters = new Heap<Waiter>(before);
  /** The waiters by their request, for `restand`. */
  private readonly waiting = new Map<TurnRequest, Waiter>();
  /** GCRA: the time the next turn is due at the steady rate; a burst may run ahead of it. */
  private due = Number.NEGATIVE_INFINITY;
  /** Per bucket, when its recent turns went (at most `perBucket.limit` kept), and a hold. */
  private readonly buckets = new Map<string, { turns: number[]; heldUntil: number }>();
  private inFlight = 0;
  private seq = 0;
  private cancelWake: (() => void) | null = null;
  private wakeAt = Number.POSITIVE_INFINITY;
  private readonly figuresNow: Omit<ScheduleFigures, 'waiting' | 'inFlight'> = {
    turns: 0,
    urgentTurns: 0,
    heldBack: 0,
    lastWaitMs: 0,
  };

  constructor(
    private readonly pace: EditPace = UNPACED,
    private readonly clock: ScheduleClock = REAL_CLOCK,
  ) {}

  /** The scheduler's clock, for waiters' `since`. */
  now(): number {
    return this.clock.now();
  }

  /** The scheduler's clock as a timer, for those that pace themselves on it (said-lines.ts). */
  after(ms: number, run: () => void): () => void {
    return this.clock.after(ms, run);
  }

  /**
   * Runs `task` in its turn. Resolves with its result, or with undefined when the request was
   * aborted before its turn; a RetryLater from the task holds its bucket that long, then is thrown on.
   */
  async run<T>(request: TurnRequest, task: () => Promise<T>): Promise<T | undefined> {
    if (request.signal?.aborted === true) return undefined;
    const granted = await new Promise<boolean>((resolve) => {
      const abort = (): void => {
        if (this.waiters.delete(waiter)) {
          this.waiting.delete(request);
          resolve(false);
        }
      };
      // A post's sender passes one signal for all its turns: each turn takes its listener back,
      // or a long game would hold one per edit it ever made.
      const run = (): void => {
        request.signal?.removeEventListener('abort', abort);
        resolve(true);
      };
      const waiter: Waiter = { request, standing: request.standing(), run, seq: this.seq++ };
      this.waiters.push(waiter);
      this.waiting.set(request, waiter);
      request.signal?.addEventListener('abort', abort, { once: true });
      this.pump();
    });
    if (!granted) return undefined;
    try {
      return await task();
    } catch (error) {
      const name = request.bucket();
      if (error instanceof RetryLater && name !== null) {
        this.figuresNow.heldBack++;
        const bucket = this.bucket(name);
        bucket.heldUntil = Math.max(bucket.heldUntil, this.clock.now() + error.afterMs);
      }
      throw error;
    } finally {
      this.inFlight--;
      this.pump();
    }
  }

  /** A waiting request's standing changed (it turned urgent): it takes its new place in the order. */
  restand(request: TurnRequest): void {
    const waiter = this.waiting.get(request);
    if (waiter === undefined) return;
    waiter.standing = request.standing();
    this.waiters.update(waiter);
    this.pump();
  }

  figures(): ScheduleFigures {
    return { ...this.figuresNow, waiting: this.waiters.size, inFlight: this.inFlight };
  }

  /** Gives every turn that may go now, then sleeps until the next one may. */
  private pump(): void {
    for (;;) {
      if (this.waiters.size === 0 || this.inFlight >= this.pace.inFlight) return;
      const now = this.clock.now();
      const paused = this.pace.pausedForMs?.() ?? 0;
      const perSecond = this.pace.perSecond;
      // No pace for now (a fleet process waiting for its grant): look again shortly.
      if (!(perSecond > 0)) return this.sleep(now + NO_PACE_RECHECK_MS);
      const interval = 1000 / perSecond;
      const early = this.due - now - interval * (this.pace.burst - 1);
      if (paused > 0 || early > 0) return this.sleep(now + Math.max(paused, early));
      const next = this.pick(now);
      if (next.waiter === null) return this.sleep(next.freeAt);
      this.give(next.waiter, now, interval);
    }
  }

  /**
   * The most urgent, then longest waiting, waiter whose bucket has room; else when one will. The
   * waiters ahead of it whose buckets are full are set aside and put back: at most one per post.
   */
  private pick(now: number): { waiter: Waiter | null; freeAt: number } {
    const full: Waiter[] = [];
    let freeAt = Number.POSITIVE_INFINITY;
    let found: Waiter | null = null;
    for (let waiter = this.waiters.peek(); waiter !== undefined; waiter = this.waiters.peek()) {
      const free = this.bucketFreeAt(waiter.request.bucket(), now);
      if (free <= now) {
        found = waiter;
        break;
      }
      freeAt = Math.min(freeAt, free);
      full.push(this.waiters.pop()!);
    }
    for (const waiter of full) this.waiters.push(waiter);
    return { waiter: found, freeAt };
  }

  private give(waiter: Waiter, now: number, interval: number): void {
    this.waiters.delete(waiter);
    this.waiting.delete(waiter.request);
    this.due = Math.max(this.due, now) + interval;
    const bucket = waiter.request.bucket();
    if (bucket !== null && Number.isFinite(this.pace.perBucket.limit)) {
      const turns = this.bucket(bucket).turns;
      turns.push(now);
      if (turns.length > this.pace.perBucket.limit) turns.shift();
    }
    const standing = waiter.standing;
    this.figuresNow.turns++;
    if (standing.urgent) this.figuresNow.urgentTurns++;
    this.figuresNow.lastWaitMs = now - standing.since;
    this.inFlight++;
    waiter.run();
  }

  /** When the bucket may take one more turn: its hold's end, or its window's. */
  private bucketFreeAt(name: string | null, now: number): number {
    if (name === null) return now;
    const bucket = this.buckets.get(name);
    if (bucket === undefined) return now;
    const { limit, windowMs } = this.pace.perBucket;
    const full = bucket.turns.length >= limit ? bucket.turns[0]! + windowMs : now;
    const free = Math.max(full, bucket.heldUntil);
    // Idle buckets are dropped here, so that their number follows the waiting posts, not history.
    if (free <= now && bucket.turns.every((at) => at + windowMs <= now)) this.buckets.delete(name);
    return Math.max(free, now);
  }

  private bucket(name: string): { turns: number[]; heldUntil: number } {
    let bucket = this.buckets.get(name);
    if (bucket === undefined) this.buckets.set(name, (bucket = { turns: [], heldUntil: 0 }));
    return bucket;
  }

  /** One timer at a time, for the earliest moment a turn may go. */
  private sleep(at: number): void {
    if (!Number.isFinite(at) || at >= this.wakeAt) return;
    this.cancelWake?.();
    this.wakeAt = at;
    this.cancelWake = this.clock.after(Math.max(0, at - this.clock.now()), () => {
      this.cancelWake = null;
      this.wakeAt = Number.POSITIVE_INFINITY;
      this.pump();
    });
  }
}

/** Urgent first; then the oldest unshown update; then first come. */
function before(a: Waiter, b: Waiter): boolean {
  if (a.standing.urgent !== b.standing.urgent) return a.standing.urgent;
  if (a.standing.since !== b.standing.since) return a.standing.since < b.standing.since;
  return a.seq < b.seq;
}
