// Versioned schema changes. The database's PRAGMA user_version is the number of migrations
// applied; each migration runs once, in order, in its own transaction. Never edit a released
// migration: append a new one.
import type { Database } from 'better-sqlite3';

export interface Migration {
  /** What the migration does, for logs. */
  description: string;
  up(db: Database): void;
}

export const migrations: readonly Migration[] = [
  {
    description: 'live posts, follows, guild settings, finished games',
    up(db) {
      db.exec(`
        CREATE TABLE live_posts (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          message_channel_id TEXT,
          message_id TEXT,
          thread_id TEXT,
          game_number INTEGER NOT NULL,
          game_key TEXT NOT NULL,
          white TEXT NOT NULL,
          black TEXT NOT NULL,
          flip INTEGER NOT NULL CHECK (flip IN (0, 1)),
          thread INTEGER NOT NULL CHECK (thread IN (0, 1)),
          requested_by TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('live', 'ended', 'ended_offline')),
          created_at INTEGER NOT NULL,
          updated_at INTEGER NOT NULL
        );
        CREATE INDEX live_posts_by_state ON live_posts (state, guild_id);
        -- One live post per game per channel: asking twice must not post twice.
        CREATE UNIQUE INDEX live_posts_one_per_channel ON live_posts (channel_id, game_key) WHERE state = 'live';

        CREATE TABLE follows (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          handle TEXT NOT NULL COLLATE NOCASE,
          created_by TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          UNIQUE (channel_id, handle)
        );
        CREATE INDEX follows_by_handle ON follows (handle);
        CREATE INDEX follows_by_guild ON follows (guild_id);

        CREATE TABLE guild_settings (
          guild_id TEXT PRIMARY KEY,
          max_live_games INTEGER CHECK (max_live_games IS NULL OR max_live_games > 0),
          updated_at INTEGER NOT NULL
        );

        CREATE TABLE finished_games (
          game_key TEXT PRIMARY KEY,
          game_number INTEGER NOT NULL,
          white TEXT NOT NULL COLLATE NOCASE,
          black TEXT NOT NULL COLLATE NOCASE,
          pgn TEXT NOT NULL,
          result TEXT NOT NULL CHECK (result IN ('1-0', '0-1', '1/2-1/2', '*')),
          reason TEXT,
          ended_at INTEGER NOT NULL
        );
        CREATE INDEX finished_games_by_number ON finished_games (game_number, ended_at);
        CREATE INDEX finished_games_by_end ON finished_games (ended_at);
      `);
    },
  },
  {
    description: 'clubs: settings, members, pairings, posted games',
    up(db) {
      db.exec(`
        CREATE TABLE clubs (
          guild_id TEXT PRIMARY KEY,
          channel_id TEXT,
          thread INTEGER NOT NULL DEFAULT 0 CHECK (thread IN (0, 1)),
          mode TEXT NOT NULL DEFAULT 'all' CHECK (mode IN ('all', 'members', 'pairings')),
          rated_only INTEGER NOT NULL DEFAULT 0 CHECK (rated_only IN (0, 1)),
          -- Comma-separated game types; NULL for every type.
          types TEXT,
          -- The "limit reached" notice went out and games wait for room: say it once.
          cap_noticed INTEGER NOT NULL DEFAULT 0 CHECK (cap_noticed IN (0, 1)),
          updated_by TEXT NOT NULL,
          updated_at INTEGER NOT NULL
        );

        CREATE TABLE club_members (
          guild_id TEXT NOT NULL,
          handle TEXT NOT NULL COLLATE NOCASE,
          added_by TEXT NOT NULL,
          added_at INTEGER NOT NULL,
          PRIMARY KEY (guild_id, handle)
        );
        CREATE INDEX club_members_by_handle ON club_members (handle);

        CREATE TABLE club_pairings (
          guild_id TEXT NOT NULL,
          board INTEGER NOT NULL,
          first TEXT NOT NULL COLLATE NOCASE,
          second TEXT NOT NULL COLLATE NOCASE,
          PRIMARY KEY (guild_id, board)
        );

        CREATE TABLE club_games (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          guild_id TEXT NOT NULL,
          channel_id TEXT NOT NULL,
          game_key TEXT NOT NULL,
          game_number INTEGER NOT NULL,
          white TEXT NOT NULL,
          black TEXT NOT NULL,
          post_id INTEGER,
          message_channel_id TEXT,
          message_id TEXT,
          result TEXT CHECK (result IS NULL OR result IN ('1-0', '0-1', '1/2-1/2', '*')),
          reason TEXT,
          started_at INTEGER NOT NULL,
          ended_at INTEGER
        );
        -- A running game is posted once per club, whatever reconnects and restarts happen.
        CREATE UNIQUE INDEX club_games_one_open ON club_games (guild_id, game_key) WHERE ended_at IS NULL;
        CREATE INDEX club_games_by_end ON club_games (guild_id, ended_at);
        CREATE INDEX club_games_by_post ON club_games (post_id);
      `);
    },
  },
  {
    description: 'why a live post ended; guilds the bot was removed from (their set-up kept inactive)',
    up(db) {
      db.exec(`
        ALTER TABLE live_posts ADD COLUMN end_reason TEXT;
        -- Follows and club settings of these guilds stay stored but are not acted on, so that
        -- adding the bot back restores them.
        CREATE TABLE inactive_guilds (
          guild_id TEXT PRIMARY KEY,
          since INTEGER NOT NULL
        );
      `);
    },
  },
];

export type MigrateResult = { ok: true; from: number; to: number } | { ok: false; error: string };

/** Brings the schema up to date with `list` (the project's migrations unless a test passes others). */
export function migrate(db: Database, list: readonly Migration[] = migrations): MigrateResult {
  const from = db.pragma('user_version', { simple: true });
  if (typeof from !== 'number') return { ok: false, error: 'could not read the schema version' };
  if (from > list.length) {
    return {
      ok: false,
      error: `the database has schema version ${from} but this Kibitz knows only ${list.length}: it was written by a newer version`,
    };
  }
  for (let version = from; version < list.length; version++) {
    const migration = list[version];
    if (migration === undefined) break;
    try {
      db.transaction(() => {
        migration.up(db);
        // PRAGMA takes no bound parameters; `version + 1` is an integer we computed.
        db.pragma(`user_version = ${version + 1}`);
      })();
    } catch (error) {
      return {
        ok: false,
        error: `migration ${version + 1} (${migration.description}) failed: ${error instanceof Error ? error.message : String(error)}`,
      };
    }
  }
  return { ok: true, from, to: list.length };
}
