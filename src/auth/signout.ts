import express from 'express';
import * as oidc from 'openid-client';
import { csrfProblem, issueCsrfToken } from './csrf.js';
import { escapeHtml, sendPage } from './html.js';
import type { WebSessions } from './web-session.js';

/** Where the identity provider sends the browser back once its own session has ended. */
export const SIGNED_OUT_PATH = '/signedout';

/**
 * `/signout` ends both sessions: Specbase's, then the identity provider's (RP-initiated logout
 * with the session's ID token as `id_token_hint`), or the next visit would sign the same person
 * in without a password. Only a same-site form with the CSRF token signs out; a GET asks first.
 */
export function signoutRouter(deps: {
  baseUrl: string;
  sessions: WebSessions;
  /** The identity provider's issuer URL, named when its session could not be ended. */
  issuer: string;
  configuration: () => Promise<oidc.Configuration>;
}): express.Router {
  const { baseUrl, sessions, issuer, configuration } = deps;
  const router = express.Router();

  router.get('/signout', (req, res) => {
    const csrf = issueCsrfToken(req, res, baseUrl);
    sendPage(
      res,
      'Sign out',
      `<p>Sign out of Specbase on this browser?</p>
<form method="post" action="/signout">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<p><button type="submit">Sign out</button></p>
</form>`,
    );
  });

  router.post('/signout', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    const problem = csrfProblem(req, baseUrl);
    if (problem) {
      sendPage(res, 'Request refused', `<p>${escapeHtml(problem)}</p>\n<p><a href="/signout">Sign out</a></p>`, 403);
      return;
    }
    const { idToken } = await sessions.end(req, res);
    // Specbase's session is over whatever the provider says; an unreachable one is named instead.
    const config = await configuration().catch(() => undefined);
    if (!config?.serverMetadata().end_session_endpoint) return signedOut(res, issuer);
    const target = oidc.buildEndSessionUrl(config, {
      post_logout_redirect_uri: `${baseUrl}${SIGNED_OUT_PATH}`,
      ...(idToken ? { id_token_hint: idToken } : {}),
    });
    res.redirect(303, target.href);
  });

  router.get(SIGNED_OUT_PATH, (_req, res) => signedOut(res));

  return router;
}

/** `providerKept`: an issuer that offers no way to end its session from here. */
function signedOut(res: express.Response, providerKept?: string): void {
  const warning = providerKept
    ? `<p role="alert">Your sign-in at <code>${escapeHtml(providerKept)}</code> may still be active: on a shared computer, sign out there too or close the browser.</p>\n`
    : '';
  sendPage(res, 'Signed out', `<p>You are signed out of Specbase.</p>\n${warning}<p><a href="/">Sign in again</a></p>`);
}
