export {
  openControlPlane,
  SqlControlPlane,
  CONTROL_NAMESPACE,
  type ControlPlaneOptions,
} from './open-control-plane.js';
export { applyMigrations } from './sqlite/migrations.js';
export { SqliteDatabase } from './sqlite/database.js';
export { PostgresDatabase } from './postgres/database.js';
export { commitChannel, type CommitChannel, type CommitNotice } from './postgres/commit-channel.js';
export { DEFAULT_HELD_ROWS, type AuditBatchOptions, type AuditEvent, type AuditHealth } from './audit-batch.js';
export { recordLastUse } from './last-use.js';
export { DEFAULT_WORKSPACE_NAME } from './orgs.js';
export { addMember, type AddedMember } from './add-member.js';
export { INVITATION_DAYS } from './invitations.js';
export { PERSONAL_ACCESS_TOKEN_DAYS, PERSONAL_ACCESS_TOKEN_PREFIX } from './tokens.js';
export type { Clock } from './clock.js';
export type { DialectMigrations, Migration, SqlDatabase, SqlQueries, SqlValue } from './sql/types.js';
export type * from './types.js';
export { WEBHOOK_EVENT_KINDS } from './types.js';
