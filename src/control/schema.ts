import type { DialectMigrations } from './sql/types.js';

/**
 * A credential's standing in each organization it is used in (credentialOrgs): last use there,
 * and an admin's block there. Tokens and OAuth grants are their users'; an organization only
 * ever cuts their use in itself. No key to the credential: a grant lives in the auth tables.
 */
const CREDENTIAL_ORGS = `
        CREATE TABLE credential_orgs (
          kind TEXT NOT NULL CHECK (kind IN ('token', 'grant')),
          credential_id TEXT NOT NULL,
          org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
          last_used_at TEXT,
          blocked_at TEXT,
          blocked_by TEXT,
          PRIMARY KEY (kind, credential_id, org_id));
        CREATE INDEX credential_orgs_org ON credential_orgs (org_id);
`;

/**
 * One row that /healthz rewrites: the control database is ready only if it takes a write, as
 * every sign-in and audit row needs (a read-only or full disk still answers reads).
 */
const WRITE_PROBE = `
        CREATE TABLE write_probe (
          id INTEGER PRIMARY KEY CHECK (id = 1),
          at TEXT NOT NULL);
`;

/**
 * A personal access token created read-only acts read-only on every MCP connection, whatever
 * the connection asks for (0 or 1 on both backends, as the other flags here are text or numbers).
 */
const READ_ONLY_TOKENS = `
        ALTER TABLE personal_access_tokens ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0;
`;

/**
 * Change requests (ChangeRequestStore): a row per branch `cr/{number}`, numbered per
 * organization, with its comment thread; and the review rules an admin sets per workspace.
 */
const CHANGE_REQUESTS = `
        CREATE TABLE change_requests (
          org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
          number INTEGER NOT NULL,
          title TEXT NOT NULL,
          description TEXT NOT NULL,
          author_id TEXT,
          client TEXT,
          state TEXT NOT NULL CHECK (state IN ('open', 'merged', 'closed')),
          base_commit TEXT NOT NULL,
          submitted_at TEXT,
          created_at TEXT NOT NULL,
          updated_at TEXT NOT NULL,
          merged_at TEXT,
          merged_by TEXT,
          merge_commit TEXT,
          closed_at TEXT,
          closed_by TEXT,
          PRIMARY KEY (org_id, number));
        CREATE INDEX change_requests_author ON change_requests (org_id, author_id, state);

        CREATE TABLE change_request_comments (
          id TEXT PRIMARY KEY,
          org_id TEXT NOT NULL,
          number INTEGER NOT NULL,
          author_id TEXT,
          body TEXT NOT NULL,
          created_at TEXT NOT NULL,
          FOREIGN KEY (org_id, number) REFERENCES change_requests (org_id, number) ON DELETE CASCADE);
        CREATE INDEX change_request_comments_thread ON change_request_comments (org_id, number, created_at);

        CREATE TABLE workspace_review_rules (
          workspace_id TEXT PRIMARY KEY REFERENCES workspaces (id) ON DELETE CASCADE,
          assistant_changes_need_review INTEGER NOT NULL CHECK (assistant_changes_need_review IN (0, 1)),
          author_cannot_merge INTEGER NOT NULL CHECK (author_cannot_merge IN (0, 1)),
          updated_at TEXT NOT NULL,
          updated_by TEXT);
`;

/**
 * Webhooks (WebhookStore): endpoints with their signing secret (kept readable: every delivery
 * is signed with it), the outbox of events written when a commit is recorded, leased by one
 * replica's dispatcher at a time, and the log of every delivery attempt. Kinds and workspace
 * ids are space-separated lists.
 */
const webhooks = (serial: string, rowid: string) => `
        CREATE TABLE webhook_endpoints (
          id TEXT PRIMARY KEY,${rowid}
          org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
          url TEXT NOT NULL,
          secret TEXT NOT NULL,
          events TEXT NOT NULL,
          workspace_ids TEXT NOT NULL,
          created_by TEXT,
          created_at TEXT NOT NULL,
          failing_since TEXT,
          disabled_at TEXT,
          disabled_reason TEXT);
        CREATE INDEX webhook_endpoints_org ON webhook_endpoints (org_id);

        CREATE TABLE webhook_outbox (
          id TEXT PRIMARY KEY,${rowid}
          endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
          org_id TEXT NOT NULL,
          kind TEXT NOT NULL,
          payload TEXT NOT NULL,
          created_at TEXT NOT NULL,
          attempts INTEGER NOT NULL DEFAULT 0,
          next_attempt_at TEXT,
          lease_owner TEXT,
          lease_until TEXT,
          delivered_at TEXT,
          gave_up_at TEXT);
        CREATE INDEX webhook_outbox_due ON webhook_outbox (next_attempt_at) WHERE next_attempt_at IS NOT NULL;
        CREATE INDEX webhook_outbox_endpoint ON webhook_outbox (endpoint_id);

        CREATE TABLE webhook_attempts (
          id ${serial},
          message_id TEXT NOT NULL REFERENCES webhook_outbox (id) ON DELETE CASCADE,
          endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
          at TEXT NOT NULL,
          ok INTEGER NOT NULL CHECK (ok IN (0, 1)),
          response_code INTEGER,
          error TEXT,
          duration_ms INTEGER NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('delivered', 'retrying', 'given_up')),
          next_attempt_at TEXT);
        CREATE INDEX webhook_attempts_endpoint ON webhook_attempts (endpoint_id, at);
`;

