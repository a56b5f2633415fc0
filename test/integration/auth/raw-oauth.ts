import { createHash, randomBytes } from 'node:crypto';
import { authorizeInBrowser, type HttpBrowser } from './browser.js';
import type { AuthApp } from './fixture.js';

/** The OAuth client side spelled out in plain HTTP, so that tests can bend every parameter. */
export const REDIRECT = 'http://127.0.0.1:9/cb';

export async function register(app: AuthApp, redirectUris: string[] = [REDIRECT]): Promise<Response> {
  return fetch(`${app.baseUrl}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      client_name: 'Raw Client',
      redirect_uris: redirectUris,
      token_endpoint_auth_method: 'none',
    }),
  });
}

export async function registeredClientId(app: AuthApp): Promise<string> {
  const response = await register(app);
  if (response.status !== 201) throw new Error(`registration failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { client_id: string }).client_id;
}

export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizationUrl(app: AuthApp, clientId: string, params: Record<string, string | undefined>): string {
  const url = new URL(`${app.baseUrl}/authorize`);
  const all: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: 'st4te',
    resource: app.mcpUrl,
    ...params,
  };
  for (const [key, value] of Object.entries(all)) if (value !== undefined) url.searchParams.set(key, value);
  return url.href;
}

export async function obtainCode(
  app: AuthApp,
  browser: HttpBrowser,
  clientId: string,
  challenge: string,
  extra: Record<string, string> = {},
  consent: { readOnly?: boolean } = {},
): Promise<string> {
  const callback = await authorizeInBrowser(
    browser,
    authorizationUrl(app, clientId, { code_challenge: challenge, code_challenge_method: 'S256', ...extra }),
    {
      email: 'grace@example.com',
      password: 'hopper-password',
      redirectPrefix: REDIRECT,
      ...consent,
    },
  );
  const code = callback.searchParams.get('code');
  if (!code) throw new Error(`no code in ${callback.href}`);
  return code;
}

export async function tokenRequest(
  app: AuthApp,
  form: Record<string, string>,
): Promise<{ status: number; body: Record<string, string> }> {
  const response = await fetch(`${app.baseUrl}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
}

export async function exchangeCode(
  app: AuthApp,
  clientId: string,
  code: string,
  verifier: string,
  extra: Record<string, string> = {},
) {
  return tokenRequest(app, {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
    resource: app.mcpUrl,
    ...extra,
  });
}

export async function refresh(app: AuthApp, clientId: string, refreshToken: string) {
  return tokenRequest(app, { grant_type: 'refresh_token', client_id: clientId, refresh_token: refreshToken });
}

export async function callMcp(app: AuthApp, token: string): Promise<number> {
  return (await fetch(app.mcpUrl, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status;
}
