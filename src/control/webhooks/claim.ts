import type { Clock } from '../clock.js';
import type { SqlDatabase, SqlQueries } from '../sql/types.js';
import type { OutboxMessage, WebhookQueue, WebhookStore } from '../types.js';

export interface MessageRow {
  id: string;
  endpoint_id: string;
  org_id: string;
  kind: string;
  payload: string;
  created_at: string;
  attempts: number;
}

export const MESSAGE_COLUMNS = 'id, endpoint_id, org_id, kind, payload, created_at, attempts';

export const toMessage = (row: MessageRow): OutboxMessage => ({
  id: row.id,
  endpointId: row.endpoint_id,
  orgId: row.org_id,
  kind: row.kind,
  payload: row.payload,
  createdAt: row.created_at,
  attempts: row.attempts,
});

/** Who leases, as of when, until when, how many at most, and (a test message) which one. */
interface Lease {
  readonly owner: string;
  readonly now: string;
  readonly until: string;
  readonly limit: number;
  readonly only?: string;
}

/** A row no one holds, or whose holder's lease ran out. */
const FREE = '(o.lease_until IS NULL OR o.lease_until < ?)';

/** Due messages of enabled endpoints that no one holds, oldest first (rowid: in the order written). */
const DUE = `SELECT o.id FROM webhook_outbox o JOIN webhook_endpoints e ON e.id = o.endpoint_id
  WHERE o.next_attempt_at IS NOT NULL AND o.next_attempt_at <= ? AND ${FREE} AND e.disabled_at IS NULL`;

/**
 * Leasing outbox messages. Any due message (`claim` without an endpoint, and a test message by
 * id), or one endpoint's: then the endpoint's row is locked for the transaction and its leases
 * counted, so that all replicas together hold at most its in-flight cap.
 */
export function sqlWebhookClaim(db: SqlDatabase, clock: Clock): Pick<WebhookStore, 'claim' | 'queues'> {
  async function claimOnSqlite({ owner, now, until, limit, only }: Lease): Promise<MessageRow[]> {
    // One process writes the SQLite file: each candidate is leased by an UPDATE that still finds it free.
    const candidates = await db.all<{ id: string }>(
      `${DUE}${only ? ' AND o.id = ?' : ''} ORDER BY o.next_attempt_at, o.rowid LIMIT ?`,
      [now, now, ...(only ? [only] : []), limit],
    );
    const leased: MessageRow[] = [];
    for (const { id } of candidates) {
      const changed = await db.run(
        'UPDATE webhook_outbox SET lease_owner = ?, lease_until = ? WHERE id = ? AND next_attempt_at IS NOT NULL AND (lease_until IS NULL OR lease_until < ?)',
        [owner, until, id, now],
      );
      if (changed === 1)
        leased.push((await db.get<MessageRow>(`SELECT ${MESSAGE_COLUMNS} FROM webhook_outbox WHERE id = ?`, [id]))!);
    }
    return leased;
  }

  function claimOnPostgres({ owner, now, until, limit, only }: Lease): Promise<MessageRow[]> {
    // Replicas claim at once: each skips the rows another is leasing, and takes only free ones.
    return db.all<MessageRow>(
      `UPDATE webhook_outbox SET lease_owner = ?, lease_until = ?
        WHERE id IN (${DUE}${only ? ' AND o.id = ?' : ''} ORDER BY o.next_attempt_at, o.rowid LIMIT ? FOR UPDATE OF o SKIP LOCKED)
        RETURNING ${MESSAGE_COLUMNS}`,
      [owner, until, now, now, ...(only ? [only] : []), limit],
    );
  }

  async function claimForEndpoint(
    tx: SqlQueries,
    { owner, now, until, limit }: Lease,
    endpoint: { id: string; maxInFlight: number },
  ): Promise<MessageRow[]> {
    const lock = db.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const open = await tx.get(`SELECT id FROM webhook_endpoints WHERE id = ? AND disabled_at IS NULL${lock}`, [
      endpoint.id,
    ]);
    if (!open) return [];
    const held = await tx.get<{ n: number | string }>(
      'SELECT COUNT(*) AS n FROM webhook_outbox WHERE endpoint_id = ? AND next_attempt_at IS NOT NULL AND lease_until >= ?',
      [endpoint.id, now],
    );
    const take = Math.min(limit, endpoint.maxInFlight - Number(held?.n ?? 0));
    if (take <= 0) return [];
    const rows = await tx.all<MessageRow & { rowid: number | string }>(
      `UPDATE webhook_outbox SET lease_owner = ?, lease_until = ?
        WHERE id IN (SELECT o.id FROM webhook_outbox o WHERE o.endpoint_id = ? AND o.next_attempt_at IS NOT NULL
                       AND o.next_attempt_at <= ? AND ${FREE} ORDER BY o.next_attempt_at, o.rowid LIMIT ?)
        RETURNING ${MESSAGE_COLUMNS}, rowid`,
      [owner, until, endpoint.id, now, now, take],
    );
    // RETURNING keeps no order: the oldest goes first.
    return rows.sort((a, b) => Number(a.rowid) - Number(b.rowid));
  }

  return {
    async claim({ owner, leaseUntil, limit, messageId: only, endpoint }) {
      const now = clock().toISOString();
      const until = leaseUntil.toISOString();
      const lease: Lease = { owner, now, until, limit, ...(only ? { only } : {}) };
      if (endpoint) return (await db.transaction((tx) => claimForEndpoint(tx, lease, endpoint))).map(toMessage);
      const claim = db.dialect === 'postgres' ? claimOnPostgres : claimOnSqlite;
      return (await claim(lease)).map(toMessage);
    },

    async queues() {
      const now = clock().toISOString();
      // Only rows due now are read: a backlog retrying later costs nothing here.
      const rows = await db.all<{
        org_id: string;
        endpoint_id: string;
        due: number | string;
        in_flight: number | string;
      }>(
        `SELECT e.org_id, o.endpoint_id,
                SUM(CASE WHEN ${FREE} THEN 1 ELSE 0 END) AS due,
                SUM(CASE WHEN o.lease_until >= ? THEN 1 ELSE 0 END) AS in_flight
           FROM webhook_outbox o JOIN webhook_endpoints e ON e.id = o.endpoint_id
          WHERE o.next_attempt_at IS NOT NULL AND o.next_attempt_at <= ? AND e.disabled_at IS NULL
          GROUP BY e.org_id, o.endpoint_id`,
        [now, now, now],
      );
      return rows.map((row): WebhookQueue => ({
        orgId: row.org_id,
        endpointId: row.endpoint_id,
        due: Number(row.due),
        inFlight: Number(row.in_flight),
      }));
    },
  };
}
