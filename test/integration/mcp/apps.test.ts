import type { Client as ModernClient, CallToolResult } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOOLS_LIST_BUDGET_BYTES } from '../../../src/tools/index.js';
import { APPS_CAPABILITIES, connectAppsClient, openAppsHost } from '../../support/apps-host.js';
import { git } from '../../support/git.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { launchBrowser } from '../web/support.js';
import { connect } from './clients.js';
import { connectModern, modernRaw } from './modern-clients.js';

let h: Harness;
let browser: Browser;
let owner: ModernClient;
let viewer: ModernClient;

beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
  owner = await connectAppsClient(h, 'owner');
  viewer = await connectAppsClient(h, 'viewer');
});
afterAll(async () => {
  await Promise.all([owner?.close(), viewer?.close()]);
  await browser?.close();
  await h?.close();
});

const ok = async (client: ModernClient, name: string, args: Record<string, unknown>): Promise<CallToolResult> => {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result;
};

/** The commits of the organization's repository, newest first. */
const commits = async (): Promise<string[]> =>
  (await git(h.gitdir, 'log', '--format=%H %s', 'main')).trim().split('\n');

const UNSAFE_BODY = [
  'The body carries <script>window.pwned = "script"</script> markup',
  '<img src="x" onerror="window.pwned = \'onerror\'"> and <a href="javascript:window.pwned=1">a link</a>.',
  '',
  'Pay by **card**.',
];

/** A page of the owner's with an unsafe body, and the edit result that put it there. */
async function pageWithEdit(title: string): Promise<{ id: string; created: CallToolResult; edited: CallToolResult }> {
  const created = await ok(owner, 'specbase_create_page', { title });
  const id = (created.structuredContent as { id: string }).id;
  const patch = `@@\n # ${title}\n+\n${UNSAFE_BODY.map((line) => `+${line}`).join('\n')}\n`;
  const edited = await ok(owner, 'specbase_edit_page', { pageId: id, patch });
  return { id, created, edited };
}

/** `client` presses Revert in the change view of `edited`: the view's alert matches `said`, and no commit is made. */
async function expectRevertRefused(client: ModernClient, edited: CallToolResult, said: RegExp): Promise<void> {
  const host = await openAppsHost(browser, client);
  try {
    const frame = await host.mount('ui://specbase/change', edited);
    await frame.locator('table.diff').waitFor();
    const before = await commits();
    await frame.getByRole('button', { name: 'Revert this change' }).click();
    await frame.getByRole('button', { name: 'Revert', exact: true }).click();
    const alert = frame.getByRole('alert');
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(said);
    expect(await commits()).toEqual(before);
  } finally {
    await host.close();
  }
}

