import { InvalidGrantError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import type { SqlDatabase, SqlQueries } from '../control/index.js';
import { GrantStore } from './grants.js';
import { isReadOnlyGrant, type ResourceFamily } from './resource.js';
import { hashSecret, newSecret, nowSeconds } from './secrets.js';
import type { AuthenticatedUser } from './types.js';

export const ACCESS_TOKEN_PREFIX = 'sba_';
export const REFRESH_TOKEN_PREFIX = 'sbr_';

export interface TokenLifetimes {
  readonly accessSeconds: number;
  readonly refreshSeconds: number;
}

export const DEFAULT_TOKEN_LIFETIMES: TokenLifetimes = { accessSeconds: 3600, refreshSeconds: 30 * 86_400 };

interface TokenRow {
  kind: 'access' | 'refresh';
  family_id: string;
  client_id: string;
  user_id: string;
  scopes: string;
  resource: string;
  expires_at: number;
  used_at: number | null;
  revoked_at: number | null;
  family_revoked: number | null;
}

export interface GrantSubject {
  readonly familyId: string;
  readonly clientId: string;
  readonly userId: string;
  readonly scopes: readonly string[];
  readonly resource: string;
  /** Known when the grant is born of an authorization code. */
  readonly redirectUri?: string;
}

/**
 * Opaque access tokens and rotating refresh tokens, stored as sha256 digests. Tokens born of
 * one authorization code share a family; presenting a refresh token twice revokes the family.
 */
export class TokenStore {
  readonly #db: SqlDatabase;
  readonly #family: ResourceFamily;
  readonly #lifetimes: TokenLifetimes;
  /** The authorizations behind the tokens, as people see and revoke them. */
  readonly grants: GrantStore;

  constructor(db: SqlDatabase, family: ResourceFamily, lifetimes: TokenLifetimes) {
    this.#db = db;
    this.#family = family;
    this.#lifetimes = lifetimes;
    this.grants = new GrantStore(db, (familyId) => this.revokeFamily(familyId));
  }

  issue(grant: GrantSubject): Promise<OAuthTokens> {
    return this.#issueWith(this.#db, grant);
  }

  async refresh(clientId: string, refreshToken: string, resource: URL | undefined): Promise<OAuthTokens> {
    const outcome = await this.#db.transaction(
      async (tx): Promise<{ replayedFamily: string } | { tokens: OAuthTokens }> => {
        const row = await this.#find(tx, refreshToken);
        if (!row || row.kind !== 'refresh' || row.client_id !== clientId)
          throw new InvalidGrantError('unknown refresh token');
        if (row.used_at !== null || row.revoked_at !== null || row.family_revoked !== null)
          return { replayedFamily: row.family_id };
        if (row.expires_at <= nowSeconds()) throw new InvalidGrantError('refresh token expired');
        if (resource && this.#family.familyOf(resource) !== this.#family.familyOf(row.resource)) {
          throw new InvalidTargetError('resource differs from the one this authorization was granted for');
        }
        await tx.run('UPDATE auth_tokens SET used_at = ? WHERE token_hash = ?', [
          nowSeconds(),
          hashSecret(refreshToken),
        ]);
        const tokens = await this.#issueWith(tx, {
          familyId: row.family_id,
          clientId: row.client_id,
          userId: row.user_id,
          scopes: row.scopes ? row.scopes.split(' ') : [],
          resource: row.resource,
        });
        return { tokens };
      },
    );
    // Revoked outside the transaction above: a throw inside it would roll the revocation back.
    if ('replayedFamily' in outcome) {
      await this.revokeFamily(outcome.replayedFamily);
      throw new InvalidGrantError('refresh token was already used; every token of this authorization is revoked');
    }
    return outcome.tokens;
  }

  /** RFC 7009: unknown tokens and other clients' tokens are ignored silently. */
  async revoke(clientId: string, token: string): Promise<void> {
    const row = await this.#find(this.#db, token);
    if (!row || row.client_id !== clientId) return;
    if (row.kind === 'refresh') await this.revokeFamily(row.family_id);
    else
      await this.#db.run('UPDATE auth_tokens SET revoked_at = ? WHERE token_hash = ?', [
        nowSeconds(),
        hashSecret(token),
      ]);
  }

  async revokeFamily(familyId: string): Promise<void> {
    const now = nowSeconds();
    await this.#db.run(
      'INSERT INTO auth_revoked_families (family_id, revoked_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
      [familyId, now],
    );
    await this.#db.run('UPDATE auth_tokens SET revoked_at = ? WHERE family_id = ? AND revoked_at IS NULL', [
      now,
      familyId,
    ]);
  }

  async verify(token: string, resource: URL): Promise<AuthenticatedUser | undefined> {
    if (!token.startsWith(ACCESS_TOKEN_PREFIX)) return undefined;
    const row = await this.#find(this.#db, token);
    if (!row || row.kind !== 'access' || row.revoked_at !== null || row.family_revoked !== null) return undefined;
    if (row.expires_at <= nowSeconds()) return undefined;
    const wanted = this.#family.familyOf(resource);
    if (!wanted || wanted !== this.#family.familyOf(row.resource)) return undefined;
    await this.grants.touch(row.family_id);
    const scopes = row.scopes ? row.scopes.split(' ') : [];
    return {
      userId: row.user_id,
      clientId: row.client_id,
      scopes,
      ...(isReadOnlyGrant(scopes, row.resource) ? { readOnly: true } : {}),
      expiresAt: row.expires_at,
      via: 'oauth',
      credential: { kind: 'grant', id: row.family_id },
    };
  }

  async #issueWith(q: SqlQueries, grant: GrantSubject): Promise<OAuthTokens> {
    const now = nowSeconds();
    await this.grants.record(q, {
      familyId: grant.familyId,
      clientId: grant.clientId,
      userId: grant.userId,
      readOnly: isReadOnlyGrant(grant.scopes, grant.resource),
      ...(grant.redirectUri ? { redirectUri: grant.redirectUri } : {}),
    });
    const access = newSecret(ACCESS_TOKEN_PREFIX);
    const refresh = newSecret(REFRESH_TOKEN_PREFIX);
    const insert = `INSERT INTO auth_tokens (token_hash, kind, family_id, client_id, user_id, scopes, resource, expires_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`;
    const scopes = grant.scopes.join(' ');
    const row = [grant.familyId, grant.clientId, grant.userId, scopes, grant.resource] as const;
    await q.run(insert, [hashSecret(access), 'access', ...row, now + this.#lifetimes.accessSeconds]);
    await q.run(insert, [hashSecret(refresh), 'refresh', ...row, now + this.#lifetimes.refreshSeconds]);
    return {
      access_token: access,
      token_type: 'Bearer',
      expires_in: this.#lifetimes.accessSeconds,
      refresh_token: refresh,
      ...(scopes ? { scope: scopes } : {}),
    };
  }

  #find(q: SqlQueries, token: string): Promise<TokenRow | undefined> {
    return q.get<TokenRow>(
      `SELECT t.kind, t.family_id, t.client_id, t.user_id, t.scopes, t.resource, t.expires_at, t.used_at,
              t.revoked_at, f.revoked_at AS family_revoked
         FROM auth_tokens t LEFT JOIN auth_revoked_families f ON f.family_id = t.family_id
        WHERE t.token_hash = ?`,
      [hashSecret(token)],
    );
  }
}
