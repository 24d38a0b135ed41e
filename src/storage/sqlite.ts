// The embedded store: one SQLite file (better-sqlite3) in WAL mode, checked and migrated on open.
// Its schema version is PRAGMA user_version.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Database, Statement } from 'better-sqlite3';
import { cleanText, truncate } from '../text.js';
import { migrationFailed, pending, tooNew, type MigrateResult, type Migration } from './migrations.js';
import { err, errorMessage, ok } from '../result.js';
import { type OpenedDatabase, type OpenDatabaseResult, type Sql } from './sql.js';

export const IN_MEMORY = ':memory:';

/** How long a statement waits for another program's lock on the file before it fails. */
export const SQLITE_BUSY_MS = 5_000;

/** Opens (creating the file and its folder if needed), checks and migrates the database at `path`. */
export function openSqlite(
  path: string,
  list: readonly Migration[],
  busyTimeoutMs = SQLITE_BUSY_MS,
): OpenDatabaseResult {
  let db: Database;
  try {
    if (path !== IN_MEMORY) makeFolder(dirname(path));
    db = new BetterSqlite3(path);
  } catch (error) {
    return err(`cannot open the database ${path}: ${errorMessage(error)}`);
  }
  try {
    if (path !== IN_MEMORY) db.pragma('journal_mode = WAL');
    // WAL with NORMAL sync loses at most the last commits on power loss, never consistency.
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    db.pragma(`busy_timeout = ${Math.max(0, Math.floor(busyTimeoutMs))}`);
  } catch (error) {
    db.close();
    return err(`cannot use the database ${path}: ${errorMessage(error)}`);
  }
  const sound = checkSound(db);
  if (sound !== null) {
    db.close();
    return err(`cannot use the database ${path}: ${sound}`);
  }
  const migrated = migrateSqlite(db, list);
  if (!migrated.ok) {
    db.close();
    return err(`cannot use the database ${path}: ${migrated.error}`);
  }
  const opened = path === IN_MEMORY ? null : fileIdentity(path);
  const database: OpenedDatabase = {
    location: path,
    schemaVersion: migrated.value.to,
    sql: sqliteSql(db),
    checkWritable: () => {
      if (!db.open) return Promise.resolve('the database is closed');
      // Deleted or replaced under the bot, the open file takes writes that no restart will see.
      if (opened !== null) {
        const now = fileIdentity(path);
        if (now === null) return Promise.resolve(`the file ${path} was deleted while Kibitz had it open`);
        if (now !== opened) return Promise.resolve(`the file ${path} was replaced while Kibitz had it open`);
      }
      return Promise.resolve(checkWrite(db));
    },
    close: () => {
      if (db.open) db.close();
      return Promise.resolve();
    },
  };
  return ok(database);
}

/**
 * Creates `folder` and its missing parents one level at a time. Node's recursive mkdir loops
 * forever where the kernel refuses with ENOENT under an existing folder (`/proc/nope`); a plain
 * mkdir fails there with an error that names the folder.
 */
function makeFolder(folder: string): void {
  const missing: string[] = [];
  for (let at = folder; !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.push(at);
  for (const level of missing.reverse()) mkdirSync(level);
}

/** Brings the schema up to date with `list`, each migration in its own transaction. */
export function migrateSqlite(db: Database, list: readonly Migration[]): MigrateResult {
  const from = db.pragma('user_version', { simple: true });
  if (typeof from !== 'number') return err('could not read the schema version');
  const newer = tooNew(from, list);
  if (newer !== null) return newer;
  for (const [version, migration] of pending(list, from)) {
    try {
      db.transaction(() => {
        db.exec(migration.sqlite);
        // PRAGMA takes no bound parameters; `version` is an integer we computed.
        db.pragma(`user_version = ${version}`);
      })();
    } catch (error) {
      return migrationFailed(version, migration, error);
    }
  }
  return ok({ from, to: list.length });
}

/**
 * The repositories' SQL on better-sqlite3. Every call runs at once (the promise it returns is
 * settled already), so calls take effect in the order they are made.
 */
function sqliteSql(db: Database): Sql {
  // better-sqlite3 compiles the SQL on every prepare(): at a few hundred queries a second (every
  // board looks up its posts) that compiling was most of the storage's time. Statements are
  // prepared once, keyed by their text (each repository has a fixed set of texts).
  const statements = new Map<string, Statement>();
  const prepare = (sql: string): Statement => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    async all<Row>(sql: string, ...params: (string | number | null)[]) {
      return prepare(sql).all(...params) as Row[];
    },
    async get<Row>(sql: string, ...params: (string | number | null)[]) {
      return prepare(sql).get(...params) as Row | undefined;
    },
    async run(sql, ...params) {
      return prepare(sql).run(...params).changes;
    },
    async insert(sql, ...params) {
      // run(), whose commit failure throws; lastInsertRowid is the row this statement added.
      const result = prepare(sql).run(...params);
      return result.changes === 0 ? null : Number(result.lastInsertRowid);
    },
    async transaction(list) {
      db.transaction(() => {
        for (const { sql, params } of list) prepare(sql).run(...params);
      })();
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
    return `it cannot be read whole (${errorMessage(error)}). Restore a backup, or move the file away to start with an empty one.`;
  }
  const unwritable = checkWrite(db);
  return unwritable === null
    ? null
    : `${unwritable}. Check the file's and its folder's permissions and the free disk space, and that no other program holds the database.`;
}

/** Null when the database takes a write, else why not. */
function checkWrite(db: Database): string | null {
  try {
    // Writing the schema version back as it is: a real write, and a harmless one.
    const version = Number(db.pragma('user_version', { simple: true }));
    db.transaction(() => db.pragma(`user_version = ${version}`)).immediate();
    return null;
  } catch (error) {
    return `it cannot be written (${errorMessage(error)})`;
  }
}

/** The file's device and inode, or null when there is no file at `path`. */
function fileIdentity(path: string): string | null {
  const stat = statSync(path, { throwIfNoEntry: false });
  return stat === undefined ? null : `${stat.dev}:${stat.ino}`;
}
