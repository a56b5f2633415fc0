import { NotFoundError } from '../errors.js';
import type { DeliveryAttempt } from '../control/types.js';
import { deliverMessage, LEASE_MS, type DeliveryDeps } from './deliver.js';

/** Sends one `webhook.test` event to an endpoint now and returns the attempt, as logged. */
export async function sendTestEvent(deps: DeliveryDeps, orgId: string, endpointId: string): Promise<DeliveryAttempt> {
  const message = await deps.store.enqueueTest(orgId, endpointId);
  const [leased] = await deps.store.claim({
    owner: deps.owner,
    leaseUntil: new Date(Date.now() + LEASE_MS),
    limit: 1,
    messageId: message.id,
  });
  // A disabled endpoint's messages are not claimed: enable it first.
  if (!leased) throw new NotFoundError('enabled webhook');
  const attempt = await deliverMessage(deps, leased);
  if (!attempt) throw new NotFoundError('webhook');
  return attempt;
}
