import { randomBytes } from 'node:crypto';
import { InvalidInputError } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Clock } from '../clock.js';
import type { SqlDatabase } from '../sql/types.js';
import { WEBHOOK_EVENT_KINDS, type WebhookEndpoint, type WebhookEventKind, type WebhookStore } from '../types.js';

export interface EndpointRow {
  id: string;
  org_id: string;
  url: string;
  events: string;
  workspace_ids: string;
  created_by: string | null;
  created_at: string;
  failing_since: string | null;
  disabled_at: string | null;
  disabled_reason: string | null;
  dropped: number | string;
  dropped_at: string | null;
}

export const ENDPOINT_COLUMNS =
  'id, org_id, url, events, workspace_ids, created_by, created_at, failing_since, disabled_at, disabled_reason, dropped, dropped_at';
const MAX_URL = 2000;

const words = (list: string) => list.split(' ').filter(Boolean);

/**
 * `all` is stored as the word itself, never as the ids of today: an endpoint for every
 * workspace must hear of one created after it (ids are UUIDs, so the word cannot be one).
 */
export const ALL_WORKSPACES = 'all';
export const coversWorkspace = (stored: string, workspaceId: string): boolean =>
  stored === ALL_WORKSPACES || words(stored).includes(workspaceId);

export const toEndpoint = (row: EndpointRow): WebhookEndpoint => ({
  id: row.id,
  orgId: row.org_id,
  url: row.url,
  events: words(row.events) as WebhookEventKind[],
  workspaceIds: row.workspace_ids === ALL_WORKSPACES ? ALL_WORKSPACES : words(row.workspace_ids),
  createdBy: row.created_by,
  createdAt: row.created_at,
  failingSince: row.failing_since,
  disabledAt: row.disabled_at,
  disabledReason: row.disabled_reason,
  dropped: Number(row.dropped),
  droppedAt: row.dropped_at,
});

/**
 * An https URL without credentials (http only when the caller allows it); where it points is
 * checked when added (webhooks/add-endpoint.ts) and on every delivery (net/outbound-request.ts).
 */
function endpointUrl(value: string, allowHttp: boolean): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new InvalidInputError(`not a URL: ${value.slice(0, 80)}`);
  }
  if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:'))
    throw new InvalidInputError('a webhook URL must be https');
  if (url.username || url.password) throw new InvalidInputError('a webhook URL must not carry credentials');
  if (url.href.length > MAX_URL) throw new InvalidInputError(`a webhook URL is at most ${MAX_URL} characters`);
  return url.href;
}

function eventKinds(events: readonly string[]): WebhookEventKind[] {
  const unknown = events.filter((kind) => !(WEBHOOK_EVENT_KINDS as readonly string[]).includes(kind));
  if (unknown.length)
    throw new InvalidInputError(
      `unknown event kind ${unknown.join(', ')}; the kinds are ${WEBHOOK_EVENT_KINDS.join(', ')}`,
    );
  if (events.length === 0)
    throw new InvalidInputError(`choose at least one event kind: ${WEBHOOK_EVENT_KINDS.join(', ')}`);
  return WEBHOOK_EVENT_KINDS.filter((kind) => events.includes(kind));
}

/** The Standard Webhooks secret format: `whsec_` and the base64 of the key. */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export function sqlWebhookEndpoints(
  db: SqlDatabase,
  clock: Clock,
): Pick<WebhookStore, 'add' | 'list' | 'get' | 'remove' | 'enable' | 'target'> {
  /** The listed workspaces, each once, all of this organization: space-separated as stored. */
  async function chosenWorkspaces(orgId: string, workspaceIds: readonly string[]): Promise<string> {
    const known = new Set(
      (await db.all<{ id: string }>('SELECT id FROM workspaces WHERE org_id = ?', [orgId])).map((w) => w.id),
    );
    const chosen = [...new Set(workspaceIds)];
    if (chosen.length === 0) throw new InvalidInputError('choose at least one workspace');
    const foreign = chosen.filter((id) => !known.has(id));
    if (foreign.length) throw new InvalidInputError(`not a workspace of this organization: ${foreign.join(', ')}`);
    return chosen.join(' ');
  }

  return {
    async add({ orgId, url, events, workspaceIds, createdBy, maxEndpoints, allowHttp = false }) {
      const href = endpointUrl(url, allowHttp);
      const kinds = eventKinds(events);
      const workspaces = workspaceIds === ALL_WORKSPACES ? ALL_WORKSPACES : await chosenWorkspaces(orgId, workspaceIds);
      const id = newId();
      const secret = newSecret();
      await db.transaction(async (tx) => {
        // Counted in the transaction that adds, so two admins adding at once cannot pass the cap together.
        if (maxEndpoints !== undefined) {
          const held = await tx.get<{ n: number | string }>(
            'SELECT COUNT(*) AS n FROM webhook_endpoints WHERE org_id = ?',
            [orgId],
          );
          if (Number(held?.n ?? 0) >= maxEndpoints)
            throw new InvalidInputError(
              `an organization has at most ${maxEndpoints} webhooks; remove one before adding another`,
            );
        }
        await tx.run(
          'INSERT INTO webhook_endpoints (id, org_id, url, secret, events, workspace_ids, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
          [id, orgId, href, secret, kinds.join(' '), workspaces, createdBy, clock().toISOString()],
        );
      });
      const endpoint = toEndpoint(
        (await db.get<EndpointRow>(`SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE id = ?`, [id]))!,
      );
      return { endpoint, secret };
    },
    async list(orgId) {
      return (
        await db.all<EndpointRow>(
          `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = ? ORDER BY created_at, rowid`,
          [orgId],
        )
      ).map(toEndpoint);
    },
    async get(orgId, endpointId) {
      const row = await db.get<EndpointRow>(
        `SELECT ${ENDPOINT_COLUMNS} FROM webhook_endpoints WHERE org_id = ? AND id = ?`,
        [orgId, endpointId],
      );
      return row && toEndpoint(row);
    },
    async remove(orgId, endpointId) {
      return (await db.run('DELETE FROM webhook_endpoints WHERE org_id = ? AND id = ?', [orgId, endpointId])) > 0;
    },
    async enable(orgId, endpointId) {
      const changed = await db.run(
        'UPDATE webhook_endpoints SET disabled_at = NULL, disabled_reason = NULL, failing_since = NULL WHERE org_id = ? AND id = ? AND disabled_at IS NOT NULL',
        [orgId, endpointId],
      );
      return changed > 0;
    },
    async target(endpointId) {
      return db.get<{ url: string; secret: string }>('SELECT url, secret FROM webhook_endpoints WHERE id = ?', [
        endpointId,
      ]);
    },
  };
}
