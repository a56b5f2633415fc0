import { randomUUID } from 'node:crypto';
import { NotFoundError } from '../../errors.js';
import type { Clock } from '../clock.js';
import type { SqlDatabase, SqlValue } from '../sql/types.js';
import type { DeliveryAttempt, OutboxMessage, WebhookEventKind, WebhookStore } from '../types.js';
import { dropOverflow } from './overflow.js';
import { ALL_WORKSPACES, coversWorkspace } from './endpoints.js';

interface AttemptRow {
  id: number;
  message_id: string;
  endpoint_id: string;
  kind: string;
  at: string;
  ok: number;
  response_code: number | null;
  error: string | null;
  duration_ms: number;
  state: DeliveryAttempt['state'];
  next_attempt_at: string | null;
}

const MAX_ERROR = 500;

const toAttempt = (row: AttemptRow): DeliveryAttempt => ({
  id: row.id,
  messageId: row.message_id,
  endpointId: row.endpoint_id,
  kind: row.kind,
  at: row.at,
  ok: row.ok === 1,
  responseCode: row.response_code,
  error: row.error,
  durationMs: row.duration_ms,
  state: row.state,
  nextAttemptAt: row.next_attempt_at,
});

/** Standard Webhooks message ids: unique per message, the same on every retry of it. */
const messageId = () => `msg_${randomUUID().replace(/-/g, '')}`;
const words = (list: string) => list.split(' ').filter(Boolean);

