import { InvalidInputError } from '../errors.js';
import type { Clock } from './clock.js';
import { auditEntryOf, auditPage, pruneAudit, type AuditRow } from './audit-query.js';
import { AuditBatches, type AuditBatchOptions, type AuditHealth } from './audit-batch.js';
import { requiredText } from './input.js';
import type { SqlDatabase } from './sql/types.js';
import type { ControlPlane } from './types.js';

const MAX_LIST = 1000;
const MAX_DETAIL = 4000;

function timestamp(value: string | undefined, clock: Clock): string {
  if (value === undefined) return clock().toISOString();
  const time = Date.parse(value);
  if (Number.isNaN(time)) throw new InvalidInputError(`audit time is not a date: ${value}`);
  return new Date(time).toISOString();
}

const COLUMNS = 'id, at, user_id, org_id, kind, action, artifact_id, commit_sha, client, duration_ms, outcome, detail';
// One statement per filter combination, so that each can use its own index.
const listing = (where: string) => `SELECT ${COLUMNS} FROM audit_log ${where} ORDER BY at DESC, id DESC LIMIT ?`;
const LISTS = {
  all: listing(''),
  org: listing('WHERE org_id = ?'),
  user: listing('WHERE user_id = ?'),
  both: listing('WHERE org_id = ? AND user_id = ?'),
};

/** The audit log, with what closing it must wait for (rows recorded but not yet written) and its health. */
export function sqlAudit(
  db: SqlDatabase,
  clock: Clock,
  options: AuditBatchOptions = {},
): ControlPlane['audit'] & { drain(): Promise<void>; close(): Promise<void>; health(): AuditHealth } {
  const batches = new AuditBatches(db, options);
  return {
    drain: () => batches.drain(),
    close: () => batches.close(),
    health: () => batches.health(),
    async record(entry) {
      if (entry.outcome !== 'ok' && entry.outcome !== 'error') {
        throw new InvalidInputError(`audit outcome must be ok or error, got ${String(entry.outcome)}`);
      }
      await batches.write([
        timestamp(entry.at, clock),
        entry.userId ?? null,
        entry.orgId ?? null,
        requiredText(entry.kind, 'audit kind', 50),
        requiredText(entry.action, 'audit action', 200),
        entry.artifactId ?? null,
        entry.commit ?? null,
        entry.client ?? null,
        entry.durationMs == null ? null : Math.max(0, Math.round(entry.durationMs)),
        entry.outcome,
        entry.detail == null ? null : entry.detail.slice(0, MAX_DETAIL),
      ]);
    },
    async list({ orgId, userId, limit }) {
      await batches.drain();
      const bounded = Number.isFinite(limit) ? Math.min(Math.max(Math.trunc(limit), 1), MAX_LIST) : MAX_LIST;
      const [statement, params] =
        orgId && userId
          ? [LISTS.both, [orgId, userId]]
          : orgId
            ? [LISTS.org, [orgId]]
            : userId
              ? [LISTS.user, [userId]]
              : [LISTS.all, []];
      return (await db.all<AuditRow>(statement, [...params, bounded])).map(auditEntryOf);
    },
    async page(query) {
      await batches.drain();
      return auditPage(db, query);
    },
    async prune(before) {
      await batches.drain();
      return pruneAudit(db, before);
    },
  };
}
