// Shared setup of the FICS integration tests: a fake server, a pool pointed at it with short
// timeouts and back-off, everything recorded, and all of it closed after each test.
import { afterEach } from 'vitest';
import type { FicsLogger } from '../../src/fics/logger.js';
import { FicsPool, type PoolOptions } from '../../src/fics/pool.js';
import type { GameSnapshot } from '../../src/game/snapshot.js';
import type { TrackerUpdate } from '../../src/game/tracker.js';
import { FakeFics, type FakeFicsOptions } from '../fake-fics/server.js';
import { gameId } from '../support/fics-values.js';

export {
  bughouseFixture,
  fixture,
  fixtureGames,
  scriptOf,
  type FixtureGame,
} from '../fake-fics/fixture-games.js';

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  fields: Record<string, unknown>;
  message: string;
}

export class RecordingLogger implements FicsLogger {
  readonly records: LogRecord[] = [];
  debug = (fields: object, message: string): void => this.add('debug', fields, message);
  info = (fields: object, message: string): void => this.add('info', fields, message);
  warn = (fields: object, message: string): void => this.add('warn', fields, message);
  error = (fields: object, message: string): void => this.add('error', fields, message);

  private add(level: LogRecord['level'], fields: object, message: string): void {
    this.records.push({ level, fields: fields as Record<string, unknown>, message });
  }
}

/** Timings that keep every test well under a second of waiting. */
export const FAST: PoolOptions = {
  host: '127.0.0.1',
  loginTimeoutMs: 3_000,
  commandTimeoutMs: 2_000,
  backoff: { initialMs: 5, maxMs: 40, factor: 2, jitter: 0.5 },
};

export interface Harness {
  fake: FakeFics;
  pool: FicsPool;
  updates: TrackerUpdate[];
  errors: Error[];
  logger: RecordingLogger;
  /** Waits for the 'ended' update of a game. */
  ended(game: number, timeoutMs?: number): Promise<GameSnapshot>;
  /** Waits until the pool's snapshot of a game satisfies `predicate`. */
  snapshotWhen(game: number, predicate: (s: GameSnapshot) => boolean, what: string): Promise<GameSnapshot>;
}

const open: { close(): unknown }[] = [];

afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

export async function startFake(options: FakeFicsOptions = {}): Promise<FakeFics> {
  const fake = await FakeFics.start(options);
  open.push(fake);
  return fake;
}

/** A pool on `fake` (not started) whose updates, errors and log lines are recorded. */
export function poolOn(fake: FakeFics, options: PoolOptions = {}): Harness {
  const logger = new RecordingLogger();
  const pool = new FicsPool({ ...FAST, port: fake.port, logger, ...options });
  open.push(pool);
  const updates: TrackerUpdate[] = [];
  const errors: Error[] = [];
  pool.on('update', (update) => updates.push(update));
  pool.on('error', (error) => errors.push(error));
  return {
    fake,
    pool,
    updates,
    errors,
    logger,
    async ended(game, timeoutMs = 15_000) {
      const find = (): GameSnapshot | undefined => {
        for (const u of updates) if (u.type === 'ended' && u.snapshot.game === game) return u.snapshot;
        return undefined;
      };
      await fake.waitFor(() => find() !== undefined, `the end of game ${game}`, timeoutMs);
      return find()!;
    },
    async snapshotWhen(game, predicate, what) {
      await fake.waitFor(() => {
        const s = pool.snapshot(gameId(game));
        return s !== undefined && predicate(s);
      }, what);
      return pool.snapshot(gameId(game))!;
    },
  };
}

/** Strips the block-mode id FICS clients put before each command. */
export function withoutId(command: string): string {
  return command.replace(/^\d+ /, '');
}
