import type { CookieOptions, Request, Response } from 'express';

export const SESSION_COOKIE = 'specbase_session';
export const SIGNIN_COOKIE = 'specbase_signin';
export const CSRF_COOKIE = 'specbase_csrf';

export function readCookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const separator = part.indexOf('=');
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(separator + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** HttpOnly, SameSite=Lax, Secure whenever the public URL is https. */
export function cookieOptions(baseUrl: string, extra: CookieOptions = {}): CookieOptions {
  return { httpOnly: true, sameSite: 'lax', secure: baseUrl.startsWith('https:'), path: '/', ...extra };
}

export function setCookie(
  res: Response,
  baseUrl: string,
  name: string,
  value: string,
  extra: CookieOptions = {},
): void {
  res.cookie(name, value, cookieOptions(baseUrl, extra));
}

export function clearCookie(res: Response, baseUrl: string, name: string, extra: CookieOptions = {}): void {
  res.clearCookie(name, cookieOptions(baseUrl, extra));
}
