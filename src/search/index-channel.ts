import type { Worker } from 'node:worker_threads';
import { startWorker } from '../threads/start-worker.js';
import { IndexHost, type IndexReply, type IndexRequest } from './index-host.js';

/** How requests reach the indexes. Requests are handled in the order they are sent. */
export interface IndexChannel {
  send(request: IndexRequest): Promise<IndexReply>;
  /** Gets ready for the first request now (starts the worker), so that request does not wait for it. */
  prepare(): void;
  close(): Promise<void>;
}

/** The indexes in this thread, each request in turn. */
export function inThreadChannel(): IndexChannel {
  const host = new IndexHost();
  return { send: (request) => host.handle(request), prepare: () => undefined, close: () => Promise.resolve() };
}

/**
 * The indexes in a worker thread, so building and updating them (seconds for a large
 * organization, tens of milliseconds for a 1 MiB document) never holds the event loop. The
 * worker is started on first use, keeps the process alive only while a request is pending,
 * and is started again after a crash; `onLost` is then told that its indexes are gone.
 */
export class WorkerChannel implements IndexChannel {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, (reply: IndexReply) => void>();
  #seq = 0;

  constructor(private readonly onLost: () => void) {}

  send(request: IndexRequest): Promise<IndexReply> {
    const worker = this.#start();
    const seq = ++this.#seq;
    return new Promise((resolve) => {
      this.#pending.set(seq, resolve);
      if (this.#pending.size === 1) worker.ref();
      worker.postMessage({ seq, request });
    });
  }

  prepare(): void {
    this.#start();
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker) await worker.terminate();
    this.#failPending('the search index was closed');
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const worker = startWorker(import.meta.url, 'index-host.worker');
    worker.unref();
    worker.on('message', ({ seq, reply }: { seq: number; reply: IndexReply }) => {
      const resolve = this.#pending.get(seq);
      this.#pending.delete(seq);
      if (this.#pending.size === 0) worker.unref();
      resolve?.(reply);
    });
    const lost = (reason: string) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#failPending(reason);
      this.onLost();
    };
    worker.on('error', (error) => lost(`the search index worker failed: ${error.message}`));
    worker.on('exit', (code) => lost(`the search index worker stopped (exit code ${code})`));
    this.#worker = worker;
    return worker;
  }

  #failPending(message: string): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const resolve of pending) resolve({ ok: false, invalidInput: false, message });
  }
}
