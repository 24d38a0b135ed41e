// Time as the connection sees it. Injected so tests drive keep-alives, timeouts and back-off with
// a fake clock instead of waiting.

export interface Timer {
  cancel(): void;
}

export interface Clock {
  now(): number;
  /** Calls `fn` once after `ms`. */
  after(ms: number, fn: () => void): Timer;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  after(ms, fn) {
    const handle = setTimeout(fn, ms);
    // A pending keep-alive or retry must not keep a finished process alive.
    handle.unref();
    return { cancel: () => clearTimeout(handle) };
  },
};
