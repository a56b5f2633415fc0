import { storageFailureOf } from '../../errors.js';
import { escapeHtml, PAGE_HEADERS, pageHtml } from '../html.js';
import { CANNOT_SIGN_IN, storageFailureBody } from '../storage-errors.js';

/** The part of oidc-provider's context its error page writes. */
interface ErrorContext {
  status: number;
  type: string;
  body: string;
  set(fields: Record<string, string>): void;
}

/**
 * oidc-provider's error page (`renderError`) in Specbase's words. Its own answers every error it
 * did not raise with 500 "server_error"; a write the disk refused (saving the sign-in's
 * interaction or session) is a 503 that says the server cannot write, as everywhere else.
 */
export async function renderError(
  ctx: ErrorContext,
  out: { error?: string; error_description?: string },
  error: unknown,
): Promise<void> {
  const failure = storageFailureOf(error);
  ctx.set(PAGE_HEADERS);
  ctx.type = 'html';
  if (failure) {
    ctx.status = 503;
    ctx.body = pageHtml(CANNOT_SIGN_IN, storageFailureBody(failure));
    return;
  }
  const what = out.error_description ?? out.error ?? 'the request failed';
  ctx.body = pageHtml('Sign-in failed', `<p>${escapeHtml(what)}</p>\n<p><a href="/signin">Try again</a></p>`);
}
