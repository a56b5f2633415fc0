import type { SqlDatabase } from '../../control/index.js';
import { hashSecret, nowSeconds } from '../secrets.js';

type Payload = Record<string, unknown> & {
  jti?: string;
  grantId?: string;
  uid?: string;
  userCode?: string;
  consumed?: number;
};

/**
 * oidc-provider's storage in the control plane's database. Ids of codes, tokens and sessions are bearer secrets, so
 * rows are keyed by their sha256 and the payload never repeats the id (`jti`) in clear.
 */
export function sqlIdpAdapter(db: SqlDatabase): (model: string) => SqlIdpAdapter {
  return (model) => new SqlIdpAdapter(db, model);
}

interface Row {
  payload: string;
  expires_at: number | null;
}

export class SqlIdpAdapter {
  readonly #db: SqlDatabase;
  readonly #model: string;

  constructor(db: SqlDatabase, model: string) {
    this.#db = db;
    this.#model = model;
  }

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    const { jti, ...rest } = payload;
    const stored = jti === id ? { ...rest, __jti: true } : payload;
    await this.#db.run(
      `INSERT INTO auth_idp_store (model, id_hash, payload, grant_id, uid, user_code, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (model, id_hash) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id,
         uid = excluded.uid, user_code = excluded.user_code, expires_at = excluded.expires_at`,
      [
        this.#model,
        hashSecret(id),
        JSON.stringify(stored),
        payload.grantId ?? null,
        payload.uid ?? null,
        payload.userCode ? hashSecret(payload.userCode) : null,
        expiresIn ? nowSeconds() + expiresIn : null,
      ],
    );
  }

  async find(id: string): Promise<Payload | undefined> {
    const row = await this.#db.get<Row>(
      'SELECT payload, expires_at FROM auth_idp_store WHERE model = ? AND id_hash = ?',
      [this.#model, hashSecret(id)],
    );
    return this.#live(row, id);
  }

  /** Used by oidc-provider only to read a session's account and grants, never to save it, so the id is not needed. */
  async findByUid(uid: string): Promise<Payload | undefined> {
    const row = await this.#db.get<Row>('SELECT payload, expires_at FROM auth_idp_store WHERE model = ? AND uid = ?', [
      this.#model,
      uid,
    ]);
    if (!row || !this.#alive(row)) return undefined;
    const { __jti: _marker, ...payload } = JSON.parse(row.payload) as Payload & { __jti?: boolean };
    return payload;
  }

  async findByUserCode(userCode: string): Promise<Payload | undefined> {
    const row = await this.#db.get<Row>(
      'SELECT payload, expires_at FROM auth_idp_store WHERE model = ? AND user_code = ?',
      [this.#model, hashSecret(userCode)],
    );
    return row && this.#alive(row) ? (JSON.parse(row.payload) as Payload) : undefined;
  }

  async consume(id: string): Promise<void> {
    const found = await this.find(id);
    if (found) await this.upsert(id, { ...found, consumed: nowSeconds() }, await this.#remaining(id));
  }

  async destroy(id: string): Promise<void> {
    await this.#db.run('DELETE FROM auth_idp_store WHERE model = ? AND id_hash = ?', [this.#model, hashSecret(id)]);
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.#db.run('DELETE FROM auth_idp_store WHERE grant_id = ?', [grantId]);
  }

  #live(row: Row | undefined, id: string): Payload | undefined {
    if (!row || !this.#alive(row)) return undefined;
    const { __jti, ...payload } = JSON.parse(row.payload) as Payload & { __jti?: boolean };
    return __jti ? { ...payload, jti: id } : payload;
  }

  #alive(row: Row): boolean {
    return row.expires_at === null || row.expires_at > nowSeconds();
  }

  async #remaining(id: string): Promise<number | undefined> {
    const row = await this.#db.get<{ expires_at: number | null }>(
      'SELECT expires_at FROM auth_idp_store WHERE model = ? AND id_hash = ?',
      [this.#model, hashSecret(id)],
    );
    return row?.expires_at ? Math.max(1, row.expires_at - nowSeconds()) : undefined;
  }
}
