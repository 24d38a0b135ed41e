// Waits before trying again: exponential and capped, for FICS reconnects, Discord edits, the
// governor's pauses and shard restarts. FICS reconnects add jitter so that many connections
// dropped together (a server restart) do not all come back in the same instant.

export interface BackoffOptions {
  /** First delay, ms. */
  initialMs: number;
  /** Largest delay, ms. */
  maxMs: number;
  /** Each failure multiplies the delay by this. */
  factor: number;
  /** Fraction of the delay that is random (0 = none, 1 = anywhere from 0 to the delay). */
  jitter: number;
}

export const DEFAULT_BACKOFF: BackoffOptions = { initialMs: 1_000, maxMs: 60_000, factor: 2, jitter: 0.5 };

/** Delay before attempt `attempt` (0 = first retry). `random` returns [0, 1). */
export function backoffDelay(
  options: BackoffOptions,
  attempt: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(options.maxMs, options.initialMs * options.factor ** Math.max(0, attempt));
  return Math.round(base * (1 - options.jitter * random()));
}
