import type BetterSqlite3 from 'better-sqlite3';
import express from 'express';
import type { ControlPlane } from '../../control/types.js';
import { applyAuthSchema } from '../schema.js';
import { interactionRouter } from './interactions.js';
import { loadOrCreateKeys } from './keys.js';
import { createIdentityProvider, IDP_MOUNT_PATH, type IdpClient } from './provider.js';

export { LOCAL_ISSUER, IDP_MOUNT_PATH } from './provider.js';
export { KEYS_FILE, type IdpKeys } from './keys.js';

/** The embedded OpenID Connect provider at `${baseUrl}/oidc` with its sign-in page under `/idp`. */
export function embeddedIdentityProvider(deps: {
  baseUrl: string;
  control: ControlPlane;
  db: BetterSqlite3.Database;
  dataDir: string;
  /** Extra relying parties besides our own (`specbase-web`), e.g. another Specbase. */
  clients?: readonly IdpClient[];
  behindProxy: boolean;
}): { router: express.Router; issuer: string; ownClient: IdpClient } {
  applyAuthSchema(deps.db);
  const keys = loadOrCreateKeys(deps.dataDir);
  const issuer = `${deps.baseUrl}${IDP_MOUNT_PATH}`;
  const ownClient: IdpClient = {
    clientId: 'specbase-web',
    clientSecret: keys.rpClientSecret,
    redirectUris: [`${deps.baseUrl}/signin/callback`],
  };
  const provider = createIdentityProvider({
    issuer,
    control: deps.control,
    db: deps.db,
    keys,
    clients: [ownClient, ...(deps.clients ?? [])],
    behindProxy: deps.behindProxy,
  });
  const router = express.Router();
  router.use(interactionRouter({ baseUrl: deps.baseUrl, provider, control: deps.control }));
  router.use(IDP_MOUNT_PATH, provider.callback());
  return { router, issuer, ownClient };
}
