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
  const remembered = new Map<string, Map<string, Promise<unknown>>>();
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
    if (stamp !== rememberedAt || count >= MAX_ENTRIES) forget(stamp);
    const key = params.join('\u0000');
    let answers = remembered.get(sql);
    if (!answers) remembered.set(sql, (answers = new Map()));
    const known = answers.get(key);
    if (known) return known as Promise<T>;
    // Remembered while it loads: the calls that arrive meanwhile (ten clients' next requests once
    // an audit batch moved the stamp) share this read instead of each sending its own.
    const answer = load();
    const held = answers;
    held.set(key, answer);
    count += 1;
    answer.catch(() => {
      if (held.get(key) === answer) held.delete(key);
    });
    return answer;
  };

  return {
    all: <T>(sql: string, params: readonly SqlValue[] = []) => read(sql, params, () => db.all<T>(sql, params)),
    get: <T>(sql: string, params: readonly SqlValue[] = []) => read(sql, params, () => db.get<T>(sql, params)),
  };
}
