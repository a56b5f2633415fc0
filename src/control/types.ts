import type { Principal, WorkspaceRole } from '../access/principal.js';
import type { ChangeRequestStore } from './change-request-types.js';
import type { WebhookStore } from './webhook-types.js';

export type * from './change-request-types.js';

export interface User {
  readonly id: string;
  /** Identity provider that vouches for the user: 'local' for accounts of the embedded provider. */
  readonly issuer: string;
  readonly subject: string;
  readonly email: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface Organization {
  readonly id: string;
  readonly name: string;
  readonly createdAt: string;
}

export interface Workspace {
  readonly id: string;
  readonly orgId: string;
  readonly name: string;
  readonly isDefault: boolean;
}

export interface MemberSummary {
  readonly user: User;
  readonly isOwner: boolean;
  readonly roles: readonly { readonly workspaceId: string; readonly role: WorkspaceRole }[];
}

export interface PersonalAccessToken {
  readonly id: string;
  readonly userId: string;
  readonly name: string;
  readonly createdAt: string;
  readonly expiresAt: string | null;
  readonly lastUsedAt: string | null;
  readonly revokedAt: string | null;
  /** Created read-only: MCP connections made with it only read. */
  readonly readOnly: boolean;
}

/** A credential a user connects with: a personal access token, or an OAuth grant (its token family). */
export interface CredentialRef {
  readonly kind: 'token' | 'grant';
  readonly id: string;
}

/**
 * How one credential stands in one organization: its last use there, and whether an admin of
 * the organization blocked it there. The credential itself stays its user's.
 */
export interface CredentialInOrg extends CredentialRef {
  readonly orgId: string;
  readonly lastUsedAt: string | null;
  readonly blockedAt: string | null;
  /** The user id of the admin who blocked it. */
  readonly blockedBy: string | null;
}

export interface AuditEntry {
  readonly id: number;
  readonly at: string;
  readonly userId: string | null;
  readonly orgId: string | null;
  /** 'tool_call', 'web', 'git', 'auth', 'cli' … */
  readonly kind: string;
  readonly action: string;
  readonly artifactId: string | null;
  readonly commit: string | null;
  readonly client: string | null;
  readonly durationMs: number | null;
  readonly outcome: 'ok' | 'error';
  readonly detail: string | null;
}

/** An audit row as an organization admin reads it: with the user's email and name when known. */
export interface AuditRecord extends AuditEntry {
  readonly userEmail: string | null;
  readonly userName: string | null;
}

/** Filters of an organization's audit log; dates are `YYYY-MM-DD` (UTC, inclusive) or timestamps. */
export interface AuditQuery {
  readonly orgId: string;
  readonly userId?: string;
  readonly client?: string;
  readonly action?: string;
  readonly artifactId?: string;
  readonly outcome?: 'ok' | 'error';
  readonly since?: string;
  readonly until?: string;
  /** From a previous page's `next`. */
  readonly cursor?: string;
  readonly limit: number;
}

export interface AuditPage {
  readonly entries: readonly AuditRecord[];
  /** Cursor of the next (older) page, when there is one. */
  readonly next?: string;
}

export type NewAuditEntry = Omit<AuditEntry, 'id' | 'at'> & { readonly at?: string };

// Webhook types live beside, one concern per file; every caller still imports them from here.
export * from './webhook-types.js';

/**
 * The control plane: accounts, organizations, workspaces, roles, tokens, audit.
 * Async so that a PostgreSQL backend can implement the same interface.
 */
export interface ControlPlane {
  readonly users: {
    /** Create or update by (issuer, subject); email and name follow the identity provider. */
    upsert(input: { issuer: string; subject: string; email: string; name: string }): Promise<User>;
    get(id: string): Promise<User | undefined>;
    bySubject(issuer: string, subject: string): Promise<User | undefined>;
    byEmail(email: string): Promise<User | undefined>;
    /** Local accounts (embedded identity provider): scrypt hash, never the password. */
    setPassword(userId: string, password: string): Promise<void>;
    verifyPassword(email: string, password: string): Promise<User | undefined>;
  };
  readonly orgs: {
    create(input: { id?: string; name: string }): Promise<{ org: Organization; defaultWorkspace: Workspace }>;
    get(id: string): Promise<Organization | undefined>;
    list(): Promise<Organization[]>;
    forUser(userId: string): Promise<Organization[]>;
  };
  readonly workspaces: {
    create(input: { orgId: string; name: string; id?: string }): Promise<Workspace>;
    get(id: string): Promise<Workspace | undefined>;
    list(orgId: string): Promise<Workspace[]>;
    defaultOf(orgId: string): Promise<Workspace>;
    /** A new name, unique in the organization as at creation. */
    rename(input: { orgId: string; workspaceId: string; name: string }): Promise<Workspace>;
  };
  readonly members: {
    /** Revoking the last owner is refused: an organization always keeps one. */
    setOwner(orgId: string, userId: string, isOwner: boolean): Promise<void>;
    /** Takes every role and the ownership in the organization; the last owner is refused. */
    remove(input: { orgId: string; userId: string }): Promise<void>;
    grant(input: { orgId: string; userId: string; workspaceId: string; role: WorkspaceRole }): Promise<void>;
    revoke(input: { orgId: string; userId: string; workspaceId: string }): Promise<void>;
    /** The user's principal in the organization, or undefined when not a member. */
    principal(orgId: string, userId: string): Promise<Principal | undefined>;
    list(orgId: string): Promise<MemberSummary[]>;
  };
  /** Links that let a person added by an admin set their password once (embedded sign-in). */
  readonly invitations: {
    /** Returns the secret once; only its hash is stored. */
    create(input: { userId: string; orgId: string; createdBy: string | null }): Promise<{
      secret: string;
      expiresAt: string;
    }>;
    hasPassword(userId: string): Promise<boolean>;
    /** The invited user while the link is unused and unexpired. */
    peek(secret: string): Promise<User | undefined>;
    /** Sets the password and spends the link; NotFoundError for a spent, expired or unknown one. */
    redeem(secret: string, password: string): Promise<{ user: User; orgId: string }>;
  };
  readonly tokens: {
    /**
     * Returns the secret once; only its hash is stored. Without `expiresAt` the token expires
     * after PERSONAL_ACCESS_TOKEN_DAYS; `null` asks for one that never expires.
     */
    create(input: {
      userId: string;
      name: string;
      expiresAt?: Date | null;
      readOnly?: boolean;
    }): Promise<{ secret: string; token: PersonalAccessToken }>;
    /** The token's user when the secret is valid, unexpired and unrevoked; records last use. */
    verify(secret: string): Promise<{ user: User; token: PersonalAccessToken } | undefined>;
    revoke(tokenId: string, userId: string): Promise<boolean>;
    list(userId: string): Promise<PersonalAccessToken[]>;
  };
  /** Credentials in organizations: what an organization's admin sees of them and may cut there. */
  readonly credentialOrgs: {
    /**
     * Whether the credential may act in the organization (false once blocked there), recording
     * its use there (to the minute). Runs on every call.
     */
    admit(credential: CredentialRef, orgId: string): Promise<boolean>;
    /** Blocks the credential in this organization only; false when it already was. */
    block(credential: CredentialRef, orgId: string, blockedBy: string): Promise<boolean>;
    /** False when it was not blocked. */
    unblock(credential: CredentialRef, orgId: string): Promise<boolean>;
    /** Every credential used or blocked in the organization, most recently used first. */
    list(orgId: string): Promise<CredentialInOrg[]>;
  };
  readonly webhooks: WebhookStore;
  readonly changeRequests: ChangeRequestStore;
  readonly audit: {
    record(entry: NewAuditEntry): Promise<void>;
    list(query: { orgId?: string; userId?: string; limit: number }): Promise<AuditEntry[]>;
    /** One organization's log, newest first, filtered and paged (see auditPage). */
    page(query: AuditQuery): Promise<AuditPage>;
    /** Deletes rows recorded before `before`; returns how many. */
    prune(before: Date): Promise<number>;
  };
  close(): Promise<void>;
}
