import { ThreadClient } from '../threads/thread-client.js';
import type { ConnectionSpec, Statement, ThreadCall, ThreadReply } from './thread-protocol.js';
import type { SqliteValue } from './types.js';

type SqliteThread = ThreadClient<ThreadCall, ThreadReply>;

const startedOnFirstUse = (name: string): SqliteThread =>
  new ThreadClient<ThreadCall, ThreadReply>({ callerUrl: import.meta.url, worker: 'sqlite-thread.worker', name });

/**
 * The process's thread for SQLite writes (see ThreadClient: started on first use, again after
 * a crash). Exported for the tests that stop it as a crash would; nothing else uses it.
 */
export const sqliteThread = startedOnFirstUse('the SQLite thread');

/**
 * The process's thread for SQLite reads. Not the writers' thread, where a read would wait behind
 * a commit's fsync; not the event loop, where a read shares SQLite's per-file mutexes with the
 * writers' thread and waited on them, under a flooded disk, while that thread held them.
 */
export const sqliteReadThread = startedOnFirstUse('the SQLite read thread');

/** The call's value, or its failure as an Error carrying SQLite's code (SQLITE_BUSY ...). */
async function call(thread: SqliteThread, request: ThreadCall): Promise<unknown> {
  const reply = await thread.send(request);
  if (reply.ok) return reply.value;
  throw Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {});
}

/**
 * A SQLite connection in one of the process's SQLite threads (writes by default): a commit (or a
 * WAL checkpoint) can block in `write()` or `fsync()` for hundreds of milliseconds when the disk
 * is busy, or wait for another process's lock, and on the event loop that stalls every request.
 * Requests run in the order they are sent.
 */
export class ThreadConnection {
  #opened: Promise<{ conn: number; generation: number }>;
  #closed = false;
  #inTransaction = false;

  private constructor(
    private readonly spec: ConnectionSpec,
    private readonly thread: SqliteThread,
  ) {
    this.#opened = this.#open();
  }

  /** Opens the connection; rejects when the file cannot be opened or its settings fail. */
  static async open(spec: ConnectionSpec, thread: SqliteThread = sqliteThread): Promise<ThreadConnection> {
    const connection = new ThreadConnection(spec, thread);
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
    const lost = this.#inTransaction && (await this.#opened).generation !== this.thread.generation;
    this.#inTransaction = false;
    if (!lost) await this.#call((conn) => ({ op: 'rollback', conn }));
  }

  /** Closes the connection once the requests sent before it are answered. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const opened = await this.#opened.catch(() => undefined);
    if (opened && opened.generation === this.thread.generation)
      await call(this.thread, { op: 'close', conn: opened.conn }).catch(() => undefined);
  }

  async #open(): Promise<{ conn: number; generation: number }> {
    const opened = call(this.thread, { op: 'open', spec: this.spec });
    // Read once the request is sent: the worker it went to, not one started after a loss.
    const generation = this.thread.generation;
    return { conn: (await opened) as number, generation };
  }

  async #call(request: (conn: number) => ThreadCall): Promise<unknown> {
    if (this.#closed) throw new Error(`the SQLite connection to ${this.spec.file} is closed`);
    const current = this.#opened;
    let opened = await current;
    if (opened.generation !== this.thread.generation) {
      if (this.#inTransaction)
        throw new Error(
          `the SQLite thread was lost during the transaction on ${this.spec.file}: none of it was committed`,
        );
      // Calls sent together after a loss open the connection once.
      if (this.#opened === current) this.#opened = this.#open();
      opened = await this.#opened;
    }
    return call(this.thread, request(opened.conn));
  }
}
