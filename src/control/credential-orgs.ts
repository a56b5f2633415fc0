import type { Clock } from './clock.js';
import { recordLastUse } from './last-use.js';
import type { SqlDatabase, SqlQueries } from './sql/types.js';
import type { ControlPlane, CredentialInOrg, CredentialRef } from './types.js';

interface Row {
  kind: 'token' | 'grant';
  credential_id: string;
  org_id: string;
  last_used_at: string | null;
  blocked_at: string | null;
  blocked_by: string | null;
}

const COLUMNS = 'kind, credential_id, org_id, last_used_at, blocked_at, blocked_by';
const ONE = `SELECT ${COLUMNS} FROM credential_orgs WHERE kind = ? AND credential_id = ? AND org_id = ?`;
const USED = `INSERT INTO credential_orgs (kind, credential_id, org_id, last_used_at) VALUES (?, ?, ?, ?)
  ON CONFLICT (kind, credential_id, org_id) DO UPDATE SET last_used_at = excluded.last_used_at`;
const BLOCK = `INSERT INTO credential_orgs (kind, credential_id, org_id, blocked_at, blocked_by) VALUES (?, ?, ?, ?, ?)
  ON CONFLICT (kind, credential_id, org_id) DO UPDATE SET blocked_at = excluded.blocked_at, blocked_by = excluded.blocked_by
  WHERE credential_orgs.blocked_at IS NULL`;
const UNBLOCK = `UPDATE credential_orgs SET blocked_at = NULL, blocked_by = NULL
  WHERE kind = ? AND credential_id = ? AND org_id = ? AND blocked_at IS NOT NULL`;
const LIST = `SELECT ${COLUMNS} FROM credential_orgs WHERE org_id = ?
  ORDER BY last_used_at IS NULL, last_used_at DESC, kind, credential_id`;

/** Use is written at most once a minute per credential and organization, as a token's own last use. */
const LAST_USE_RESOLUTION_MS = 60_000;

const toEntry = (row: Row): CredentialInOrg => ({
  kind: row.kind,
  id: row.credential_id,
  orgId: row.org_id,
  lastUsedAt: row.last_used_at,
  blockedAt: row.blocked_at,
  blockedBy: row.blocked_by,
});

/** `perRequest` answers the check made on every call (see readsUntilChange). */
export function sqlCredentialOrgs(
  db: SqlDatabase,
  clock: Clock,
  perRequest: Pick<SqlQueries, 'get'>,
): ControlPlane['credentialOrgs'] {
  const key = (credential: CredentialRef, orgId: string) => [credential.kind, credential.id, orgId];
  return {
    async admit(credential, orgId) {
      const row = await perRequest.get<Row>(ONE, key(credential, orgId));
      if (row?.blocked_at) return false;
      const now = clock();
      if (!row?.last_used_at || now.getTime() - Date.parse(row.last_used_at) >= LAST_USE_RESOLUTION_MS) {
        await recordLastUse(db.run(USED, [...key(credential, orgId), now.toISOString()]));
      }
      return true;
    },
    async block(credential, orgId, blockedBy) {
      return (await db.run(BLOCK, [...key(credential, orgId), clock().toISOString(), blockedBy])) > 0;
    },
    async unblock(credential, orgId) {
      return (await db.run(UNBLOCK, key(credential, orgId))) > 0;
    },
    async list(orgId) {
      return (await db.all<Row>(LIST, [orgId])).map(toEntry);
    },
  };
}
