import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { authorizeInBrowser, HttpBrowser } from './browser.js';

/**
 * The real `mcp-remote` over stdio against the whole application: it discovers the metadata
 * from the 401, registers, "opens" the authorization URL (a BROWSER script writes it to a file),
 * and the test signs in and approves like the user would.
 */
describe('mcp-remote end to end', () => {
  let harness: Harness;
  let configDir: string;
  let urlFile: string;
  let browserScript: string;

  beforeAll(async () => {
    harness = await startHarness();
    configDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-mcp-remote-'));
    urlFile = path.join(configDir, 'authorization-url.txt');
    browserScript = path.join(configDir, 'browser.sh');
    await writeFile(browserScript, `#!/bin/sh\nprintf '%s' "$1" > '${urlFile}'\n`);
    await chmod(browserScript, 0o755);
  });
  afterAll(async () => {
    await harness?.close();
    if (configDir) await rm(configDir, { recursive: true, force: true });
  });

  const refreshTokensUsed = async () =>
    (await harness.services.control.db.get<{ n: number }>(
      "SELECT COUNT(*) AS n FROM auth_tokens WHERE kind = 'refresh' AND used_at IS NOT NULL",
    ))!.n;

  async function run(expectBrowser: boolean): Promise<{ tools: string[]; productText: string; stderr: string }> {
    await rm(urlFile, { force: true });
    const transport = new StdioClientTransport({
      command: 'npx',
      args: [
        '--no-install',
        'mcp-remote',
        `${harness.baseUrl}/api/mcp/mcp`,
        '--header',
        `X-Organization-Id:${harness.orgId}`,
      ],
      env: {
        ...(process.env as Record<string, string>),
        MCP_REMOTE_CONFIG_DIR: configDir,
        BROWSER: browserScript,
        DISPLAY: '',
      },
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const client = new Client({ name: 'specbase-auth-test', version: '1.0.0' });
    const connected = client.connect(transport);
    if (expectBrowser) {
      const authorizationUrl = await waitFor(
        async () => {
          const fromFile = await readFile(urlFile, 'utf8').catch(() => '');
          return fromFile || /Please authorize this client by visiting:\s+(\S+)/.exec(stderr)?.[1];
        },
        () => stderr,
      );
      const redirectUri = new URL(authorizationUrl).searchParams.get('redirect_uri')!;
      const callback = await authorizeInBrowser(new HttpBrowser(), authorizationUrl, {
        email: harness.demo.userEmail,
        password: harness.demo.password,
        redirectPrefix: redirectUri,
      });
      expect(callback.searchParams.get('code')).toMatch(/^sbc_/);
      expect((await fetch(callback)).status).toBeLessThan(400);
    }
    try {
      await connected;
      const tools = (await client.listTools()).tools.map((tool) => tool.name);
      const product = await client.callTool({ name: 'specbase_read_product', arguments: {} });
      expect(product.isError, JSON.stringify(product)).toBeFalsy();
      const productText = (product.content as { type: string; text?: string }[])
        .map((part) => part.text ?? '')
        .join('\n');
      return { tools, productText, stderr };
    } finally {
      await client.close();
    }
  }

  it('first run signs in through the browser; second run reuses tokens; an expired token is refreshed', async () => {
    const first = await run(true);
    expect(first.tools).toHaveLength(31);
    expect(first.tools).toContain('specbase_search');
    expect(first.productText.length).toBeGreaterThan(0);

    const second = await run(false);
    expect(second.stderr).not.toContain('Please authorize this client');
    expect(second.tools).toHaveLength(31);

    const usedBefore = await refreshTokensUsed();
    await harness.services.control.db.run(
      "UPDATE auth_tokens SET expires_at = expires_at - 7200 WHERE kind = 'access'",
    );
    const third = await run(false);
    expect(third.stderr).not.toContain('Please authorize this client');
    expect(third.tools).toHaveLength(31);
    expect(await refreshTokensUsed()).toBeGreaterThan(usedBefore);
  }, 180_000);
});

async function waitFor(
  probe: () => Promise<string | undefined>,
  context: () => string,
  timeoutMs = 60_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await probe();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`mcp-remote never asked for authorization; its stderr:\n${context()}`);
}
