import type { DeliveryAttempt, WebhookStore } from '../control/types.js';
import { InvalidInputError, NotFoundError, NotYetError } from '../errors.js';

/** How often the attempt log is read while waiting for the test event's attempt. */
const POLL_MS = 200;

/**
 * Asks the server to send one `webhook.test` event to an endpoint: the event goes to the outbox
 * and the server's dispatcher (any replica's) delivers it with the server's settings, as it
 * would any event; the attempt is read back from the log. So the answer is the server's, from
 * the web page or the CLI alike. `kick` wakes this process's own dispatcher, when it has one.
 */
export async function requestTestEvent(
  deps: { readonly store: WebhookStore; readonly kick?: () => void; readonly waitMs: number },
  orgId: string,
  endpointId: string,
): Promise<DeliveryAttempt> {
  const endpoint = await deps.store.get(orgId, endpointId);
  if (!endpoint) throw new NotFoundError('webhook');
  if (endpoint.disabledAt) throw new InvalidInputError('the webhook is disabled: enable it before testing it');
  const message = await deps.store.enqueueTest(orgId, endpointId);
  deps.kick?.();
  for (const deadline = Date.now() + deps.waitMs; Date.now() < deadline;) {
    const attempt = (await deps.store.attempts(orgId, endpointId, 50)).find((a) => a.messageId === message.id);
    if (attempt) return attempt;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new NotYetError(
    `the test event was not sent within ${Math.round(deps.waitMs / 1000)} s: is the server running? It is sent once the server is, or once the endpoint's earlier deliveries finish`,
  );
}
