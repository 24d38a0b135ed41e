// The two stores the storage tests run against: SQLite files in a temporary folder, and fresh
// databases on the run's PostgreSQL server (test/support/postgres-setup.ts). A PostgreSQL that did
// not start fails its tests with the reason; they are never skipped.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { inject } from 'vitest';

export interface Backend {
  name: 'sqlite' | 'postgres';
  /** Where a new, empty database is: a file path or a URL. */
  fresh(): Promise<string>;
  /** The names of the tables in the database at `where`. */
  tables(where: string): Promise<string[]>;
  /** Removes what fresh() made. */
  cleanUp(): Promise<void>;
}

export function sqliteBackend(): Backend {
  const dirs: string[] = [];
  return {
    name: 'sqlite',
    fresh: () => {
      const dir = mkdtempSync(join(tmpdir(), 'kibitz-storage-'));
      dirs.push(dir);
      return Promise.resolve(join(dir, 'data', 'kibitz.db'));
    },
    tables: (where) => {
      const db = new BetterSqlite3(where, { readonly: true });
      try {
        const rows = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table'`).all() as {
          name: string;
        }[];
        return Promise.resolve(rows.map((r) => r.name));
      } finally {
        db.close();
      }
    },
    cleanUp: () => {
      for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
      return Promise.resolve();
    },
  };
}

export function postgresBackend(): Backend {
  return {
    name: 'postgres',
    fresh: freshPostgresDatabase,
    tables: async (where) =>
      (
        await query<{ table_name: string }>(
          where,
          `SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'`,
        )
      ).map((r) => r.table_name),
    // The server, and every database on it, goes at the end of the run.
    cleanUp: () => Promise.resolve(),
  };
}

export const backends: Backend[] = [sqliteBackend(), postgresBackend()];

/** A new, empty database on the run's server: its URL. */
export async function freshPostgresDatabase(): Promise<string> {
  const server = postgresUrl();
  const name = `kibitz_${randomBytes(8).toString('hex')}`;
  await query(server, `CREATE DATABASE ${name}`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The run's server; throws when it did not start. */
export function postgresUrl(): string {
  const provided = inject('postgres');
  if (provided.url === null) throw new Error(`the test PostgreSQL server did not start: ${provided.error}`);
  return provided.url;
}

/** Statements behind the repositories' back, as another version of Kibitz (or a hand) would make them. */
export async function writeBehind(where: string, sql: string): Promise<void> {
  if (where.startsWith('postgres')) {
    await query(where, sql);
    return;
  }
  const db = new BetterSqlite3(where);
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

/** One statement on its own connection. */
export async function query<Row>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}
