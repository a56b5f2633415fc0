import type { Response } from 'express';

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** An auth page (sign-in, consent, their failures) around `body`, which is HTML already escaped. */
export const pageHtml = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Specbase</title><link rel="stylesheet" href="/assets/app.css"></head>
<body><main class="auth">
<h1>${escapeHtml(title)}</h1>
${body}
</main></body>
</html>`;

/** Pages that take a decision (sign-in, consent) must never render inside another site's frame. */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'no-store',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'self'; frame-ancestors 'none'",
  'Referrer-Policy': 'same-origin',
};

export function sendPage(res: Response, title: string, body: string, status = 200): void {
  res.status(status).set(PAGE_HEADERS).send(pageHtml(title, body));
}
