import { parentPort, workerData } from 'node:worker_threads';
import { loadSqliteDriver } from './index.js';
import type { ThreadOpen, ThreadReply, ThreadRequest } from './thread-protocol.js';
import type { SqliteStatement } from './types.js';

/** One SQLite connection owned by this thread (see connection-thread.ts). */
const { driver: name, file, busyTimeoutMs, setup } = workerData as ThreadOpen;
const driver = await loadSqliteDriver(name);
if (!driver) throw new Error(`the SQLite driver ${name} does not load in a worker thread`);
const db = driver.open(file, { busyTimeoutMs });
db.exec(setup);
const statements = new Map<string, SqliteStatement>();
const statement = (sql: string): SqliteStatement => {
  let prepared = statements.get(sql);
  if (!prepared) {
    prepared = db.prepare(sql);
    statements.set(sql, prepared);
  }
  return prepared;
};

function answer(request: ThreadRequest): unknown {
  switch (request.op) {
    case 'all':
      return statement(request.sql).all(...request.params);
    case 'get':
      return statement(request.sql).get(...request.params);
    case 'run':
      return statement(request.sql).run(...request.params);
    case 'exec':
      db.exec(request.sql);
      return null;
    case 'rollback':
      if (db.inTransaction) db.exec('ROLLBACK');
      return null;
  }
}

parentPort!.on('message', (request: ThreadRequest | 'close') => {
  if (request === 'close') {
    db.close();
    parentPort!.close();
    return;
  }
  let reply: ThreadReply;
  try {
    // Rows of node:sqlite have no prototype; a plain copy crosses the thread the same way.
    reply = { seq: request.seq, ok: true, value: answer(request) };
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    reply = { seq: request.seq, ok: false, message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) };
  }
  parentPort!.postMessage(reply);
});