describe('what clients see', () => {
  it('offers the apps, in tools/list and resources, only to clients that render them, in both eras', async () => {
    const plain = await connectModern(h, 'owner');
    const legacyPlain = await connect(h, 'owner');
    try {
      for (const client of [plain, legacyPlain]) {
        const { tools } = await client.listTools();
        expect(tools.some((tool) => tool._meta !== undefined)).toBe(false);
        expect(tools.map((tool) => tool.name).filter((name) => name.startsWith('specbase_app_'))).toEqual([]);
        const { resources } = await client.listResources();
        expect(resources.filter((resource) => resource.uri.startsWith('ui://'))).toEqual([]);
      }
      const { tools } = await owner.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('specbase_read_feature')?._meta).toEqual({ ui: { resourceUri: 'ui://specbase/artifact' } });
      expect(byName.get('specbase_create_page')?._meta).toEqual({ ui: { resourceUri: 'ui://specbase/artifact' } });
      expect(byName.get('specbase_edit_page')?._meta).toEqual({ ui: { resourceUri: 'ui://specbase/change' } });
      expect(byName.get('specbase_search')?._meta).toEqual({ ui: { resourceUri: 'ui://specbase/search' } });
      expect(byName.get('specbase_list_folders')?._meta).toBeUndefined();
      const appOnly = tools.filter((tool) => tool.name.startsWith('specbase_app_'));
      expect(appOnly.map((tool) => tool.name)).toEqual([
        'specbase_app_artifact',
        'specbase_app_change',
        'specbase_app_places',
        'specbase_app_revert',
      ]);
      for (const tool of appOnly) expect(tool._meta).toEqual({ ui: { visibility: ['app'] } });
    } finally {
      await Promise.all([plain.close(), legacyPlain.close()]);
    }
  });

  it('lists the apps to a 2025-era client that declares the extension', async () => {
    const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const client = new Client({ name: 'legacy-apps-host', version: '1.0.0' }, { capabilities: APPS_CAPABILITIES });
    await client.connect(
      new StreamableHTTPClientTransport(new URL('/api/mcp/mcp', h.baseUrl), {
        requestInit: { headers: { Authorization: `Bearer ${h.users.owner.token}`, 'X-Organization-Id': h.orgId } },
      }),
    );
    try {
      const [modern, legacy] = await Promise.all([owner.listTools(), client.listTools()]);
      expect(legacy.tools).toEqual(modern.tools);
      const { resources } = await client.listResources();
      expect(resources.slice(0, 3).map((resource) => resource.uri)).toEqual([
        'ui://specbase/artifact',
        'ui://specbase/change',
        'ui://specbase/search',
      ]);
    } finally {
      await client.close();
    }
  });

  it('keeps tools/list under 25 KB for a client that renders apps', async () => {
    const answer = await modernRaw(h, 'tools/list', {
      _meta: { 'io.modelcontextprotocol/clientCapabilities': APPS_CAPABILITIES },
    });
    expect(answer.status).toBe(200);
    const tools = (answer.json as { result: { tools: { name: string }[] } }).result.tools;
    expect(tools.some((tool) => tool.name === 'specbase_app_revert')).toBe(true);
    console.log(`tools/list for a client that renders apps: ${answer.bytes} bytes`);
    expect(answer.bytes).toBeLessThan(TOOLS_LIST_BUDGET_BYTES);
  });

  it('serves each app as a ui:// resource: HTML of the app MIME type, no outside loads, its own strict policy', async () => {
    const { resources } = await owner.listResources();
    const apps = resources.filter((resource) => resource.uri.startsWith('ui://'));
    expect(apps.map((app) => [app.uri, app.mimeType])).toEqual([
      ['ui://specbase/artifact', 'text/html;profile=mcp-app'],
      ['ui://specbase/change', 'text/html;profile=mcp-app'],
      ['ui://specbase/search', 'text/html;profile=mcp-app'],
      ['ui://specbase/change-request', 'text/html;profile=mcp-app'],
    ]);
    for (const app of apps) {
      const read = await owner.readResource({ uri: app.uri });
      const content = read.contents[0] as unknown as {
        mimeType: string;
        text: string;
        _meta: { ui: { csp: Record<string, string[]> } };
      };
      expect(content.mimeType).toBe('text/html;profile=mcp-app');
      expect(content._meta.ui.csp).toEqual({
        connectDomains: [],
        resourceDomains: [],
        frameDomains: [],
        baseUriDomains: [],
      });
      expect(content.text).toMatch(
        /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; img-src data:/,
      );
      // One inline module script (the ext-apps runtime and the app) and one inline stylesheet: nothing loaded.
      expect(content.text.match(/<script/g)).toHaveLength(1);
      const markup = content.text.replace(/<script type="module">[\s\S]*<\/script>/, '');
      expect(markup).not.toMatch(/<link|<iframe|<img|src=|@import|url\(/i);
    }
  });

  it('gives clients without apps exactly the results of before, and refuses them the app-only tools', async () => {
    const plain = await connectModern(h, 'owner');
    try {
      const args = { query: 'checkout', limit: 5 };
      const [mine, theirs] = await Promise.all([
        owner.callTool({ name: 'specbase_search', arguments: args }),
        plain.callTool({ name: 'specbase_search', arguments: args }),
      ]);
      expect(mine).toEqual(theirs);
      const refused = (await plain.callTool({
        name: 'specbase_app_artifact',
        arguments: { id: h.productId },
      })) as CallToolResult;
      expect(refused.isError).toBe(true);
      expect((refused.content[0] as { text: string }).text).toContain('did not declare that it renders them');
    } finally {
      await plain.close();
    }
  });
});

