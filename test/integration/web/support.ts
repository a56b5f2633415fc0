import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { CHROMIUM_LAUNCHER } from '../../support/chromium.js';
import type { Harness, Persona } from '../../support/harness.js';

export const SCREENSHOTS = path.resolve('test-output/screenshots');

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_LAUNCHER,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export interface SignedIn {
  readonly context: BrowserContext;
  readonly page: Page;
  /** Every dialog (alert, confirm) the pages opened; XSS tests expect none. */
  readonly dialogs: string[];
  /** How later dialogs are answered; dismissed unless a test says otherwise. */
  answerDialogs(answer: 'accept' | 'dismiss'): void;
}

/** Signs a persona in through the real sign-in form of the embedded identity provider. */
export async function signIn(
  browser: Browser,
  harness: Harness,
  persona: Persona,
  startPath = `/o/${harness.orgId}`,
  options: BrowserContextOptions = {},
): Promise<SignedIn> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, ...options });
  const page = await context.newPage();
  const dialogs: string[] = [];
  let answer: 'accept' | 'dismiss' = 'dismiss';
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
  });
  await page.goto(harness.baseUrl + startPath);
  await page.getByLabel('Email').fill(harness.users[persona].user.email);
  await page.getByLabel('Password').fill(harness.users[persona].password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === startPath);
  return { context, page, dialogs, answerDialogs: (next) => (answer = next) };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** An MCP client of the organization, authenticated with a personal access token. */
export async function mcpClient(
  baseUrl: string,
  orgId: string,
  token: string,
  name = 'web-test-client',
): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${baseUrl}/api/mcp/mcp`), {
    requestInit: { headers: { 'X-Organization-Id': orgId, Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const result = await client.callTool({ name, arguments: args });
  if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

export function git(gitdir: string, ...args: string[]): string {
  return execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' });
}

/** The CSRF token of a page's own form, inside `<main>`: the header's sign-out form carries another. */
export function mainFormCsrf(html: string): string {
  const found = /<main[\s\S]*?name="csrf" value="([^"]+)"/.exec(html);
  if (!found) throw new Error("no form with a CSRF token in the page's main content");
  return found[1]!;
}
