import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import * as oidc from 'openid-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeInBrowser, formField, HttpBrowser } from './browser.js';
import { startTestPostgres, type TestPostgres } from '../../support/postgres.js';
import { addLocalUser, startAuthApp, type AuthApp } from './fixture.js';
import {
  authorizationUrl,
  callMcp,
  exchangeCode,
  obtainCode,
  pkce,
  REDIRECT,
  refresh,
  register,
  registeredClientId,
  tokenRequest,
} from './raw-oauth.js';

// The auth tables' contract: the same refusals whichever backend holds them.
describe.each(['sqlite', 'postgres'] as const)('the authorization server refuses what it must (%s)', (backend) => {
  let app: AuthApp;
  let browser: HttpBrowser;
  let clientId: string;
  let postgres: TestPostgres | undefined;

  beforeAll(async () => {
    postgres = backend === 'postgres' ? await startTestPostgres() : undefined;
    app = await startAuthApp(postgres ? { databaseUrl: await postgres.freshDatabase() } : {});
    await addLocalUser(app.control, 'grace@example.com', 'Grace Hopper', 'hopper-password');
    browser = new HttpBrowser();
    clientId = await registeredClientId(app);
  });
  afterAll(async () => {
    await app.close();
    await postgres?.stop();
  });

  async function tokens(extra: Record<string, string> = {}) {
    const { verifier, challenge } = pkce();
    const code = await obtainCode(app, browser, clientId, challenge, extra);
    const exchanged = await exchangeCode(app, clientId, code, verifier);
    expect(exchanged.status).toBe(200);
    return { code, verifier, ...(exchanged.body as { access_token: string; refresh_token: string }) };
  }

  it('gives a read-only grant when the user ticks read-only, or the client asked for a /readonly resource', async () => {
    const { verifier, challenge } = pkce();
    const code = await obtainCode(app, browser, clientId, challenge, {}, { readOnly: true });
    const exchanged = await exchangeCode(app, clientId, code, verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.scope).toContain('mcp:read-only');
    expect((await app.auth.verifyAccessToken(exchanged.body.access_token!, new URL(app.mcpUrl)))?.readOnly).toBe(true);
    const refreshed = await refresh(app, clientId, exchanged.body.refresh_token!);
    expect((await app.auth.verifyAccessToken(refreshed.body.access_token!, new URL(app.mcpUrl)))?.readOnly).toBe(true);

    const plain = await tokens();
    expect((await app.auth.verifyAccessToken(plain.access_token, new URL(app.mcpUrl)))?.readOnly).toBeUndefined();

    const readOnlyResource = app.mcpUrl.replace(/\/mcp$/, '/readonly/mcp');
    const second = pkce();
    const asked = await obtainCode(app, browser, clientId, second.challenge, { resource: readOnlyResource });
    const viaUrl = await exchangeCode(app, clientId, asked, second.verifier, { resource: readOnlyResource });
    expect((await app.auth.verifyAccessToken(viaUrl.body.access_token!, new URL(readOnlyResource)))?.readOnly).toBe(
      true,
    );

    const user = await app.control.users.byEmail('grace@example.com');
    const listed = await app.auth.grants.list([user!.id]);
    expect(listed.filter((grant) => grant.readOnly)).toHaveLength(2);
  });

  it('stores token material only as hashes', async () => {
    const { access_token, refresh_token, code } = await tokens();
    const dump = JSON.stringify(
      await Promise.all(
        ['auth_tokens', 'auth_codes', 'auth_sessions', 'auth_idp_store'].map((table) =>
          app.control.db.all(`SELECT * FROM ${table}`),
        ),
      ),
    );
    for (const secret of [access_token, refresh_token, code, browser.cookie('specbase_session')!]) {
      expect(secret.length).toBeGreaterThan(20);
      expect(dump).not.toContain(secret);
    }
    expect(dump).toContain(createHash('sha256').update(access_token).digest('hex'));
  });

  it('wrong audience: the token is refused for a resource outside the MCP API', async () => {
    const { access_token } = await tokens();
    expect(await callMcp(app, access_token)).toBe(200);
    expect(await app.auth.verifyAccessToken(access_token, new URL('http://127.0.0.1:1/api/mcp/mcp'))).toBeUndefined();
    expect(await app.auth.verifyAccessToken(access_token, new URL(`${app.baseUrl}/git/x.git`))).toBeUndefined();
    // Authorizing for another server's resource is refused at the redirect, with no code.
    const { challenge } = pkce();
    const refused = await browser.follow(
      authorizationUrl(app, clientId, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        resource: 'https://evil.example/mcp',
      }),
      (location) => location.startsWith(REDIRECT),
    );
    const target = new URL(refused.url);
    expect(target.searchParams.get('error')).toBe('invalid_target');
    expect(target.searchParams.get('code')).toBeNull();
    // A code bound to our MCP API cannot be exchanged for another resource.
    const { verifier, challenge: c2 } = pkce();
    const code = await obtainCode(app, browser, clientId, c2);
    const other = await exchangeCode(app, clientId, code, verifier, { resource: 'https://evil.example/mcp' });
    expect(other.status).toBe(400);
    expect(other.body.error).toBe('invalid_target');
  });

  it('expired: an expired access token and an expired code are refused', async () => {
    const { access_token } = await tokens();
    await app.control.db.run("UPDATE auth_tokens SET expires_at = expires_at - 7200 WHERE kind = 'access'");
    expect(await callMcp(app, access_token)).toBe(401);
    const { verifier, challenge } = pkce();
    const code = await obtainCode(app, browser, clientId, challenge);
    await app.control.db.run('UPDATE auth_codes SET expires_at = expires_at - 61 WHERE used_at IS NULL');
    const late = await exchangeCode(app, clientId, code, verifier);
    expect(late).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('revoked: a revoked access token stops working; revoking the refresh token revokes the family', async () => {
    const first = await tokens();
    const revoke = (token: string) =>
      fetch(`${app.baseUrl}/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ client_id: clientId, token }).toString(),
      });
    expect((await revoke(first.access_token)).status).toBe(200);
    expect(await callMcp(app, first.access_token)).toBe(401);
    const second = await tokens();
    expect((await revoke(second.refresh_token)).status).toBe(200);
    expect(await callMcp(app, second.access_token)).toBe(401);
    expect((await refresh(app, clientId, second.refresh_token)).status).toBe(400);
  });

  it('replayed refresh token: refused, and every token of the family is revoked', async () => {
    const first = await tokens();
    const rotated = await refresh(app, clientId, first.refresh_token);
    expect(rotated.status).toBe(200);
    expect(await callMcp(app, rotated.body.access_token!)).toBe(200);
    const replay = await refresh(app, clientId, first.refresh_token);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await callMcp(app, rotated.body.access_token!)).toBe(401);
    expect((await refresh(app, clientId, rotated.body.refresh_token!)).status).toBe(400);
  });

  it('replayed code: refused, and the tokens it bought are revoked', async () => {
    const first = await tokens();
    const replay = await exchangeCode(app, clientId, first.code, first.verifier);
    expect(replay).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await callMcp(app, first.access_token)).toBe(401);
  });

  it('a code is bound to its client and its PKCE verifier', async () => {
    const { challenge } = pkce();
    const code = await obtainCode(app, browser, clientId, challenge);
    const wrongVerifier = await exchangeCode(app, clientId, code, pkce().verifier);
    expect(wrongVerifier).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const otherClient = await registeredClientId(app);
    const stolen = await tokenRequest(app, {
      grant_type: 'authorization_code',
      client_id: otherClient,
      code,
      code_verifier: 'x'.repeat(43),
    });
    expect(stolen.status).toBe(400);
  });

  it('unregistered redirect URI: answered directly with 400, never redirected', async () => {
    const { challenge } = pkce();
    const response = await browser.request(
      authorizationUrl(app, clientId, {
        code_challenge: challenge,
        code_challenge_method: 'S256',
        redirect_uri: 'https://evil.example/cb',
      }),
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('location')).toBeNull();
    expect(await response.json()).toMatchObject({ error: 'invalid_request' });
  });

  it('registration accepts loopback http, https and app schemes, and refuses the rest', async () => {
    for (const ok of [
      ['http://localhost:33418/cb'],
      ['http://[::1]:4000/cb'],
      ['https://app.example/cb'],
      ['cursor://anysphere.cursor-retrieval/oauth/callback'],
    ]) {
      expect((await register(app, ok)).status, ok[0]).toBe(201);
    }
    for (const bad of [
      ['http://evil.example/cb'],
      ['javascript:alert(1)'],
      ['data:text/html,x'],
      ['https://app.example/cb#frag'],
      ['https://app.example/cb#'],
      [],
    ]) {
      const response = await register(app, bad);
      expect(response.status, String(bad[0])).toBe(400);
    }
    const refused = await register(app, ['http://evil.example/cb']);
    expect(await refused.json()).toMatchObject({ error: 'invalid_redirect_uri' });
    const body = (await (await register(app, ['http://127.0.0.1:5/cb'])).json()) as Record<string, unknown>;
    expect(body.token_endpoint_auth_method).toBe('none');
    expect(body.client_secret).toBeUndefined();
  });

  it('a redirect URI with a fragment at /authorize: answered directly with 400, never redirected', async () => {
    const { challenge } = pkce();
    // The registered URI is loopback, where any port matches: only the fragment is wrong.
    for (const redirect_uri of [`${REDIRECT}#frag`, 'http://127.0.0.1:7/cb#']) {
      const response = await browser.request(
        authorizationUrl(app, clientId, { code_challenge: challenge, code_challenge_method: 'S256', redirect_uri }),
      );
      expect(response.status, redirect_uri).toBe(400);
      expect(response.headers.get('location')).toBeNull();
      expect(await response.json()).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringMatching(/fragment/),
      });
    }
  });

  it('registration bounds the client metadata: name length, number and length of redirect URIs, total size', async () => {
    const post = (metadata: Record<string, unknown>) =>
      fetch(`${app.baseUrl}/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          client_name: 'Bounded',
          redirect_uris: [REDIRECT],
          token_endpoint_auth_method: 'none',
          ...metadata,
        }),
      });
    const before = await app.control.db.get<{ n: number }>('SELECT COUNT(*) AS n FROM auth_clients');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ client_name: 'x'.repeat(201) }, /client_name is 201 characters/],
      [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `http://127.0.0.1:9/cb${i}`) }, /11 redirect URIs/],
      [{ redirect_uris: [`https://app.example/${'p'.repeat(2000)}`] }, /redirect URI is \d+ characters/],
      [{ client_uri: `https://app.example/${'q'.repeat(9000)}` }, /metadata is \d+ bytes/],
    ];
    for (const [metadata, message] of cases) {
      const response = await post(metadata);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: expect.stringMatching(message),
      });
    }
    expect(await app.control.db.get('SELECT COUNT(*) AS n FROM auth_clients')).toEqual(before);
    expect(
      (
        await post({
          client_name: 'x'.repeat(200),
          redirect_uris: Array.from({ length: 10 }, (_, i) => `http://127.0.0.1:9/cb${i}`),
        })
      ).status,
    ).toBe(201);
  });

  it('plain and missing PKCE: refused at the redirect with invalid_request and no code', async () => {
    for (const params of [
      { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' },
      { code_challenge: undefined, code_challenge_method: undefined },
      { code_challenge: 'a'.repeat(43), code_challenge_method: undefined },
    ]) {
      const response = await browser.request(authorizationUrl(app, clientId, params));
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      expect(location.href.startsWith(REDIRECT)).toBe(true);
      expect(location.searchParams.get('error')).toBe('invalid_request');
      expect(location.searchParams.get('code')).toBeNull();
    }
  });

  it('consent: CSRF-less or cross-site POSTs are refused; the screen cannot be framed; deny says access_denied', async () => {
    const { challenge } = pkce();
    const start = await browser.follow(
      authorizationUrl(app, clientId, { code_challenge: challenge, code_challenge_method: 'S256' }),
    );
    expect(start.url).toContain('/oauth/consent?request=');
    expect(start.response.headers.get('x-frame-options')).toBe('DENY');
    expect(start.response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await start.response.text();
    expect(html).toContain('Raw Client');
    expect(html).toContain('http://127.0.0.1:9');
    const request = formField(html, 'request');
    const csrf = formField(html, 'csrf');
    const consentUrl = `${app.baseUrl}/oauth/consent`;

    const noToken = await browser.post(consentUrl, { request, decision: 'approve' });
    expect(noToken.status).toBe(403);
    const crossSite = await browser.post(consentUrl, { request, csrf, decision: 'approve' }, 'https://evil.example');
    expect(crossSite.status).toBe(403);
    const noCookie = await fetch(consentUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: app.baseUrl,
        cookie: `specbase_session=${browser.cookie('specbase_session')}`,
      },
      body: new URLSearchParams({ request, csrf, decision: 'approve' }).toString(),
      redirect: 'manual',
    });
    expect(noCookie.status).toBe(403);
    expect(await app.control.db.get('SELECT COUNT(*) AS n FROM auth_requests')).toMatchObject({ n: 1 });

    const denied = await browser.post(consentUrl, { request, csrf, decision: 'deny' });
    expect(denied.status).toBe(303);
    const location = new URL(denied.headers.get('location')!);
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st4te');
    expect(location.searchParams.get('code')).toBeNull();
    // The request was answered; it cannot be approved afterwards.
    expect((await browser.post(consentUrl, { request, csrf, decision: 'approve' })).status).toBe(400);
  });

  it('a token of the identity provider is never accepted as a bearer token', async () => {
    const keys = JSON.parse(readFileSync(path.join(app.dataDir, 'oidc-keys.json'), 'utf8')) as {
      rpClientSecret: string;
    };
    const config = await oidc.discovery(
      new URL(`${app.baseUrl}/oidc`),
      'specbase-web',
      keys.rpClientSecret,
      undefined,
      {
        execute: [oidc.allowInsecureRequests],
      },
    );
    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const url = oidc.buildAuthorizationUrl(config, {
      redirect_uri: `${app.baseUrl}/signin/callback`,
      scope: 'openid email profile',
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
    });
    const callback = await authorizeInBrowser(new HttpBrowser(), url.href, {
      email: 'grace@example.com',
      password: 'hopper-password',
      redirectPrefix: `${app.baseUrl}/signin/callback`,
    });
    const idpTokens = await oidc.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(idpTokens.access_token).toBeTruthy();
    expect(idpTokens.id_token).toBeTruthy();
    expect(await callMcp(app, idpTokens.access_token)).toBe(401);
    expect(await callMcp(app, idpTokens.id_token!)).toBe(401);
  });

  it('the embedded provider keeps its keys in the data directory, readable only by the owner', () => {
    const stat = statSync(path.join(app.dataDir, 'oidc-keys.json'));
    expect(stat.mode & 0o777).toBe(0o600);
  });
});

describe('token lifetime', () => {
  it('an access token stops working when its lifetime is over', async () => {
    // Two seconds, not one: expiry is kept in whole seconds, so a token issued late in a second
    // lives as little as that lifetime less one second (the renewed token met that on Node 22).
    const app = await startAuthApp({ tokenLifetimes: { accessSeconds: 2 } });
    try {
      await addLocalUser(app.control, 'grace@example.com', 'Grace Hopper', 'hopper-password');
      const clientId = await registeredClientId(app);
      const { verifier, challenge } = pkce();
      const code = await obtainCode(app, new HttpBrowser(), clientId, challenge);
      const { body } = await exchangeCode(app, clientId, code, verifier);
      expect(body.expires_in).toBe(2);
      expect(await callMcp(app, body.access_token!)).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 3100));
      expect(await callMcp(app, body.access_token!)).toBe(401);
      const renewed = await refresh(app, clientId, body.refresh_token!);
      expect(await callMcp(app, renewed.body.access_token!)).toBe(200);
    } finally {
      await app.close();
    }
  });
});