/**
 * Webhook bounds (issue 46): each endpoint counts the events dropped because its outbox was full
 * (and when the last was), and the dispatcher finds each endpoint's pending messages, oldest
 * first, through one index, both to lease them and to count its queue.
 */
const WEBHOOK_BOUNDS = `
        ALTER TABLE webhook_endpoints ADD COLUMN dropped INTEGER NOT NULL DEFAULT 0;
        ALTER TABLE webhook_endpoints ADD COLUMN dropped_at TEXT;
        CREATE INDEX webhook_outbox_pending ON webhook_outbox (endpoint_id, next_attempt_at) WHERE next_attempt_at IS NOT NULL;
`;

/**
 * Timestamps are ISO-8601 UTC strings, which sort in time order as text. PostgreSQL has no
 * implicit rowid, so the tables listed in insertion order get an explicit one: the statements
 * that order by `rowid` are then the same on both backends.
 */
/**
 * A link that lets a person added in the web application set their password once (embedded
 * sign-in): only the link's hash is kept, and it is spent by its first use or after its expiry.
 */
const PASSWORD_INVITATIONS = `
        CREATE TABLE password_invitations (
          token_hash TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
          created_by TEXT,
          created_at TEXT NOT NULL,
          expires_at TEXT NOT NULL,
          used_at TEXT);
        CREATE INDEX password_invitations_user ON password_invitations (user_id);
`;

