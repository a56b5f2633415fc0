import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientDocuments } from '../../../src/auth/cimd/client-documents.js';
import { selfSignedCertificate, type SelfSigned } from '../https/certificate.js';
import { HttpBrowser } from './browser.js';
import { addLocalUser, startAuthApp, type AuthApp } from './fixture.js';
import { authorizationUrl, callMcp, exchangeCode, obtainCode, pkce, REDIRECT, refresh } from './raw-oauth.js';

/**
 * Client ID Metadata Documents, served over https by a local server with a self-signed
 * certificate: the test settings trust that certificate and allow this one loopback host.
 */
let cert: SelfSigned;
let docs: Server;
let docsHost: string;
let app: AuthApp;
let fetches: string[] = [];
const url = (name: string) => `https://${docsHost}/clients/${name}`;

const DOCUMENTS: Record<
  string,
  (self: string) => { status?: number; headers?: Record<string, string>; body?: string }
> = {
  'good.json': (self) => ({
    headers: { 'cache-control': 'max-age=60' },
    body: JSON.stringify({
      client_id: self,
      client_name: 'Docs Client',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    }),
  }),
  'no-cache.json': (self) => ({
    headers: { 'cache-control': 'no-store' },
    body: JSON.stringify({ client_id: self, redirect_uris: [REDIRECT] }),
  }),
  'wrong-id.json': () => ({ body: JSON.stringify({ client_id: url('good.json'), redirect_uris: [REDIRECT] }) }),
  'redirects.json': () => ({ status: 302, headers: { location: url('good.json') } }),
  'large.json': (self) => ({
    body: JSON.stringify({ client_id: self, redirect_uris: [REDIRECT], padding: 'x'.repeat(20_000) }),
  }),
  'html.json': () => ({ headers: { 'content-type': 'text/html' }, body: '<html></html>' }),
  'bad-redirect.json': (self) => ({
    body: JSON.stringify({ client_id: self, redirect_uris: ['http://evil.example/cb'] }),
  }),
};

beforeAll(async () => {
  cert = await selfSignedCertificate();
  docs = createServer(
    { cert: cert.pem, key: await import('node:fs/promises').then((fs) => fs.readFile(cert.keyFile)) },
    (req, res) => {
      fetches.push(req.url ?? '');
      const name = (req.url ?? '').replace('/clients/', '');
      const doc = DOCUMENTS[name]?.(`https://${docsHost}${req.url}`);
      if (!doc) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(doc.status ?? 200, { 'content-type': 'application/json', ...doc.headers }).end(doc.body ?? '');
    },
  );
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  docsHost = `127.0.0.1:${(docs.address() as AddressInfo).port}`;
  app = await startAuthApp({
    env: { SPECBASE_CIMD_CA_FILE: cert.certFile, SPECBASE_CIMD_ALLOW_LOOPBACK_HOST: docsHost },
  });
  await addLocalUser(app.control, 'grace@example.com', 'Grace Hopper', 'hopper-password');
});
afterAll(async () => {
  await app?.close();
  docs?.closeAllConnections();
  await new Promise((resolve) => docs?.close(resolve));
});

async function authorizeStatus(clientId: string, redirect_uri = REDIRECT) {
  const { challenge } = pkce();
  const response = await new HttpBrowser().request(
    authorizationUrl(app, clientId, { code_challenge: challenge, code_challenge_method: 'S256', redirect_uri }),
  );
  return {
    status: response.status,
    location: response.headers.get('location'),
    body: response.status === 400 ? await response.json() : undefined,
  };
}

