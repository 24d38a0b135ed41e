// What the repositories need of a database, the same for SQLite and PostgreSQL: SQL written once
// with `?` placeholders in the subset both dialects read (upserts with ON CONFLICT, RETURNING),
// every call a promise. SQLite answers at once (its promises are settled when returned);
// PostgreSQL answers after a round trip.
import { errorMessage, type Result } from '../result.js';

export type SqlValue = string | number | null;

export interface SqlStatement {
  sql: string;
  params: readonly SqlValue[];
}

export interface Sql {
  /** Every row the statement returns. */
  all<Row>(sql: string, ...params: SqlValue[]): Promise<Row[]>;
  /** The first row, or undefined. */
  get<Row>(sql: string, ...params: SqlValue[]): Promise<Row | undefined>;
  /** Runs a write; resolves to the number of rows it changed. */
  run(sql: string, ...params: SqlValue[]): Promise<number>;
  /**
   * Runs an INSERT into a table with an `id` key; resolves to the new row's id, or null when
   * ON CONFLICT DO NOTHING left it out. Never `get()` on INSERT … RETURNING in SQLite: in WAL
   * mode a commit that fails (full disk, read-only file) is invisible to it, the row comes back.
   */
  insert(sql: string, ...params: SqlValue[]): Promise<number | null>;
  /** Runs the statements in one transaction: all or none. */
  transaction(statements: readonly SqlStatement[]): Promise<void>;
}

/** `postgres://` and `postgresql://` URLs select PostgreSQL; anything else is a SQLite file. */
export function isPostgresUrl(where: string): boolean {
  return /^postgres(ql)?:\/\//i.test(where);
}

/** An open database of either dialect, checked and migrated. */
export interface OpenedDatabase {
  /** The SQLite file, or the PostgreSQL URL without its password: for logs. */
  location: string;
  schemaVersion: number;
  sql: Sql;
  /** Null while the database takes a write (and, for a file, is still the one opened), else what is wrong. */
  checkWritable(): Promise<string | null>;
  close(): Promise<void>;
}

export type OpenDatabaseResult = Result<OpenedDatabase>;

/**
 * SQL condition on a `guild_id` column: the bot is in that guild. The set-up of a guild the bot
 * was removed from stays stored (adding the bot back restores it) but is not acted on.
 */
export const ACTIVE = 'guild_id NOT IN (SELECT guild_id FROM inactive_guilds)';

/**
 * A statement the database refused, or could not be reached for: a command that needed it says
 * so (src/discord/dispatch.ts). The message is the database's own.
 */
export class StorageError extends Error {
  constructor(cause: unknown) {
    super(errorMessage(cause), { cause });
    this.name = 'StorageError';
  }
}

/** Statements run since the start: reads, and writes (each statement of a transaction counted). */
export interface StatementCounts {
  reads: number;
  writes: number;
}

/**
 * `sql` counting what it runs (load tests report statements per move), its failures thrown as
 * StorageError.
 */
export function countedSql(sql: Sql): { sql: Sql; counts: StatementCounts } {
  const counts: StatementCounts = { reads: 0, writes: 0 };
  const refused = (error: unknown): never => {
    throw new StorageError(error);
  };
  return {
    counts,
    sql: {
      all: <Row>(text: string, ...params: SqlValue[]) => (
        counts.reads++,
        sql.all<Row>(text, ...params).catch(refused)
      ),
      get: <Row>(text: string, ...params: SqlValue[]) => (
        counts.reads++,
        sql.get<Row>(text, ...params).catch(refused)
      ),
      run: (text, ...params) => (counts.writes++, sql.run(text, ...params).catch(refused)),
      insert: (text, ...params) => (counts.writes++, sql.insert(text, ...params).catch(refused)),
      transaction: (statements) => (
        (counts.writes += statements.length),
        sql.transaction(statements).catch(refused)
      ),
    },
  };
}
