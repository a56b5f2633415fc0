import express from 'express';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embeddedIdentityProvider } from '../../../src/auth/index.js';
import { openControlPlane, type SqlControlPlane } from '../../../src/control/index.js';
import { authorizeInBrowser, formAction, formField, HttpBrowser } from './browser.js';
import { addLocalUser, closeServer, listenLoopback, startAuthApp, type AuthApp } from './fixture.js';
import { callMcp, exchangeCode, pkce, REDIRECT, registeredClientId, authorizationUrl } from './raw-oauth.js';

/** A second oidc-provider on another port plays an external OpenID provider (Keycloak, Okta …). */
describe('sign-in through an external OpenID Connect issuer', () => {
  let app: AuthApp;
  let external: { issuer: string; control: SqlControlPlane; close(): Promise<void> };

  beforeAll(async () => {
    const { server, port } = await listenLoopback();
    const externalBase = `http://127.0.0.1:${port}`;
    const dir = await mkdtemp(path.join(os.tmpdir(), 'specbase-external-idp-'));
    const control = await openControlPlane({ file: path.join(dir, 'idp.db') });
    app = await startAuthApp({
      env: {
        SPECBASE_OIDC_ISSUER: `${externalBase}/oidc`,
        SPECBASE_OIDC_CLIENT_ID: 'specbase',
        SPECBASE_OIDC_CLIENT_SECRET: 'external-secret-0123456789',
      },
    });
    const idp = await embeddedIdentityProvider({
      baseUrl: externalBase,
      control,
      db: control.db,
      dataDir: dir,
      clients: [
        {
          clientId: 'specbase',
          clientSecret: 'external-secret-0123456789',
          redirectUris: [`${app.baseUrl}/signin/callback`],
          postLogoutRedirectUris: [`${app.baseUrl}/signedout`],
        },
      ],
    });
    server.on('request', express().use(idp.router));
    external = {
      issuer: idp.issuer,
      control,
      async close() {
        await closeServer(server);
        await control.close();
        await rm(dir, { recursive: true, force: true });
      },
    };
    await addLocalUser(control, 'linus@corp.example', 'Linus Torvalds', 'external-password');
  });
  afterAll(async () => {
    await app.close();
    await external.close();
  });

  it('creates the user with the external issuer, and OAuth for MCP clients works on top', async () => {
    const browser = new HttpBrowser();
    const landing = await authorizeInBrowser(browser, `${app.baseUrl}/signin?returnTo=%2Fme`, {
      email: 'linus@corp.example',
      password: 'external-password',
      redirectPrefix: `${app.baseUrl}/me`,
    });
    expect(landing.href).toBe(`${app.baseUrl}/me`);
    const me = (await (await browser.request(landing.href)).json()) as {
      id: string;
      issuer: string;
      email: string;
      name: string;
    };
    expect(me).toMatchObject({ issuer: external.issuer, email: 'linus@corp.example', name: 'Linus Torvalds' });
    const externalAccount = await external.control.users.byEmail('linus@corp.example');
    expect(await app.control.users.bySubject(external.issuer, externalAccount!.subject)).toMatchObject({ id: me.id });
    // No embedded provider is served when an external issuer is configured.
    expect((await fetch(`${app.baseUrl}/oidc/.well-known/openid-configuration`)).status).toBe(404);

    const clientId = await registeredClientId(app);
    const { verifier, challenge } = pkce();
    const callback = await authorizeInBrowser(
      browser,
      authorizationUrl(app, clientId, { code_challenge: challenge, code_challenge_method: 'S256' }),
      {
        email: 'unused',
        password: 'unused',
        redirectPrefix: REDIRECT,
      },
    );
    const exchanged = await exchangeCode(app, clientId, callback.searchParams.get('code')!, verifier);
    expect(await callMcp(app, exchanged.body.access_token!)).toBe(200);
  });

  it("signing out ends the session at the issuer's end_session_endpoint too", async () => {
    const browser = new HttpBrowser();
    const credentials = {
      email: 'linus@corp.example',
      password: 'external-password',
      redirectPrefix: `${app.baseUrl}/me`,
    };
    await authorizeInBrowser(browser, `${app.baseUrl}/signin?returnTo=%2Fme`, credentials);

    const csrf = formField(await (await browser.request(`${app.baseUrl}/signout`)).text(), 'csrf');
    const signedOut = await browser.post(`${app.baseUrl}/signout`, { csrf });
    expect(signedOut.status).toBe(303);
    const endSession = new URL(signedOut.headers.get('location')!);
    expect(`${endSession.origin}${endSession.pathname}`).toBe(`${external.issuer}/session/end`);
    expect(endSession.searchParams.get('post_logout_redirect_uri')).toBe(`${app.baseUrl}/signedout`);
    expect(endSession.searchParams.get('id_token_hint')).toMatch(/^ey/);
    expect((await browser.request(`${app.baseUrl}/me`)).status).toBe(303);

    // The issuer's page submits itself in a browser; here the form is posted as it would be.
    const confirm = await browser.request(endSession.href);
    const page = await confirm.text();
    expect(page).toContain('<script>');
    const done = await browser.post(
      new URL(formAction(page), endSession).href,
      { xsrf: formField(page, 'xsrf'), logout: 'yes' },
      endSession.origin,
    );
    expect(done.headers.get('location')).toBe(`${app.baseUrl}/signedout`);

    const again = await browser.follow(`${app.baseUrl}/signin?returnTo=%2Fme`);
    expect(again.url.startsWith(`${new URL(external.issuer).origin}/idp/`)).toBe(true);
    expect(await again.response.text()).toContain('name="password"');
  });
});
