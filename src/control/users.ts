import type BetterSqlite3 from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { InvalidInputError, NotFoundError } from '../errors.js';
import { newId } from '../ids.js';
import type { Clock } from './clock.js';
import { normalizedEmail, requiredText } from './input.js';
import { hashPassword, verifyPasswordHash } from './password-hash.js';
import { USER_COLUMNS, toUser, type UserRow } from './rows.js';
import type { ControlPlane } from './types.js';

const MIN_PASSWORD_LENGTH = 8;
const MAX_PASSWORD_LENGTH = 1024;

export function sqliteUsers(db: BetterSqlite3.Database, clock: Clock): ControlPlane['users'] {
  const byId = db.prepare<[string], UserRow>(`SELECT ${USER_COLUMNS} FROM users u WHERE u.id = ?`);
  const bySubject = db.prepare<[string, string], UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.issuer = ? AND u.subject = ?`,
  );
  // Several identity providers may vouch for one address; the oldest account answers to it.
  const byEmail = db.prepare<[string], UserRow>(
    `SELECT ${USER_COLUMNS} FROM users u WHERE u.email = ? ORDER BY u.created_at, u.rowid LIMIT 1`,
  );
  const upsert = db.prepare<[string, string, string, string, string, string]>(
    `INSERT INTO users (id, issuer, subject, email, name, created_at) VALUES (?, ?, ?, ?, ?, ?)
     ON CONFLICT (issuer, subject) DO UPDATE SET email = excluded.email, name = excluded.name`,
  );
  const setPassword = db.prepare<[string, string, string]>(
    `INSERT INTO user_passwords (user_id, hash, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at`,
  );
  const withPassword = db.prepare<[string], UserRow & { hash: string }>(
    `SELECT ${USER_COLUMNS}, p.hash FROM users u JOIN user_passwords p ON p.user_id = u.id
     WHERE u.email = ? ORDER BY u.created_at, u.rowid LIMIT 1`,
  );
  let decoy: Promise<string> | undefined;

  return {
    async upsert(input) {
      const issuer = requiredText(input.issuer, 'issuer', 500);
      const subject = requiredText(input.subject, 'subject', 500);
      const email = normalizedEmail(input.email);
      const name = typeof input.name === 'string' && input.name.trim() ? requiredText(input.name, 'name') : email;
      upsert.run(newId(), issuer, subject, email, name, clock().toISOString());
      return toUser(bySubject.get(issuer, subject)!);
    },
    async get(id) {
      const row = byId.get(id);
      return row && toUser(row);
    },
    async bySubject(issuer, subject) {
      const row = bySubject.get(issuer, subject);
      return row && toUser(row);
    },
    async byEmail(email) {
      const row = byEmail.get(String(email).trim().toLowerCase());
      return row && toUser(row);
    },
    async setPassword(userId, password) {
      if (typeof password !== 'string' || password.length < MIN_PASSWORD_LENGTH) {
        throw new InvalidInputError(`a password needs at least ${MIN_PASSWORD_LENGTH} characters`);
      }
      if (password.length > MAX_PASSWORD_LENGTH) {
        throw new InvalidInputError(`a password may have at most ${MAX_PASSWORD_LENGTH} characters`);
      }
      if (!byId.get(userId)) throw new NotFoundError('user');
      setPassword.run(userId, await hashPassword(password), clock().toISOString());
    },
    async verifyPassword(email, password) {
      if (typeof password !== 'string' || password.length > MAX_PASSWORD_LENGTH) return undefined;
      const row = withPassword.get(String(email).trim().toLowerCase());
      if (!row) {
        // Spend the same time as a real check so that response times do not reveal which emails exist.
        await verifyPasswordHash(password, await (decoy ??= hashPassword(randomBytes(16).toString('base64url'))));
        return undefined;
      }
      return (await verifyPasswordHash(password, row.hash)) ? toUser(row) : undefined;
    },
  };
}
