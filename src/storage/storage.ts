// The one database behind the bot: SQLite (a file, the embedded default) or PostgreSQL (a
// postgres:// URL, for machines that share it), migrated on open, and exposed as one small
// repository per table. Both run the same repositories over the same SQL (sql.ts).
import type { Logger } from '../log.js';
import { errorMessage } from '../result.js';
import { ClubRepository } from './clubs.js';
import { FinishedGameRepository } from './finished-games.js';
import { FollowRepository } from './follows.js';
import { GuildSettingsRepository } from './guild-settings.js';
import { LivePostRepository } from './live-posts.js';
import { migrations, type Migration } from './migrations.js';
import { openPostgres } from './postgres.js';
import { isPostgresUrl } from './sql.js';
import { InterestIndex } from './interest.js';
import { openSqlite } from './sqlite.js';

export interface StorageOptions {
  /** Clock for created/updated stamps (ms since the epoch). */
  now?: () => number;
  /** Schema migrations to apply; the project's own unless a test swaps them. */
  migrations?: readonly Migration[];
  /** Where a PostgreSQL connection that failed while idle is reported. */
  logger?: Logger;
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
  /** Who wants which player's games and each guild's cap, in memory (interest.ts). */
  readonly interest: InterestIndex;
  /** Safe to call twice. */
  close(): Promise<void>;
}

export type OpenStorageResult = { ok: true; storage: Storage } | { ok: false; error: string };

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
    : openSqlite(where, list);
  if (!opened.ok) return opened;
  const { sql, location, schemaVersion, close } = opened.database;
  const now = options.now ?? Date.now;
  const interest = new InterestIndex(sql);
  try {
    await interest.reload();
  } catch (error) {
    await close();
    return { ok: false, error: `cannot read the database ${location}: ${errorMessage(error)}` };
  }
  const changed = (): Promise<void> => interest.reload();
  return {
    ok: true,
    storage: {
      path: location,
      schemaVersion,
      livePosts: new LivePostRepository(sql, now),
      follows: new FollowRepository(sql, now, changed),
      guildSettings: new GuildSettingsRepository(sql, now, changed),
      finishedGames: new FinishedGameRepository(sql),
      clubs: new ClubRepository(sql, now, changed),
      interest,
      close,
    },
  };
}
