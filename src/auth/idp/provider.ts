import Provider, { type KoaLikeContext } from 'oidc-provider';
import type { SqlDatabase } from '../../control/index.js';
import type { ControlPlane } from '../../control/types.js';
import { sqlIdpAdapter } from './adapter.js';
import type { IdpKeys } from './keys.js';
import { renderError } from './error-page.js';
import { logoutSource, postLogoutSuccessSource } from './logout-pages.js';

export const LOCAL_ISSUER = 'local';
export const IDP_MOUNT_PATH = '/oidc';
export const INTERACTION_PATH = '/idp';

export interface IdpClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUris: readonly string[];
  /** Where this client may ask to be sent back after ending the session (RP-initiated logout). */
  readonly postLogoutRedirectUris?: readonly string[];
}

/**
 * The embedded OpenID Connect provider: accounts are the control plane's users of issuer
 * 'local', signing in is the password form under `/idp`. Its only clients are our own relying
 * parties, so their consent is implied and no consent screen exists here.
 */
export function createIdentityProvider(deps: {
  issuer: string;
  control: ControlPlane;
  db: SqlDatabase;
  keys: IdpKeys;
  clients: readonly IdpClient[];
}): Provider {
  const { issuer, control, db, keys, clients } = deps;
  const provider = new Provider(issuer, {
    adapter: sqlIdpAdapter(db),
    clients: clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: [...client.redirectUris],
      post_logout_redirect_uris: [...(client.postLogoutRedirectUris ?? [])],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: keys.jwks,
    cookies: { keys: keys.cookieKeys },
    async findAccount(_ctx: unknown, sub: string) {
      const user = await control.users.bySubject(LOCAL_ISSUER, sub);
      if (!user) return undefined;
      return {
        accountId: sub,
        claims: () => ({ sub, email: user.email, email_verified: true, name: user.name }),
      };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    conformIdTokenClaims: false,
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: { enabled: true, logoutSource, postLogoutSuccessSource },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `${INTERACTION_PATH}/${interaction.uid}` },
    pkce: { required: () => true },
    loadExistingGrant: firstPartyGrant,
    renderError,
    ttl: {
      AccessToken: 600,
      AuthorizationCode: 60,
      IdToken: 600,
      Interaction: 900,
      Session: 14 * 86_400,
      Grant: 14 * 86_400,
    },
  });
  provider.proxy = true;
  return provider;
}

async function firstPartyGrant(ctx: KoaLikeContext): Promise<unknown> {
  const { client, session, result, provider } = ctx.oidc;
  if (!client || !session?.accountId) return undefined;
  const existingId = result?.consent?.grantId ?? session.grantIdFor(client.clientId);
  const existing = existingId ? await provider.Grant.find(existingId) : undefined;
  if (existing) return existing;
  const grant = new provider.Grant({ accountId: session.accountId, clientId: client.clientId });
  grant.addOIDCScope('openid email profile');
  await grant.save();
  return grant;
}
