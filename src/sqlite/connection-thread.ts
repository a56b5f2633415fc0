import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads/start-worker.js';
import type { ThreadCall, ThreadOpen, ThreadReply, ThreadRequest } from './thread-protocol.js';
import type { SqliteValue } from './types.js';

type Pending = { resolve(value: unknown): void; reject(error: Error): void };

/**
 * A SQLite connection in a worker thread, for writes: a write (a commit, a WAL checkpoint)
 * can block in `write()` or `fsync()` for hundreds of milliseconds when the disk is busy, or
 * wait for another process's lock, and on the event loop that stalls every request. Reads stay
 * on a connection in the caller's thread (WAL readers never wait for a writer). Requests run
 * in the order they are sent.
 */
export class ConnectionThread {
  readonly #worker: Worker;
  readonly #pending = new Map<number, Pending>();
  #seq = 0;
  #failure: Error | undefined;
  readonly #exited: Promise<void>;

  constructor(open: ThreadOpen) {
    this.#worker = startWorker(import.meta.url, 'connection-thread.worker', open);
    this.#worker.unref();
    this.#worker.on('message', (reply: ThreadReply) => {
      const pending = this.#pending.get(reply.seq);
      this.#pending.delete(reply.seq);
      if (this.#pending.size === 0) this.#worker.unref();
      if (!pending) return;
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(Object.assign(new Error(reply.message), reply.code ? { code: reply.code } : {}));
    });
    this.#worker.on('error', (error) => this.#fail(new Error(`the SQLite thread for ${open.file} failed: ${error.message}`)));
    this.#exited = new Promise((resolve) => this.#worker.once('exit', () => {
      this.#fail(new Error(`the SQLite thread for ${open.file} stopped`));
      resolve();
    }));
  }

  all<T>(sql: string, params: readonly SqliteValue[]): Promise<T[]> {
    return this.#send({ op: 'all', sql, params }) as Promise<T[]>;
  }

  get<T>(sql: string, params: readonly SqliteValue[]): Promise<T | undefined> {
    return this.#send({ op: 'get', sql, params }) as Promise<T | undefined>;
  }

  run(sql: string, params: readonly SqliteValue[]): Promise<number> {
    return this.#send({ op: 'run', sql, params }) as Promise<number>;
  }

  exec(sql: string): Promise<void> {
    return this.#send({ op: 'exec', sql }) as Promise<void>;
  }

  rollback(): Promise<void> {
    return this.#send({ op: 'rollback' }) as Promise<void>;
  }

  /** Closes the connection once the requests sent before are answered. */
  async close(): Promise<void> {
    if (!this.#failure) this.#worker.postMessage('close');
    this.#worker.ref();
    await this.#exited;
  }

  #send(call: ThreadCall): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    const seq = ++this.#seq;
    return new Promise((resolve, reject) => {
      this.#pending.set(seq, { resolve, reject });
      if (this.#pending.size === 1) this.#worker.ref();
      this.#worker.postMessage({ ...call, seq } satisfies ThreadRequest);
    });
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const { reject } of pending) reject(this.#failure);
  }
}
