import * as oidc from 'openid-client';

/** The OpenID Connect provider users sign in with: the embedded one or an external issuer. */
export interface UpstreamIssuer {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Recorded as the user's issuer: 'local' for the embedded provider, else the issuer URL. */
  readonly userIssuer: string;
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Discovers the issuer once, on first use, so that an embedded issuer can be served by this very process. */
export function lazyDiscovery(upstream: UpstreamIssuer): () => Promise<oidc.Configuration> {
  let pending: Promise<oidc.Configuration> | undefined;
  return () => {
    pending ??= discover(upstream).catch((error: unknown) => {
      pending = undefined;
      throw error;
    });
    return pending;
  };
}

async function discover(upstream: UpstreamIssuer): Promise<oidc.Configuration> {
  const url = new URL(upstream.issuer);
  // Plain http is tolerated only for an issuer on this machine (development and tests).
  const insecureLocal = url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname);
  return oidc.discovery(
    url,
    upstream.clientId,
    upstream.clientSecret,
    upstream.clientSecret ? oidc.ClientSecretPost(upstream.clientSecret) : oidc.None(),
    insecureLocal ? { execute: [oidc.allowInsecureRequests] } : undefined,
  );
}
