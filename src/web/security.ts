import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';

const CSRF_COOKIE = 'specbase_web_csrf';

/**
 * No inline script, no framing, no plugins; images (rendered markdown may name any URL) only
 * from our own origin, data: URLs and the hosts an operator allows (SPECBASE_IMG_HOSTS): an
 * image from anywhere else would tell its host who reads which document, and when.
 */
function contentSecurityPolicy(imgHosts: readonly string[]): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    ["img-src 'self' data:", ...imgHosts].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    "form-action 'self'",
  ].join('; ');
}

/** Headers for every web response: no inline script, no framing, no MIME sniffing, no foreign images. */
export function securityHeaders(imgHosts: readonly string[]): RequestHandler {
  const headers = {
    'Content-Security-Policy': contentSecurityPolicy(imgHosts),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'same-origin',
  };
  return (_req, res, next) => {
    res.set(headers);
    next();
  };
}

function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

/**
 * Double-submit token: the same random value in an HttpOnly SameSite=Lax cookie and in a
 * hidden form field. A foreign page can neither read the cookie nor make the browser send it
 * along a cross-site POST.
 */
export function csrfToken(req: Request, res: Response, baseUrl: string): string {
  const existing = readCookie(req, CSRF_COOKIE);
  if (existing && /^[A-Za-z0-9_-]{43}$/.test(existing)) return existing;
  const token = randomBytes(32).toString('base64url');
  res.cookie(CSRF_COOKIE, token, { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https:'), path: '/' });
  return token;
}

function sameOrigin(req: Request, baseUrl: string): boolean {
  const expected = new URL(baseUrl).origin;
  const origin = req.get('origin');
  if (origin) return origin === expected;
  const referer = req.get('referer');
  if (!referer) return false;
  try {
    return new URL(referer).origin === expected;
  } catch {
    return false;
  }
}

/** Why a state-changing form post is refused, or undefined when it came from our own page. */
export function csrfProblem(req: Request, baseUrl: string): string | undefined {
  if (!sameOrigin(req, baseUrl)) return 'This form was not sent from a Specbase page.';
  const cookie = readCookie(req, CSRF_COOKIE);
  const field = (req.body as Record<string, unknown> | undefined)?.csrf;
  if (!cookie || typeof field !== 'string') return 'This form has expired. Reload the page and try again.';
  const a = Buffer.from(cookie);
  const b = Buffer.from(field);
  if (a.length !== b.length || !timingSafeEqual(a, b)) return 'This form has expired. Reload the page and try again.';
  return undefined;
}
