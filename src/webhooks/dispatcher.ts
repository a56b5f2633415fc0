import type { WebhookStore } from '../control/types.js';
import { deliverMessage, LEASE_MS, type DeliveryDeps } from './deliver.js';

/** Due messages are looked for this often, and at once after a commit of this process. */
const POLL_MS = 1_000;
/** Messages leased per claim; the batch is delivered concurrently. */
const BATCH = 20;

export interface DispatcherOptions extends DeliveryDeps {
  readonly onError: (error: unknown) => void;
  readonly pollMs?: number;
}

/**
 * Delivers the outbox in the background. Every replica runs one: each claims due messages with
 * a lease (see WebhookStore.claim), so exactly one delivers each, and a replica that dies
 * mid-delivery leaves its messages to another once the lease runs out.
 */
export class WebhookDispatcher {
  readonly #options: DispatcherOptions;
  readonly #timer: NodeJS.Timeout;
  #running: Promise<void> | undefined;
  #again = false;
  #closed = false;
  #failing = false;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    this.#timer = setInterval(() => this.kick(), options.pollMs ?? POLL_MS);
    this.#timer.unref();
    this.kick();
  }

  /** Looks for due messages now (a commit just wrote some). */
  kick(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#drain()
      .then(
        () => {
          this.#failing = false;
        },
        (error: unknown) => {
          // Once per outage (the database down), not once a second until it is back.
          if (!this.#failing) this.#options.onError(error);
          this.#failing = true;
        },
      )
      .finally(() => {
        this.#running = undefined;
        if (this.#again) {
          this.#again = false;
          this.kick();
        }
      });
  }

  async #drain(): Promise<void> {
    const store: WebhookStore = this.#options.store;
    for (;;) {
      const batch = await store.claim({
        owner: this.#options.owner,
        leaseUntil: new Date(Date.now() + LEASE_MS),
        limit: BATCH,
      });
      await Promise.all(batch.map((message) => deliverMessage(this.#options, message).catch(this.#options.onError)));
      if (batch.length < BATCH || this.#closed) return;
    }
  }

  /** Stops looking, and waits for the deliveries under way. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#running;
  }
}
