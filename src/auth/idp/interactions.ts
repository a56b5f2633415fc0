import express from 'express';
import type Provider from 'oidc-provider';
import type { ControlPlane } from '../../control/types.js';
import { csrfProblem, issueCsrfToken } from '../csrf.js';
import { escapeHtml, sendPage } from '../html.js';
import { INTERACTION_PATH, LOCAL_ISSUER } from './provider.js';
import type { SigninThrottle } from './signin-throttle.js';

/** Why the form is shown again: the sentence, the status, and when to retry if throttled. */
interface Problem {
  readonly message: string;
  readonly status: 401 | 429;
  readonly retryAfterSeconds?: number | undefined;
}

/** The embedded provider's sign-in page: email and password of a local account. */
export function interactionRouter(deps: {
  baseUrl: string;
  provider: Provider;
  control: ControlPlane;
  throttle: SigninThrottle;
}): express.Router {
  const { baseUrl, provider, control, throttle } = deps;
  const router = express.Router();

  const showForm = (req: express.Request, res: express.Response, uid: string, problem?: Problem, email = ''): void => {
    const csrf = issueCsrfToken(req, res, baseUrl);
    if (problem?.retryAfterSeconds !== undefined) res.set('Retry-After', String(problem.retryAfterSeconds));
    sendPage(
      res,
      'Sign in',
      `${problem ? `<p role="alert">${escapeHtml(problem.message)}</p>\n` : ''}<form method="post" action="${INTERACTION_PATH}/${escapeHtml(uid)}/login">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<p><label for="email">Email</label> <input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(email)}"></p>
<p><label for="password">Password</label> <input id="password" name="password" type="password" autocomplete="current-password" required></p>
<p><button type="submit">Sign in</button></p>
</form>`,
      problem?.status ?? 200,
    );
  };

  router.get(`${INTERACTION_PATH}/:uid`, async (req, res) => {
    const details = await provider.interactionDetails(req, res).catch(() => undefined);
    if (!details || details.uid !== req.params.uid) return expired(res);
    if (details.prompt.name !== 'login') {
      // Our clients are first-party; any other prompt means a request we do not serve.
      await provider.interactionFinished(
        req,
        res,
        { error: 'access_denied', error_description: `unsupported prompt ${details.prompt.name}` },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    showForm(req, res, details.uid);
  });

  router.post(`${INTERACTION_PATH}/:uid/login`, express.urlencoded({ extended: false }), async (req, res) => {
    const details = await provider.interactionDetails(req, res).catch(() => undefined);
    if (!details || details.uid !== req.params.uid) return expired(res);
    const problem = csrfProblem(req, baseUrl);
    if (problem) {
      sendPage(res, 'Request refused', `<p>${escapeHtml(problem)}</p>`, 403);
      return;
    }
    const body = req.body as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email.trim() : '';
    const password = typeof body.password === 'string' ? body.password : '';
    const address = req.socket.remoteAddress ?? 'unknown';
    const refusal = throttle.refusal(email, address);
    if (refusal) {
      return showForm(
        req,
        res,
        details.uid,
        { message: refusal.message, status: 429, retryAfterSeconds: refusal.retryAfterSeconds },
        email,
      );
    }
    const user = email && password ? await control.users.verifyPassword(email, password) : undefined;
    if (!user || user.issuer !== LOCAL_ISSUER) {
      if (email && password) throttle.failed(email, address);
      return showForm(req, res, details.uid, { message: 'Wrong email or password.', status: 401 }, email);
    }
    throttle.succeeded(email);
    await provider.interactionFinished(
      req,
      res,
      { login: { accountId: user.subject } },
      { mergeWithLastSubmission: false },
    );
  });

  return router;
}

function expired(res: express.Response): void {
  sendPage(res, 'Sign-in expired', '<p>This sign-in has expired. <a href="/signin">Start again</a>.</p>', 400);
}
