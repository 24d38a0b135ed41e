// The one database behind the bot: SQLite (a file, the embedded default) or PostgreSQL (a
// postgres:// URL, for machines that share it), migrated on open, and exposed as one small
// repository per table. Both run the same repositories over the same SQL (sql.ts).
import type { Logger } from '../log.js';
import { err, errorMessage, ok, type Result } from '../result.js';
import { ClubRepository } from './clubs.js';
import { FinishedGameRepository } from './finished-games.js';
import { FollowRepository } from './follows.js';
import { GuildSettingsRepository } from './guild-settings.js';
import { LivePostRepository } from './live-posts.js';
import { migrations, type Migration } from './migrations.js';
import { openPostgres } from './postgres.js';
import { countedSql, isPostgresUrl, type StatementCounts } from './sql.js';
import { InterestIndex } from './interest.js';
import { TvRepository } from './tv.js';
import { openSqlite } from './sqlite.js';
import { StoredGameIds } from './stored-game-ids.js';
import { Writes, type WritesOptions } from './writes.js';

export interface StorageOptions {
  /** Clock for created/updated stamps (ms since the epoch). */
  now?: () => number;
  /** Schema migrations to apply; the project's own unless a test swaps them. */
  migrations?: readonly Migration[];
  /**
   * Where a PostgreSQL connection that failed while idle, writes refused and rows left out (a
   * game number that is not a game id) are reported.
   */
  logger?: Logger;
  /** Retries and batching of the writes that do not hold the bot up (writes.ts). */
  writes?: Omit<WritesOptions, 'logger'>;
  /** How long SQLite waits for another program's lock before refusing (default SQLITE_BUSY_MS, 5 s). */
  busyTimeoutMs?: number;
}

export interface StorageHealth {
  /** The database took a write just now (and, for a file, is still the file opened). */
  writable: boolean;
  /** Writes waiting for the database (queued while it refused them). */
  queued: number;
  /** What is wrong, when something is. */
  error: string | null;
}

export interface Storage {
  /** The SQLite file, or the PostgreSQL URL without its password. */
  readonly path: string;
  readonly schemaVersion: number;
  readonly livePosts: LivePostRepository;
  readonly follows: FollowRepository;
  readonly guildSettings: GuildSettingsRepository;
  readonly finishedGames: FinishedGameRepository;
  readonly clubs: ClubRepository;
  /** FICS TV channels (one per guild). */
  readonly tv: TvRepository;
  /** Who wants which player's games and each guild's cap, in memory (interest.ts). */
  readonly interest: InterestIndex;
  /** The queued and batched writes (writes.ts); `idle()` waits until they are stored. */
  readonly writes: Writes;
  /** Statements run since open (load tests: statements per move). */
  readonly statements: StatementCounts;
  /** Tries a write now (for /healthz); at most one try at a time, callers meanwhile share it. */
  health(): Promise<StorageHealth>;
  /** Stores what is queued if it can (what it cannot is logged), then closes; safe to call twice. */
  close(): Promise<void>;
}

export type OpenStorageResult = Result<Storage>;

/**
 * Opens and migrates the database `where` names: a postgres:// (or postgresql://) URL, else a
 * SQLite file (created with its folder if needed).
 */
export async function openStorage(where: string, options: StorageOptions = {}): Promise<OpenStorageResult> {
  const list = options.migrations ?? migrations;
  const opened = isPostgresUrl(where)
    ? await openPostgres(where, list, (error) =>
        options.logger?.error({ err: error }, 'database connection failed while idle'),
      )
    : openSqlite(where, list, options.busyTimeoutMs);
  if (!opened.ok) return opened;
  const { location, schemaVersion, checkWritable } = opened.value;
  const { sql, counts } = countedSql(opened.value.sql);
  const now = options.now ?? Date.now;
  const interest = new InterestIndex(sql);
  const writes = new Writes(sql, {
    ...options.writes,
    ...(options.logger ? { logger: options.logger } : {}),
  });
  const games = new StoredGameIds(options.logger);
  const livePosts = new LivePostRepository(sql, now, writes, games);
  let closed = false;
  const close = async (): Promise<void> => {
    if (closed) return;
    closed = true;
    await writes.close();
    await opened.value.close();
  };
  try {
    await interest.reload();
    await livePosts.load();
  } catch (error) {
    await close();
    return err(`cannot read the database ${location}: ${errorMessage(error)}`);
  }
  const changed = (): Promise<void> => interest.reload();
  let checking: Promise<StorageHealth> | null = null;
  let reported: string | null = null;
  const health = (): Promise<StorageHealth> =>
    (checking ??= checkWritable()
      .then((error) => {
        // Logged once per new problem: /healthz may be asked every few seconds.
        if (error !== null && error !== reported)
          options.logger?.error({ db: location, error }, 'database not writable');
        reported = error;
        return {
          writable: error === null,
          queued: writes.status().queued,
          error: error ?? writes.status().failing,
        };
      })
      .finally(() => (checking = null)));
  return ok({
    path: location,
    schemaVersion,
    livePosts,
    follows: new FollowRepository(sql, now, changed),
    guildSettings: new GuildSettingsRepository(sql, now, changed),
    finishedGames: new FinishedGameRepository(sql, writes, games),
    clubs: new ClubRepository(sql, now, changed, games),
    tv: new TvRepository(sql, now),
    interest,
    writes,
    statements: counts,
    health,
    close,
  });
}
