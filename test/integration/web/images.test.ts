import { rm } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { selfSignedCertificate, type SelfSigned } from '../https/certificate.js';
import { callTool, launchBrowser, mcpClient, signIn } from './support.js';

const PIXEL = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Rendered markdown shows images from our own origin and from the hosts SPECBASE_IMG_HOSTS
 * names, and no other: one https server answers as two origins (localhost, allowed, and
 * 127.0.0.1, not), and counts what the browser asks it for.
 */
describe('web: images only from our origin and the allowed hosts', () => {
  let certificate: SelfSigned;
  let images: Server;
  let port: number;
  const asked: string[] = [];
  let harness: Harness;
  let browser: Browser;

  beforeAll(async () => {
    certificate = await selfSignedCertificate();
    images = createServer(
      { cert: readFileSync(certificate.certFile), key: readFileSync(certificate.keyFile) },
      (req, res) => {
        asked.push(`${req.headers.host}${req.url}`);
        res.writeHead(200, { 'content-type': 'image/png' }).end(PIXEL);
      },
    );
    await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
    port = (images.address() as AddressInfo).port;
    harness = await startHarness({ env: { SPECBASE_IMG_HOSTS: `https://localhost:${port}` } });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    images?.close();
    if (certificate) await rm(certificate.dir, { recursive: true, force: true });
  });

  it("loads the allowed host's image and refuses the other origin's, by Content-Security-Policy", async () => {
    const client = await mcpClient(harness.baseUrl, harness.orgId, harness.users.editor.token);
    const page = await callTool(client, 'specbase_create_page', { title: 'Pictures' });
    await client.close();
    const body = `# Pictures\n\n![allowed](https://localhost:${port}/allowed.png)\n\n![tracker](https://127.0.0.1:${port}/tracker.png)\n`;
    await harness.services.store.update(
      harness.orgId,
      page.id as string,
      { verb: 'edit', body },
      { author: harness.users.editor.user },
    );

    const { context, page: tab } = await signIn(browser, harness, 'editor', `/o/${harness.orgId}`, {
      ignoreHTTPSErrors: true,
    });
    const violations: string[] = [];
    tab.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    const response = await tab.goto(`${harness.baseUrl}/o/${harness.orgId}/a/${page.id as string}`);
    const csp = response!.headers()['content-security-policy']!;
    expect(csp).toContain(`img-src 'self' data: https://localhost:${port};`);
    expect(csp).not.toMatch(/img-src[^;]*https:(?!\/\/)/);
    const loadedWidth = (img: unknown) => {
      const { complete, naturalWidth } = img as { complete: boolean; naturalWidth: number };
      return complete ? naturalWidth : 0;
    };
    await expect.poll(() => tab.locator('img[alt="allowed"]').evaluate(loadedWidth)).toBe(1);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(asked).toEqual([`localhost:${port}/allowed.png`]);
    expect(violations.join('\n')).toContain(`https://127.0.0.1:${port}/tracker.png`);
    await context.close();
  });

  it('sends the same policy on every web page, and none but our origin and data: without the setting', async () => {
    const signInPage = await fetch(`${harness.baseUrl}/`, { redirect: 'manual' });
    expect(signInPage.headers.get('content-security-policy')).toContain(
      `img-src 'self' data: https://localhost:${port};`,
    );
    const plain = await startHarness();
    try {
      const home = await fetch(`${plain.baseUrl}/`, { redirect: 'manual' });
      expect(home.headers.get('content-security-policy')).toContain("img-src 'self' data:;");
    } finally {
      await plain.close();
    }
  });
});
