import type { SqlDatabase, SqlQueries, SqlValue } from './types.js';

/** Past this many remembered reads the memo starts over: a burst of distinct callers, not a leak. */
const MAX_ENTRIES = 10_000;

/**
 * Reads made on every request (the caller's token, principal and workspaces), answered from
 * memory until the database changes. The database says when (SqlDatabase.changeStamp): a
 * revoked token or a changed role is seen by the very next request. A backend that cannot
 * tell reads every time. Rows are shared between callers, who map them and never change them.
 */
export function readsUntilChange(db: SqlDatabase): Pick<SqlQueries, 'all' | 'get'> {
  const remembered = new Map<string, unknown>();
  let rememberedAt: number | undefined;

  const read = async <T>(sql: string, params: readonly SqlValue[], load: () => Promise<T>): Promise<T> => {
    const stamp = db.changeStamp();
    if (stamp === undefined) return load();
    if (stamp !== rememberedAt) {
      remembered.clear();
      rememberedAt = stamp;
    }
    const key = `${sql}\u0000${params.join('\u0000')}`;
    if (remembered.has(key)) return remembered.get(key) as T;
    const value = await load();
    // Read under an older stamp than the one now remembered: it may already be stale.
    if (rememberedAt === stamp) {
      if (remembered.size >= MAX_ENTRIES) remembered.clear();
      remembered.set(key, value);
    }
    return value;
  };

  return {
    all: <T>(sql: string, params: readonly SqlValue[] = []) => read(sql, params, () => db.all<T>(sql, params)),
    get: <T>(sql: string, params: readonly SqlValue[] = []) => read(sql, params, () => db.get<T>(sql, params)),
  };
}
