// better-sqlite3 compiles the SQL on every prepare(): at a few hundred queries a second (every
// board looks up its posts) that compiling was most of the storage's time. Repositories prepare
// through this cache instead, keyed by the SQL text (each repository has a fixed set of texts).
import type { Database, Statement } from 'better-sqlite3';

export type Prepare = (sql: string) => Statement;

export function statementCache(db: Database): Prepare {
  const statements = new Map<string, Statement>();
  return (sql) => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
}

/**
 * SQL condition on a `guild_id` column: the bot is in that guild. The set-up of a guild the bot
 * was removed from stays stored (adding the bot back restores it) but is not acted on.
 */
export const ACTIVE = 'guild_id NOT IN (SELECT guild_id FROM inactive_guilds)';
