import express from 'express';
import * as oidc from 'openid-client';
import type { SqlDatabase } from '../control/index.js';
import type { ControlPlane } from '../control/types.js';
import { clearCookie, readCookie, setCookie, SIGNIN_COOKIE } from './cookies.js';
import { storageFailureOf } from '../errors.js';
import { escapeHtml, sendPage } from './html.js';
import { hashSecret, newSecret, nowSeconds } from './secrets.js';
import { sendStorageFailure } from './storage-errors.js';
import type { UpstreamIssuer } from './upstream.js';
import type { WebSessions } from './web-session.js';

const SIGNIN_SECONDS = 600;
export const CALLBACK_PATH = '/signin/callback';

interface SigninRow {
  state: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
}

/** Only a path on this site: never `//host` or `/\host`, which browsers read as another site. */
export function safeReturnTo(value: unknown): string {
  return typeof value === 'string' && /^\/(?![/\\])/.test(value) ? value : '/';
}

/** `/signin` and its callback: authorization code + PKCE + state + nonce at the upstream issuer. */
export function signinRouter(deps: {
  baseUrl: string;
  db: SqlDatabase;
  control: ControlPlane;
  sessions: WebSessions;
  upstream: UpstreamIssuer;
  configuration: () => Promise<oidc.Configuration>;
}): express.Router {
  const { baseUrl, db, control, sessions, upstream, configuration } = deps;
  const router = express.Router();
  const redirectUri = `${baseUrl}${CALLBACK_PATH}`;

  router.get('/signin', async (req, res, next) => {
    try {
      const config = await configuration();
      const transaction = newSecret('');
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const verifier = oidc.randomPKCECodeVerifier();
      await db.run(
        'INSERT INTO auth_signins (id_hash, state, nonce, code_verifier, return_to, expires_at) VALUES (?, ?, ?, ?, ?, ?)',
        [
          hashSecret(transaction),
          state,
          nonce,
          verifier,
          safeReturnTo(req.query.returnTo),
          nowSeconds() + SIGNIN_SECONDS,
        ],
      );
      setCookie(res, baseUrl, SIGNIN_COOKIE, transaction, { path: '/signin', maxAge: SIGNIN_SECONDS * 1000 });
      const target = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      res.redirect(303, target.href);
    } catch (error) {
      next(error);
    }
  });

  router.get(CALLBACK_PATH, async (req, res) => {
    const transaction = readCookie(req, SIGNIN_COOKIE);
    clearCookie(res, baseUrl, SIGNIN_COOKIE, { path: '/signin' });
    const row = transaction
      ? await db.get<SigninRow>('SELECT * FROM auth_signins WHERE id_hash = ? AND expires_at > ?', [
          hashSecret(transaction),
          nowSeconds(),
        ])
      : undefined;
    // The callback is answered once: of two racing callbacks only the one that deletes the row goes on.
    if (
      !transaction ||
      !row ||
      (await db.run('DELETE FROM auth_signins WHERE id_hash = ?', [hashSecret(transaction)])) === 0
    ) {
      return signinFailed(res, 'The sign-in took too long or was started in another browser.');
    }
    try {
      const config = await configuration();
      const tokens = await oidc.authorizationCodeGrant(config, new URL(req.originalUrl, baseUrl), {
        pkceCodeVerifier: row.code_verifier,
        expectedState: row.state,
        expectedNonce: row.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) return signinFailed(res, 'The identity provider returned no ID token.');
      let { email, name } = claims as { email?: unknown; name?: unknown };
      if (typeof email !== 'string' || typeof name !== 'string') {
        const info = await oidc.fetchUserInfo(config, tokens.access_token, claims.sub);
        email = typeof email === 'string' ? email : info.email;
        name = typeof name === 'string' ? name : (info.name ?? info.preferred_username);
      }
      if (typeof email !== 'string' || !email)
        return signinFailed(res, 'The identity provider did not share an email address.');
      const user = await control.users.upsert({
        issuer: upstream.userIssuer,
        subject: claims.sub,
        email,
        name: typeof name === 'string' && name ? name : email,
      });
      await sessions.start(res, user.id, tokens.id_token);
      await control.audit.record({
        kind: 'auth',
        userId: user.id,
        orgId: null,
        action: 'signin',
        artifactId: null,
        commit: null,
        client: 'web',
        durationMs: null,
        outcome: 'ok',
        detail: `signed in through ${upstream.userIssuer === 'local' ? 'the embedded identity provider' : upstream.userIssuer}`,
      });
      res.redirect(303, row.return_to);
    } catch (error) {
      const storage = storageFailureOf(error);
      if (storage) return sendStorageFailure(res, storage);
      signinFailed(
        res,
        `The identity provider did not sign you in: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  });

  return router;
}

function signinFailed(res: express.Response, message: string): void {
  sendPage(res, 'Sign-in failed', `<p>${escapeHtml(message)}</p>\n<p><a href="/signin">Try again</a></p>`, 400);
}
