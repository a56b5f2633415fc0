import { randomBytes } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../errors.js';
import type { Clock } from './clock.js';
import { toUser, USER_COLUMNS, type UserRow } from './rows.js';
import type { SqlDatabase } from './sql/types.js';
import { digest } from './tokens.js';
import type { ControlPlane } from './types.js';

/** How long an invitation to set a password stays good. */
export const INVITATION_DAYS = 7;

const INSERT = `INSERT INTO password_invitations (token_hash, user_id, org_id, created_by, created_at, expires_at)
  VALUES (?, ?, ?, ?, ?, ?)`;
const LIVE = `SELECT ${USER_COLUMNS}, i.org_id AS invited_to FROM password_invitations i JOIN users u ON u.id = i.user_id
  WHERE i.token_hash = ? AND i.used_at IS NULL AND i.expires_at > ?`;
const SPEND = 'UPDATE password_invitations SET used_at = ? WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?';
const HAS_PASSWORD = 'SELECT 1 FROM user_passwords WHERE user_id = ?';

/** Links that let a person added by an admin set their password once (embedded sign-in only). */
export function sqlInvitations(
  db: SqlDatabase,
  clock: Clock,
  users: Pick<ControlPlane['users'], 'setPassword'>,
): ControlPlane['invitations'] {
  return {
    async create({ userId, orgId, createdBy }) {
      const secret = randomBytes(32).toString('base64url');
      const now = clock();
      const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString();
      await db.run(INSERT, [digest(secret), userId, orgId, createdBy, now.toISOString(), expiresAt]);
      return { secret, expiresAt };
    },
    async hasPassword(userId) {
      return Boolean(await db.get(HAS_PASSWORD, [userId]));
    },
    async peek(secret) {
      const row = await db.get<UserRow>(LIVE, [digest(String(secret)), clock().toISOString()]);
      return row && toUser(row);
    },
    async redeem(secret, password) {
      const hash = digest(String(secret));
      const now = clock().toISOString();
      const row = await db.get<UserRow & { invited_to: string }>(LIVE, [hash, now]);
      if (!row) throw new NotFoundError('invitation');
      // The password's own rules first: a refused password leaves the link usable.
      if (typeof password !== 'string' || password.length < 8)
        throw new InvalidInputError('a password needs at least 8 characters');
      if ((await db.run(SPEND, [now, hash, now])) !== 1) throw new NotFoundError('invitation');
      await users.setPassword(row.id, password);
      return { user: toUser(row), orgId: row.invited_to };
    },
  };
}
