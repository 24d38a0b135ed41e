// The one SQLite database behind the bot: opened in WAL mode, migrated on open, and exposed as
// one small repository per table.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database } from 'better-sqlite3';
import { ClubRepository } from './clubs.js';
import { FinishedGameRepository } from './finished-games.js';
import { FollowRepository } from './follows.js';
import { GuildSettingsRepository } from './guild-settings.js';
import { LivePostRepository } from './live-posts.js';
import { cleanText, truncate } from '../text.js';
import { migrate, migrations } from './migrations.js';
import type { Migration } from './migrations.js';

export const IN_MEMORY = ':memory:';

export interface StorageOptions {
  /** Clock for created/updated stamps (ms since the epoch). */
  now?: () => number;
  /** Schema migrations to apply; the project's own unless a test swaps them. */
  migrations?: readonly Migration[];
}

export interface Storage {
  readonly path: string;
  readonly schemaVersion: number;
  readonly livePosts: LivePostRepository;
  readonly follows: FollowRepository;
  readonly guildSettings: GuildSettingsRepository;
  readonly finishedGames: FinishedGameRepository;
  readonly clubs: ClubRepository;
  close(): void;
}

export type OpenStorageResult = { ok: true; storage: Storage } | { ok: false; error: string };

/** Opens (creating the file and its folder if needed) and migrates the database at `path`. */
export function openStorage(path: string, options: StorageOptions = {}): OpenStorageResult {
  let db: Database;
  try {
    if (path !== IN_MEMORY) mkdirSync(dirname(path), { recursive: true });
    db = new BetterSqlite3(path);
  } catch (error) {
    return { ok: false, error: `cannot open the database ${path}: ${describe(error)}` };
  }
  try {
    if (path !== IN_MEMORY) db.pragma('journal_mode = WAL');
    // WAL with NORMAL sync loses at most the last commits on power loss, never consistency.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
  } catch (error) {
    db.close();
    return { ok: false, error: `cannot use the database ${path}: ${describe(error)}` };
  }
  const sound = checkSound(db);
  if (sound !== null) {
    db.close();
    return { ok: false, error: `cannot use the database ${path}: ${sound}` };
  }
  const migrated = migrate(db, options.migrations ?? migrations);
  if (!migrated.ok) {
    db.close();
    return { ok: false, error: `cannot use the database ${path}: ${migrated.error}` };
  }
  const now = options.now ?? Date.now;
  return {
    ok: true,
    storage: {
      path,
      schemaVersion: migrated.to,
      livePosts: new LivePostRepository(db, now),
      follows: new FollowRepository(db, now),
      guildSettings: new GuildSettingsRepository(db, now),
      finishedGames: new FinishedGameRepository(db),
      clubs: new ClubRepository(db, now),
      close: () => {
        if (db.open) db.close();
      },
    },
  };
}

/**
 * Null when the file reads back whole and takes a write, else what is wrong: a damaged or
 * unwritable database is found at start, not halfway through a game.
 */
function checkSound(db: Database): string | null {
  try {
    const problems = (db.pragma('quick_check') as { quick_check: string }[])
      .map((row) => row.quick_check)
      .filter((said) => said !== 'ok');
    if (problems.length > 0) {
      return `it is damaged (${truncate(cleanText(problems.join('; ')), 300)}). Restore a backup, or move the file away to start with an empty one.`;
    }
  } catch (error) {
    return `it cannot be read whole (${describe(error)}). Restore a backup, or move the file away to start with an empty one.`;
  }
  try {
    // Writing the schema version back as it is: a real write, and a harmless one.
    const version = Number(db.pragma('user_version', { simple: true }));
    db.transaction(() => db.pragma(`user_version = ${version}`)).immediate();
  } catch (error) {
    return `it cannot be written (${describe(error)}). Check the file's and its folder's permissions and the free disk space, and that no other program holds the database.`;
  }
  return null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
