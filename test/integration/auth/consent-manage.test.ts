import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formAction, formField, HttpBrowser } from './browser.js';
import { addLocalUser, startAuthApp, type AuthApp } from './fixture.js';
import { authorizationUrl, pkce, REDIRECT, registeredClientId } from './raw-oauth.js';

describe('the consent screen and the manage tools', () => {
  let app: AuthApp;
  let browser: HttpBrowser;
  let clientId: string;

  beforeAll(async () => {
    app = await startAuthApp();
    await addLocalUser(app.control, 'grace@example.com', 'Grace Hopper', 'hopper-password');
    browser = new HttpBrowser();
    clientId = await registeredClientId(app);
  });
  afterAll(async () => {
    await app.close();
  });

  /** The consent page a client's authorization request for `resource` leads to, signed in on the way. */
  async function consentPage(resource: string): Promise<string> {
    const url = authorizationUrl(app, clientId, {
      code_challenge: pkce().challenge,
      code_challenge_method: 'S256',
      resource,
    });
    let step = await browser.follow(url, (location) => location.startsWith(REDIRECT));
    for (let pages = 0; pages < 5; pages++) {
      const html = await step.response.text();
      if (!html.includes('name="password"')) return html;
      const action = new URL(formAction(html), step.url).href;
      const posted = await browser.post(action, {
        csrf: formField(html, 'csrf'),
        email: 'grace@example.com',
        password: 'hopper-password',
      });
      step = await browser.follow(new URL(posted.headers.get('location')!, action).href);
    }
    throw new Error('no consent page');
  }

  it('says so when a client asks for them at a /manage URL, and not otherwise', async () => {
    const asking = await consentPage(app.mcpUrl.replace(/\/mcp$/, '/manage/mcp'));
    expect(asking).toContain('Authorize access');
    expect(asking).toContain('It also asks to <strong>delete, move, restore and revert</strong> artifacts');
    expect(asking).toContain('name="readonly"');

    const plain = await consentPage(app.mcpUrl);
    expect(plain).toContain('Authorize access');
    expect(plain).not.toContain('delete, move, restore and revert');
  });

  it('publishes protected resource metadata for the /manage forms', async () => {
    for (const path of ['/api/mcp/manage/mcp', '/api/mcp/o/7d2f0b6e-4f7c-4c71-9a53-2b1f0e6c9d10/manage/sse']) {
      const response = await fetch(`${app.baseUrl}/.well-known/oauth-protected-resource${path}`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as { resource: string }).resource).toBe(`${app.baseUrl}${path}`);
    }
  });
});
