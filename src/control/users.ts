import { randomBytes } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import type { Clock } from './clock.js';
import { normalizedEmail, requiredText } from './input.js';
import { hashPassword, verifyPasswordHash } from './password-hash.js';
import { USER_COLUMNS, toUser, type UserRow } from './rows.js';
import type { SqlDatabase } from './sql/types.js';
import type { ControlPlane } from './types.js';

const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

const BY_ID = `SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`;
const BY_SUBJECT = `SELECT ${USER_COLUMNS} FROM users u WHERE u.issuer = ? AND u.subject = ?`;
// Several identity providers may vouch for one address; the oldest account answers to it.
const BY_EMAIL = `SELECT ${USER_COLUMNS} FROM users u WHERE u.email = ? ORDER BY u.created_at, u.rowid LIMIT 1`;
const UPSERT = `INSERT INTO users (id, issuer, subject, email, name, created_at) VALUES (?, ?, ?, ?, ?, ?)
  ON CONFLICT (issuer, subject) DO UPDATE SET email = excluded.email, name = excluded.name`;
// A person an admin added before their first sign-in through an external issuer: the account
// waits under this subject, and that issuer's first sign-in with the address takes it over.
const ADOPT = 'UPDATE users SET subject = ? WHERE issuer = ? AND email = ? AND subject = ?';
export const awaitingSubject = (email: string): string => `awaiting-sign-in:${email}`;
const SET_PASSWORD = `INSERT INTO user_passwords (user_id, hash, updated_at) VALUES (?, ?, ?)
  ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`;
const WITH_PASSWORD = `SELECT ${USER_COLUMNS}, p.hash FROM users u JOIN user_passwords p ON p.user_id = u.id
  WHERE u.email = ? ORDER BY u.created_at, u.rowid LIMIT 1`;

export function sqlUsers(db: SqlDatabase, clock: Clock): ControlPlane['users'] {
  let decoy: Promise<string> | undefined;

  return {
    async upsert(input) {
      const issuer = requiredText(input.issuer, 'issuer', 500);
      const subject = requiredText(input.subject, 'subject', 500);
      const email = normalizedEmail(input.email);
      const name = typeof input.name === 'string' && input.name.trim() ? requiredText(input.name, 'name') : email;
      if (subject !== awaitingSubject(email) && !(await db.get(BY_SUBJECT, [issuer, subject])))
        await db.run(ADOPT, [subject, issuer, email, awaitingSubject(email)]);
      await db.run(UPSERT, [newId(), issuer, subject, email, name, clock().toISOString()]);
      return toUser((await db.get<UserRow>(BY_SUBJECT, [issuer, subject]))!);
    },
    async get(id) {
      const row = await db.get<UserRow>(BY_ID, [id]);
      return row && toUser(row);
    },
    async bySubject(issuer, subject) {
      const row = await db.get<UserRow>(BY_SUBJECT, [issuer, subject]);
      return row && toUser(row);
    },
    async byEmail(email) {
      const row = await db.get<UserRow>(BY_EMAIL, [String(email).trim().toLowerCase()]);
      return row && toUser(row);
    },
    async setPassword(userId, password) {
      if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
        throw new InvalidInputError(`a password needs at least ${MIN_PASSWORD_LENGTH} characters`);
      }
      if (password.length > MAX_PASSWORD_LENGTH) {
        throw new InvalidInputError(`a password may have at most ${MAX_PASSWORD_LENGTH} characters`);
      }
      if (!(await db.get(BY_ID, [userId]))) throw new NotFoundError('user');
      await db.run(SET_PASSWORD, [userId, await hashPassword(password), clock().toISOString()]);
    },
    async verifyPassword(email, password) {
      if (typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH) return undefined;
      const row = await db.get<UserRow & { hash: string }>(WITH_PASSWORD, [String(email).trim().toLowerCase()]);
      if (!row) {
        // Spend the same time as a real check so that response times do not reveal which emails exist.
        await verifyPasswordHash(password, await (decoy ??= hashPassword(randomBytes(16).toString('base64url'))));
        return undefined;
      }
      return (await verifyPasswordHash(password, row.hash)) ? toUser(row) : undefined;
    },
  };
}
