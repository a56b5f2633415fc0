import { createHash } from 'node:crypto';
import express from 'express';
import { APP_CSS } from './assets/app-css.js';
import { APP_JS } from './assets/app-js.js';
import { EDIT_CSS } from './assets/edit-css.js';
import { REVIEW_CSS } from './assets/review-css.js';

const asset = (body: string, type: string) => ({
  body,
  type,
  etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`,
});

const ICON_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#4f46e5"/><path d="M16 6l9 10-9 10-9-10z" fill="#fff"/></svg>';

const ASSETS = {
  '/assets/app.css': asset(APP_CSS + EDIT_CSS + REVIEW_CSS, 'text/css; charset=utf-8'),
  '/assets/app.js': asset(APP_JS, 'text/javascript; charset=utf-8'),
  '/assets/icon.svg': asset(ICON_SVG, 'image/svg+xml'),
  // Asked for by browsers, feed readers and link previews whatever the page says; the same
  // vector icon, which they all decode by its content.
  '/favicon.ico': asset(ICON_SVG, 'image/svg+xml'),
};

/** The stylesheet, the script and the icon, revalidated by ETag so a deploy shows at once. */
export function assetRoutes(): express.Router {
  const router = express.Router();
  for (const [path, file] of Object.entries(ASSETS)) {
    router.get(path, (req, res) => {
      res.set({ ETag: file.etag, 'Cache-Control': 'public, max-age=300, must-revalidate' });
      if (req.get('if-none-match') === file.etag) return res.status(304).end();
      res.type(file.type).send(file.body);
    });
  }
  return router;
}
