import { recordLastUse, type SqlDatabase, type SqlQueries } from '../control/index.js';
import { nowSeconds } from './secrets.js';

/** An assistant a user connected through OAuth: one authorization, whatever its tokens became. */
export interface ConnectedClient {
  /** The grant's id (its token family); what `revoke` takes. */
  readonly id: string;
  readonly userId: string;
  readonly clientId: string;
  readonly clientName: string;
  /** Where the authorization was sent back to: the host a person recognises the client by. */
  readonly redirectHost: string | null;
  readonly createdAt: string;
  readonly lastUsedAt: string | null;
  /** Its tokens only read (see READ_ONLY_SCOPE). */
  readonly readOnly: boolean;
}

export interface NewGrant {
  readonly familyId: string;
  readonly clientId: string;
  readonly userId: string;
  readonly readOnly: boolean;
  readonly redirectUri?: string;
}

/** What the web application and the CLI may do with grants. */
export interface GrantAdmin {
  /** The live grants (not revoked, a token still valid) of these users, newest first. */
  list(userIds: readonly string[]): Promise<ConnectedClient[]>;
  /** Revokes the grant if it belongs to one of `userIds`: every token of it stops working at once. */
  revoke(grantId: string, userIds: readonly string[]): Promise<boolean>;
}

interface GrantRow {
  family_id: string;
  client_id: string;
  user_id: string;
  redirect_uri: string | null;
  created_at: number | string;
  last_used_at: number | string | null;
  read_only: number | string;
  metadata: string | null;
}

/** Last use is written at most once a minute per grant: a busy assistant must not write per call. */
const TOUCH_EVERY_SECONDS = 60;

/** PostgreSQL returns BIGINT as a string. */
const iso = (seconds: number | string) => new Date(Number(seconds) * 1000).toISOString();

function hostOf(uri: string | null): string | null {
  if (!uri || !URL.canParse(uri)) return null;
  const url = new URL(uri);
  return url.host || url.protocol.replace(/:$/, '');
}

function toConnectedClient(row: GrantRow): ConnectedClient {
  const metadata = row.metadata ? (JSON.parse(row.metadata) as { client_name?: string; redirect_uris?: string[] }) : {};
  return {
    id: row.family_id,
    userId: row.user_id,
    clientId: row.client_id,
    clientName: metadata.client_name?.trim() || 'Unnamed client',
    redirectHost: hostOf(row.redirect_uri ?? metadata.redirect_uris?.[0] ?? null),
    createdAt: iso(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : iso(row.last_used_at),
    readOnly: Number(row.read_only) === 1,
  };
}

/** The auth_grants table: recorded when tokens are first issued, touched when they are used. */
export class GrantStore implements GrantAdmin {
  readonly #db: SqlDatabase;
  readonly #revokeFamily: (familyId: string) => Promise<void>;

  constructor(db: SqlDatabase, revokeFamily: (familyId: string) => Promise<void>) {
    this.#db = db;
    this.#revokeFamily = revokeFamily;
  }

  /** In the transaction that issues the grant's first tokens, when there is one. */
  async record(q: SqlQueries, grant: NewGrant): Promise<void> {
    await q.run(
      'INSERT INTO auth_grants (family_id, client_id, user_id, redirect_uri, created_at, read_only) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [grant.familyId, grant.clientId, grant.userId, grant.redirectUri ?? null, nowSeconds(), grant.readOnly ? 1 : 0],
    );
  }

  async touch(familyId: string): Promise<void> {
    const now = nowSeconds();
    await recordLastUse(
      this.#db.run(
        'UPDATE auth_grants SET last_used_at = ? WHERE family_id = ? AND (last_used_at IS NULL OR last_used_at <= ?)',
        [now, familyId, now - TOUCH_EVERY_SECONDS],
      ),
    );
  }

  async list(userIds: readonly string[]): Promise<ConnectedClient[]> {
    if (userIds.length === 0) return [];
    const rows = await this.#db.all<GrantRow>(
      `SELECT g.family_id, g.client_id, g.user_id, g.redirect_uri, g.created_at, g.last_used_at, g.read_only, c.metadata
         FROM auth_grants g LEFT JOIN auth_clients c ON c.client_id = g.client_id
        WHERE g.user_id IN (${userIds.map(() => '?').join(', ')})
          AND g.family_id NOT IN (SELECT family_id FROM auth_revoked_families)
          AND EXISTS (SELECT 1 FROM auth_tokens t
                       WHERE t.family_id = g.family_id AND t.revoked_at IS NULL AND t.used_at IS NULL AND t.expires_at > ?)
        ORDER BY g.created_at DESC, g.family_id`,
      [...userIds, nowSeconds()],
    );
    return rows.map(toConnectedClient);
  }

  async revoke(grantId: string, userIds: readonly string[]): Promise<boolean> {
    const live = await this.list(userIds);
    if (!live.some((grant) => grant.id === grantId)) return false;
    await this.#revokeFamily(grantId);
    return true;
  }
}
