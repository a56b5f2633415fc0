import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Config } from '../config/index.js';
import type { ArtifactChange, WebhookStore } from '../control/types.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import { WebhookDispatcher, type DeliveryDeps } from '../webhooks/index.js';

/** Webhooks as the process runs them: what delivery needs, where commits are announced, the background dispatcher. */
export interface WebhookService {
  readonly delivery: DeliveryDeps;
  /** Writes the change's events to the outbox and wakes the dispatcher; a failure is logged, never thrown. */
  committed(change: ArtifactChange): Promise<void>;
  close(): Promise<void>;
}

export function webhookService(store: WebhookStore, config: Config, log: Logger, deliver: boolean): WebhookService {
  const { caFile, allowLoopbackHost, firstRetryMs } = config.webhooks;
  const delivery: DeliveryDeps = {
    store,
    policy: {
      ...(caFile ? { ca: readFileSync(caFile, 'utf8') } : {}),
      ...(allowLoopbackHost ? { allowLoopbackHost } : {}),
    },
    firstRetryMs,
    // Leases name their holder, so that a replica settles only what it holds.
    owner: `${hostname()}:${process.pid}:${newId().slice(0, 8)}`,
  };
  const dispatcher = deliver
    ? new WebhookDispatcher({
        ...delivery,
        onError: (error) => log.error({ err: error }, 'delivering webhooks failed'),
      })
    : undefined;
  return {
    delivery,
    async committed(change) {
      try {
        if ((await store.enqueue(change)) > 0) dispatcher?.kick();
      } catch (error) {
        log.error(
          { err: error, orgId: change.orgId, commit: change.commit, kind: change.kind },
          'the change was committed but its webhook events could not be written',
        );
      }
    },
    close: async () => dispatcher?.close(),
  };
}
