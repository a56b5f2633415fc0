/**
 * The MCP Apps for `npm run screenshots`: each app mounted by ext-apps' own host bridge in a test
 * host page, against the running service over a real MCP client, at desktop and phone widths in
 * the host's light and dark themes.
 */
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { Browser } from 'playwright-core';
import { connectAppsClient, openAppsHost } from '../test/support/apps-host.js';
import type { Harness } from '../test/support/harness.js';

const SIZES = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'mobile', width: 390, height: 844 },
] as const;
const THEMES = ['light', 'dark'] as const;

export async function shootApps(browser: Browser, harness: Harness, requirementId: string, out: string): Promise<void> {
  const client = await connectAppsClient(harness, 'owner');
  try {
    const call = async (name: string, args: Record<string, unknown>) =>
      (await client.callTool({ name, arguments: args })) as CallToolResult;
    const current = (await call('specbase_read_requirement', { requirementId, mode: 'full' })).structuredContent as {
      content: string;
    };
    const lines = current.content.split('\n');
    const line = lines.slice(lines.indexOf('## Statement')).find((l) => /^[A-Z].{20,}$/.test(l));
    if (!line) throw new Error('no sentence to edit in the requirement');
    const edited = await call('specbase_edit_requirement', {
      requirementId,
      patch: `@@\n-${line}\n+${line.replace(/ within /, ' at most ').replace(/one edit/, 'a single edit')}\n`,
    });
    const results = {
      artifact: await call('specbase_read_requirement', { requirementId }),
      change: edited,
      search: await call('specbase_search', { query: 'typo search', limit: 6 }),
    };
    for (const size of SIZES) {
      const host = await openAppsHost(browser, client, { width: size.width, height: size.height });
      try {
        for (const theme of THEMES) {
          for (const [app, result] of Object.entries(results)) {
            const frame = await host.mount(`ui://specbase/${app}`, result, theme);
            await frame
              .locator(
                app === 'search' ? 'ul.results .place:not(:empty)' : app === 'change' ? 'table.diff' : '.markdown',
              )
              .first()
              .waitFor();
            await host.page.waitForTimeout(400);
            await host.page.screenshot({
              path: path.join(out, `app-${app}-${size.name}-${theme}.png`),
              fullPage: true,
            });
          }
        }
      } finally {
        await host.close();
      }
    }
  } finally {
    await client.close();
  }
}
