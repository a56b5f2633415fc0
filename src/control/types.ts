import type { Principal, WorkspaceRole } from '../access/principal.js';

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

/** The changes a webhook can be told of: one per kind of commit. */
export const WEBHOOK_EVENT_KINDS = ['create', 'edit', 'delete', 'restore', 'move', 'revert'] as const;
export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** One commit to one artifact, as webhooks announce it. */
export interface ArtifactChange {
  readonly orgId: string;
  readonly kind: WebhookEventKind;
  readonly artifact: {
    readonly id: string;
    readonly type: string;
    readonly title: string;
    readonly url: string;
    readonly workspaceId: string;
  };
  readonly commit: string;
  readonly author: { readonly name: string; readonly email: string };
  /** The MCP client's name, 'web' or 'cli'. */
  readonly client: string | null;
  readonly at: string;
}

export interface WebhookEndpoint {
  readonly id: string;
  readonly orgId: string;
  readonly url: string;
  readonly events: readonly WebhookEventKind[];
  /** Only changes in these workspaces are sent. */
  readonly workspaceIds: readonly string[];
  readonly createdBy: string | null;
  readonly createdAt: string;
  /** Since when every attempt failed; null after a success. */
  readonly failingSince: string | null;
  readonly disabledAt: string | null;
  readonly disabledReason: string | null;
}

/** One event for one endpoint, kept until delivered or given up. `id` is the `webhook-id`. */
export interface OutboxMessage {
  readonly id: string;
  readonly endpointId: string;
  readonly orgId: string;
  readonly kind: string;
  /** The JSON body, exactly as signed and sent. */
  readonly payload: string;
  readonly createdAt: string;
  /** Attempts made before this one. */
  readonly attempts: number;
}

export interface DeliveryAttempt {
  readonly id: number;
  readonly messageId: string;
  readonly endpointId: string;
  readonly kind: string;
  readonly at: string;
  readonly ok: boolean;
  /** The endpoint's HTTP status; null when it never answered. */
  readonly responseCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
  /** What became of the message: delivered, retrying at `nextAttemptAt`, or given up. */
  readonly state: 'delivered' | 'retrying' | 'given_up';
  readonly nextAttemptAt: string | null;
}

/** How an attempt ended, to be settled on the message and its endpoint. */
export interface AttemptOutcome {
  readonly ok: boolean;
  readonly responseCode: number | null;
  readonly error: string | null;
  readonly durationMs: number;
}

/**
 * Webhook endpoints, the outbox of events for them and the log of delivery attempts. Events
 * are written in the step that records the commit; any replica's dispatcher claims them with a
 * lease, so one delivers each.
 */
export interface WebhookStore {
  add(input: {
    orgId: string;
    url: string;
    events: readonly string[];
    workspaceIds: readonly string[];
    createdBy: string | null;
  }): Promise<{ endpoint: WebhookEndpoint; secret: string }>;
  list(orgId: string): Promise<WebhookEndpoint[]>;
  get(orgId: string, endpointId: string): Promise<WebhookEndpoint | undefined>;
  remove(orgId: string, endpointId: string): Promise<boolean>;
  /** Enables an endpoint disabled after a day of failures; its pending events are tried again. */
  enable(orgId: string, endpointId: string): Promise<boolean>;
  /** Writes one message per enabled endpoint of the organization that asked for this kind in this workspace; returns how many. */
  enqueue(change: ArtifactChange): Promise<number>;
  /** A `webhook.test` message for one endpoint, due now. */
  enqueueTest(orgId: string, endpointId: string): Promise<OutboxMessage>;
  /**
   * Leases up to `limit` due messages of enabled endpoints to `owner` until `leaseUntil`
   * (or just `messageId`): none is leased to two owners at once.
   */
  claim(input: { owner: string; leaseUntil: Date; limit: number; messageId?: string }): Promise<OutboxMessage[]>;
  /** The URL and signing secret of an endpoint, for the dispatcher only. */
  target(endpointId: string): Promise<{ url: string; secret: string } | undefined>;
  /**
   * Logs an attempt on a message leased to `owner`, and settles it: delivered, due again after
   * `retryAfterMs`, or given up once `giveUpAfterMs` passed since it was written. An endpoint
   * failing for `disableAfterMs` is disabled with the reason. Returns the attempt as logged.
   */
  settle(input: {
    message: OutboxMessage;
    owner: string;
    outcome: AttemptOutcome;
    retryAfterMs: number;
    giveUpAfterMs: number;
    disableAfterMs: number;
  }): Promise<DeliveryAttempt>;
  /** The latest attempts for an endpoint, newest first. */
  attempts(orgId: string, endpointId: string, limit: number): Promise<DeliveryAttempt[]>;
  /** Deletes messages delivered or given up before `before`, with their attempts; returns how many. */
  prune(before: Date): Promise<number>;
}

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
