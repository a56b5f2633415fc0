import type { DeliveryAttempt, WebhookEndpoint, WebhookStore } from '../control/types.js';

/** An endpoint as an admin asks for it; the bounds and the schemes allowed are the server's. */
export type NewEndpoint = Omit<Parameters<WebhookStore['add']>[0], 'maxEndpoints' | 'allowHttp'>;

/** What the web page and the CLI ask of webhooks, under the server's settings (app/webhooks.ts). */
export interface WebhookActions {
  /** Adds an endpoint, refusing one that points inside or passes the organization's cap. */
  add(input: NewEndpoint): Promise<{ endpoint: WebhookEndpoint; secret: string }>;
  /** Sends a `webhook.test` event through the server's dispatcher; the attempt as logged. */
  test(orgId: string, endpointId: string): Promise<DeliveryAttempt>;
}
