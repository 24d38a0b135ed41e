// The fleet's tables in PostgreSQL, versioned like the storage migrations: each version runs once,
// in order, in a transaction, and is recorded in fleet_schema. An advisory lock lets every machine
// start at once: one migrates, the others wait and find nothing left to do.
import type { Pool } from 'pg';

export interface FleetMigration {
  version: number;
  sql: string;
}

export const FLEET_MIGRATIONS: readonly FleetMigration[] = [
  {
    version: 1,
    sql: `
      -- Who observes a FICS game on FICS for the whole fleet, until when (renewed while alive).
      CREATE TABLE fleet_leases (
        server TEXT NOT NULL,
        game INTEGER NOT NULL,
        holder TEXT NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL,
        PRIMARY KEY (server, game)
      );
      -- The latest state of each game the fleet observes: a late subscriber reads it here.
      CREATE TABLE fleet_games (
        server TEXT NOT NULL,
        game INTEGER NOT NULL,
        seq BIGINT NOT NULL,
        snapshot JSONB NOT NULL,
        ended BOOLEAN NOT NULL,
        updated_at TIMESTAMPTZ NOT NULL DEFAULT now(),
        PRIMARY KEY (server, game)
      );
      CREATE INDEX fleet_games_ended ON fleet_games (updated_at) WHERE ended;
    `,
  },
  {
    version: 2,
    sql: `
      -- Each process's demand for Discord's requests (posts waiting for an edit), renewed like a
      -- lease: the bot's 40 edits a second are shared out by it (src/fleet/rate-share.ts).
      CREATE TABLE rate_shares (
        holder TEXT PRIMARY KEY,
        demand DOUBLE PRECISION NOT NULL,
        expires_at TIMESTAMPTZ NOT NULL
      );
    `,
  },
  {
    version: 3,
    sql: `
      -- What each process paces at (granted) and its shards' static part of the budget (share):
      -- grants are taken under a lock so that the live ones never add up to more than the live
      -- static shares (src/fleet/rate-share.ts).
      ALTER TABLE rate_shares
        ADD COLUMN share DOUBLE PRECISION NOT NULL DEFAULT 0,
        ADD COLUMN granted DOUBLE PRECISION NOT NULL DEFAULT 0;
    `,
  },
];

/** Any number the fleet's migrations lock on (pg_advisory_xact_lock takes a bigint). */
const MIGRATION_LOCK = 0x6b6962697a;

/** Applies the migrations not applied yet; resolves with the schema version now. */
export async function migrateFleet(pool: Pool): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS fleet_schema (version INTEGER PRIMARY KEY)');
    const applied = await client.query<{ version: number | null }>(
      'SELECT max(version) AS version FROM fleet_schema',
    );
    let version = applied.rows[0]?.version ?? 0;
    const latest = FLEET_MIGRATIONS.at(-1)?.version ?? 0;
    if (version > latest)
      throw new Error(
        `the fleet's tables are at version ${version}, newer than this Kibitz knows (${latest}): run the same Kibitz version on every machine.`,
      );
    for (const migration of FLEET_MIGRATIONS) {
      if (migration.version <= version) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO fleet_schema (version) VALUES ($1)', [migration.version]);
      version = migration.version;
    }
    await client.query('COMMIT');
    return version;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
