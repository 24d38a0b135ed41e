// A fixed number of engines shared by every game. Per game only its newest position matters: a
// position queued for a game that has moved on is replaced, never analysed, and an analysis of a
// position the game has left is stopped. The queue holds at most one position per game and at
// most `maxQueued` in all (the oldest waiting one gives way).
import type { Analyser, AnalysisRequest } from './stockfish.js';
import type { Evaluation } from './uci.js';

export interface EngineJob extends AnalysisRequest {
  /** The game the position belongs to: one job per game at a time. */
  key: string;
}

export interface EnginePoolOptions {
  /** Engines running at once. */
  size: number;
  /** Positions waiting at most, all games together. */
  maxQueued: number;
  /** Makes one engine (called at most `size` times while none fails). */
  analyser: () => Analyser;
  /** A finished analysis, for a position its game still shows (or showed when it began). */
  onResult: (job: EngineJob, evaluation: Evaluation) => void;
  onError?: (job: EngineJob, error: unknown) => void;
}

export interface EnginePoolStats {
  running: number;
  queued: number;
  /** Analyses finished with an evaluation. */
  analysed: number;
  /** Queued positions replaced by a newer one of their game before they ran. */
  replaced: number;
  /** Analyses stopped because their game moved on or was let go. */
  stopped: number;
  /** Queued positions dropped because the queue was full. */
  dropped: number;
}

interface Slot {
  analyser: Analyser | null;
  job: EngineJob | null;
  abort: AbortController | null;
}

export class EnginePool {
  private readonly queue = new Map<string, EngineJob>();
  private readonly slots: Slot[];
  private closed = false;
  private readonly counts = { analysed: 0, replaced: 0, stopped: 0, dropped: 0 };

  constructor(private readonly options: EnginePoolOptions) {
    if (!(options.size >= 1) || !(options.maxQueued >= 1))
      throw new RangeError('pool size and queue bound start at 1');
    this.slots = Array.from({ length: options.size }, () => ({ analyser: null, job: null, abort: null }));
  }

  /** Asks for a position of a game; it replaces whatever that game had waiting or running. */
  submit(job: EngineJob): void {
    if (this.closed) return;
    const running = this.slots.find((slot) => slot.job?.key === job.key);
    if (running !== undefined && sameRequest(running.job!, job)) return;
    if (running !== undefined) this.stop(running);
    const waiting = this.queue.get(job.key);
    if (waiting !== undefined && sameRequest(waiting, job)) return;
    if (waiting !== undefined) {
      this.counts.replaced++;
      // Keeps its place: a busy game does not jump ahead of quieter ones.
      this.queue.set(job.key, job);
    } else {
      if (this.queue.size >= this.options.maxQueued) {
        this.queue.delete(this.queue.keys().next().value!);
        this.counts.dropped++;
      }
      this.queue.set(job.key, job);
    }
    this.next();
  }

  /** A game is over or no longer wanted: nothing of it is analysed any more. */
  forget(key: string): void {
    this.queue.delete(key);
    const running = this.slots.find((slot) => slot.job?.key === key);
    if (running !== undefined) this.stop(running);
  }

  stats(): EnginePoolStats {
    return {
      running: this.slots.filter((slot) => slot.job !== null).length,
      queued: this.queue.size,
      ...this.counts,
    };
  }

  close(): void {
    this.closed = true;
    this.queue.clear();
    for (const slot of this.slots) {
      slot.abort?.abort();
      slot.analyser?.close();
      slot.analyser = null;
    }
  }

  private stop(slot: Slot): void {
    if (slot.abort === null || slot.abort.signal.aborted) return;
    this.counts.stopped++;
    slot.abort.abort();
  }

  private next(): void {
    for (const slot of this.slots) {
      if (this.closed || this.queue.size === 0) return;
      if (slot.job !== null) continue;
      const [key, job] = this.queue.entries().next().value!;
      this.queue.delete(key);
      void this.run(slot, job);
    }
  }

  private async run(slot: Slot, job: EngineJob): Promise<void> {
    slot.job = job;
    const abort = new AbortController();
    slot.abort = abort;
    try {
      slot.analyser ??= this.options.analyser();
      const evaluation = await slot.analyser.analyse(job, abort.signal);
      if (evaluation !== null && !abort.signal.aborted && !this.closed) {
        this.counts.analysed++;
        this.options.onResult(job, evaluation);
      }
    } catch (error) {
      if (!this.closed) this.options.onError?.(job, error);
    } finally {
      slot.job = null;
      slot.abort = null;
      this.next();
    }
  }
}

function sameRequest(a: EngineJob, b: EngineJob): boolean {
  return a.fen === b.fen && a.chess960 === b.chess960;
}
