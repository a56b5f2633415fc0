import { InvalidGrantError, InvalidTargetError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { SqlDatabase, SqlQueries } from '../control/index.js';
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
  readonly #db: SqlDatabase;
  readonly #family: ResourceFamily;
  readonly #onReplay: (familyId: string) => Promise<void>;

  constructor(db: SqlDatabase, family: ResourceFamily, onReplay: (familyId: string) => Promise<void>) {
    this.#db = db;
    this.#family = family;
    this.#onReplay = onReplay;
  }

  async savePending(request: PendingRequest): Promise<string> {
    const id = newSecret('');
    await this.#db.run(
      `INSERT INTO auth_requests (id_hash, client_id, redirect_uri, code_challenge, state, scopes, resource, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        hashSecret(id),
        request.clientId,
        request.redirectUri,
        request.codeChallenge,
        request.state ?? null,
        request.scopes.join(' '),
        request.resource,
        nowSeconds() + REQUEST_LIFETIME_SECONDS,
      ],
    );
    return id;
  }

  async pending(id: string): Promise<PendingRequest | undefined> {
    const row = await this.#db.get<{
      client_id: string;
      redirect_uri: string;
      code_challenge: string;
      state: string | null;
      scopes: string;
      resource: string;
    }>('SELECT * FROM auth_requests WHERE id_hash = ? AND expires_at > ?', [hashSecret(id), nowSeconds()]);
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
  async takePending(id: string): Promise<PendingRequest | undefined> {
    const request = await this.pending(id);
    // Whoever deletes the row answers the request; a concurrent second answer finds nothing.
    if (!request || (await this.#db.run('DELETE FROM auth_requests WHERE id_hash = ?', [hashSecret(id)])) === 0)
      return undefined;
    return request;
  }

  async issueCode(request: PendingRequest, userId: string): Promise<string> {
    const code = newSecret('sbc_');
    await this.#db.run(
      `INSERT INTO auth_codes (code_hash, client_id, user_id, redirect_uri, code_challenge, scopes, resource, family_id, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        hashSecret(code),
        request.clientId,
        userId,
        request.redirectUri,
        request.codeChallenge,
        request.scopes.join(' '),
        request.resource,
        crypto.randomUUID(),
        nowSeconds() + CODE_LIFETIME_SECONDS,
      ],
    );
    return code;
  }

  async challengeFor(clientId: string, code: string): Promise<string> {
    const row = await this.#live(this.#db, clientId, code);
    if (row.used_at !== null) await this.#replayed(row.family_id);
    return row.code_challenge;
  }

  /** Marks the code used and returns what it grants; a second presentation revokes what the first obtained. */
  async redeem(
    clientId: string,
    code: string,
    redirectUri: string | undefined,
    resource: URL | undefined,
  ): Promise<GrantSubject> {
    const outcome = await this.#db.transaction(
      async (tx): Promise<{ replayedFamily: string } | { grant: GrantSubject }> => {
        const row = await this.#live(tx, clientId, code);
        if (row.used_at !== null) return { replayedFamily: row.family_id };
        if (redirectUri !== undefined && redirectUri !== row.redirect_uri)
          throw new InvalidGrantError('redirect_uri differs from the authorization request');
        if (resource && this.#family.familyOf(resource) !== this.#family.familyOf(row.resource)) {
          throw new InvalidTargetError('resource differs from the authorization request');
        }
        await tx.run('UPDATE auth_codes SET used_at = ? WHERE code_hash = ?', [nowSeconds(), hashSecret(code)]);
        return {
          grant: {
            familyId: row.family_id,
            clientId: row.client_id,
            userId: row.user_id,
            scopes: row.scopes ? row.scopes.split(' ') : [],
            resource: row.resource,
            redirectUri: row.redirect_uri,
          },
        };
      },
    );
    // Revoked outside the transaction above: a throw inside it would roll the revocation back.
    if ('replayedFamily' in outcome) return this.#replayed(outcome.replayedFamily);
    return outcome.grant;
  }

  async #replayed(familyId: string): Promise<never> {
    await this.#onReplay(familyId);
    throw new InvalidGrantError('authorization code was already used');
  }

  async #live(q: SqlQueries, clientId: string, code: string): Promise<CodeRow> {
    const row = await q.get<CodeRow>('SELECT * FROM auth_codes WHERE code_hash = ?', [hashSecret(code)]);
    if (!row || row.client_id !== clientId) throw new InvalidGrantError('unknown authorization code');
    if (row.expires_at <= nowSeconds()) throw new InvalidGrantError('authorization code expired');
    return row;
  }
}
