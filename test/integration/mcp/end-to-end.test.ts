import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from '../../support/harness.js';
import { call, connect } from './clients.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const git = (gitdir: string, ...args: string[]) =>
  execFileSync('git', ['--git-dir', gitdir, ...args], { encoding: 'utf8' });

it('search, read, list, create, read, edit, read again: the edit is a commit by that user with trailers', async () => {
  const client = await connect(h, 'editor', 'streamable', 'e2e-assistant');
  try {
    const search = await call(client, 'specbase_search', { query: 'delivery slot' });
    expect(search.data.results.length).toBeGreaterThan(0);
    expect(search.data.results[0].url).toMatch(new RegExp(`^${h.baseUrl}/`));

    const product = await call(client, 'specbase_read_product');
    const capabilities = await call(client, 'specbase_list_capabilities', { productId: product.data.id });
    const capabilityId = capabilities.data.items[0].id as string;

    const created = await call(client, 'specbase_create_feature', { capabilityId, title: 'Gift wrapping' });
    const featureId = created.data.id as string;
    expect(created.text).toContain(featureId);

    const read = await call(client, 'specbase_read_feature', { featureId, mode: 'full' });
    expect(read.data).toMatchObject({
      id: featureId,
      title: 'Gift wrapping',
      parentId: capabilityId,
      truncated: false,
    });
    const lines = (read.data.content as string).split('\n');
    const patch = [
      '--- a/feature.md',
      '+++ b/feature.md',
      '@@ -1,2 +1,3 @@',
      ` ${lines[0]}`,
      '+',
      '+Shoppers can add gift wrapping to an order for 2 EUR.',
      '',
    ].join('\n');
    const edit = await call(client, 'specbase_edit_feature', { featureId, patch, baseVersion: read.data.version });
    expect(edit.data).toMatchObject({ id: featureId, added: 2, removed: 0 });
    expect(edit.data.diff).toContain('+Shoppers can add gift wrapping');

    const after = await call(client, 'specbase_read_feature', { featureId, mode: 'full' });
    expect(after.data.content).toContain('Shoppers can add gift wrapping to an order for 2 EUR.');
    expect(after.data.version).toBe(edit.data.version);
    expect(after.data.updatedBy).toBe('Editor Tester');
    const listed = await call(client, 'specbase_list_features', { capabilityId });
    expect(listed.data.items.map((i: { id: string }) => i.id)).toContain(featureId);

    const gitdir = `${h.dataDir}/orgs/${h.orgId}.git`;
    expect(git(gitdir, 'rev-parse', 'main').trim()).toBe(edit.data.version);
    const [editCommit, createCommit] = git(gitdir, 'log', '-n', '2', '--format=%H%x1f%an <%ae>%x1f%B%x1e', 'main')
      .split('\x1e')
      .map((entry) => entry.trim().split('\x1f'));
    expect(editCommit![0]).toBe(edit.data.version);
    expect(createCommit![0]).toBe(created.data.version);
    for (const [, author, message] of [editCommit!, createCommit!]) {
      expect(author).toBe('Editor Tester <editor@example.com>');
      expect(message).toContain(`Artifact-Id: ${featureId}`);
      expect(message).toContain('Artifact-Type: feature');
      expect(message).toContain('Client: e2e-assistant');
    }
    expect(editCommit![2]).toMatch(/^edit feature: Gift wrapping/i);
    expect(git(gitdir, 'show', '--format=', edit.data.version)).toContain(
      '+Shoppers can add gift wrapping to an order for 2 EUR.',
    );
  } finally {
    await client.close();
  }
});
