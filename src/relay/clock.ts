// The relay's time: when edits may go (schedule.ts) and how long a refused one waits
// (latest-wins.ts). One clock for both, injected so that tests move it instead of waiting.

export interface ScheduleClock {
  now(): number;
  /** Calls `run` after `ms`; returns the cancel. */
  after(ms: number, run: () => void): () => void;
}

export const REAL_CLOCK: ScheduleClock = {
  now: () => performance.now(),
  after: (ms, run) => {
    // Waiting turns and retries alone do not keep a stopping process alive (their senders are
    // closed by then).
    const timer = setTimeout(run, ms).unref();
    return () => clearTimeout(timer);
  },
};
