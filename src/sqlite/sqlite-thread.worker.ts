import { serveRequests } from '../threads/serve-requests.js';
import { loadSqliteDriver } from './index.js';
import { statementCache } from './statement-cache.js';
import type { ThreadCall, ThreadReply } from './thread-protocol.js';
import { transaction } from './transaction.js';
import type { SqliteConnection, SqliteStatement } from './types.js';

/** The connections this thread writes through (see sqlite-thread.ts), by number. */
interface Open {
  readonly db: SqliteConnection;
  readonly statement: (sql: string) => SqliteStatement;
}
const connections = new Map<number, Open>();
let opened = 0;

function connection(conn: number): Open {
  const open = connections.get(conn);
  if (!open) throw new Error(`SQLite connection ${conn} is not open`);
  return open;
}

async function answer(call: ThreadCall): Promise<unknown> {
  switch (call.op) {
    case 'open': {
      const { driver: name, file, busyTimeoutMs, setup } = call.spec;
      const driver = await loadSqliteDriver(name);
      if (!driver) throw new Error(`the SQLite driver ${name} does not load in a worker thread`);
      const db = driver.open(file, { busyTimeoutMs });
      try {
        db.exec(setup);
      } catch (error) {
        db.close();
        throw error;
      }
      connections.set(++opened, { db, statement: statementCache(db) });
      return opened;
    }
    case 'all':
      return connection(call.conn)
        .statement(call.sql)
        .all(...call.params);
    case 'get':
      return connection(call.conn)
        .statement(call.sql)
        .get(...call.params);
    case 'run':
      return connection(call.conn)
        .statement(call.sql)
        .run(...call.params);
    case 'exec':
      connection(call.conn).db.exec(call.sql);
      return null;
    case 'batch': {
      const { db, statement } = connection(call.conn);
      transaction(db, () => call.statements.forEach(({ sql, params }) => statement(sql).run(...params)), 'IMMEDIATE');
      return null;
    }
    case 'rollback': {
      const { db } = connection(call.conn);
      if (db.inTransaction) db.exec('ROLLBACK');
      return null;
    }
    case 'close':
      connections.get(call.conn)?.db.close();
      connections.delete(call.conn);
      return null;
  }
}

async function reply(call: ThreadCall): Promise<ThreadReply> {
  try {
    return { ok: true, value: await answer(call) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const message = error instanceof Error ? error.message : String(error);
    return { ok: false, message, ...(typeof code === 'string' ? { code } : {}) };
  }
}

// One call at a time, in the order sent: an open finishes before the statements that follow it.
let queue: Promise<unknown> = Promise.resolve();
serveRequests((call: ThreadCall) => {
  const replied = queue.then(() => reply(call));
  queue = replied;
  return replied;
});
