// The time of edits: when they may go (relay/schedule.ts), how long a refused one waits
// (relay/latest-wins.ts), the fleet's shared rate. Injected so that tests move it, not wait.

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
