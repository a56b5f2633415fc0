import type { Request, RequestHandler, Response } from 'express';
import type { SqlDatabase } from '../control/index.js';
import type { ControlPlane } from '../control/types.js';
import { markAuthenticated } from '../limits/index.js';
import { clearCookie, readCookie, SESSION_COOKIE, setCookie } from './cookies.js';
import { issueCsrfToken } from './csrf.js';
import { hashSecret, newSecret, nowSeconds } from './secrets.js';

const SESSION_SECONDS = 7 * 86_400;

/** Browser sessions: the cookie holds a random secret, the database its digest. */
export class WebSessions {
  readonly #db: SqlDatabase;
  readonly #control: ControlPlane;
  readonly #baseUrl: string;

  constructor(db: SqlDatabase, control: ControlPlane, baseUrl: string) {
    this.#db = db;
    this.#control = control;
    this.#baseUrl = baseUrl;
  }

  /** `idToken`: what the identity provider signed the user in with, to end its session at sign-out. */
  async start(res: Response, userId: string, idToken?: string): Promise<void> {
    const secret = newSecret('');
    const now = nowSeconds();
    await this.#db.run(
      'INSERT INTO auth_sessions (id_hash, user_id, created_at, expires_at, id_token) VALUES (?, ?, ?, ?, ?)',
      [hashSecret(secret), userId, now, now + SESSION_SECONDS, idToken ?? null],
    );
    setCookie(res, this.#baseUrl, SESSION_COOKIE, secret, { maxAge: SESSION_SECONDS * 1000 });
  }

  /** Ends this browser's session; returns the ID token it was signed in with, if any. */
  async end(req: Request, res: Response): Promise<{ idToken?: string }> {
    const secret = readCookie(req, SESSION_COOKIE);
    clearCookie(res, this.#baseUrl, SESSION_COOKIE);
    if (!secret) return {};
    const row = await this.#db.get<{ id_token: string | null }>(
      'SELECT id_token FROM auth_sessions WHERE id_hash = ?',
      [hashSecret(secret)],
    );
    await this.#db.run('DELETE FROM auth_sessions WHERE id_hash = ?', [hashSecret(secret)]);
    return row?.id_token ? { idToken: row.id_token } : {};
  }

  readonly middleware: RequestHandler = async (req, res, next) => {
    try {
      const secret = req.user ? undefined : readCookie(req, SESSION_COOKIE);
      if (secret) {
        const row = await this.#db.get<{ user_id: string }>(
          'SELECT user_id FROM auth_sessions WHERE id_hash = ? AND expires_at > ?',
          [hashSecret(secret), nowSeconds()],
        );
        const user = row ? await this.#control.users.get(row.user_id) : undefined;
        // The sign-out form on every page carries this browser's CSRF token.
        if (user) {
          req.user = { ...user, csrf: issueCsrfToken(req, res, this.#baseUrl) };
          markAuthenticated(req);
        }
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

/** Sends a browser that is not signed in to sign-in, with the page it wanted as the return URL. */
export const requireWebUser: RequestHandler = (req, res, next) => {
  if (req.user) return next();
  if (req.method === 'GET' || req.method === 'HEAD') {
    res.redirect(303, `/signin?returnTo=${encodeURIComponent(req.originalUrl)}`);
    return;
  }
  res.status(401).type('text/plain').send('sign in first');
};
