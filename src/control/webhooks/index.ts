import type { Clock } from '../clock.js';
import type { SqlDatabase } from '../sql/types.js';
import type { WebhookStore } from '../types.js';
import { sqlWebhookClaim } from './claim.js';
import { sqlWebhookEndpoints } from './endpoints.js';
import { sqlWebhookMetrics } from './metrics.js';
import { sqlWebhookOutbox } from './outbox.js';

export function sqlWebhooks(db: SqlDatabase, clock: Clock): WebhookStore {
  return {
    ...sqlWebhookEndpoints(db, clock),
    ...sqlWebhookOutbox(db, clock),
    ...sqlWebhookClaim(db, clock),
    ...sqlWebhookMetrics(db, clock),
  };
}
