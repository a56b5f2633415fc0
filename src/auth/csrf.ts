import type { Request, Response } from 'express';
import { CSRF_COOKIE, readCookie, setCookie } from './cookies.js';
import { newSecret, safeEqual } from './secrets.js';

/**
 * Double-submit token: the form carries the value of an HttpOnly SameSite=Lax cookie that a
 * foreign page can neither read nor make the browser send on a cross-site POST.
 */
export function issueCsrfToken(req: Request, res: Response, baseUrl: string, path = '/'): string {
  const existing = readCookie(req, CSRF_COOKIE);
  if (existing) return existing;
  const token = newSecret('');
  setCookie(res, baseUrl, CSRF_COOKIE, token, { path });
  return token;
}

/** A form POST is accepted only from our own origin and with the token of this browser's cookie. */
export function csrfProblem(req: Request, baseUrl: string): string | undefined {
  const expectedOrigin = new URL(baseUrl).origin;
  const origin = req.get('origin') ?? refererOrigin(req.get('referer'));
  if (origin !== expectedOrigin) return 'the form was not posted from this site';
  const cookie = readCookie(req, CSRF_COOKIE);
  const field = (req.body as Record<string, unknown> | undefined)?.csrf;
  if (!cookie || typeof field !== 'string' || !safeEqual(cookie, field))
    return 'the form has expired; reload the page and try again';
  return undefined;
}

function refererOrigin(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}
