// Bounds on single tests, against hangs (they are not speed checks: speed is npm run bench).

/**
 * The bound of a unit test that computes for seconds (hundreds of pictures drawn, thousands of
 * property runs): 1-3 s on a quiet machine, up to 30 s at load average 20-30 on two cores. Every
 * other unit test has the project's 10 s (vitest.config.ts).
 */
export const HEAVY_TEST_MS = 60_000;
