import type { AuditBatchOptions } from './audit-batch.js';
import { sqlAudit } from './audit.js';
import { sqlChangeRequests } from './change-requests.js';
import { systemClock, type Clock } from './clock.js';
import { sqlCredentialOrgs } from './credential-orgs.js';
import { sqlInvitations } from './invitations.js';
import { sqlMembers } from './members.js';
import { sqlOrgs } from './orgs.js';
import { openPostgresDatabase } from './postgres/database.js';
import { CONTROL_MIGRATIONS } from './schema.js';
import { readsUntilChange } from './sql/reads-until-change.js';
import type { SqlDatabase } from './sql/types.js';
import { openSqliteDatabase } from './sqlite/database.js';
import { sqlPersonalAccessTokens } from './tokens.js';
import type { ControlPlane } from './types.js';
import { controlWriteProblem } from './write-probe.js';
import { sqlUsers } from './users.js';
import { sqlWebhooks } from './webhooks/index.js';
import { sqlWorkspaces } from './workspaces.js';

export const CONTROL_NAMESPACE = 'control';

export type ControlPlaneOptions = {
  readonly clock?: Clock;
  /** How many audit rows to hold while the database refuses them, and where to report that. */
  readonly audit?: AuditBatchOptions;
} & (
  | /** Database file, created with its directory when missing (`data/specbase.db` by default). */
    { readonly file: string; readonly databaseUrl?: undefined }
    /** `postgres://…`: the control plane shared by every replica, over at most `poolSize` connections. */
  | { readonly databaseUrl: string; readonly poolSize?: number; readonly file?: undefined }
);

/** The control plane over either backend; `db` is shared with concerns that own their own tables (auth). */
export class SqlControlPlane implements ControlPlane {
  readonly users: ControlPlane['users'];
  readonly orgs: ControlPlane['orgs'];
  readonly workspaces: ControlPlane['workspaces'];
  readonly members: ControlPlane['members'];
  readonly invitations: ControlPlane['invitations'];
  readonly tokens: ControlPlane['tokens'];
  readonly credentialOrgs: ControlPlane['credentialOrgs'];
  readonly webhooks: ControlPlane['webhooks'];
  readonly changeRequests: ControlPlane['changeRequests'];
  readonly audit: ReturnType<typeof sqlAudit>;

  constructor(
    readonly db: SqlDatabase,
    private readonly clock: Clock = systemClock,
    audit: AuditBatchOptions = {},
  ) {
    this.users = sqlUsers(db, clock);
    const perRequest = readsUntilChange(db);
    this.orgs = sqlOrgs(db, clock, perRequest);
    this.workspaces = sqlWorkspaces(db, clock, perRequest);
    this.members = sqlMembers(db, clock, perRequest);
    this.invitations = sqlInvitations(db, clock, this.users);
    this.tokens = sqlPersonalAccessTokens(db, clock, perRequest);
    this.credentialOrgs = sqlCredentialOrgs(db, clock, perRequest);
    this.webhooks = sqlWebhooks(db, clock);
    this.changeRequests = sqlChangeRequests(db, clock);
    this.audit = sqlAudit(db, clock, audit);
  }

  /** Why the database cannot be written now (see controlWriteProblem), or undefined. */
  writeProblem(): Promise<string | undefined> {
    return controlWriteProblem(this.db, this.clock);
  }

  async close(): Promise<void> {
    await this.audit.close();
    await this.db.close();
  }
}

/** Opens the database named by the options and brings the control plane's tables up to date. */
export async function openControlPlane(options: ControlPlaneOptions): Promise<SqlControlPlane> {
  const db: SqlDatabase = options.databaseUrl
    ? openPostgresDatabase(options.databaseUrl, options.poolSize)
    : await openSqliteDatabase(options.file!);
  try {
    await db.migrate(CONTROL_NAMESPACE, CONTROL_MIGRATIONS);
    return new SqlControlPlane(db, options.clock, options.audit);
  } catch (error) {
    await db.close();
    throw error;
  }
}
