import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // One PostgreSQL server for the whole run (the storage tests run against it and SQLite).
    globalSetup: ['test/support/postgres-setup.ts'],
    // In CI a skipped test fails the run (test/support/no-skips.ts).
    reporters: process.env.CI === 'true' ? ['default', './test/support/no-skips.ts'] : ['default'],
    // Most test time is spent waiting on sockets and timers, not computing: three files at once even
    // on two cores (vitest's default there is one; the whole run took 194 s so, 107 s with three).
    maxWorkers: 3,
    // A bound on each test, not a speed check: tests that start bot processes take 5-10 s alone and
    // several times that when the whole run shares two cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
