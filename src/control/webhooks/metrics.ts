import type { Clock } from '../clock.js';
import type { SqlDatabase } from '../sql/types.js';
import type { WebhookMetrics, WebhookStore } from '../types.js';

/** Latency percentiles are over each endpoint's latest attempts, this many at most. */
export const METRICS_WINDOW = 200;

/** Nearest-rank percentile of ascending values. */
const percentile = (sorted: readonly number[], p: number): number | null =>
  sorted.length === 0 ? null : sorted[Math.max(0, Math.ceil(p * sorted.length) - 1)]!;

type Count = number | string | null;

/** Figures per endpoint, read from the attempt log and the outbox, for the webhooks page, the CLI and /healthz. */
export function sqlWebhookMetrics(db: SqlDatabase, clock: Clock): Pick<WebhookStore, 'metrics' | 'health'> {
  return {
    async metrics(orgId) {
      const now = clock().toISOString();
      const endpoints = await db.all<{ id: string; dropped: Count }>(
        'SELECT id, dropped FROM webhook_endpoints WHERE org_id = ? ORDER BY created_at, rowid',
        [orgId],
      );
      const tallies = new Map(
        (
          await db.all<{ endpoint_id: string; delivered: Count; failed: Count }>(
            `SELECT a.endpoint_id, SUM(a.ok) AS delivered, SUM(1 - a.ok) AS failed
               FROM webhook_attempts a JOIN webhook_endpoints e ON e.id = a.endpoint_id
              WHERE e.org_id = ? GROUP BY a.endpoint_id`,
            [orgId],
          )
        ).map((row) => [row.endpoint_id, row]),
      );
      const queues = new Map(
        (
          await db.all<{ endpoint_id: string; queued: Count; in_flight: Count }>(
            `SELECT endpoint_id, COUNT(*) AS queued, SUM(CASE WHEN lease_until >= ? THEN 1 ELSE 0 END) AS in_flight
               FROM webhook_outbox WHERE org_id = ? AND next_attempt_at IS NOT NULL GROUP BY endpoint_id`,
            [now, orgId],
          )
        ).map((row) => [row.endpoint_id, row]),
      );
      return Promise.all(
        endpoints.map(async ({ id, dropped }): Promise<WebhookMetrics> => {
          const durations = (
            await db.all<{ duration_ms: number }>(
              'SELECT duration_ms FROM webhook_attempts WHERE endpoint_id = ? ORDER BY at DESC, id DESC LIMIT ?',
              [id, METRICS_WINDOW],
            )
          )
            .map((row) => Number(row.duration_ms))
            .sort((a, b) => a - b);
          const lastError = await db.get<{ error: string | null; at: string }>(
            'SELECT error, at FROM webhook_attempts WHERE endpoint_id = ? AND ok = 0 ORDER BY at DESC, id DESC LIMIT 1',
            [id],
          );
          const tally = tallies.get(id);
          const queue = queues.get(id);
          return {
            endpointId: id,
            delivered: Number(tally?.delivered ?? 0),
            failed: Number(tally?.failed ?? 0),
            p50Ms: percentile(durations, 0.5),
            p95Ms: percentile(durations, 0.95),
            queued: Number(queue?.queued ?? 0),
            inFlight: Number(queue?.in_flight ?? 0),
            dropped: Number(dropped ?? 0),
            lastError: lastError?.error ?? null,
            lastErrorAt: lastError?.at ?? null,
          };
        }),
      );
    },

    async health() {
      const queued = await db.get<{ n: Count }>(
        'SELECT COUNT(*) AS n FROM webhook_outbox WHERE next_attempt_at IS NOT NULL',
      );
      const dropped = await db.get<{ n: Count }>('SELECT SUM(dropped) AS n FROM webhook_endpoints');
      return { queued: Number(queued?.n ?? 0), dropped: Number(dropped?.n ?? 0) };
    },
  };
}
