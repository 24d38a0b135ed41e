import { defineConfig } from 'vitest/config';

/**
 * Tests that start processes, browsers or databases, or talk over sockets (the fake FICS and fake
 * Discord servers included). Everything else is the unit project, which may do none of that
 * (test/support/unit-guard.ts) and runs alone as `npm run test:fast`.
 */
const INTEGRATION = [
  'test/bench/**/*.test.ts',
  'test/chesslive/{feed,limits,source}.test.ts',
  'test/cli/{chesslive,help,observe,render}.test.ts',
  'test/club/{club,tv}.test.ts',
  'test/discord/{bot,buffered-request,commands,dispatch,nonce,permissions,post-retry}.test.ts',
  'test/e2e/**/*.test.ts',
  'test/engine/**/*.test.ts',
  'test/fake-discord/**/*.test.ts',
  'test/fake-fics/**/*.test.ts',
  'test/faults/**/*.test.ts',
  'test/fics/{connection,game-identity,hostile,injection,keepalive,login-errors,observe,pacer,pool,reconnect,shares,uhlin-login}.test.ts',
  'test/fleet/**/*.test.ts',
  'test/load/fuzz.test.ts',
  'test/protocol/transcripts.test.ts',
  'test/relay/relay.test.ts',
  'test/render/idle-pool.test.ts',
  'test/storage/**/*.test.ts',
  'test/web/{bounds,browser,stream,web}.test.ts',
];

export default defineConfig({
  test: {
    // In CI a skipped test fails the run (test/support/no-skips.ts).
    reporters: process.env.CI === 'true' ? ['default', './test/support/no-skips.ts'] : ['default'],
    // Most test time is spent waiting on sockets and timers, not computing: three files at once even
    // on two cores (vitest's default there is one; the whole run took 194 s so, 107 s with three).
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          exclude: INTEGRATION,
          setupFiles: ['test/support/unit-guard.ts'],
          // One module cache per worker, not one per file: the renderer, chessops and the fixtures
          // load once (import time was over half the run). A file that mocks a module loads what it
          // mocks afresh (test/render/long-names.test.ts).
          isolate: false,
          // A bound against a hang, not a speed check: a unit test waits on nothing. The few that
          // compute for seconds (pictures, property runs) say so with HEAVY_TEST_MS (60 s,
          // test/support/bounds.ts).
          testTimeout: 10_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: INTEGRATION,
          // One PostgreSQL server for the whole run (the storage tests run against it and SQLite).
          // And the bot compiled once, which tests start with plain node (test/support/processes.ts).
          globalSetup: ['test/support/postgres-setup.ts', 'test/support/build-setup.ts'],
          // One module cache per worker, as in the unit project: importing the app, discord.js and
          // the fake Discord's schema afresh for each file was 5 s a file (394 s of a 515 s run).
          // Each file starts and closes its own servers, bots and databases; a file that mocks a
          // module loads what it mocks afresh (test/chesslive/feed.test.ts).
          isolate: false,
          // A bound on each test, not a speed check: tests that start bot processes take 5-10 s
          // alone and several times that when the whole run shares two cores.
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
