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
