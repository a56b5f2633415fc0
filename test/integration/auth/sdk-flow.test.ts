import providerContext from 'oidc-provider/lib/helpers/als.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeInBrowser, HttpBrowser } from './browser.js';
import { addLocalUser, bearer, startAuthApp, type AuthApp } from './fixture.js';
import { auth, discoverFrom401, MemoryClientProvider } from './sdk-client.js';

const REDIRECT = 'http://127.0.0.1:9/callback';

describe('the official SDK client completes OAuth against Specbase', () => {
  let app: AuthApp;
  let userId: string;

  beforeAll(async () => {
    app = await startAuthApp();
    userId = (await addLocalUser(app.control, 'ada@example.com', 'Ada Lovelace', 'correct horse')).id;
  });
  afterAll(() => app.close());

  it('discovers, registers, signs in, consents, exchanges, calls, refreshes', async () => {
    const resourceMetadataUrl = await discoverFrom401(app.mcpUrl);
    expect(resourceMetadataUrl.href).toBe(`${app.baseUrl}/.well-known/oauth-protected-resource/api/mcp/mcp`);

    const provider = new MemoryClientProvider(REDIRECT);
    expect(await auth(provider, { serverUrl: app.mcpUrl, resourceMetadataUrl })).toBe('REDIRECT');
    expect(provider.client?.client_id).toBeTruthy();
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(app.mcpUrl);

    const browser = new HttpBrowser();
    const callback = await authorizeInBrowser(browser, authorizationUrl.href, {
      email: 'ada@example.com',
      password: 'correct horse',
      redirectPrefix: REDIRECT,
    });
    const code = callback.searchParams.get('code');
    expect(code).toMatch(/^sbc_/);
    expect(callback.searchParams.get('state')).toBe(authorizationUrl.searchParams.get('state'));

    expect(await auth(provider, { serverUrl: app.mcpUrl, resourceMetadataUrl, authorizationCode: code! })).toBe(
      'AUTHORIZED',
    );
    const first = provider.saved!;
    expect(first.expires_in).toBe(3600);
    const who = await fetch(app.mcpUrl, { method: 'POST', ...bearer(first.access_token) });
    expect(who.status).toBe(200);
    expect(await who.json()).toMatchObject({
      userId,
      clientId: provider.client!.client_id,
      via: 'oauth',
      scopes: ['mcp'],
    });

    // The same token works on the org-path variant of the MCP API (one resource family).
    const orgPath = `${app.baseUrl}/api/mcp/o/${crypto.randomUUID()}/mcp`;
    expect((await fetch(orgPath, { method: 'POST', ...bearer(first.access_token) })).status).toBe(200);

    // A new session of the client: auth() refreshes with the stored refresh token.
    expect(await auth(provider, { serverUrl: app.mcpUrl, resourceMetadataUrl })).toBe('AUTHORIZED');
    const second = provider.saved!;
    expect(second.access_token).not.toBe(first.access_token);
    expect(second.refresh_token).not.toBe(first.refresh_token);
    expect((await fetch(app.mcpUrl, { method: 'POST', ...bearer(second.access_token) })).status).toBe(200);

    // The provider's AsyncLocalStorage is off once none of its requests is under way: on Node 20
    // and 22 an enabled one hooks every promise of the process (Node 24 keeps no such flag).
    await expect.poll(() => (providerContext as unknown as { enabled?: boolean }).enabled ?? false).toBe(false);

    // The signed-in browser session identifies the same local user.
    const me = await browser.request(`${app.baseUrl}/me`);
    expect(await me.json()).toMatchObject({
      id: userId,
      issuer: 'local',
      email: 'ada@example.com',
      name: 'Ada Lovelace',
    });
  });

  it('publishes RFC 8414 and RFC 9728 metadata for every MCP route', async () => {
    const as = await (await fetch(`${app.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: `${app.baseUrl}/`,
      authorization_endpoint: `${app.baseUrl}/authorize`,
      token_endpoint: `${app.baseUrl}/token`,
      registration_endpoint: `${app.baseUrl}/register`,
      revocation_endpoint: `${app.baseUrl}/revoke`,
      code_challenge_methods_supported: ['S256'],
    });
    const orgId = crypto.randomUUID();
    for (const route of ['/api/mcp/mcp', '/api/mcp/sse', `/api/mcp/o/${orgId}/mcp`, `/api/mcp/o/${orgId}/sse`]) {
      const response = await fetch(`${app.baseUrl}/.well-known/oauth-protected-resource${route}`);
      expect(response.status, route).toBe(200);
      expect(await response.json()).toMatchObject({
        resource: `${app.baseUrl}${route}`,
        authorization_servers: [`${app.baseUrl}/`],
      });
    }
    expect((await fetch(`${app.baseUrl}/.well-known/oauth-protected-resource/api/mcp/o/not-a-uuid/mcp`)).status).toBe(
      404,
    );
  });
});
