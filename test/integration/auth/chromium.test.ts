import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type http from 'node:http';
import { addLocalUser, closeServer, listenLoopback, startAuthApp, type AuthApp } from './fixture.js';
import { auth, discoverFrom401, MemoryClientProvider } from './sdk-client.js';
import { CHROMIUM, CHROMIUM_LAUNCHER } from '../../support/chromium.js';

describe.skipIf(!existsSync(CHROMIUM))('sign-in and consent in headless Chromium', () => {
  let app: AuthApp;
  let browser: Browser;
  let callbackServer: http.Server;
  let redirectUri: string;
  const redirected: URL[] = [];

  beforeAll(async () => {
    app = await startAuthApp();
    await addLocalUser(app.control, 'margaret@example.com', 'Margaret Hamilton', 'apollo-11-password');
    // The client's loopback redirect listener, as a desktop MCP client runs it.
    const listener = await listenLoopback();
    callbackServer = listener.server;
    redirectUri = `http://127.0.0.1:${listener.port}/callback`;
    callbackServer.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
      const url = new URL(req.url!, redirectUri);
      if (url.pathname === '/callback') redirected.push(url);
      res.end('done');
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM_LAUNCHER,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });
  afterAll(async () => {
    await browser?.close();
    if (callbackServer) await closeServer(callbackServer);
    await app?.close();
  });

  it('a real browser signs in, sees the client on the consent screen, approves, and the client gets tokens', async () => {
    const resourceMetadataUrl = await discoverFrom401(app.mcpUrl);
    const provider = new MemoryClientProvider(redirectUri);
    expect(await auth(provider, { serverUrl: app.mcpUrl, resourceMetadataUrl })).toBe('REDIRECT');

    const page = await browser.newPage();
    await page.goto(provider.authorizationUrl!.href);
    await expect(page.title()).resolves.toContain('Sign in');
    await page.fill('#email', 'margaret@example.com');
    await page.fill('#password', 'apollo-11-password');
    await Promise.all([page.waitForURL(/\/oauth\/consent/), page.click('button[type=submit]')]);
    await expect(page.textContent('main')).resolves.toContain('Test MCP Client');
    await expect(page.textContent('main')).resolves.toContain(new URL(redirectUri).host);
    await Promise.all([page.waitForURL(`${redirectUri}**`), page.click('button[value=approve]')]);

    expect(redirected).toHaveLength(1);
    const code = redirected[0]!.searchParams.get('code')!;
    expect(code).toMatch(/^sbc_/);
    expect(await auth(provider, { serverUrl: app.mcpUrl, resourceMetadataUrl, authorizationCode: code })).toBe(
      'AUTHORIZED',
    );
    const who = await fetch(app.mcpUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.saved!.access_token}` },
    });
    expect(who.status).toBe(200);
  });
});
