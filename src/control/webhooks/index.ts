import type { Clock } from '../clock.js';
import type { SqlDatabase } from '../sql/types.js';
import type { WebhookStore } from '../types.js';
import { sqlWebhookEndpoints } from './endpoints.js';
import { sqlWebhookOutbox } from './outbox.js';

export function sqlWebhooks(db: SqlDatabase, clock: Clock): WebhookStore {
  return { ...sqlWebhookEndpoints(db, clock), ...sqlWebhookOutbox(db, clock) };
}
