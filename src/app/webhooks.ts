import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import type { Config } from '../config/index.js';
import type { ArtifactChange, ChangeRequestEvent, WebhookStore } from '../control/types.js';
import { newId } from '../ids.js';
import type { Logger } from '../log.js';
import {
  addEndpoint,
  requestTestEvent,
  WebhookDispatcher,
  type DeliveryDeps,
  type WebhookActions,
} from '../webhooks/index.js';

/** How long a test event is waited for: one attempt's timeout, and the poll that finds it. */
const TEST_WAIT_MS = 15_000;

/** Webhooks as the process runs them: adding and testing endpoints, where commits are announced, the background dispatcher. */
export interface WebhookService extends WebhookActions {
  /** Writes the change's events to the outbox and wakes the dispatcher; a failure is logged, never thrown. */
  committed(change: ArtifactChange): Promise<void>;
  /** As committed, for a change request's own events. */
  announced(event: ChangeRequestEvent): Promise<void>;
  close(): Promise<void>;
}

export function webhookService(store: WebhookStore, config: Config, log: Logger, deliver: boolean): WebhookService {
  const settings = config.webhooks;
  const policy = {
    ...(settings.caFile ? { ca: readFileSync(settings.caFile, 'utf8') } : {}),
    ...(settings.allowLoopbackHost ? { allowLoopbackHost: settings.allowLoopbackHost } : {}),
    ...(settings.allowLocalhost ? { allowLocalhost: true } : {}),
  };
  if (settings.allowLocalhost && deliver)
    log.warn(
      { setting: 'SPECBASE_WEBHOOK_ALLOW_LOCALHOST' },
      'DEVELOPMENT SETTING ON: webhooks may be sent to http://localhost and other loopback receivers of this machine; never set it on a server others use',
    );
  const delivery: DeliveryDeps = {
    store,
    policy,
    firstRetryMs: settings.firstRetryMs,
    // Leases name their holder, so that a replica settles only what it holds.
    owner: `${hostname()}:${process.pid}:${newId().slice(0, 8)}`,
    failed: (failure) => log.info(failure, 'a webhook delivery failed'),
  };
  const dispatcher = deliver
    ? new WebhookDispatcher({
        ...delivery,
        maxInFlight: settings.maxInFlight,
        maxInFlightPerEndpoint: settings.maxInFlightPerEndpoint,
        onError: (error) => log.error({ err: error }, 'delivering webhooks failed'),
      })
    : undefined;
  return {
    add: (input) =>
      addEndpoint(
        {
          store,
          policy,
          maxEndpoints: settings.maxEndpoints,
          refused: (detail) => log.info({ url: input.url, detail }, 'a webhook URL was refused'),
        },
        input,
      ),
    test: (orgId, endpointId) =>
      requestTestEvent(
        { store, waitMs: TEST_WAIT_MS, ...(dispatcher ? { kick: () => dispatcher.kick() } : {}) },
        orgId,
        endpointId,
      ),
    async committed(change) {
      try {
        if ((await store.enqueue(change, { maxQueued: settings.maxQueuedPerEndpoint })) > 0) dispatcher?.kick();
      } catch (error) {
        log.error(
          { err: error, orgId: change.orgId, commit: change.commit, kind: change.kind },
          'the change was committed but its webhook events could not be written',
        );
      }
    },
    async announced(event) {
      try {
        if ((await store.enqueueChangeRequest(event, { maxQueued: settings.maxQueuedPerEndpoint })) > 0)
          dispatcher?.kick();
      } catch (error) {
        log.error(
          { err: error, orgId: event.orgId, changeRequest: event.changeRequest.number, kind: event.kind },
          'the change request changed but its webhook events could not be written',
        );
      }
    },
    close: async () => dispatcher?.close(),
  };
}