export function sqlWebhookOutbox(
  db: SqlDatabase,
  clock: Clock,
): Pick<WebhookStore, 'enqueue' | 'enqueueChangeRequest' | 'enqueueTest' | 'settle' | 'attempts' | 'prune'> {
  const insert = (rows: readonly SqlValue[][], tx: Pick<SqlDatabase, 'run'> = db) =>
    tx.run(
      `INSERT INTO webhook_outbox (id, endpoint_id, org_id, kind, payload, created_at, next_attempt_at) VALUES ${rows.map(() => '(?, ?, ?, ?, ?, ?, ?)').join(', ')}`,
      rows.flat(),
    );

  /**
   * One message per enabled endpoint of the organization that asked for `kind` and covers the
   * event's workspaces; returns how many.
   */
  const enqueueEvent = async (
    event: {
      orgId: string;
      kind: WebhookEventKind;
      covers: (storedWorkspaces: string) => boolean;
      payload: (organization: { id: string; name: string | null }) => object;
    },
    bounds: { maxQueued: number } | undefined,
  ): Promise<number> => {
    // Most organizations have no webhook: one indexed read, and no transaction, for each commit of theirs.
    const any = await db.get(
      'SELECT 1 AS found FROM webhook_endpoints WHERE org_id = ? AND disabled_at IS NULL LIMIT 1',
      [event.orgId],
    );
    if (!any) return 0;
    return db.transaction(async (tx) => {
      const endpoints = await tx.all<{ id: string; events: string; workspace_ids: string }>(
        'SELECT id, events, workspace_ids FROM webhook_endpoints WHERE org_id = ? AND disabled_at IS NULL',
        [event.orgId],
      );
      const matching = endpoints.filter((e) => words(e.events).includes(event.kind) && event.covers(e.workspace_ids));
      if (matching.length === 0) return 0;
      const org = await tx.get<{ name: string }>('SELECT name FROM organizations WHERE id = ?', [event.orgId]);
      const payload = JSON.stringify(event.payload({ id: event.orgId, name: org?.name ?? null }));
      const now = clock().toISOString();
      await insert(
        matching.map((e) => [messageId(), e.id, event.orgId, event.kind, payload, now, now]),
        tx,
      );
      if (bounds)
        await dropOverflow(
          tx,
          matching.map((e) => e.id),
          bounds.maxQueued,
          now,
        );
      return matching.length;
    });
  };

  return {
    enqueue(change, bounds) {
      return enqueueEvent(
        {
          orgId: change.orgId,
          kind: change.kind,
          covers: (stored) => coversWorkspace(stored, change.artifact.workspaceId),
          payload: (organization) => ({
            type: `artifact.${change.kind}`,
            timestamp: change.at,
            data: {
              organization,
              artifact: change.artifact,
              commit: change.commit,
              author: change.author,
              client: change.client,
            },
          }),
        },
        bounds,
      );
    },

    enqueueChangeRequest(event, bounds) {
      return enqueueEvent(
        {
          orgId: event.orgId,
          kind: 'change_request',
          // One that changes nothing yet reaches the endpoints that cover every workspace.
          covers: (stored) =>
            event.workspaceIds.length === 0
              ? stored === ALL_WORKSPACES
              : event.workspaceIds.some((workspaceId) => coversWorkspace(stored, workspaceId)),
          payload: (organization) => ({
            type: `change_request.${event.kind}`,
            timestamp: event.at,
            data: {
              organization,
              changeRequest: event.changeRequest,
              workspaceIds: event.workspaceIds,
              actor: event.actor,
              client: event.client,
            },
          }),
        },
        bounds,
      );
    },

    async enqueueTest(orgId, endpointId) {
      const org = await db.get<{ name: string }>(
        'SELECT o.name FROM organizations o JOIN webhook_endpoints e ON e.org_id = o.id WHERE o.id = ? AND e.id = ?',
        [orgId, endpointId],
      );
      if (!org) throw new NotFoundError('webhook');
      const now = clock().toISOString();
      const message: OutboxMessage = {
        id: messageId(),
        endpointId,
        orgId,
        kind: 'test',
        payload: JSON.stringify({
          type: 'webhook.test',
          timestamp: now,
          data: { organization: { id: orgId, name: org.name }, endpoint: endpointId },
        }),
        createdAt: now,
        attempts: 0,
      };
      await insert([[message.id, endpointId, orgId, message.kind, message.payload, now, now]]);
      return message;
    },

    async settle({ message, owner, outcome, retryAfterMs, giveUpAfterMs, disableAfterMs }) {
      const now = clock();
      const at = now.toISOString();
      const next = new Date(now.getTime() + retryAfterMs);
      const givenUp = !outcome.ok && next.getTime() - Date.parse(message.createdAt) > giveUpAfterMs;
      const state: DeliveryAttempt['state'] = outcome.ok ? 'delivered' : givenUp ? 'given_up' : 'retrying';
      const nextAttemptAt = state === 'retrying' ? next.toISOString() : null;
      const error = outcome.error === null ? null : outcome.error.slice(0, MAX_ERROR);
      const durationMs = Math.max(0, Math.round(outcome.durationMs));
      return db.transaction(async (tx) => {
        await tx.run(
          `UPDATE webhook_outbox SET attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,
             delivered_at = ?, gave_up_at = ? WHERE id = ? AND lease_owner = ?`,
          [nextAttemptAt, outcome.ok ? at : null, givenUp ? at : null, message.id, owner],
        );
        if (outcome.ok) {
          // Conditional, so that concurrent successes (the usual case) do not all write one row.
          await tx.run('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = ? AND failing_since IS NOT NULL', [
            message.endpointId,
          ]);
        } else {
          await tx.run('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ? AND failing_since IS NULL', [
            at,
            message.endpointId,
          ]);
          const since = new Date(now.getTime() - disableAfterMs).toISOString();
          await tx.run(
            `UPDATE webhook_endpoints SET disabled_at = ?, disabled_reason = ?
              WHERE id = ? AND disabled_at IS NULL AND failing_since <= ?`,
            [
              at,
              `every delivery failed for a day; the last: ${outcome.responseCode ? `HTTP ${outcome.responseCode}` : (error ?? 'no answer')}`,
              message.endpointId,
              since,
            ],
          );
        }
        const row = await tx.get<{ id: number }>(
          `INSERT INTO webhook_attempts (message_id, endpoint_id, at, ok, response_code, error, duration_ms, state, next_attempt_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
          [
            message.id,
            message.endpointId,
            at,
            outcome.ok ? 1 : 0,
            outcome.responseCode,
            error,
            durationMs,
            state,
            nextAttemptAt,
          ],
        );
        return {
          id: row!.id,
          messageId: message.id,
          endpointId: message.endpointId,
          kind: message.kind,
          at,
          ok: outcome.ok,
          responseCode: outcome.responseCode,
          error,
          durationMs,
          state,
          nextAttemptAt,
        };
      });
    },

    async attempts(orgId, endpointId, limit) {
      const rows = await db.all<AttemptRow>(
        `SELECT a.id, a.message_id, a.endpoint_id, o.kind, a.at, a.ok, a.response_code, a.error, a.duration_ms, a.state, a.next_attempt_at
           FROM webhook_attempts a JOIN webhook_outbox o ON o.id = a.message_id
          WHERE o.org_id = ? AND a.endpoint_id = ? ORDER BY a.at DESC, a.id DESC LIMIT ?`,
        [orgId, endpointId, Math.min(Math.max(Math.trunc(limit), 1), 500)],
      );
      return rows.map(toAttempt);
    },

    async prune(before) {
      // Settled messages only: one still due is kept however old, until delivered or given up.
      return db.run('DELETE FROM webhook_outbox WHERE next_attempt_at IS NULL AND created_at < ?', [
        before.toISOString(),
      ]);
    },
  };
}
