import { createHash } from 'node:crypto';
import { escapeHtml, pageHtml } from '../html.js';

/** The part of oidc-provider's context its logout pages read. */
interface LogoutContext {
  type: string;
  body: string;
  set(field: string, value: string): void;
  oidc: {
    urlFor(name: string): string;
    session?: { accountId?: string; state?: { secret?: string } };
    entities: { IdTokenHint?: { payload?: { sub?: unknown } } };
  };
}

const SUBMIT_SCRIPT = 'document.forms[0].submit();';
const SUBMIT_HASH = `'sha256-${createHash('sha256').update(SUBMIT_SCRIPT).digest('base64')}'`;

function page(ctx: LogoutContext, title: string, body: string, scriptHash?: string): void {
  ctx.type = 'html';
  ctx.set('Cache-Control', 'no-store');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set(
    'Content-Security-Policy',
    `default-src 'self'; script-src ${scriptHash ?? "'none'"}; frame-ancestors 'none'; form-action 'self'`,
  );
  ctx.body = pageHtml(title, body);
}

/**
 * The provider's "end this session?" page (RP-initiated logout). It always ends the whole
 * session (`logout=yes`). When Specbase sent the browser here with the ID token of the account
 * signed in at this provider, the person already chose to sign out on a Specbase form with its
 * CSRF token, so the page submits itself; anyone else's link (no hint, or another account's)
 * gets the question.
 */
export async function logoutSource(ctx: LogoutContext): Promise<void> {
  const hinted = ctx.oidc.entities.IdTokenHint?.payload?.sub;
  const accountId = ctx.oidc.session?.accountId;
  const confirmed = accountId !== undefined && hinted === accountId;
  page(
    ctx,
    'Sign out',
    `<p>${confirmed ? 'Signing you out…' : 'Sign out of Specbase on this browser?'}</p>
<form method="post" action="${escapeHtml(ctx.oidc.urlFor('end_session_confirm'))}">
<input type="hidden" name="xsrf" value="${escapeHtml(ctx.oidc.session?.state?.secret ?? '')}">
<input type="hidden" name="logout" value="yes">
<p><button type="submit">Sign out</button> <a href="/">Stay signed in</a></p>
</form>${confirmed ? `\n<script>${SUBMIT_SCRIPT}</script>` : ''}`,
    confirmed ? SUBMIT_HASH : undefined,
  );
}

/** Shown when a sign-out named no page to return to. */
export async function postLogoutSuccessSource(ctx: LogoutContext): Promise<void> {
  page(ctx, 'Signed out', '<p>You are signed out.</p>\n<p><a href="/">Sign in again</a></p>');
}
