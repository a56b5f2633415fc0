import type { DialectMigrations, SqlDatabase } from '../control/index.js';

export const AUTH_NAMESPACE = 'auth';

/** Tables of the auth concern. Every secret column holds a sha256 digest, never the secret. */
const VERSION_1 = [
  `CREATE TABLE auth_clients (
     client_id TEXT PRIMARY KEY,
     metadata TEXT NOT NULL,
     created_at INTEGER NOT NULL)`,
  `CREATE TABLE auth_requests (
     id_hash TEXT PRIMARY KEY,
     client_id TEXT NOT NULL,
     redirect_uri TEXT NOT NULL,
     code_challenge TEXT NOT NULL,
     state TEXT,
     scopes TEXT NOT NULL,
     resource TEXT NOT NULL,
     expires_at INTEGER NOT NULL)`,
  `CREATE TABLE auth_codes (
     code_hash TEXT PRIMARY KEY,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     redirect_uri TEXT NOT NULL,
     code_challenge TEXT NOT NULL,
     scopes TEXT NOT NULL,
     resource TEXT NOT NULL,
     family_id TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     used_at INTEGER)`,
  `CREATE TABLE auth_tokens (
     token_hash TEXT PRIMARY KEY,
     kind TEXT NOT NULL CHECK (kind IN ('access', 'refresh')),
     family_id TEXT NOT NULL,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     scopes TEXT NOT NULL,
     resource TEXT NOT NULL,
     expires_at INTEGER NOT NULL,
     used_at INTEGER,
     revoked_at INTEGER)`,
  `CREATE INDEX auth_tokens_family ON auth_tokens (family_id)`,
  `CREATE TABLE auth_revoked_families (
     family_id TEXT PRIMARY KEY,
     revoked_at INTEGER NOT NULL)`,
  `CREATE TABLE auth_sessions (
     id_hash TEXT PRIMARY KEY,
     user_id TEXT NOT NULL,
     created_at INTEGER NOT NULL,
     expires_at INTEGER NOT NULL)`,
  `CREATE TABLE auth_signins (
     id_hash TEXT PRIMARY KEY,
     state TEXT NOT NULL,
     nonce TEXT NOT NULL,
     code_verifier TEXT NOT NULL,
     return_to TEXT NOT NULL,
     expires_at INTEGER NOT NULL)`,
  `CREATE TABLE auth_idp_store (
     model TEXT NOT NULL,
     id_hash TEXT NOT NULL,
     payload TEXT NOT NULL,
     grant_id TEXT,
     uid TEXT,
     user_code TEXT,
     expires_at INTEGER,
     PRIMARY KEY (model, id_hash))`,
  `CREATE INDEX auth_idp_store_grant ON auth_idp_store (grant_id)`,
  `CREATE INDEX auth_idp_store_uid ON auth_idp_store (model, uid)`,
];

/** PostgreSQL's INTEGER is 32 bits; epoch seconds get 64. */
const asPostgres = (statement: string) => statement.replace(/ INTEGER/g, ' BIGINT');

/**
 * One row per authorization a user gave a client (a token family), so that people can see
 * their connected assistants and cut them. Families issued before this table existed are
 * listed from their tokens, created (estimated) an hour before their first access token expired.
 */
const VERSION_2 = [
  `CREATE TABLE auth_grants (
     family_id TEXT PRIMARY KEY,
     client_id TEXT NOT NULL,
     user_id TEXT NOT NULL,
     redirect_uri TEXT,
     created_at INTEGER NOT NULL,
     last_used_at INTEGER)`,
  `CREATE INDEX auth_grants_user ON auth_grants (user_id)`,
  // "WHERE true": SQLite needs it to read ON CONFLICT after INSERT ... SELECT.
  `INSERT INTO auth_grants (family_id, client_id, user_id, created_at, last_used_at)
     SELECT family_id, MIN(client_id), MIN(user_id), MIN(expires_at) - 3600, NULL FROM auth_tokens
      WHERE true AND kind = 'access' GROUP BY family_id
     ON CONFLICT DO NOTHING`,
];

/**
 * The ID token a web session was signed in with, kept to end the session at the identity
 * provider too (its `id_token_hint`). It is no credential here: nothing accepts it.
 */
const VERSION_3 = ['ALTER TABLE auth_sessions ADD COLUMN id_token TEXT'];

/** A grant given read-only (see READ_ONLY_SCOPE), shown as such where people see their assistants. */
const VERSION_4 = ['ALTER TABLE auth_grants ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0'];

const statements = (list: readonly string[], dialect: (statement: string) => string = (s) => s) =>
  list.map((statement) => `${dialect(statement)};`).join('\n');

const AUTH_MIGRATIONS: DialectMigrations = {
  sqlite: [
    { version: 1, sql: statements(VERSION_1) },
    { version: 2, sql: statements(VERSION_2) },
    { version: 3, sql: statements(VERSION_3) },
    { version: 4, sql: statements(VERSION_4) },
  ],
  postgres: [
    { version: 1, sql: statements(VERSION_1, asPostgres) },
    { version: 2, sql: statements(VERSION_2, asPostgres) },
    { version: 3, sql: statements(VERSION_3, asPostgres) },
    { version: 4, sql: statements(VERSION_4, asPostgres) },
  ],
};

export async function applyAuthSchema(db: SqlDatabase): Promise<void> {
  await db.migrate(AUTH_NAMESPACE, AUTH_MIGRATIONS);
}

/** Drops rows whose lifetime is over; called at start and from time to time. */
export async function purgeExpired(db: SqlDatabase, now: number): Promise<void> {
  for (const table of [
    'auth_requests',
    'auth_codes',
    'auth_tokens',
    'auth_sessions',
    'auth_signins',
    'auth_idp_store',
  ]) {
    await db.run(`DELETE FROM ${table} WHERE expires_at IS NOT NULL AND expires_at < ?`, [now - 86_400]);
  }
  // A grant whose tokens are all gone can no longer be used: nothing is left to show or cut.
  await db.run('DELETE FROM auth_grants WHERE family_id NOT IN (SELECT family_id FROM auth_tokens)');
}
