import type { SqlQueries } from '../sql/types.js';

/**
 * Keeps each endpoint's pending messages to `maxQueued`: past it the oldest not in flight are
 * deleted and counted on the endpoint (`dropped`, `dropped_at`), so that an endpoint down for
 * long, or an organization committing without pause, holds a bounded part of the database.
 */
export async function dropOverflow(
  tx: SqlQueries,
  endpointIds: readonly string[],
  maxQueued: number,
  now: string,
): Promise<void> {
  if (endpointIds.length === 0) return;
  const counts = await tx.all<{ endpoint_id: string; n: number | string }>(
    `SELECT endpoint_id, COUNT(*) AS n FROM webhook_outbox
      WHERE endpoint_id IN (${endpointIds.map(() => '?').join(', ')}) AND next_attempt_at IS NOT NULL
      GROUP BY endpoint_id`,
    endpointIds,
  );
  for (const { endpoint_id: endpointId, n } of counts) {
    const excess = Number(n) - maxQueued;
    if (excess <= 0) continue;
    const dropped = await tx.run(
      `DELETE FROM webhook_outbox WHERE id IN (
         SELECT id FROM webhook_outbox WHERE endpoint_id = ? AND next_attempt_at IS NOT NULL
            AND (lease_until IS NULL OR lease_until < ?) ORDER BY created_at, rowid LIMIT ?)`,
      [endpointId, now, excess],
    );
    if (dropped > 0)
      await tx.run('UPDATE webhook_endpoints SET dropped = dropped + ?, dropped_at = ? WHERE id = ?', [
        dropped,
        now,
        endpointId,
      ]);
  }
}
