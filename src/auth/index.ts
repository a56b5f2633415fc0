import express from 'express';
import { readFileSync } from 'node:fs';
import { createOAuthMetadata, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import { ClientDocuments } from './cimd/client-documents.js';
import type { Config } from '../config/index.js';
import type { SqlDatabase } from '../control/index.js';
import type { ControlPlane } from '../control/types.js';
import { authorizeGuard } from './authorize-guard.js';
import { sqlClientsStore } from './clients-store.js';
import { CodeStore } from './codes.js';
import { consentRouter } from './consent.js';
import { embeddedIdentityProvider, LOCAL_ISSUER } from './idp/index.js';
import { protectedResourceMetadataRouter } from './metadata.js';
import { MCP_SCOPE, SpecbaseOAuthProvider } from './provider.js';
import { mcpResourceFamily } from './resource.js';
import { applyAuthSchema, purgeExpired } from './schema.js';
import { nowSeconds } from './secrets.js';
import { signinRouter } from './signin.js';
import { signoutRouter } from './signout.js';
import { authStorageErrors } from './storage-errors.js';
import { TokenStore, type TokenLifetimes } from './tokens.js';
import type { Auth } from './types.js';
import { lazyDiscovery, type UpstreamIssuer } from './upstream.js';
import { requireWebUser, WebSessions } from './web-session.js';

export type { Auth, AuthenticatedUser } from './types.js';
export type { TokenLifetimes } from './tokens.js';
export type { ConnectedClient, GrantAdmin } from './grants.js';
export { openGrantAdmin } from './grant-admin.js';
export { embeddedIdentityProvider, KEYS_FILE, LOCAL_ISSUER } from './idp/index.js';
export { MCP_ROUTE_PATTERNS } from './resource.js';

export interface AuthDeps {
  readonly config: Config;
  readonly control: ControlPlane;
  readonly db: SqlDatabase;
  readonly dataDir: string;
  /** Shorter lifetimes for tests; otherwise the configured ones (1 hour and 30 days by default). */
  readonly tokenLifetimes?: Partial<TokenLifetimes>;
}

const PURGE_INTERVAL_MS = 3_600_000;

/** Everything about who is calling: OAuth for MCP clients, sign-in and sessions for browsers. */
export async function createAuth(deps: AuthDeps): Promise<Auth> {
  const { config, control, db, dataDir } = deps;
  const baseUrl = config.baseUrl;
  await applyAuthSchema(db);
  await purgeExpired(db, nowSeconds());

  const family = mcpResourceFamily(baseUrl);
  const { caFile, allowLoopbackHost } = config.clientDocuments;
  const clients = sqlClientsStore(
    db,
    new ClientDocuments({
      ...(caFile ? { ca: readFileSync(caFile, 'utf8') } : {}),
      ...(allowLoopbackHost ? { allowLoopbackHost } : {}),
    }),
  );
  const tokens = new TokenStore(db, family, { ...config.oauthTokens, ...deps.tokenLifetimes });
  const codes = new CodeStore(db, family, (familyId) => tokens.revokeFamily(familyId));
  const provider = new SpecbaseOAuthProvider({ clients, codes, tokens, family, baseUrl });
  const sessions = new WebSessions(db, control, baseUrl);
  const issuerUrl = new URL(baseUrl);

  const router = express.Router();
  router.use(protectedResourceMetadataRouter({ baseUrl, issuer: issuerUrl.href, scopes: [MCP_SCOPE] }));
  router.all('/authorize', ...authorizeGuard(clients));
  const authOptions = {
    provider,
    issuerUrl,
    resourceServerUrl: new URL(family.defaultResource),
    scopesSupported: [MCP_SCOPE],
    resourceName: 'Specbase',
  };
  // The SDK's metadata, plus the Client ID Metadata Document support it does not know to advertise.
  const metadata = { ...createOAuthMetadata(authOptions), client_id_metadata_document_supported: true };
  router.get('/.well-known/oauth-authorization-server', (_req, res) => {
    res.set('Access-Control-Allow-Origin', '*').json(metadata);
  });
  router.use(mcpAuthRouter(authOptions));
  router.use(consentRouter({ baseUrl, codes, clients, webSession: sessions.middleware }));

  let upstream: UpstreamIssuer;
  if (config.oidc) {
    upstream = { ...config.oidc, userIssuer: config.oidc.issuer };
  } else {
    const embedded = await embeddedIdentityProvider({ baseUrl, control, db, dataDir, signinLimits: config.userLimits });
    router.use(embedded.router);
    upstream = {
      issuer: embedded.issuer,
      clientId: embedded.ownClient.clientId,
      clientSecret: embedded.ownClient.clientSecret,
      userIssuer: LOCAL_ISSUER,
    };
  }
  const configuration = lazyDiscovery(upstream);
  router.use(signinRouter({ baseUrl, db, control, sessions, upstream, configuration }));
  router.use(signoutRouter({ baseUrl, sessions, issuer: upstream.issuer, configuration }));
  router.use(authStorageErrors);

  // A purge that fails (database briefly unreachable) is simply done at the next interval.
  const purge = setInterval(() => void purgeExpired(db, nowSeconds()).catch(() => undefined), PURGE_INTERVAL_MS);
  purge.unref();

  return {
    router,
    verifyAccessToken: async (token, resource) => tokens.verify(token, resource),
    webSession: sessions.middleware,
    requireWebUser,
    grants: tokens.grants,
    close: async () => clearInterval(purge),
  };
}
