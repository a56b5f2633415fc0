import type { OutboxMessage, WebhookQueue } from '../control/types.js';
import { deliverMessage, LEASE_MS, type DeliveryDeps } from './deliver.js';

/** Due messages are looked for this often, at once after a commit of this process, and whenever a delivery ends. */
const POLL_MS = 1_000;

export interface DispatcherOptions extends DeliveryDeps {
  readonly onError: (error: unknown) => void;
  readonly pollMs?: number;
  /** Deliveries to one endpoint at once, counted over all replicas by the store's leases. */
  readonly maxInFlightPerEndpoint: number;
  /** Deliveries this process makes at once; one organization takes at most half, and a quarter is kept for organizations holding none. */
  readonly maxInFlight: number;
}

/** The ids after `last` first, then the rest: where the previous turn stopped, the next one starts. */
function rotated(ids: readonly string[], last: string | undefined): string[] {
  const sorted = [...ids].sort();
  const from = last === undefined ? 0 : sorted.findIndex((id) => id > last);
  return from <= 0 ? sorted : [...sorted.slice(from), ...sorted.slice(0, from)];
}

/**
 * Delivers the outbox in the background, fairly. Every replica runs one. Each turn goes round
 * the organizations with due messages, one message per organization per turn, and within an
 * organization round its endpoints; an endpoint never has more than its in-flight cap leased
 * (by any replica), an organization never holds more than half of this process's slots, and the
 * last quarter goes only to organizations that hold none. A
 * delivery is not waited for before the next is started, so an endpoint that never answers
 * holds its own slots for the attempt's timeout, and nothing else.
 */
export class WebhookDispatcher {
  readonly #options: DispatcherOptions;
  readonly #timer: NodeJS.Timeout;
  readonly #deliveries = new Set<Promise<void>>();
  readonly #orgSlots = new Map<string, number>();
  readonly #lastEndpoint = new Map<string, string>();
  #lastOrg: string | undefined;
  #inFlight = 0;
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

  /** Looks for due messages now (a commit just wrote some, or a delivery freed a slot). */
  kick(): void {
    if (this.#closed) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#turn()
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

  async #turn(): Promise<void> {
    const { store, maxInFlight, maxInFlightPerEndpoint } = this.#options;
    const share = Math.max(1, Math.floor(maxInFlight / 2));
    // Kept for organizations that hold none: however many others hang, a newcomer finds a slot at once.
    const reserve = Math.floor(maxInFlight / 4);
    const byOrg = new Map<string, Map<string, { due: number; inFlight: number }>>();
    for (const queue of (await store.queues()).filter((q: WebhookQueue) => q.due > 0)) {
      const endpoints = byOrg.get(queue.orgId) ?? new Map<string, { due: number; inFlight: number }>();
      endpoints.set(queue.endpointId, { due: queue.due, inFlight: queue.inFlight });
      byOrg.set(queue.orgId, endpoints);
    }
    let started = true;
    while (started && !this.#closed) {
      started = false;
      for (const orgId of rotated([...byOrg.keys()], this.#lastOrg)) {
        if (this.#inFlight >= maxInFlight || this.#closed) return;
        const held = this.#orgSlots.get(orgId) ?? 0;
        if (held >= share || (held > 0 && this.#inFlight >= maxInFlight - reserve)) continue;
        const endpoints = byOrg.get(orgId)!;
        const endpointId = rotated([...endpoints.keys()], this.#lastEndpoint.get(orgId)).find((id) => {
          const queue = endpoints.get(id)!;
          return queue.due > 0 && queue.inFlight < maxInFlightPerEndpoint;
        });
        if (endpointId === undefined) continue;
        const queue = endpoints.get(endpointId)!;
        const [message] = await store.claim({
          owner: this.#options.owner,
          leaseUntil: new Date(Date.now() + LEASE_MS),
          limit: 1,
          endpoint: { id: endpointId, maxInFlight: maxInFlightPerEndpoint },
        });
        // None: another replica took it, or holds the endpoint's slots; not again this turn.
        if (!message) {
          queue.due = 0;
          continue;
        }
        queue.due -= 1;
        queue.inFlight += 1;
        this.#lastOrg = orgId;
        this.#lastEndpoint.set(orgId, endpointId);
        this.#start(message);
        started = true;
      }
    }
  }

  #start(message: OutboxMessage): void {
    const org = message.orgId;
    this.#inFlight += 1;
    this.#orgSlots.set(org, (this.#orgSlots.get(org) ?? 0) + 1);
    const delivery: Promise<void> = deliverMessage(this.#options, message)
      .then(() => undefined, this.#options.onError)
      .finally(() => {
        this.#inFlight -= 1;
        const left = (this.#orgSlots.get(org) ?? 1) - 1;
        if (left > 0) this.#orgSlots.set(org, left);
        else this.#orgSlots.delete(org);
        this.#deliveries.delete(delivery);
        this.kick();
      });
    this.#deliveries.add(delivery);
  }

  /** Stops looking, and waits for the deliveries under way. */
  async close(): Promise<void> {
    this.#closed = true;
    clearInterval(this.#timer);
    await this.#running;
    await Promise.all([...this.#deliveries]);
  }
}
