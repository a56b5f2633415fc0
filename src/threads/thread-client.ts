import type { Worker } from 'node:worker_threads';
import { startWorker } from './start-worker.js';

/** A request or reply, and the number pairing them. */
export interface RequestEnvelope<Request> {
  readonly seq: number;
  readonly request: Request;
}
export interface ReplyEnvelope<Reply> {
  readonly seq: number;
  readonly reply: Reply;
}

/**
 * What crosses to the worker and back: the envelopes of one turn of the event loop, in order.
 * Waking an idle thread cost the sender about 40 µs a message on a 2-core virtual machine; a
 * turn serving several calls now wakes it once.
 */
export type Batch<Envelope> = readonly Envelope[];

export interface ThreadClientOptions {
  /** The caller's import.meta.url: the worker module `worker` sits beside it (see startWorker). */
  readonly callerUrl: string;
  readonly worker: string;
  /** How failures name the thread, as in "the SQLite thread stopped (exit code 1)". */
  readonly name: string;
  /** Told when the worker is lost (not when it is closed): whatever it held is gone. */
  readonly onLost?: () => void;
}

type Pending<Reply> = { resolve(reply: Reply): void; reject(error: Error): void };

/**
 * Requests to a worker thread (one served by serveRequests), each answered by its reply. The
 * worker is started on first use, keeps the process alive only while a request is pending,
 * and is started again on the next request after it is lost; the requests pending when it is
 * lost or closed reject with an Error saying so.
 */
export class ThreadClient<Request, Reply> {
  #worker: Worker | undefined;
  readonly #pending = new Map<number, Pending<Reply>>();
  /** Requests sent this turn, posted together once it ends, and the buffers they hand over. */
  #outbox: RequestEnvelope<Request>[] = [];
  #transfers: ArrayBuffer[] = [];
  #seq = 0;
  #generation = 0;

  constructor(private readonly options: ThreadClientOptions) {}

  /**
   * Which worker requests go to: it changes when a worker is lost or closed, so what a request
   * left in the worker (an open connection) is gone once the value it was sent under is.
   */
  get generation(): number {
    return this.#generation;
  }

  /**
   * Sends a request; `transfer` lists buffers it holds that move to the worker instead of being
   * copied (the sender must not use them again). Text is better sent that way when large: copying
   * 2 MiB of strings to a thread held the event loop for 10-25 ms, encoding and moving them 1 ms.
   */
  send(request: Request, transfer: readonly ArrayBuffer[] = []): Promise<Reply> {
    const worker = this.#start();
    const seq = ++this.#seq;
    return new Promise((resolve, reject) => {
      this.#pending.set(seq, { resolve, reject });
      if (this.#pending.size === 1) worker.ref();
      if (this.#outbox.length === 0) setImmediate(() => this.#flush());
      this.#outbox.push({ seq, request });
      this.#transfers.push(...transfer);
    });
  }

  /** Posts this turn's requests to the current worker (those sent to a lost one failed with it). */
  #flush(): void {
    const batch = this.#outbox;
    const transfers = this.#transfers;
    this.#outbox = [];
    this.#transfers = [];
    if (batch.length > 0) this.#worker?.postMessage(batch satisfies Batch<RequestEnvelope<Request>>, transfers);
  }

  /** Starts the worker now, so the first request does not wait for it to boot. */
  prepare(): void {
    this.#start();
  }

  /**
   * Stops the worker; the next request starts another. Its pending requests fail at once: a
   * request sent while it stops goes to the next worker and is not failed with them.
   */
  async close(): Promise<void> {
    const worker = this.#worker;
    if (!worker) return;
    this.#worker = undefined;
    this.#generation += 1;
    this.#failPending(`${this.options.name} was closed`);
    await worker.terminate();
  }

  /**
   * Stops the worker the way a crash does: pending requests fail as lost and `onLost` is told.
   * Only tests call this, to exercise the loss of a thread through the real worker.
   */
  async terminate(): Promise<void> {
    await this.#worker?.terminate();
  }

  #start(): Worker {
    if (this.#worker) return this.#worker;
    const { callerUrl, worker: name, name: thread } = this.options;
    const worker = startWorker(callerUrl, name);
    worker.on('message', (replies: Batch<ReplyEnvelope<Reply>>) => {
      for (const { seq, reply } of replies) {
        const pending = this.#pending.get(seq);
        this.#pending.delete(seq);
        if (this.#pending.size === 0) worker.unref();
        pending?.resolve(reply);
      }
    });
    const lost = (reason: string) => {
      if (this.#worker !== worker) return;
      this.#worker = undefined;
      this.#generation += 1;
      this.#failPending(reason);
      this.options.onLost?.();
    };
    worker.on('error', (error) => lost(`${thread} failed: ${error.message}`));
    worker.on('exit', (code) => lost(`${thread} stopped (exit code ${code})`));
    // Only now: adding a 'message' listener refs the worker's port, and a thread started ahead
    // of use (prepare) kept a process that never sent it anything from exiting.
    worker.unref();
    this.#worker = worker;
    return worker;
  }

  #failPending(reason: string): void {
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    this.#outbox = [];
    this.#transfers = [];
    for (const { reject } of pending) reject(new Error(reason));
  }
}
