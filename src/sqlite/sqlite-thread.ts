import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads/start-worker.js';
import type { ConnectionSpec, Statement, ThreadCall, ThreadReply, ThreadRequest } from './thread-protocol.js';
import type { SqliteValue } from './types.js';

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/**
 * The process's thread for SQLite writes, started on first use. It keeps the process alive
 * only while a request is pending, and is started again after a crash (its connections are
 * then opened again on their next request).
 */
class SqliteThread {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending>();
  #seq = 0;
  /** Counts the workers started: a connection opened in an earlier one must be opened again. */
  generation = 0;

  send(call: ThreadCall): Promise<unknown> {
    const worker = this.#start();
    const seq = ++this.#seq;
    return new Promise((resolve, reject) => {
      this.#pending.set(seq, { resolve, reject });
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ ...call, seq } satisfies ThreadRequest);
    });
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = startWorker(import.meta.url, 'sqlite-thread.worker');
    this.generation += 1;
    worker.unref();
    worker.on('message', (reply: ThreadReply) => {
      const pending = this.#pending.get(reply.seq);
      this.#pending.delete(reply.seq);
      if (this.#pending.size === 0) worker.unref();
      if (!pending) return;
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
    });
    const lost = (reason: string) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      const pending = [...this.#pending.values()];
      this.#pending.clear();
      for (const { reject } of pending) reject(new Error(reason));
    };
    worker.on('error', (error) => lost(`the SQLite thread failed: ${error.message}`));
    worker.on('exit', (code) => lost(`the SQLite thread stopped (exit code ${code})`));
    this.#worker = worker;
    return worker;
  }
}

const thread = new SqliteThread();

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

  exec(sql: string): Promise<void> {
    return this.#call((conn) => ({ op: 'exec', conn, sql })) as Promise<void>;
  }

  /** The statements as one transaction: all of them or none. */
  batch(statements: readonly Statement[]): Promise<void> {
    return this.#call((conn) => ({ op: 'batch', conn, statements })) as Promise<void>;
  }

  /** Rolls back the transaction this connection has open, if any. */
  rollback(): Promise<void> {
    return this.#call((conn) => ({ op: 'rollback', conn })) as Promise<void>;
  }

  /** Closes the connection once the requests sent before it are answered. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const opened = await this.#opened.catch(() => undefined);
    if (opened && opened.generation === thread.generation) await thread.send({ op: 'close', conn: opened.conn }).catch(() => undefined);
  }

  async #open(): Promise<{ conn: number; generation: number }> {
    const conn = (await thread.send({ op: 'open', spec: this.spec })) as number;
    return { conn, generation: thread.generation };
  }

  async #call(call: (conn: number) => ThreadCall): Promise<unknown> {
    if (this.#closed) throw new Error(`the SQLite connection to ${this.spec.file} is closed`);
    let opened = await this.#opened;
    if (opened.generation !== thread.generation) {
      this.#opened = this.#open();
      opened = await this.#opened;
    }
    return thread.send(call(opened.conn));
  }
}
