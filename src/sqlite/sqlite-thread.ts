import { ThreadClient } from '../threads/thread-client.js';
import type { ConnectionSpec, Statement, ThreadCall, ThreadReply } from './thread-protocol.js';
import type { SqliteValue } from './types.js';

/**
 * The process's thread for SQLite writes (see ThreadClient: started on first use, again after
 * a crash). Exported for the tests that stop it as a crash would; nothing else uses it.
 */
export const sqliteThread = new ThreadClient<ThreadCall, ThreadReply>({
  callerUrl: import.meta.url,
  worker: 'sqlite-thread.worker',
  name: 'the SQLite thread',
});

/** The call's value, or its failure as an Error carrying SQLite's code (SQLITE_BUSY ...). */
async function call(request: ThreadCall): Promise<unknown> {
  const reply = await sqliteThread.send(request);
  if (reply.ok) return reply.value;
  throw Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {});
}

/**
 * A SQLite connection in the process's SQLite thread, for writes: a commit (or a WAL
 * checkpoint) can block in `write()` or `fsync()` for hundreds of milliseconds when the disk is
 * busy, or wait for another process's lock, and on the event loop that stalls every request.
 * Reads stay on a connection in the caller's thread: in WAL mode they never wait for a writer.
 * Requests run in the order they are sent.
 */
export class ThreadConnection {
  #opened: Promise<{ conn: number; generation: number }>;
  #closed = false;
  #inTransaction = false;

  private constructor(private readonly spec: ConnectionSpec) {
    this.#opened = this.#open();
  }

  /** Opens the connection; rejects when the file cannot be opened or its settings fail. */
  static async open(spec: ConnectionSpec): Promise<ThreadConnection> {
    const connection = new ThreadConnection(spec);
    await connection.#opened;
    return connection;
  }

  all<T>(sql: string, params: readonly SqliteValue[] = []): Promise<T[]> {
    return this.#call((conn) => ({ op: 'all', conn, sql, params })) as Promise<T[]>;
  }

  get<T>(sql: string, params: readonly SqliteValue[] = []): Promise<T | undefined> {
    return this.#call((conn) => ({ op: 'get', conn, sql, params })) as Promise<T | undefined>;
  }

  /** Returns how many rows the statement changed. */
  run(sql: string, params: readonly SqliteValue[] = []): Promise<number> {
    return this.#call((conn) => ({ op: 'run', conn, sql, params })) as Promise<number>;
  }

  /**
   * Opens a transaction, taking the write lock at once: the requests sent until commit or
   * rollback belong to it. If the thread is lost meanwhile, SQLite has dropped what the
   * transaction wrote, so they fail rather than run alone on a connection opened again.
   */
  async begin(): Promise<void> {
    await this.#call((conn) => ({ op: 'exec', conn, sql: 'BEGIN IMMEDIATE' }));
    this.#inTransaction = true;
  }

  async commit(): Promise<void> {
    await this.#call((conn) => ({ op: 'exec', conn, sql: 'COMMIT' }));
    this.#inTransaction = false;
  }

  /** The statements as one transaction: all of them or none. */
  batch(statements: readonly Statement[]): Promise<void> {
    return this.#call((conn) => ({ op: 'batch', conn, statements })) as Promise<void>;
  }

  /** Rolls back the transaction this connection has open, if any (none is, once its thread was lost). */
  async rollback(): Promise<void> {
    const lost = this.#inTransaction && (await this.#opened).generation !== sqliteThread.generation;
    this.#inTransaction = false;
    if (!lost) await this.#call((conn) => ({ op: 'rollback', conn }));
  }

  /** Closes the connection once the requests sent before it are answered. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const opened = await this.#opened.catch(() => undefined);
    if (opened && opened.generation === sqliteThread.generation)
      await call({ op: 'close', conn: opened.conn }).catch(() => undefined);
  }

  async #open(): Promise<{ conn: number; generation: number }> {
    const opened = call({ op: 'open', spec: this.spec });
    // Read once the request is sent: the worker it went to, not one started after a loss.
    const generation = sqliteThread.generation;
    return { conn: (await opened) as number, generation };
  }

  async #call(request: (conn: number) => ThreadCall): Promise<unknown> {
    if (this.#closed) throw new Error(`the SQLite connection to ${this.spec.file} is closed`);
    const current = this.#opened;
    let opened = await current;
    if (opened.generation !== sqliteThread.generation) {
      if (this.#inTransaction)
        throw new Error(
          `the SQLite thread was lost during the transaction on ${this.spec.file}: none of it was committed`,
        );
      // Calls sent together after a loss open the connection once.
      if (this.#opened === current) this.#opened = this.#open();
      opened = await this.#opened;
    }
    return call(request(opened.conn));
  }
}
