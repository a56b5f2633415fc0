import { InvalidInputError } from '../errors.js';
import type { SqlQueries, SqlValue } from './sql/types.js';
import type { AuditEntry, AuditPage, AuditQuery, AuditRecord } from './types.js';

/** An audit_log row as the database returns it. */
export interface AuditRow {
  id: number;
  at: string;
  user_id: string | null;
  org_id: string | null;
  kind: string;
  action: string;
  artifact_id: string | null;
  commit_sha: string | null;
  client: string | null;
  duration_ms: number | null;
  outcome: 'ok' | 'error';
  detail: string | null;
}

/** A row as the rest of the service reads it. */
export const auditEntryOf = (row: AuditRow): AuditEntry => ({
  id: row.id,
  at: row.at,
  userId: row.user_id,
  orgId: row.org_id,
  kind: row.kind,
  action: row.action,
  artifactId: row.artifact_id,
  commit: row.commit_sha,
  client: row.client,
  durationMs: row.duration_ms,
  outcome: row.outcome,
  detail: row.detail,
});

/** A row of an organization's page: with the user's email and name when known. */
interface AuditPageRow extends AuditRow {
  user_email: string | null;
  user_name: string | null;
}

const MAX_PAGE = 1000;
const COLUMNS = 'id, at, user_id, org_id, kind, action, artifact_id, commit_sha, client, duration_ms, outcome, detail';
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** `YYYY-MM-DD` (the whole day, UTC) or a full timestamp, as an ISO string. */
function instant(value: string, what: string, endOfDay: boolean): string {
  const text = value.trim();
  const time = Date.parse(DAY.test(text) ? `${text}T00:00:00.000Z` : text);
  if (Number.isNaN(time)) throw new InvalidInputError(`${what} is not a date (YYYY-MM-DD): ${text.slice(0, 40)}`);
  return new Date(DAY.test(text) && endOfDay ? time + 86_400_000 : time).toISOString();
}

/** A cursor names the last row of the previous page: `<at>~<id>`. */
export const auditCursor = (row: { at: string; id: number }): string => `${row.at}~${row.id}`;

function parseCursor(cursor: string): [string, number] {
  const [at, id] = cursor.split('~');
  if (!at || !id || !/^\d+$/.test(id) || Number.isNaN(Date.parse(at)))
    throw new InvalidInputError('not a page cursor of the audit log');
  return [at, Number(id)];
}

/**
 * An organization's audit log, newest first, filtered and paged. Besides the rows recorded in
 * the organization, it holds its members' own account events that belong to no organization
 * (sign-ins, revoking their own tokens everywhere): an admin sees who of theirs did what.
 */
export async function auditPage(db: SqlQueries, query: AuditQuery): Promise<AuditPage> {
  const where: string[] = [];
  const params: SqlValue[] = [];
  const add = (condition: string, ...values: SqlValue[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (query.userId) add('user_id = ?', query.userId);
  if (query.client) add('LOWER(client) = LOWER(?)', query.client.trim());
  if (query.action) add('action = ?', query.action.trim());
  if (query.artifactId) add('artifact_id = ?', query.artifactId.trim());
  if (query.outcome) add('outcome = ?', query.outcome);
  if (query.since) add('at >= ?', instant(query.since, 'since', false));
  if (query.until) add('at < ?', instant(query.until, 'until', true));
  if (query.cursor) {
    const [at, id] = parseCursor(query.cursor);
    add('(at < ? OR (at = ? AND id < ?))', at, at, id);
  }
  const limit = Math.min(Math.max(Math.trunc(query.limit), 1), MAX_PAGE);
  const filters = where.map((condition) => ` AND ${condition}`).join('');
  // Two newest-first walks of the (org_id, at, id) index, each stopping after a page, merged:
  // an OR of the two would read and sort every row of the organization for each page.
  const branch = (scope: string) =>
    `SELECT * FROM (SELECT ${COLUMNS} FROM audit_log WHERE ${scope}${filters} ORDER BY at DESC, id DESC LIMIT ?) AS b`;
  const rows = await db.all<AuditPageRow>(
    `SELECT a.id, a.at, a.user_id, u.email AS user_email, u.name AS user_name, a.org_id, a.kind, a.action, a.artifact_id,
            a.commit_sha, a.client, a.duration_ms, a.outcome, a.detail
       FROM (${branch('org_id = ?')}
             UNION ALL
             ${branch('org_id IS NULL AND user_id IN (SELECT user_id FROM memberships WHERE org_id = ?)')}) AS a
       LEFT JOIN users u ON u.id = a.user_id
      ORDER BY a.at DESC, a.id DESC LIMIT ?`,
    [query.orgId, ...params, limit + 1, query.orgId, ...params, limit + 1, limit + 1],
  );
  const entries: AuditRecord[] = rows.slice(0, limit).map((row) => {
    const { id, at, userId, ...rest } = auditEntryOf(row);
    return { id, at, userId, userEmail: row.user_email, userName: row.user_name, ...rest };
  });
  const last = entries.at(-1);
  return { entries, ...(rows.length > limit && last ? { next: auditCursor(last) } : {}) };
}

/** Deletes the rows recorded before `before`; returns how many. */
export function pruneAudit(db: SqlQueries, before: Date): Promise<number> {
  return db.run('DELETE FROM audit_log WHERE at < ?', [before.toISOString()]);
}
