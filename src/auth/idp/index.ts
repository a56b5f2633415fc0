import type { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import providerContext from 'oidc-provider/lib/helpers/als.js';
import { DEFAULT_USER_LIMITS } from '../../config/index.js';
import type { SqlDatabase } from '../../control/index.js';
import type { ControlPlane } from '../../control/types.js';
import { applyAuthSchema } from '../schema.js';
import { SIGNED_OUT_PATH } from '../signout.js';
import { interactionRouter } from './interactions.js';
import { loadOrCreateKeys } from './keys.js';
import { createIdentityProvider, IDP_MOUNT_PATH, type IdpClient } from './provider.js';
import { SigninThrottle, type SigninLimits } from './signin-throttle.js';

export { LOCAL_ISSUER, IDP_MOUNT_PATH } from './provider.js';
export { KEYS_FILE, type IdpKeys } from './keys.js';

/**
 * oidc-provider builds its endpoint URLs from the request. The public base URL is configured,
 * never taken from Host: whatever a client or proxy sends, the provider sees the configured
 * scheme and host (it runs with `proxy` on, so it reads them from these headers).
 */
function asPublicUrl(baseUrl: string): express.RequestHandler {
  const { protocol, host } = new URL(baseUrl);
  return (req, _res, next) => {
    req.headers['x-forwarded-proto'] = protocol.slice(0, -1);
    req.headers['x-forwarded-host'] = host;
    next();
  };
}

/**
 * oidc-provider runs each of its requests in an AsyncLocalStorage. On Node 20 and 22 an enabled
 * one hooks every promise of the process, so from the first sign-in on every MCP call paid for
 * it (about a tenth of a call's time on the event loop). It is disabled again whenever none of
 * the provider's requests is under way; the next one enables it.
 */
function releasingContext(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  let underWay = 0;
  return (req, res) => {
    underWay += 1;
    res.once('close', () => {
      underWay -= 1;
      if (underWay === 0) providerContext.disable();
    });
    handler(req, res);
  };
}

/** The embedded OpenID Connect provider at `${baseUrl}/oidc` with its sign-in page under `/idp`. */
export async function embeddedIdentityProvider(deps: {
  baseUrl: string;
  control: ControlPlane;
  db: SqlDatabase;
  dataDir: string;
  /** Extra relying parties besides our own (`specbase-web`), e.g. another Specbase. */
  clients?: readonly IdpClient[];
  /** Failed password attempts allowed per account and per address (defaults: the configuration's). */
  signinLimits?: SigninLimits;
}): Promise<{ router: express.Router; issuer: string; ownClient: IdpClient }> {
  await applyAuthSchema(deps.db);
  const keys = loadOrCreateKeys(deps.dataDir);
  const issuer = `${deps.baseUrl}${IDP_MOUNT_PATH}`;
  const ownClient: IdpClient = {
    clientId: 'specbase-web',
    clientSecret: keys.rpClientSecret,
    redirectUris: [`${deps.baseUrl}/signin/callback`],
    postLogoutRedirectUris: [`${deps.baseUrl}${SIGNED_OUT_PATH}`],
  };
  const provider = createIdentityProvider({
    issuer,
    control: deps.control,
    db: deps.db,
    keys,
    clients: [ownClient, ...(deps.clients ?? [])],
  });
  const router = express.Router();
  const throttle = new SigninThrottle(deps.signinLimits ?? DEFAULT_USER_LIMITS);
  router.use(interactionRouter({ baseUrl: deps.baseUrl, provider, control: deps.control, throttle }));
  router.use(IDP_MOUNT_PATH, asPublicUrl(deps.baseUrl), releasingContext(provider.callback()));
  return { router, issuer, ownClient };
}
