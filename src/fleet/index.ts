// A machine's place in the fleet: its connections to the shared PostgreSQL, the fleet's tables
// migrated, and the feed that observes each FICS game once for every machine.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { FleetConfig } from '../config.js';
import type { Logger } from '../log.js';
import { errorMessage, err, ok, type Result } from '../result.js';
import { FleetFeed, type FleetPool } from './feed.js';
import { migrateFleet } from './schema.js';
import { FleetStore } from './store.js';
import { RateShare } from './rate-share.js';
import type { ScheduleClock } from '../clock.js';

export { FleetFeed } from './feed.js';
export { FLEET_MIGRATIONS, migrateFleet } from './schema.js';
export { FleetStore } from './store.js';
export { RateShare, shareOfDemand } from './rate-share.js';

export interface Fleet {
  feed: FleetFeed;
  /**
   * Starts sharing the bot's `budget` of edits a second with the fleet's other processes by
   * demand (`waiting`: posts waiting here); returns this process's pace now.
   */
  sharePace(budget: number, staticShare: number, waiting: () => number): () => number;
  /** Gives the leases back and closes the connections. */
  close(): Promise<void>;
}

/** The rate share's clock: ms since the epoch, timers that do not keep a stopping process up. */
const EPOCH_CLOCK: ScheduleClock = {
  now: () => Date.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms).unref();
    return () => clearTimeout(timer);
  },
};

/** Connections a process keeps to PostgreSQL besides its LISTEN connection. */
const POOL_SIZE = 4;

export async function joinFleet(
  config: FleetConfig,
  ficsServer: string,
  pool: FleetPool,
  logger: Logger,
): Promise<Result<Fleet>> {
  const connect = { connectionString: config.url, connectionTimeoutMillis: 10_000 };
  const db = new pg.Pool({ ...connect, max: POOL_SIZE });
  // Leases have a connection of their own: renewals never queue behind published moves.
  const leases = new pg.Pool({ ...connect, max: 1 });
  // An idle connection PostgreSQL dropped: the pool opens another one on the next query.
  for (const each of [db, leases])
    each.on('error', (error) =>
      logger.warn({ error: errorMessage(error) }, 'fleet: idle database connection lost'),
    );
  try {
    const version = await migrateFleet(db);
    // Unique per process and readable in the lease table: which machine, which process.
    const holder = `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
    const store = new FleetStore(db, ficsServer, holder, leases);
    const feed = new FleetFeed({
      pool,
      store,
      listener: () => new pg.Client(connect),
      leaseMs: config.leaseMs,
      logger: logger.child({ component: 'fleet' }),
    });
    await feed.start();
    logger.info({ holder, schemaVersion: version, leaseMs: config.leaseMs }, 'fleet: joined');
    let share: RateShare | null = null;
    return ok({
      feed,
      sharePace: (budget, staticShare, waiting) => {
        share = new RateShare({
          store,
          budget,
          staticShare,
          waiting,
          clock: EPOCH_CLOCK,
          logger: logger.child({ component: 'fleet' }),
        });
        share.start();
        const started = share;
        return () => started.perSecond();
      },
      close: async () => {
        await share?.close();
        await feed.close();
        await Promise.all([db.end(), leases.end()]);
      },
    });
  } catch (error) {
    await Promise.all([db.end(), leases.end()]).catch(() => undefined);
    return err(`the fleet's PostgreSQL (KIBITZ_FLEET_DB) could not be used: ${errorMessage(error)}`);
  }
}