describe('the apps in a host', () => {
  it('artifact view: the document as the web application renders it, with type, place, version, author and link; script stays inert', async () => {
    const { id, created } = await pageWithEdit('Apps artifact view');
    const read = await ok(owner, 'specbase_read_page', { pageId: id });
    const host = await openAppsHost(browser, owner);
    try {
      const frame = await host.mount('ui://specbase/artifact', read);
      await frame.getByRole('heading', { level: 1, name: 'Apps artifact view' }).waitFor();
      const text = await frame.locator('main').innerText();
      expect(text).toMatch(/^Pages\b/);
      expect(text).toContain('PAGE');
      expect(text).toContain(`Version ${(read.structuredContent as { version: string }).version.slice(0, 7)}`);
      expect(text).toContain(`last changed by ${h.users.owner.user.name}`);
      expect(await frame.locator('.markdown strong').innerText()).toBe('card');
      expect(
        await frame.locator('.markdown script, .markdown [onerror], .markdown a[href^="javascript"]').count(),
      ).toBe(0);
      expect(await frame.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
      // Past the sanitizer, the app's own policy: an inline handler that got into the page never runs.
      await frame.evaluate(() => {
        const doc = (globalThis as any).document;
        doc
          .querySelector('.markdown')
          .insertAdjacentHTML('beforeend', '<img src="x" onerror="window.pwned = \'past the sanitizer\'">');
      });
      await host.page.waitForTimeout(200);
      expect(await frame.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();
      await frame.getByRole('link', { name: 'Open in Specbase' }).click();
      expect(await host.page.evaluate(() => (globalThis as any).openedLinks)).toEqual([
        (read.structuredContent as { url: string }).url,
      ]);
      expect(host.calls).toEqual(['specbase_app_artifact']);

      // The create result opens the same view.
      const again = await host.mount('ui://specbase/artifact', created);
      await again.getByRole('heading', { level: 1, name: 'Apps artifact view' }).waitFor();
    } finally {
      await host.close();
    }
  });

  it('edit review: the diff with changed words, who and when; Revert makes exactly one revert commit', async () => {
    const { id, edited } = await pageWithEdit('Apps change review');
    const change = edited.structuredContent as { version: string };
    const host = await openAppsHost(browser, owner);
    try {
      const frame = await host.mount('ui://specbase/change', edited);
      await frame.locator('table.diff').waitFor();
      expect(await frame.locator('table.diff tr.add').count()).toBe(UNSAFE_BODY.length + 1);
      const meta = await frame.locator('.head .meta').innerText();
      expect(meta).toContain(`By ${h.users.owner.user.name}`);
      expect(meta).toContain('+5');
      expect(await frame.evaluate(() => (globalThis as { pwned?: unknown }).pwned)).toBeUndefined();

      const before = await commits();
      await frame.getByRole('button', { name: 'Revert this change' }).click();
      await frame.getByRole('heading', { name: 'Revert this change?' }).waitFor();
      await frame.getByRole('button', { name: 'Revert', exact: true }).click();
      await frame.getByText('Reverted.').waitFor();
      const after = await commits();
      expect(after.length).toBe(before.length + 1);
      expect(after.slice(1)).toEqual(before);
      const [revertCommit] = after[0]!.split(' ');
      const message = await git(h.gitdir, 'log', '-1', '--format=%B', revertCommit!);
      expect(message).toContain(change.version);
      const page = (await ok(owner, 'specbase_read_page', { pageId: id, mode: 'full' })).structuredContent as {
        content: string;
      };
      expect(page.content).not.toContain('Pay by');
      expect(host.calls).toEqual(['specbase_app_change', 'specbase_app_revert']);
    } finally {
      await host.close();
    }
  });

  it("edit review: a viewer's Revert is refused and nothing is written", async () => {
    const { edited } = await pageWithEdit('Apps viewer review');
    await expectRevertRefused(viewer, edited, /^Nothing was written\. .*(permission|role|viewer|cannot|may not)/i);
  });

  it('edit review: a revert that conflicts with a later change is reported and nothing is written', async () => {
    const { id, edited } = await pageWithEdit('Apps conflicting review');
    await ok(owner, 'specbase_edit_page', { pageId: id, patch: '@@\n-Pay by **card**.\n+Pay by **invoice**.\n' });
    await expectRevertRefused(owner, edited, /^Nothing was written\. cannot revert/);
  });

  it("follows the host's theme, also when it changes, and reads at 390 px without sideways scrolling", async () => {
    const { edited } = await pageWithEdit('Apps on a phone');
    const host = await openAppsHost(browser, owner, { width: 390, height: 844 });
    try {
      const frame = await host.mount('ui://specbase/change', edited, 'dark');
      await frame.locator('table.diff').waitFor();
      const look = () =>
        frame.evaluate(() => {
          const doc = (globalThis as any).document;
          return {
            theme: doc.documentElement.dataset.theme,
            background: (globalThis as any).getComputedStyle(doc.body).backgroundColor,
            wide: doc.documentElement.scrollWidth,
          };
        });
      expect(await look()).toEqual({ theme: 'dark', background: 'rgb(28, 31, 38)', wide: 390 });
      await host.page.evaluate(() =>
        (globalThis as any).bridge.setHostContext({ theme: 'light', displayMode: 'inline', platform: 'web' }),
      );
      await frame.waitForFunction(() => (globalThis as any).document.documentElement.dataset.theme === 'light');
      expect(await look()).toEqual({ theme: 'light', background: 'rgb(255, 255, 255)', wide: 390 });
    } finally {
      await host.close();
    }
  });

  it('search results: a list with type badges and places in the tree, each opening the artifact view', async () => {
    const search = await ok(owner, 'specbase_search', { query: 'checkout payment', limit: 5 });
    const results = (search.structuredContent as { results: { id: string; title: string; type: string }[] }).results;
    expect(results.length).toBeGreaterThan(1);
    const host = await openAppsHost(browser, owner);
    try {
      const frame = await host.mount('ui://specbase/search', search);
      const items = frame.locator('ul.results button.result');
      await items.first().waitFor();
      expect(await items.count()).toBe(results.length);
      expect(await items.first().locator('.badge').innerText()).toMatch(/^[A-Z ]+$/);
      await frame.locator('ul.results .place:not(:empty)').first().waitFor();
      const target = results.find((r) => r.type !== 'product') ?? results[0]!;
      const item = items.filter({ hasText: target.title }).first();
      expect(await item.locator('.place').innerText()).not.toBe('');
      await item.click();
      await frame.getByRole('heading', { level: 1, name: target.title }).waitFor();
      await frame.getByRole('button', { name: '← Results' }).click();
      await items.first().waitFor();
      expect(host.calls).toEqual(['specbase_app_places', 'specbase_app_artifact']);
    } finally {
      await host.close();
    }
  });
});

describe('the change request view', () => {
  it('shows the combined diff; Merge and Close are app-only, and the author under four eyes cannot merge', async () => {
    const reviewer = await connectAppsClient(h, 'owner', { 'X-Specbase-Tools': '+review' });
    const author = await connectAppsClient(h, 'editor', { 'X-Specbase-Change-Request': 'new' });
    const owner = { principal: (await h.services.control.members.principal(h.orgId, h.users.owner.user.id))! };
    const changeRequests = h.services.changeRequests.changeRequests;
    await changeRequests.setReviewRules(owner, h.defaultWorkspaceId, {
      assistantChangesNeedReview: false,
      authorCannotMerge: true,
    });
    try {
      const proposed = await ok(author, 'specbase_create_page', { title: 'Proposed in the app' });
      const number = Number(/change request #(\d+)/.exec(JSON.stringify(proposed.content))?.[1]);
      const modelTools = (await reviewer.listTools()).tools.filter(
        (tool) => (tool._meta as { ui?: { visibility?: string[] } } | undefined)?.ui?.visibility === undefined,
      );
      expect(modelTools.map((tool) => tool.name)).not.toContain('specbase_app_merge_change_request');

      const asAuthor = await openAppsHost(browser, author);
      try {
        const read = await ok(author, 'specbase_read_change_request', { number });
        const frame = await asAuthor.mount('ui://specbase/change-request', read);
        await frame.locator('table.diff').first().waitFor();
        expect(await frame.getByRole('button', { name: 'Merge' }).isDisabled()).toBe(true);
        expect(await frame.locator('.notice').first().innerText()).toMatch(/four eyes/);
      } finally {
        await asAuthor.close();
      }

      const before = await commits();
      const asReviewer = await openAppsHost(browser, reviewer);
      try {
        const read = await ok(reviewer, 'specbase_read_change_request', { number });
        const frame = await asReviewer.mount('ui://specbase/change-request', read);
        expect(await frame.locator('h1').innerText()).toBe('New page: Proposed in the app');
        await frame.getByRole('button', { name: 'Merge' }).click();
        await frame.getByRole('status').filter({ hasText: 'Merged onto main.' }).waitFor();
        expect(asReviewer.calls).toContain('specbase_app_merge_change_request');
      } finally {
        await asReviewer.close();
      }
      const after = await commits();
      expect(after.length).toBe(before.length + 1);
      expect(after[0]).toMatch(/Create page: Proposed in the app$/);
    } finally {
      await changeRequests.setReviewRules(owner, h.defaultWorkspaceId, {
        assistantChangesNeedReview: false,
        authorCannotMerge: false,
      });
      await Promise.all([reviewer.close(), author.close()]);
    }
  });
});
