import { createHash, randomBytes } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import type { Clock } from './clock.js';
import { requiredText } from './input.js';
import { recordLastUse } from './last-use.js';
import { USER_COLUMNS, toToken, toUser, type TokenRow, type UserRow } from './rows.js';
import type { SqlDatabase, SqlQueries } from './sql/types.js';
import type { ControlPlane } from './types.js';

/** Recognisable in logs and by secret scanners. */
export const PERSONAL_ACCESS_TOKEN_PREFIX = 'sbp_';

/** A token's lifetime when its creator names none; one that never expires must be asked for. */
export const PERSONAL_ACCESS_TOKEN_DAYS = 90;
const DAY_MS = 86_400_000;

const TOKEN_COLUMNS = 't.id, t.user_id, t.name, t.created_at, t.expires_at, t.last_used_at, t.revoked_at, t.read_only';
const USER_ROW = `SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`;
const INSERT =
  'INSERT INTO personal_access_tokens (id, user_id, name, token_hash, created_at, expires_at, read_only) VALUES (?, ?, ?, ?, ?, ?, ?)';
const BY_ID = `SELECT ${TOKEN_COLUMNS} FROM personal_access_tokens t WHERE t.id = ?`;
// The token with its user in one round trip: this runs on every call made with a token.
const BY_HASH = `SELECT ${TOKEN_COLUMNS}, ${USER_COLUMNS.replace(/u\.(\w+)/g, 'u.$1 AS u_$1')}
  FROM personal_access_tokens t JOIN users u ON u.id = t.user_id WHERE t.token_hash = ?`;
const TOUCH = 'UPDATE personal_access_tokens SET last_used_at = ? WHERE id = ?';
const REVOKE = 'UPDATE personal_access_tokens SET revoked_at = ? WHERE id = ? AND user_id = ? AND revoked_at IS NULL';
const LIST = `SELECT ${TOKEN_COLUMNS} FROM personal_access_tokens t WHERE t.user_id = ? ORDER BY t.created_at DESC, t.rowid DESC`;

/**
 * Last use is kept to the minute: every MCP request verifies its token, and writing the row on
 * each one made a database write of every tool call (with SQLite, 5% of a read's server time
 * under load; with PostgreSQL, one more round trip).
 */
const LAST_USE_RESOLUTION_MS = 60_000;

/** 32 random bytes need no slow hash: sha256 is enough to make a leaked table useless. */
export const digest = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

/** `perRequest` answers the lookup by hash, made on every call (see readsUntilChange). */
export function sqlPersonalAccessTokens(
  db: SqlDatabase,
  clock: Clock,
  perRequest: Pick<SqlQueries, 'get'>,
): ControlPlane['tokens'] {
  return {
    async create({ userId, name, expiresAt: asked, readOnly }) {
      const label = requiredText(name, 'token name', 100);
      const now = clock();
      const expiresAt = asked === undefined ? new Date(now.getTime() + PERSONAL_ACCESS_TOKEN_DAYS * DAY_MS) : asked;
      if (expiresAt != null && !(expiresAt instanceof Date && expiresAt.getTime() > now.getTime())) {
        throw new InvalidInputError('a token must expire in the future');
      }
      if (!(await db.get(USER_ROW, [userId]))) throw new NotFoundError('user');
      const secret = PERSONAL_ACCESS_TOKEN_PREFIX + randomBytes(32).toString('base64url');
      const id = newId();
      await db.run(INSERT, [
        id,
        userId,
        label,
        digest(secret),
        now.toISOString(),
        expiresAt ? expiresAt.toISOString() : null,
        readOnly ? 1 : 0,
      ]);
      return { secret, token: toToken((await db.get<TokenRow>(BY_ID, [id]))!) };
    },
    async verify(secret) {
      if (typeof secret !== 'string' || !secret.startsWith(PERSONAL_ACCESS_TOKEN_PREFIX)) return undefined;
      const row = await perRequest.get<TokenRow & Record<`u_${keyof UserRow}`, string>>(BY_HASH, [digest(secret)]);
      if (!row || row.revoked_at) return undefined;
      const now = clock();
      if (row.expires_at && Date.parse(row.expires_at) <= now.getTime()) return undefined;
      const user = toUser({
        id: row.u_id,
        issuer: row.u_issuer,
        subject: row.u_subject,
        email: row.u_email,
        name: row.u_name,
        created_at: row.u_created_at,
      });
      if (row.last_used_at && now.getTime() - Date.parse(row.last_used_at) < LAST_USE_RESOLUTION_MS) {
        return { user, token: toToken(row) };
      }
      const lastUsedAt = now.toISOString();
      await recordLastUse(db.run(TOUCH, [lastUsedAt, row.id]));
      return { user, token: toToken({ ...row, last_used_at: lastUsedAt }) };
    },
    async revoke(tokenId, userId) {
      return (await db.run(REVOKE, [clock().toISOString(), tokenId, userId])) > 0;
    },
    async list(userId) {
      return (await db.all<TokenRow>(LIST, [userId])).map(toToken);
    },
  };
}
