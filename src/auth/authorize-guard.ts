import express, { type RequestHandler } from 'express';

/**
 * Checks on `/authorize` that must be answered directly, before the SDK's handler: the SDK
 * matches a loopback redirect URI on scheme, host, path and query only, so a fragment would
 * pass, and an error for it would then be redirected to that very URI.
 */
export function authorizeGuard(): RequestHandler[] {
  const refuse: RequestHandler = (req, res, next) => {
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
    const redirectUri = params?.redirect_uri;
    // `includes`, not URL.hash: an empty fragment (`…/cb#`) has an empty hash but is one all the same.
    if (typeof redirectUri === 'string' && redirectUri.includes('#')) {
      res.status(400).set('Cache-Control', 'no-store').json({
        error: 'invalid_request',
        error_description: 'redirect_uri must not contain a fragment',
      });
      return;
    }
    next();
  };
  return [express.urlencoded({ extended: false }), refuse];
}
