import { execFileSync } from 'node:child_process';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, callError, connect } from './clients.js';

/** What a model meets the first time: text blocks it can act on, errors that say what to do. */
let h: Harness;
let editor: Client;
let capabilityId: string;
let featureId: string;

const head = () => execFileSync('git', ['--git-dir', h.gitdir, 'rev-parse', 'main'], { encoding: 'utf8' }).trim();
const documentIn = (text: string) => /\n<document>\n([\s\S]*)<\/document>$/.exec(text)?.[1];

beforeAll(async () => {
  h = await startHarness();
  editor = await connect(h, 'editor');
  capabilityId = (await call(editor, 'specbase_list_capabilities', { productId: h.productId })).data.items[0].id;
  featureId = (await call(editor, 'specbase_list_features', { capabilityId })).data.items[0].id;
});
afterAll(async () => {
  await editor?.close();
  await h?.close();
});

describe('text blocks', () => {
  it('of read, create and edit carry version and url, and a patch written from the text alone applies', async () => {
    const created = await call(editor, 'specbase_create_requirement', {
      featureId,
      type: 'CONSTRAINT',
      title: 'Under 2 seconds',
    });
    expect(created.text.split('\n')[0]).toBe('Created requirement "Under 2 seconds".');
    expect(created.text).toContain(`version ${created.data.version}`);
    expect(created.text).toContain(created.data.url);

    const read = await call(editor, 'specbase_read_requirement', { requirementId: created.data.id, mode: 'full' });
    expect(read.text).toContain(`version ${read.data.version}, ${read.data.url}`);
    const document = documentIn(read.text)!;
    expect(document).toBe(read.data.content);
    // A model that copies the first lines of the text block as context gets document lines only.
    const [first, second] = document.split('\n');
    const patch = `@@\n ${first}\n ${second}\n+Measured at the 95th percentile.\n`;
    const edited = await call(editor, 'specbase_edit_requirement', {
      requirementId: created.data.id,
      patch,
      baseVersion: read.data.version,
    });
    expect(edited.text.split('\n')[0]).toBe(
      `Edited "Under 2 seconds" (${created.data.id}): +1 -0 lines, version ${edited.data.version}, ${edited.data.url}`,
    );
  });

  it('count in the right number', async () => {
    const created = await call(editor, 'specbase_create_capability', { productId: h.productId, title: 'Loyalty' });
    await call(editor, 'specbase_create_feature', { capabilityId: created.data.id, title: 'Points' });
    expect((await call(editor, 'specbase_list_features', { capabilityId: created.data.id })).text.split('\n')[0]).toBe(
      '1 feature:',
    );
  });
});

describe('errors that teach', () => {
  it('say what an id of another type is, and which tool reads it', async () => {
    expect(await callError(editor, 'specbase_read_feature', { featureId: capabilityId })).toBe(
      `${capabilityId} is a capability, not a feature; use specbase_read_capability`,
    );
    expect(await callError(editor, 'specbase_list_requirements', { featureId: h.productId })).toBe(
      `${h.productId} is a product, not a feature; use specbase_read_product`,
    );
  });

  it('but never for an artifact the caller cannot read', async () => {
    const owner = await connect(h, 'owner');
    const partial = await connect(h, 'partial');
    try {
      const folders = (await call(owner, 'specbase_list_folders')).data.folders as { id: string; name: string }[];
      const folderId = folders.find((f) => f.name === 'Leadership')!.id;
      const hiddenPage = (await call(owner, 'specbase_list_pages', { folderId })).data.items[0].id as string;
      expect(await callError(owner, 'specbase_read_feature', { featureId: hiddenPage })).toMatch(
        /is a page, not a feature/,
      );
      expect(await callError(partial, 'specbase_read_feature', { featureId: hiddenPage })).toBe('artifact not found');
    } finally {
      await owner.close();
      await partial.close();
    }
  });

  it('name an unknown argument and the expected one, and change nothing', async () => {
    const before = head();
    expect(await callError(editor, 'specbase_read_feature', { id: featureId })).toBe(
      'unknown argument `id`; specbase_read_feature takes `featureId`',
    );
    expect(await callError(editor, 'specbase_create_feature', { capabilityId, title: 'X', titel: 'Y' })).toBe(
      'unknown argument `titel`; specbase_create_feature takes `capabilityId`, `title`, `content`',
    );
    expect(head()).toBe(before);
  });

  it('say an unknown tool once, without a doubled prefix', async () => {
    const error = await editor.callTool({ name: 'specbase_read_epic', arguments: {} }).then(
      (result) => {
        throw new Error(`unexpected result ${JSON.stringify(result as CallToolResult)}`);
      },
      (e: Error) => e,
    );
    expect(error.message).toBe(
      'MCP error -32602: unknown tool "specbase_read_epic"; tools/list names this server\'s tools',
    );
  });

  it('refuse a title with a line break instead of cutting it, and create nothing', async () => {
    const before = head();
    expect(await callError(editor, 'specbase_create_feature', { capabilityId, title: 'Gift\nwrapping' })).toBe(
      'the title has a line break (U+000A LF) at character 5; it must be one line of text without control characters',
    );
    expect(await callError(editor, 'specbase_create_page', { title: 'a'.repeat(201) })).toMatch(/title/);
    expect(head()).toBe(before);
  });
});