describe('Client ID Metadata Documents', () => {
  it('are advertised in the authorization server metadata', async () => {
    const metadata = await (await fetch(`${app.baseUrl}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({
      client_id_metadata_document_supported: true,
      authorization_endpoint: `${app.baseUrl}/authorize`,
    });
  });

  it('let a client authorize and exchange with its document URL as client_id; consent shows its name and host; cached', async () => {
    fetches = [];
    const clientId = url('good.json');
    const { challenge, verifier } = pkce();
    const browser = new HttpBrowser();
    const code = await obtainCode(app, browser, clientId, challenge);
    // Signed in now: a second authorization stops at the consent screen, which names the client.
    const consentPage = await browser.follow(
      authorizationUrl(app, clientId, { code_challenge: pkce().challenge, code_challenge_method: 'S256' }),
    );
    const html = await consentPage.response.text();
    expect(html).toContain('<strong>Docs Client</strong>');
    expect(html).toContain(`(from <code>${docsHost}</code>)`);

    const tokens = await exchangeCode(app, clientId, code, verifier);
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    expect(await callMcp(app, tokens.body.access_token!)).toBe(200);
    expect((await refresh(app, clientId, tokens.body.refresh_token!)).status).toBe(200);
    // One fetch served every step within the document's max-age.
    expect(fetches).toEqual(['/clients/good.json']);
  });

  it('match redirect URIs exactly: another loopback port is refused, directly', async () => {
    const refused = await authorizeStatus(url('good.json'), 'http://127.0.0.1:10/cb');
    expect(refused.status).toBe(400);
    expect(refused.location).toBeNull();
    expect(refused.body).toMatchObject({ error: 'invalid_request' });
  });

  it.each([
    ['wrong-id.json', /client_id .* is not the document's URL/],
    ['redirects.json', /redirects \(HTTP 302\)/],
    ['large.json', /larger than 16384 bytes/],
    ['html.json', /not application\/json/],
    ['bad-redirect.json', /uses http on a host other than/],
    ['missing.json', /HTTP 404/],
  ])('refuse %s with a reason, before any redirect', async (name, reason) => {
    const refused = await authorizeStatus(url(name));
    expect(refused.status).toBe(400);
    expect(refused.location).toBeNull();
    expect(refused.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(reason) });
  });

  it.each([
    [
      'IPv4-compatible IPv6',
      (port: number) => `https://[::127.0.0.1]:${port}/clients/good.json`,
      /::7f00:1, a private, loopback or link-local address/,
    ],
    [
      'IPv4-mapped IPv6',
      (port: number) => `https://[::ffff:127.0.0.1]:${port}/clients/good.json`,
      /::ffff:7f00:1, a private, loopback or link-local address/,
    ],
    [
      '6to4',
      (port: number) => `https://[2002:7f00:1::1]:${port}/clients/good.json`,
      /2002:7f00:1::1, a private, loopback or link-local address/,
    ],
    [
      'NAT64',
      (port: number) => `https://[64:ff9b::7f00:1]:${port}/clients/good.json`,
      /64:ff9b::7f00:1, a private, loopback or link-local address/,
    ],
    [
      'local-use NAT64',
      (port: number) => `https://[64:ff9b:1::7f00:1]:${port}/clients/good.json`,
      /a private, loopback or link-local address/,
    ],
    [
      'Teredo',
      (port: number) => `https://[2001:0:4136:e378:8000:63bf:80ff:fffe]:${port}/clients/good.json`,
      /a private, loopback or link-local address/,
    ],
  ])(
    'refuse a document URL whose host embeds a loopback IPv4 address (%s), before connecting',
    async (_name, clientIdOf, reason) => {
      fetches = [];
      const refused = await authorizeStatus(clientIdOf(Number(docsHost.split(':')[1])));
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(reason) });
      expect(fetches).toEqual([]);
    },
  );

  it.each([
    [
      'a host with a trailing dot',
      'https://localhost./clients/c.json',
      /the client id URL's host must not end with a dot/,
    ],
    [
      'a bare origin with a trailing dot (not a document URL: an unknown client)',
      'https://localhost./',
      /^Invalid client_id$/,
    ],
    [
      'a name that does not resolve',
      'https://no-such-host.invalid/clients/c.json',
      /no-such-host\.invalid does not resolve/,
    ],
  ])('refuse %s clearly, not with a server error', async (_name, clientId, reason) => {
    const refused = await authorizeStatus(clientId);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: 'invalid_client', error_description: expect.stringMatching(reason) });
  });

  it('honour no-store: the document is fetched again each time', async () => {
    fetches = [];
    await authorizeStatus(url('no-cache.json'), 'http://127.0.0.1:10/cb');
    await authorizeStatus(url('no-cache.json'), 'http://127.0.0.1:10/cb');
    expect(fetches).toEqual(['/clients/no-cache.json', '/clients/no-cache.json']);
  });
});

describe('the document fetch refuses unsafe targets by default', () => {
  const documents = new ClientDocuments({ ca: '' });
  it.each([
    ['http://example.com/client.json', /https/],
    ['https://127.0.0.1:8443/client.json', /127\.0\.0\.1, a private, loopback or link-local address/],
    ['https://localhost/client.json', /(127\.0\.0\.1|::1), a private, loopback or link-local address/],
    ['https://10.1.2.3/c.json', /10\.1\.2\.3, a private/],
    ['https://169.254.169.254/latest/meta-data', /169\.254\.169\.254, a private/],
    ['https://[::ffff:192.168.1.1]/c.json', /a private/],
    ['https://[fe80::1]/c.json', /a private/],
    ['https://user:pw@example.com/c.json', /credentials/],
    ['https://example.com/a/../c.json', /dot segments|not the document's URL|resolves|fetching/],
  ])('%s', async (clientId, reason) => {
    await expect(documents.resolve(clientId)).rejects.toThrow(reason);
  });
});
