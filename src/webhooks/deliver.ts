import { Webhook } from 'standardwebhooks';
import type { DeliveryAttempt, OutboxMessage, WebhookStore } from '../control/types.js';
import { outboundRequest, OutboundRequestError, type OutboundPolicy } from '../net/index.js';

const DAY_MS = 86_400_000;
/** The longest pause between two attempts of one message. */
const MAX_PAUSE_MS = 2 * 3600_000;
/** An endpoint's answer is read up to this size and the rest left unread: only its status matters. */
const MAX_ANSWER_BYTES = 64 * 1024;
const TIMEOUT_MS = 10_000;

export interface DeliveryDeps {
  readonly store: WebhookStore;
  /** Where endpoints may be reached (see net/outbound-request.ts); size and time are the delivery's own. */
  readonly policy: Pick<OutboundPolicy, 'allowLoopbackHost' | 'allowLocalhost' | 'ca'>;
  /** Pause after the first failed attempt, doubled after each further one. */
  readonly firstRetryMs: number;
  /** Who holds the leases this process takes. */
  readonly owner: string;
  /** Where a failure's detail goes (the server log): the attempt log keeps only the rule. */
  readonly failed: (failure: { endpointId: string; messageId: string; detail: string }) => void;
}

/** How long a lease lasts: longer than one attempt can take, so no other replica takes the message meanwhile. */
export const LEASE_MS = TIMEOUT_MS * 6;

/** Exponential backoff: first, twice that, four times… up to MAX_PAUSE_MS. */
export const retryPause = (firstRetryMs: number, attemptsBefore: number): number =>
  Math.min(firstRetryMs * 2 ** Math.min(attemptsBefore, 30), MAX_PAUSE_MS);

/**
 * One attempt to deliver one leased message, signed as Standard Webhooks says (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature`: HMAC-SHA256 over id, time and body), sent with the
 * defenses of every request to a URL someone else chose. A 2xx is delivered; anything else is
 * logged and tried again later, for a day (a test message is tried once).
 */
export async function deliverMessage(deps: DeliveryDeps, message: OutboxMessage): Promise<DeliveryAttempt | undefined> {
  const target = await deps.store.target(message.endpointId);
  if (!target) return undefined;
  const sentAt = new Date();
  const signature = new Webhook(target.secret).sign(message.id, sentAt, message.payload);
  const started = performance.now();
  let outcome: { ok: boolean; responseCode: number | null; error: string | null };
  try {
    const answer = await outboundRequest(
      new URL(target.url),
      { ...deps.policy, maxBytes: MAX_ANSWER_BYTES, overflow: 'truncate', timeoutMs: TIMEOUT_MS },
      {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'User-Agent': 'Specbase-Webhooks/1',
          'webhook-id': message.id,
          'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
          'webhook-signature': signature,
        },
        body: message.payload,
      },
    );
    const ok = answer.status >= 200 && answer.status < 300;
    const redirect = answer.status >= 300 && answer.status < 400 ? 'redirects are not followed' : null;
    outcome = {
      ok,
      responseCode: answer.status,
      error: ok ? null : (redirect ?? `the endpoint answered HTTP ${answer.status}`),
    };
  } catch (error) {
    if (!(error instanceof OutboundRequestError)) throw error;
    deps.failed({ endpointId: message.endpointId, messageId: message.id, detail: error.detail });
    outcome = { ok: false, responseCode: null, error: error.message };
  }
  const once = message.kind === 'test';
  return deps.store.settle({
    message,
    owner: deps.owner,
    outcome: { ...outcome, durationMs: performance.now() - started },
    retryAfterMs: retryPause(deps.firstRetryMs, message.attempts),
    giveUpAfterMs: once ? 0 : DAY_MS,
    disableAfterMs: DAY_MS,
  });
}
