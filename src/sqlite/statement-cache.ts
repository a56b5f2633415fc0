import type { SqliteConnection, SqliteStatement } from './types.js';

/**
 * The statement for an SQL text on `db`, compiled on first use and kept: callers run a fixed
 * set of SQL texts many times, and compiling costs more than running a short statement.
 */
export function statementCache(db: SqliteConnection): (sql: string) => SqliteStatement {
  const statements = new Map<string, SqliteStatement>();
  return (sql) => {
    let prepared = statements.get(sql);
    if (!prepared) {
      prepared = db.prepare(sql);
      statements.set(sql, prepared);
    }
    return prepared;
  };
}
