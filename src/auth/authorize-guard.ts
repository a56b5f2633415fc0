import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { OAuthError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import express, { type RequestHandler, type Response } from 'express';
import { isClientIdUrl } from './cimd/client-documents.js';

const refuse = (res: Response, error: string, description: string) =>
  res.status(400).set('Cache-Control', 'no-store').json({ error, error_description: description });

/**
 * Checks on `/authorize` that must be answered directly, before the SDK's handler: the SDK
 * matches a loopback redirect URI on scheme, host, path and query only, so a fragment would
 * pass, and an error for it would then be redirected to that very URI. A client named by its
 * metadata document gets exactly the redirect URIs the document lists, no port relaxation.
 */
export function authorizeGuard(clients: OAuthRegisteredClientsStore): RequestHandler[] {
  const check: RequestHandler = async (req, res, next) => {
    const params = (req.method === 'POST' ? req.body : req.query) as Record<string, unknown> | undefined;
    const redirectUri = params?.redirect_uri;
    // `includes`, not URL.hash: an empty fragment (`…/cb#`) has an empty hash but is one all the same.
    if (typeof redirectUri === 'string' && redirectUri.includes('#')) {
      refuse(res, 'invalid_request', 'redirect_uri must not contain a fragment');
      return;
    }
    const clientId = params?.client_id;
    if (typeof clientId === 'string' && isClientIdUrl(clientId) && typeof redirectUri === 'string') {
      try {
        const client = await clients.getClient(clientId);
        if (client && !client.redirect_uris.includes(redirectUri)) {
          refuse(
            res,
            'invalid_request',
            `redirect_uri is not one of the redirect_uris of the client metadata document ${clientId}`,
          );
          return;
        }
      } catch (error) {
        if (!(error instanceof OAuthError)) throw error;
        refuse(res, error.errorCode, error.message);
        return;
      }
    }
    next();
  };
  return [express.urlencoded({ extended: false }), check];
}
