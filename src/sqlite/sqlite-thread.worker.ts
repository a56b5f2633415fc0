import { parentPort } from 'node:worker_threads';
import { loadSqliteDriver } from './index.js';
import type { ThreadReply, ThreadRequest } from './thread-protocol.js';
import { transaction } from './transaction.js';
import type { SqliteConnection, SqliteStatement } from './types.js';

/** The connections this thread writes through (see sqlite-thread.ts), by number. */
interface Open {
  readonly db: SqliteConnection;
  readonly statements: Map<string, SqliteStatement>;
}
const connections = new Map<number, Open>();
let opened = 0;

function connection(conn: number): Open {
  const open = connections.get(conn);
  if (!open) throw new Error(`SQLite connection ${conn} is not open`);
  return open;
}

function statement(open: Open, sql: string): SqliteStatement {
  let prepared = open.statements.get(sql);
  if (!prepared) {
    prepared = open.db.prepare(sql);
    open.statements.set(sql, prepared);
  }
  return prepared;
}

async function answer(request: ThreadRequest): Promise<unknown> {
  switch (request.op) {
    case 'open': {
      const { driver: name, file, busyTimeoutMs, setup } = request.spec;
      const driver = await loadSqliteDriver(name);
      if (!driver) throw new Error(`the SQLite driver ${name} does not load in a worker thread`);
      const db = driver.open(file, { busyTimeoutMs });
      try {
        db.exec(setup);
      } catch (error) {
        db.close();
        throw error;
      }
      connections.set(++opened, { db, statements: new Map() });
      return opened;
    }
    case 'all':
      return statement(connection(request.conn), request.sql).all(...request.params);
    case 'get':
      return statement(connection(request.conn), request.sql).get(...request.params);
    case 'run':
      return statement(connection(request.conn), request.sql).run(...request.params);
    case 'exec':
      connection(request.conn).db.exec(request.sql);
      return null;
    case 'batch': {
      const open = connection(request.conn);
      transaction(open.db, () => request.statements.forEach(({ sql, params }) => statement(open, sql).run(...params)), 'IMMEDIATE');
      return null;
    }
    case 'rollback': {
      const { db } = connection(request.conn);
      if (db.inTransaction) db.exec('ROLLBACK');
      return null;
    }
    case 'close':
      connections.get(request.conn)?.db.close();
      connections.delete(request.conn);
      return null;
  }
}

// One request at a time, in the order sent: an open finishes before the statements that follow it.
let queue: Promise<void> = Promise.resolve();
parentPort!.on('message', (request: ThreadRequest) => {
  queue = queue.then(async () => {
    let reply: ThreadReply;
    try {
      reply = { seq: request.seq, ok: true, value: await answer(request) };
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const message = error instanceof Error ? error.message : String(error);
      reply = { seq: request.seq, ok: false, message, ...(typeof code === 'string' ? { code } : {}) };
    }
    parentPort!.postMessage(reply);
  });
});
