// The shared store: PostgreSQL through the `pg` client, for machines that share one database.
// Its schema version is the one row of `schema_version`; migrating holds an advisory lock, so
// that machines starting at the same moment migrate one after the other.
import pg from 'pg';
import type { Pool, PoolClient, QueryConfig } from 'pg';
import { err, errorMessage, ok } from '../result.js';
import { migrationFailed, pending, tooNew, type MigrateResult, type Migration } from './migrations.js';
import type { OpenDatabaseResult, Sql, SqlValue } from './sql.js';

/** Any number: "kib" in ASCII. Advisory locks are per database, so one per Kibitz database. */
const MIGRATION_LOCK = 0x6b6962;

/**
 * BIGINT (ids, millisecond times, counts) arrives as a number, as SQLite gives it: every such
 * value Kibitz stores is far below 2^53.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8
      ? Number
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/** Connects, checks and migrates the database at `url`; `onError`: a pooled connection failed while idle. */
export async function openPostgres(
  url: string,
  list: readonly Migration[],
  onError: (error: Error) => void,
): Promise<OpenDatabaseResult> {
  let location: string;
  try {
    location = withoutPassword(url);
  } catch {
    return err('KIBITZ_DB is not a valid postgres:// URL');
  }
  const pool = new pg.Pool({ connectionString: url, types, connectionTimeoutMillis: 10_000 });
  // Without a listener a connection dropped while idle (a server restart) would end the process.
  pool.on('error', onError);
  let client: PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    await pool.end();
    return err(`cannot open the database ${location}: ${errorMessage(error)}`);
  }
  let migrated: MigrateResult;
  try {
    migrated = await migratePostgres(client, list);
  } catch (error) {
    migrated = err(errorMessage(error));
  } finally {
    client.release();
  }
  if (!migrated.ok) {
    await pool.end();
    return err(`cannot use the database ${location}: ${migrated.error}`);
  }
  let ended = false;
  return ok({
    location,
    schemaVersion: migrated.value.to,
    sql: postgresSql(pool),
    checkWritable: async () => {
      try {
        await pool.query('UPDATE schema_version SET version = version');
        return null;
      } catch (error) {
        return `it cannot be written (${errorMessage(error)})`;
      }
    },
    close: async () => {
      if (ended) return;
      ended = true;
      await pool.end();
    },
  });
}

/** Brings the schema up to date with `list`, each migration in its own transaction. */
export async function migratePostgres(
  client: PoolClient,
  list: readonly Migration[],
): Promise<MigrateResult> {
  await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
  try {
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)');
    const rows = (await client.query<{ version: number }>('SELECT version FROM schema_version')).rows;
    if (rows.length === 0) await client.query('INSERT INTO schema_version (version) VALUES (0)');
    const from = rows[0]?.version ?? 0;
    const newer = tooNew(from, list);
    if (newer !== null) return newer;
    for (const [version, migration] of pending(list, from)) {
      try {
        await client.query('BEGIN');
        await client.query(migration.postgres);
        await client.query('UPDATE schema_version SET version = $1', [version]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        return migrationFailed(version, migration, error);
      }
    }
    // A real write, and a harmless one: a database that takes no writes is found at start.
    await client.query('UPDATE schema_version SET version = version');
    return ok({ from, to: list.length });
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
  }
}

/** The repositories' SQL on a pool: `?` becomes `$1, $2...`, each text a named prepared statement. */
function postgresSql(pool: Pool): Sql {
  const statements = new Map<string, { name: string; text: string }>();
  const statement = (sql: string, params: readonly SqlValue[]): QueryConfig<SqlValue[]> => {
    let prepared = statements.get(sql);
    if (prepared === undefined) {
      prepared = { name: `kibitz_${statements.size}`, text: numberPlaceholders(sql) };
      statements.set(sql, prepared);
    }
    return { ...prepared, values: [...params] };
  };
  return {
    async all<Row>(sql: string, ...params: SqlValue[]) {
      return (await pool.query(statement(sql, params))).rows as Row[];
    },
    async get<Row>(sql: string, ...params: SqlValue[]) {
      return (await pool.query(statement(sql, params))).rows[0] as Row | undefined;
    },
    async run(sql, ...params) {
      return (await pool.query(statement(sql, params))).rowCount ?? 0;
    },
    async insert(sql, ...params) {
      const rows = (await pool.query<{ id: number }>(statement(`${sql} RETURNING id`, params))).rows;
      return rows[0]?.id ?? null;
    },
    async transaction(list) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        for (const { sql, params } of list) await client.query(statement(sql, params));
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

/** `?` placeholders (outside quoted text) as PostgreSQL's `$1, $2...`. */
export function numberPlaceholders(sql: string): string {
  let count = 0;
  let quoted = false;
  let out = '';
  for (const char of sql) {
    if (char === "'") quoted = !quoted;
    out += char === '?' && !quoted ? `$${++count}` : char;
  }
  return out;
}

/** The URL for logs: its password replaced. Throws on a string that is no URL. */
function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password !== '') parsed.password = '***';
  return parsed.toString();
}
