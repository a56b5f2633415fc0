import type { SqlDatabase, SqlQueries, SqlValue } from './types.js';

/** Past this many remembered reads the memo starts over: a burst of distinct callers, not a leak. */
const MAX_ENTRIES = 10_000;

/**
 * Reads made on every request (the caller's token, principal and workspaces), answered from
 * memory until the database changes. The database says when (SqlDatabase.changeStamp): a
 * revoked token or a changed role is seen by the very next request, or within milliseconds when
 * another process made the change. A backend that cannot
 * tell reads every time. Rows are shared between callers, who map them and never change them.
 */
export function readsUntilChange(db: SqlDatabase): Pick<SqlQueries, 'all' | 'get'> {
  // By statement, then by parameters: the statement's text is the same string each time, so
  // its hash is computed once, not on a key built of it per call.
  const remembered = new Map<string, Map<string, unknown>>();
  let count = 0;
  let rememberedAt: number | undefined;
  const forget = (stamp: number) => {
    remembered.clear();
    count = 0;
    rememberedAt = stamp;
  };

  const read = async <T>(sql: string, params: readonly SqlValue[], load: () => Promise<T>): Promise<T> => {
    const stamp = await db.changeStamp();
    if (stamp === undefined) return load();
    if (stamp !== rememberedAt) forget(stamp);
    const key = params.join('\u0000');
    const answers = remembered.get(sql);
    if (answers?.has(key)) return answers.get(key) as T;
    const value = await load();
    // Read under an older stamp than the one now remembered: it may already be stale.
    if (rememberedAt !== stamp) return value;
    if (count >= MAX_ENTRIES) forget(stamp);
    let forStatement = remembered.get(sql);
    if (!forStatement) remembered.set(sql, (forStatement = new Map()));
    forStatement.set(key, value);
    count += 1;
    return value;
  };

  return {
    all: <T>(sql: string, params: readonly SqlValue[] = []) => read(sql, params, () => db.all<T>(sql, params)),
    get: <T>(sql: string, params: readonly SqlValue[] = []) => read(sql, params, () => db.get<T>(sql, params)),
  };
}
