import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { artifactUri } from '../../../src/tools/index.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { callAny as ok, connect } from '../mcp/clients.js';
import { connectModern } from '../mcp/modern-clients.js';
import { launchBrowser, signIn } from '../web/support.js';

/** Links an assistant writes: by web URL, by `specbase://` URI, by `[[Title]]`; through both SDK lines. */
let h: Harness;
let browser: Browser;
beforeAll(async () => {
  h = await startHarness();
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await h?.close();
});

const ids = (refs: { id: string }[]) => refs.map((r) => r.id);

describe.each([
  ['2025-11-25 (v1 SDK)', () => connect(h, 'editor')],
  ['2026-07-28 (v2 SDK)', () => connectModern(h, 'editor')],
] as const)('in the %s era', (era, open) => {
  it('counts URL, URI and wiki links; create and edit answer with the links resolved and those that are not, and why', async () => {
    const client = await open();
    try {
      const byUrl = (await ok(client, 'specbase_create_page', { title: `Returns ${era}` })).data;
      const byUri = (await ok(client, 'specbase_create_page', { title: `Refunds ${era}` })).data;
      const byTitle = (await ok(client, 'specbase_create_page', { title: `Exchanges ${era}` })).data;
      for (const twin of [1, 2])
        await ok(client, 'specbase_create_page', { content: `# Twin ${era}\n\nCopy ${twin}.\n` });
      const missing = newId();
      const created = await ok(client, 'specbase_create_page', {
        content:
          `# Policy ${era}\n\nSee [returns](${byUrl.url}), [refunds](${artifactUri(h.orgId, byUri.id)}), ` +
          `[[exchanges ${era}|exchanges]], [[Twin ${era}]], [[Nowhere ${era}]] and [gone](${artifactUri(h.orgId, missing)}).\n`,
      });
      const policy = created.data;
      expect(created.text).toContain(
        `Links to: page ${byUrl.id} "Returns ${era}"; page ${byUri.id} "Refunds ${era}"; page ${byTitle.id} "Exchanges ${era}"`,
      );
      expect(created.text).toContain(
        `Unresolved links: [[twin ${era.toLowerCase()}]] (ambiguous title); [[nowhere ${era.toLowerCase()}]] (no such artifact); ${missing} (no such artifact)`,
      );
      // The resolved links come as resource links beside the text, as search results do.
      expect(created.content.filter((block) => block.type === 'resource_link').map((block) => block.uri)).toEqual(
        [byUrl.id, byUri.id, byTitle.id].map((id) => artifactUri(h.orgId, id)),
      );

      const read = await ok(client, 'specbase_read_page', { pageId: policy.id });
      expect(ids(read.data.links)).toEqual([byUrl.id, byUri.id, byTitle.id]);
      for (const target of [byUrl, byUri, byTitle]) {
        const back = await ok(client, 'specbase_read_page', { pageId: target.id });
        expect(ids(back.data.referencedBy), target.title).toEqual([policy.id]);
      }

      // A rename keeps the links by id; a link by title then leads nowhere, and says so.
      for (const target of [byUri, byTitle]) {
        await ok(client, 'specbase_edit_page', {
          pageId: target.id,
          patch: `@@\n-# ${target.title}\n+# ${target.title} (old)\n`,
        });
      }
      const after = await ok(client, 'specbase_read_page', { pageId: policy.id });
      expect(ids(after.data.links)).toEqual([byUrl.id, byUri.id]);
      expect(after.text).toContain(`[[exchanges ${era.toLowerCase()}]] (no such artifact)`);
      expect(ids((await ok(client, 'specbase_read_page', { pageId: byTitle.id })).data.referencedBy)).toEqual([]);

      const edited = await ok(client, 'specbase_edit_page', {
        pageId: policy.id,
        patch: `@@\n # Policy ${era}\n+\n+Also [[Exchanges ${era} (old)]].\n`,
      });
      expect(edited.text).toContain(`page ${byTitle.id} "Exchanges ${era} (old)"`);
      expect(edited.content.some((block) => block.uri === artifactUri(h.orgId, byTitle.id))).toBe(true);
    } finally {
      await client.close();
    }
  });
});

it('a title only some readers can see resolves for each as they see it, and never shows the hidden one', async () => {
  const editor = await connect(h, 'editor');
  const partial = await connect(h, 'partial');
  try {
    const folders = (await ok(editor, 'specbase_list_folders', {})).data.folders as { id: string; name: string }[];
    const hiddenFolder = folders.find((f) => f.name === 'Leadership')!.id;
    const visible = (await ok(editor, 'specbase_create_page', { title: 'Shared title' })).data;
    await ok(editor, 'specbase_create_page', { folderId: hiddenFolder, title: 'Shared title' });
    const linking = (await ok(editor, 'specbase_create_page', { content: '# Pointer\n\nSee [[Shared title]].\n' }))
      .data;
    expect((await ok(editor, 'specbase_read_page', { pageId: linking.id })).text).toContain(
      '[[shared title]] (ambiguous title)',
    );
    const seen = await ok(partial, 'specbase_read_page', { pageId: linking.id });
    expect(ids(seen.data.links)).toEqual([visible.id]);
  } finally {
    await Promise.all([editor.close(), partial.close()]);
  }
});

it('the artifact page lists the links that lead nowhere', async () => {
  const client = await connect(h, 'editor');
  let pageId: string;
  try {
    pageId = (await ok(client, 'specbase_create_page', { content: '# Dangling\n\nSee [[No such page]].\n' })).data.id;
  } finally {
    await client.close();
  }
  const signedIn = await signIn(browser, h, 'editor', `/o/${h.orgId}/a/${pageId}`);
  try {
    const list = signedIn.page.getByRole('list', { name: /Links that lead nowhere/ });
    expect(await list.innerText()).toMatch(/\[\[no such page\]\]\s*\(no such artifact\)/);
  } finally {
    await signedIn.context.close();
  }
});
