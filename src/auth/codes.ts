import type BetterSqlite3 from 'better-sqlite3';
import { InvalidGrantError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { ResourceFamily } from './resource.js';
import { hashSecret, newSecret, nowSeconds } from './secrets.js';
import type { GrantSubject } from './tokens.js';

export const CODE_LIFETIME_SECONDS = 60;
export const REQUEST_LIFETIME_SECONDS = 600;

/** An authorization request that passed the SDK's checks and waits for the user's consent. */
export interface PendingRequest {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly state?: string;
  readonly scopes: readonly string[];
  readonly resource: string;
}

interface CodeRow {
  client_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string;
  scopes: string;
  resource: string;
  family_id: string;
  expires_at: number;
  used_at: number | null;
}

/** Pending consent requests and single-use, short-lived authorization codes, stored hashed. */
export class CodeStore {
  readonly #db: BetterSqlite3.Database;
  readonly #family: ResourceFamily;
  readonly #onReplay: (familyId: string) => void;

  constructor(db: BetterSqlite3.Database, family: ResourceFamily, onReplay: (familyId: string) => void) {
    this.#db = db;
    this.#family = family;
    this.#onReplay = onReplay;
  }

  savePending(request: PendingRequest): string {
    const id = newSecret('');
    this.#db
      .prepare(
        `INSERT INTO auth_requests (id_hash, client_id, redirect_uri, code_challenge, state, scopes, resource, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(hashSecret(id), request.clientId, request.redirectUri, request.codeChallenge, request.state ?? null,
        request.scopes.join(' '), request.resource, nowSeconds() + REQUEST_LIFETIME_SECONDS);
    return id;
  }

  pending(id: string): PendingRequest | undefined {
    const row = this.#db
      .prepare<[string, number], { client_id: string; redirect_uri: string; code_challenge: string; state: string | null; scopes: string; resource: string }>(
        'SELECT * FROM auth_requests WHERE id_hash = ? AND expires_at > ?',
      )
      .get(hashSecret(id), nowSeconds());
    if (!row) return undefined;
    return {
      clientId: row.client_id,
      redirectUri: row.redirect_uri,
      codeChallenge: row.code_challenge,
      ...(row.state !== null ? { state: row.state } : {}),
      scopes: row.scopes ? row.scopes.split(' ') : [],
      resource: row.resource,
    };
  }

  /** The request is answered once, approve or deny. */
  takePending(id: string): PendingRequest | undefined {
    const request = this.pending(id);
    if (request) this.#db.prepare('DELETE FROM auth_requests WHERE id_hash = ?').run(hashSecret(id));
    return request;
  }

  issueCode(request: PendingRequest, userId: string): string {
    const code = newSecret('sbc_');
    this.#db
      .prepare(
        `INSERT INTO auth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, scopes, resource, family_id, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(hashSecret(code), request.clientId, userId, request.redirectUri, request.codeChallenge,
        request.scopes.join(' '), request.resource, crypto.randomUUID(), nowSeconds() + CODE_LIFETIME_SECONDS);
    return code;
  }

  challengeFor(clientId: string, code: string): string {
    const row = this.#live(clientId, code);
    if (row.used_at !== null) this.#replayed(row.family_id);
    return row.code_challenge;
  }

  /** Marks the code used and returns what it grants; a second presentation revokes what the first obtained. */
  redeem(clientId: string, code: string, redirectUri: string | undefined, resource: URL | undefined): GrantSubject {
    const outcome = this.#db.transaction((): { replayedFamily: string } | { grant: GrantSubject } => {
      const row = this.#live(clientId, code);
      if (row.used_at !== null) return { replayedFamily: row.family_id };
      if (redirectUri !== undefined && redirectUri !== row.redirect_uri) throw new InvalidGrantError('redirect_uri differs from the authorization request');
      if (resource && this.#family.familyOf(resource) !== this.#family.familyOf(row.resource)) {
        throw new InvalidTargetError('resource differs from the authorization request');
      }
      this.#db.prepare('UPDATE auth_codes SET used_at = ? WHERE code_hash = ?').run(nowSeconds(), hashSecret(code));
      return {
        grant: {
          familyId: row.family_id,
          clientId: row.client_id,
          userId: row.user_id,
          scopes: row.scopes ? row.scopes.split(' ') : [],
          resource: row.resource,
        },
      };
    })();
    // Revoked outside the transaction above: a throw inside it would roll the revocation back.
    if ('replayedFamily' in outcome) this.#replayed(outcome.replayedFamily);
    return outcome.grant;
  }

  #replayed(familyId: string): never {
    this.#onReplay(familyId);
    throw new InvalidGrantError('authorization code was already used');
  }

  #live(clientId: string, code: string): CodeRow {
    const row = this.#db.prepare<[string], CodeRow>('SELECT * FROM auth_codes WHERE code_hash = ?').get(hashSecret(code));
    if (!row || row.client_id !== clientId) throw new InvalidGrantError('unknown authorization code');
    if (row.expires_at <= nowSeconds()) throw new InvalidGrantError('authorization code expired');
    return row;
  }
}
