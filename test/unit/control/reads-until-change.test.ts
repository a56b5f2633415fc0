import { describe, expect, it } from 'vitest';
import { readsUntilChange } from '../../../src/control/sql/reads-until-change.js';
import type { SqlDatabase, SqlValue } from '../../../src/control/sql/types.js';

/** A database whose reads wait until released, counting them, with a stamp the test moves. */
function fakeDatabase() {
  const sent: { sql: string; params: readonly SqlValue[]; settle: (row: unknown, error?: Error) => void }[] = [];
  const state = { stamp: 1 as number | undefined };
  const read = (sql: string, params: readonly SqlValue[] = []) =>
    new Promise<unknown>((resolve, reject) => {
      sent.push({ sql, params, settle: (row, error) => (error ? reject(error) : resolve(row)) });
    });
  const db = {
    changeStamp: () => Promise.resolve(state.stamp),
    get: read,
    all: read,
  } as unknown as SqlDatabase;
  return { db, sent, state };
}

const SQL = 'SELECT * FROM tokens WHERE hash = ?';

describe('readsUntilChange', () => {
  it('calls that arrive while a read loads share it: the database is asked once', async () => {
    const { db, sent } = fakeDatabase();
    const reads = readsUntilChange(db);
    const answers = Promise.all([reads.get(SQL, ['a']), reads.get(SQL, ['a']), reads.get(SQL, ['a'])]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(1);
    sent[0]!.settle({ id: 't1' });
    expect(await answers).toEqual([{ id: 't1' }, { id: 't1' }, { id: 't1' }]);
    expect(await reads.get(SQL, ['a'])).toEqual({ id: 't1' });
    expect(sent).toHaveLength(1);
  });

  it('other parameters, or a moved stamp, are read again', async () => {
    const { db, sent, state } = fakeDatabase();
    const reads = readsUntilChange(db);
    const first = reads.get(SQL, ['a']);
    const other = reads.get(SQL, ['b']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((each) => each.params)).toEqual([['a'], ['b']]);
    for (const each of sent) each.settle({ id: each.params[0] });
    await Promise.all([first, other]);
    state.stamp = 2;
    const after = reads.get(SQL, ['a']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(3);
    sent[2]!.settle({ id: 'a, changed' });
    expect(await after).toEqual({ id: 'a, changed' });
  });

  it('a failed read is not remembered: the next call asks again', async () => {
    const { db, sent } = fakeDatabase();
    const reads = readsUntilChange(db);
    const failing = reads.get(SQL, ['a']);
    await new Promise((resolve) => setImmediate(resolve));
    sent[0]!.settle(undefined, new Error('database is locked'));
    await expect(failing).rejects.toThrow('database is locked');
    const again = reads.get(SQL, ['a']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
    sent[1]!.settle({ id: 't1' });
    expect(await again).toEqual({ id: 't1' });
  });

  it('a backend without a stamp reads every time', async () => {
    const { db, sent, state } = fakeDatabase();
    state.stamp = undefined;
    const reads = readsUntilChange(db);
    void reads.get(SQL, ['a']);
    void reads.get(SQL, ['a']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent).toHaveLength(2);
  });
});
