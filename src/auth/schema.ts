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

const AUTH_MIGRATIONS: DialectMigrations = {
  sqlite: [{ version: 1, sql: VERSION_1.map((statement) => `${statement};`).join('\n') }],
  postgres: [{ version: 1, sql: VERSION_1.map((statement) => `${asPostgres(statement)};`).join('\n') }],
};

export async function applyAuthSchema(db: SqlDatabase): Promise<void> {
  await db.migrate(AUTH_NAMESPACE, AUTH_MIGRATIONS);
}

/** Drops rows whose lifetime is over; called at start and from time to time. */
export async function purgeExpired(db: SqlDatabase, now: number): Promise<void> {
  for (const table of ['auth_requests', 'auth_codes', 'auth_tokens', 'auth_sessions', 'auth_signins', 'auth_idp_store']) {
    await db.run(`DELETE FROM ${table} WHERE expires_at IS NOT NULL AND expires_at < ?`, [now - 86_400]);
  }
}