export const CONTROL_MIGRATIONS: DialectMigrations = {
  sqlite: [
    {
      version: 1,
      sql: `
        CREATE TABLE users (
          id TEXT PRIMARY KEY,
          issuer TEXT NOT NULL,
          subject TEXT NOT NULL,
          email TEXT NOT NULL,
          name TEXT NOT NULL,
          created_at TEXT NOT NULL,
          UNIQUE (issuer, subject));
        CREATE INDEX users_email ON users (email);

        CREATE TABLE user_passwords (
          user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
          hash TEXT NOT NULL,
          updated_at TEXT NOT NULL);

        CREATE TABLE organizations (
          id TEXT PRIMARY KEY,
          name TEXT NOT NULL,
          created_at TEXT NOT NULL);

        CREATE TABLE workspaces (
          id TEXT PRIMARY KEY,
          org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
          created_at TEXT NOT NULL);
        CREATE UNIQUE INDEX workspaces_name ON workspaces (org_id, name COLLATE NOCASE);
        CREATE UNIQUE INDEX workspaces_one_default ON workspaces (org_id) WHERE is_default = 1;

        CREATE TABLE memberships (
          org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
          user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          is_owner INTEGER NOT NULL DEFAULT 0 CHECK (is_owner IN (0, 1)),
          created_at TEXT NOT NULL,
          PRIMARY KEY (org_id, user_id));
        CREATE INDEX memberships_user ON memberships (user_id);

        CREATE TABLE workspace_roles (
          workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
          user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
          granted_at TEXT NOT NULL,
          PRIMARY KEY (workspace_id, user_id));
        CREATE INDEX workspace_roles_user ON workspace_roles (user_id);

        CREATE TABLE personal_access_tokens (
          id TEXT PRIMARY KEY,
          user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          token_hash TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL,
          expires_at TEXT,
          last_used_at TEXT,
          revoked_at TEXT);
        CREATE INDEX personal_access_tokens_user ON personal_access_tokens (user_id);

        -- No foreign keys: the audit trail outlives the users and organizations it mentions.
        CREATE TABLE audit_log (
          id INTEGER PRIMARY KEY AUTOINCREMENT,
          at TEXT NOT NULL,
          user_id TEXT,
          org_id TEXT,
          kind TEXT NOT NULL,
          action TEXT NOT NULL,
          artifact_id TEXT,
          commit_sha TEXT,
          client TEXT,
          duration_ms INTEGER,
          outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error')),
          detail TEXT);
        CREATE INDEX audit_log_at ON audit_log (at, id);
        CREATE INDEX audit_log_org ON audit_log (org_id, at, id);
        CREATE INDEX audit_log_user ON audit_log (user_id, at, id);
      `,
    },
    { version: 2, sql: CREDENTIAL_ORGS },
    { version: 3, sql: WRITE_PROBE },
    { version: 4, sql: READ_ONLY_TOKENS },
    { version: 5, sql: webhooks('INTEGER PRIMARY KEY AUTOINCREMENT', '') },
    { version: 6, sql: WEBHOOK_BOUNDS },
    { version: 7, sql: PASSWORD_INVITATIONS },
    { version: 8, sql: CHANGE_REQUESTS },
  ],
  postgres: [
    {
      version: 1,
      sql: `
        CREATE TABLE users (
          id TEXT PRIMARY KEY,
          rowid BIGSERIAL NOT NULL,
          issuer TEXT NOT NULL,
          subject TEXT NOT NULL,
          email TEXT NOT NULL,
          name TEXT NOT NULL,
          created_at TEXT NOT NULL,
          UNIQUE (issuer, subject));
        CREATE INDEX users_email ON users (email);

        CREATE TABLE user_passwords (
          user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
          hash TEXT NOT NULL,
          updated_at TEXT NOT NULL);

        CREATE TABLE organizations (
          id TEXT PRIMARY KEY,
          rowid BIGSERIAL NOT NULL,
          name TEXT NOT NULL,
          created_at TEXT NOT NULL);

        CREATE TABLE workspaces (
          id TEXT PRIMARY KEY,
          rowid BIGSERIAL NOT NULL,
          org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          is_default INTEGER NOT NULL DEFAULT 0 CHECK (is_default IN (0, 1)),
          created_at TEXT NOT NULL);
        CREATE UNIQUE INDEX workspaces_name ON workspaces (org_id, lower(name));
        CREATE UNIQUE INDEX workspaces_one_default ON workspaces (org_id) WHERE is_default = 1;

        CREATE TABLE memberships (
          org_id TEXT NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
          user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          is_owner INTEGER NOT NULL DEFAULT 0 CHECK (is_owner IN (0, 1)),
          created_at TEXT NOT NULL,
          PRIMARY KEY (org_id, user_id));
        CREATE INDEX memberships_user ON memberships (user_id);

        CREATE TABLE workspace_roles (
          workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
          user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          role TEXT NOT NULL CHECK (role IN ('viewer', 'editor', 'admin')),
          granted_at TEXT NOT NULL,
          PRIMARY KEY (workspace_id, user_id));
        CREATE INDEX workspace_roles_user ON workspace_roles (user_id);

        CREATE TABLE personal_access_tokens (
          id TEXT PRIMARY KEY,
          rowid BIGSERIAL NOT NULL,
          user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
          name TEXT NOT NULL,
          token_hash TEXT NOT NULL UNIQUE,
          created_at TEXT NOT NULL,
          expires_at TEXT,
          last_used_at TEXT,
          revoked_at TEXT);
        CREATE INDEX personal_access_tokens_user ON personal_access_tokens (user_id);

        -- No foreign keys: the audit trail outlives the users and organizations it mentions.
        CREATE TABLE audit_log (
          id BIGSERIAL PRIMARY KEY,
          at TEXT NOT NULL,
          user_id TEXT,
          org_id TEXT,
          kind TEXT NOT NULL,
          action TEXT NOT NULL,
          artifact_id TEXT,
          commit_sha TEXT,
          client TEXT,
          duration_ms INTEGER,
          outcome TEXT NOT NULL CHECK (outcome IN ('ok', 'error')),
          detail TEXT);
        CREATE INDEX audit_log_at ON audit_log (at, id);
        CREATE INDEX audit_log_org ON audit_log (org_id, at, id);
        CREATE INDEX audit_log_user ON audit_log (user_id, at, id);
      `,
    },
    { version: 2, sql: CREDENTIAL_ORGS },
    { version: 3, sql: WRITE_PROBE },
    { version: 4, sql: READ_ONLY_TOKENS },
    { version: 5, sql: webhooks('BIGSERIAL PRIMARY KEY', '\n          rowid BIGSERIAL NOT NULL,') },
    { version: 6, sql: WEBHOOK_BOUNDS },
    { version: 7, sql: PASSWORD_INVITATIONS },
    { version: 8, sql: CHANGE_REQUESTS },
  ],
};
