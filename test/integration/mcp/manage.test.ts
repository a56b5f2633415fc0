import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../../src/ids.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { artifactUri, buildCatalog } from '../../../src/tools/index.js';
import { git } from '../../support/git.js';
import { startHarness, type Harness, type Persona } from '../../support/harness.js';
import { callAny as ok, callAnyError as fails, connect, elicitor, type AnyClient, type Elicitor } from './clients.js';
import { connectModern } from './modern-clients.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h?.close();
});

const DEFAULT_NAMES = buildCatalog()
  .listed.map((tool) => tool.name)
  .sort();
const MANAGE_NAMES = [
  'specbase_delete_artifact',
  'specbase_move_artifact',
  'specbase_read_history',
  'specbase_restore_artifact',
  'specbase_revert_change',
];
const REVIEW_NAMES = [
  'specbase_list_change_requests',
  'specbase_open_change_request',
  'specbase_read_change_request',
  'specbase_submit_change_request',
];

interface OpenOptions {
  readonly headers?: Record<string, string>;
  /** A path of the organization-in-path form, e.g. `manage/mcp` for /api/mcp/o/{org}/manage/mcp. */
  readonly orgPath?: string;
  readonly elicit?: Elicitor;
}
type Opener = (persona: Persona, options?: OpenOptions) => Promise<AnyClient>;

const ERAS: readonly [string, Opener][] = [
  [
    '2025-11-25 (v1 SDK)',
    (persona, { headers, orgPath, elicit } = {}) =>
      connect(h, persona, orgPath ? 'streamable-path' : 'streamable', 'manage-test', {
        ...(headers ? { headers } : {}),
        ...(orgPath ? { url: new URL(`/api/mcp/o/${h.orgId}/${orgPath}`, h.baseUrl) } : {}),
        ...(elicit ? { elicit } : {}),
      }),
  ],
  [
    '2026-07-28 (v2 SDK)',
    (persona, { headers, orgPath, elicit } = {}) =>
      connectModern(h, persona, 'pinned', {
        ...(headers ? { headers } : {}),
        ...(orgPath ? { path: `/api/mcp/o/${h.orgId}/${orgPath}` } : {}),
        ...(elicit ? { elicit } : {}),
      }),
  ],
];

const MANAGE = { 'X-Specbase-Tools': '+manage' };

async function names(client: AnyClient): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name).sort();
}

const head = () => git(h.gitdir, 'rev-parse', 'main').then((out) => out.trim());

/** A capability with a feature holding two requirements, created for one test. */
async function tree(client: AnyClient, label: string) {
  const capability = (await ok(client, 'specbase_create_capability', { productId: h.productId, title: `${label} cap` }))
    .data;
  const feature = (await ok(client, 'specbase_create_feature', { capabilityId: capability.id, title: `${label} feat` }))
    .data;
  const requirements = [];
  for (const n of [1, 2]) {
    requirements.push(
      (await ok(client, 'specbase_create_requirement', { featureId: feature.id, title: `${label} req ${n}` })).data,
    );
  }
  return { capability, feature, requirements };
}

describe.each(ERAS)('in the %s era', (era, open) => {
  it('a connection that asks for nothing lists exactly the 31 tools and refuses a manage tool, saying how to ask', async () => {
    const client = await open('owner');
    try {
      expect(await names(client)).toEqual(DEFAULT_NAMES);
      expect(DEFAULT_NAMES).toHaveLength(31);
      const text = await fails(client, 'specbase_read_history', { artifactId: h.productId });
      expect(text).toContain('specbase_read_history is a manage tool, which a connection gets only by asking');
      expect(text).toContain('X-Specbase-Tools: +manage');
    } finally {
      await client.close();
    }
  });

  it('+manage and the /manage URL add the five manage tools, all the review ones too; a filter gets what it names', async () => {
    for (const [options, added] of [
      [{ headers: MANAGE }, MANAGE_NAMES],
      [{ headers: { 'X-Specbase-Tools': 'all' } }, [...MANAGE_NAMES, ...REVIEW_NAMES]],
      [{ orgPath: 'manage/mcp' }, MANAGE_NAMES],
    ] as const) {
      const client = await open('owner', options);
      try {
        expect(await names(client), JSON.stringify(options)).toEqual([...DEFAULT_NAMES, ...added].sort());
        expect((await ok(client, 'specbase_read_history', { artifactId: h.productId })).data.entries.length).toBe(1);
      } finally {
        await client.close();
      }
    }
    const filtered = await open('owner', { headers: { 'X-Specbase-Tools': 'read, specbase_read_history' } });
    try {
      const listed = await names(filtered);
      expect(listed).toContain('specbase_read_history');
      expect(listed).not.toContain('specbase_delete_artifact');
      expect(listed.every((name) => name.startsWith('specbase_read_'))).toBe(true);
      expect(await fails(filtered, 'specbase_delete_artifact', { artifactId: newId() })).toContain(
        'is not among the tools this connection asked for',
      );
    } finally {
      await filtered.close();
    }
  });

  it('a read-only connection never gets them, whatever it asks', async () => {
    for (const options of [
      { headers: { ...MANAGE, 'X-Specbase-Readonly': 'true' } },
      { headers: MANAGE, orgPath: 'readonly/mcp' },
    ]) {
      const client = await open('owner', options);
      try {
        const listed = await names(client);
        for (const name of MANAGE_NAMES) expect(listed).not.toContain(name);
        expect(await fails(client, 'specbase_read_history', { artifactId: h.productId })).toContain(
          'specbase_read_history is a manage tool, and this connection is read-only',
        );
      } finally {
        await client.close();
      }
    }
    const { secret } = await h.services.control.tokens.create({
      userId: h.users.owner.user.id,
      name: `read-only ${era}`,
      readOnly: true,
    });
    const viaToken = era.startsWith('2025')
      ? await connect(h, 'owner', 'streamable', 'manage-test', { token: secret, headers: MANAGE })
      : await connectModern(h, 'owner', 'pinned', { token: secret, headers: MANAGE });
    try {
      expect(await names(viaToken)).not.toContain('specbase_delete_artifact');
      expect(await fails(viaToken, 'specbase_delete_artifact', { artifactId: h.productId })).toContain(
        'its token or authorization was created read-only',
      );
    } finally {
      await viaToken.close();
    }
  });

  it('delete refuses an artifact with children, naming how many; recursive takes all in one commit; restore brings all back', async () => {
    const client = await open('editor', { headers: MANAGE });
    try {
      const { feature, requirements } = await tree(client, `Delete ${era}`);
      const before = await head();
      const refused = await fails(client, 'specbase_delete_artifact', { artifactId: feature.id });
      expect(refused).toContain(`feature ${feature.id} "Delete ${era} feat" has 2 descendants`);
      expect(refused).toContain('recursive: true');
      expect(await head()).toBe(before);

      const deleted = await ok(client, 'specbase_delete_artifact', { artifactId: feature.id, recursive: true });
      expect(deleted.data.deleted.map((ref: { id: string }) => ref.id)).toEqual([
        feature.id,
        ...requirements.map((r) => r.id),
      ]);
      expect(deleted.data.undo).toEqual({ tool: 'specbase_restore_artifact', arguments: { artifactId: feature.id } });
      expect(deleted.text).toContain('Undo with specbase_restore_artifact');
      expect(await git(h.gitdir, 'rev-parse', 'main^')).toBe(`${before}\n`);
      expect(deleted.data.commit).toBe(await head());
      expect(await git(h.gitdir, 'log', '-1', '--format=%s%n%an', 'main')).toBe(
        `Delete feature: Delete ${era} feat\nEditor Tester\n`,
      );

      // A deleted id teaches: when, by whom, and the call that brings it back.
      const gone = await fails(client, 'specbase_read_feature', { featureId: feature.id });
      expect(gone).toMatch(new RegExp(`^artifact not found: ${feature.id} was deleted at \\S+ by Editor Tester`));
      expect(gone).toContain('restore it with specbase_restore_artifact');
      expect(await fails(client, 'specbase_read_requirement', { requirementId: requirements[0]!.id })).toContain(
        'it went with a deleted parent: restore that one',
      );
      expect(await fails(client, 'specbase_delete_artifact', { artifactId: feature.id })).toContain('was deleted at');
      // Someone who cannot read where it was learns nothing of it.
      const outsider = await open('partial', { headers: MANAGE });
      try {
        const folders = (await ok(client, 'specbase_list_folders')).data.folders as { id: string; name: string }[];
        const folderId = folders.find((f) => f.name === 'Leadership')!.id;
        const restricted = (await ok(client, 'specbase_create_page', { folderId, title: `Hidden ${era}` })).data;
        await ok(client, 'specbase_delete_artifact', { artifactId: restricted.id });
        expect(await fails(outsider, 'specbase_read_page', { pageId: restricted.id })).toBe('artifact not found');
        expect(await fails(outsider, 'specbase_restore_artifact', { artifactId: restricted.id })).toBe(
          'artifact not found',
        );
      } finally {
        await outsider.close();
      }

      const restored = await ok(client, 'specbase_restore_artifact', { artifactId: feature.id });
      expect(restored.data.restored.map((ref: { id: string }) => ref.id).sort()).toEqual(
        [feature.id, ...requirements.map((r) => r.id)].sort(),
      );
      expect(restored.data.undo).toEqual({
        tool: 'specbase_delete_artifact',
        arguments: { artifactId: feature.id, recursive: true },
      });
      expect((await ok(client, 'specbase_read_feature', { featureId: feature.id })).data.title).toBe(
        `Delete ${era} feat`,
      );
      expect(await fails(client, 'specbase_restore_artifact', { artifactId: feature.id })).toBe(
        `${feature.id} is not deleted: nothing to restore`,
      );
      expect(await fails(client, 'specbase_restore_artifact', { artifactId: newId() })).toBe('artifact not found');
    } finally {
      await client.close();
    }
  });

  it('move gives another parent in one commit and says how to move back; a wrong type and a missing parent are named', async () => {
    const client = await open('owner', { headers: MANAGE });
    try {
      const first = await tree(client, `Move ${era} A`);
      const second = await tree(client, `Move ${era} B`);
      const moved = await ok(client, 'specbase_move_artifact', {
        artifactId: first.feature.id,
        to: second.capability.id,
      });
      expect(moved.data).toMatchObject({ parentId: second.capability.id, previousParentId: first.capability.id });
      expect(moved.data.moved).toHaveLength(3);
      expect(moved.data.undo).toEqual({
        tool: 'specbase_move_artifact',
        arguments: { artifactId: first.feature.id, to: first.capability.id },
      });
      const listed = await ok(client, 'specbase_list_features', { capabilityId: second.capability.id });
      expect(listed.data.items.map((item: { id: string }) => item.id)).toContain(first.feature.id);
      await ok(client, 'specbase_move_artifact', moved.data.undo.arguments);
      expect((await ok(client, 'specbase_read_feature', { featureId: first.feature.id })).data.parentId).toBe(
        first.capability.id,
      );

      expect(
        await fails(client, 'specbase_move_artifact', { artifactId: first.feature.id, to: second.requirements[0]!.id }),
      ).toBe('a feature moves under a capability, not a requirement');
      const missing = newId();
      expect(await fails(client, 'specbase_move_artifact', { artifactId: first.feature.id, to: missing })).toBe(
        `artifact not found: the new parent ${missing} names no capability you can read`,
      );
      expect(await fails(client, 'specbase_move_artifact', { artifactId: first.feature.id, to: null })).toBe(
        'a feature moves under a capability: name one',
      );
      const page = (await ok(client, 'specbase_create_page', { title: `Loose page ${era}` })).data;
      const folder = newId();
      expect(await fails(client, 'specbase_move_artifact', { artifactId: page.id, to: folder })).toBe(
        `folder not found: the new parent ${folder} names no folder you can read`,
      );
    } finally {
      await client.close();
    }
  });

  it('history lists each change with author, client, time, commit and lines; revert undoes one by its commit', async () => {
    const client = await open('owner', { headers: MANAGE });
    try {
      const page = (await ok(client, 'specbase_create_page', { content: `# Revert ${era}\n\nFirst line.\n` })).data;
      const edit = await ok(client, 'specbase_edit_page', {
        pageId: page.id,
        patch: '@@\n # Revert\n \n-First line.\n+Second line.\n'.replace('# Revert', `# Revert ${era}`),
      });
      const history = await ok(client, 'specbase_read_history', { artifactId: page.id, limit: 1 });
      expect(history.data.entries).toEqual([
        expect.objectContaining({
          commit: edit.data.version,
          verb: 'edit',
          author: h.users.owner.user.name,
          client: era.startsWith('2025') ? 'manage-test' : 'specbase-modern-test-client',
          added: 1,
          removed: 1,
        }),
      ]);
      expect(history.data.entries[0].at).toMatch(/^\d{4}-\d\d-\d\dT/);
      expect(history.data.next).toBe(edit.data.version);
      const older = await ok(client, 'specbase_read_history', { artifactId: page.id, cursor: history.data.next });
      expect(older.data.entries.map((e: { verb: string }) => e.verb)).toEqual(['create']);

      const reverted = await ok(client, 'specbase_revert_change', {
        artifactId: page.id,
        commit: edit.data.version.slice(0, 10),
      });
      expect(reverted.data).toMatchObject({ id: page.id, added: 1, removed: 1 });
      expect(reverted.data.undo).toEqual({
        tool: 'specbase_revert_change',
        arguments: { artifactId: page.id, commit: reverted.data.version },
      });
      expect((await ok(client, 'specbase_read_page', { pageId: page.id, mode: 'full' })).data.content).toContain(
        'First line.',
      );
      expect(await fails(client, 'specbase_revert_change', { artifactId: page.id, commit: page.version })).toContain(
        'the change that created an artifact cannot be reverted',
      );
      expect(await fails(client, 'specbase_revert_change', { artifactId: page.id, commit: 'abc' })).toContain(
        'change not found: abc is no commit that changed this artifact',
      );
    } finally {
      await client.close();
    }
  });

  it('a viewer reads history but is refused every change', async () => {
    const owner = await open('owner', { headers: MANAGE });
    const viewer = await open('viewer', { headers: MANAGE });
    try {
      const { feature } = await tree(owner, `Viewer ${era}`);
      expect((await ok(viewer, 'specbase_read_history', { artifactId: feature.id })).data.entries).toHaveLength(1);
      const before = await head();
      for (const [name, args] of [
        ['specbase_delete_artifact', { artifactId: feature.id, recursive: true }],
        ['specbase_move_artifact', { artifactId: feature.id, to: h.productId }],
      ] as const) {
        expect(await fails(viewer, name, args)).toBe('permission denied');
      }
      expect(await head()).toBe(before);
    } finally {
      await Promise.all([owner.close(), viewer.close()]);
    }
  });

  it('where the client can ask its user, a recursive delete of several asks first; a decline changes nothing', async () => {
    const declining = elicitor('decline');
    const accepting = elicitor('accept');
    const decliner = await open('owner', { headers: MANAGE, elicit: declining });
    const accepter = await open('owner', { headers: MANAGE, elicit: accepting });
    try {
      const { feature } = await tree(decliner, `Ask ${era}`);
      const before = await head();
      expect(await fails(decliner, 'specbase_delete_artifact', { artifactId: feature.id, recursive: true })).toBe(
        'the user declined to delete 3 artifacts; nothing was deleted',
      );
      expect(declining.asked).toEqual([
        `Delete 3 artifacts: "Ask ${era} feat", "Ask ${era} req 1", "Ask ${era} req 2"? They can be restored afterwards.`,
      ]);
      expect(await head()).toBe(before);

      const done = await ok(accepter, 'specbase_delete_artifact', { artifactId: feature.id, recursive: true });
      expect(accepting.asked).toHaveLength(1);
      expect(done.data.deleted).toHaveLength(3);
      // One artifact alone is not asked about.
      const page = (await ok(accepter, 'specbase_create_page', { title: `Single ${era}` })).data;
      await ok(accepter, 'specbase_delete_artifact', { artifactId: page.id });
      expect(accepting.asked).toHaveLength(1);
    } finally {
      await Promise.all([decliner.close(), accepter.close()]);
    }
  });
});

it('a legacy SSE session opened at the /manage URL keeps the manage tools for its messages', async () => {
  const client = await connect(h, 'owner', 'sse-path', 'manage-sse', {
    url: new URL(`/api/mcp/o/${h.orgId}/manage/sse`, h.baseUrl),
  });
  try {
    expect(await names(client)).toEqual([...DEFAULT_NAMES, ...MANAGE_NAMES].sort());
    expect((await ok(client, 'specbase_read_history', { artifactId: h.productId })).data.entries).toHaveLength(1);
  } finally {
    await client.close();
  }
});

it('tells a subscriber of a moved or deleted artifact, as any commit does', async () => {
  const client = await connect(h, 'owner', 'streamable', 'manage-subscriber', { headers: MANAGE });
  const heard: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void heard.push(n.params.uri));
  try {
    const page = (await ok(client, 'specbase_create_page', { title: 'Watched page' })).data;
    const uri = artifactUri(h.orgId, page.id);
    await client.subscribeResource({ uri });
    const folder = (await ok(client, 'specbase_list_folders')).data.folders[0].id;
    await ok(client, 'specbase_move_artifact', { artifactId: page.id, to: folder });
    await vi.waitFor(() => expect(heard).toEqual([uri]), { timeout: 5_000, interval: 100 });
    await ok(client, 'specbase_delete_artifact', { artifactId: page.id });
    await vi.waitFor(() => expect(heard).toEqual([uri, uri]), { timeout: 5_000, interval: 100 });
  } finally {
    await client.close();
  }
});

it('audits every manage call as the other tools are, with its commit', async () => {
  const client = await connect(h, 'owner', 'streamable', 'manage-audit', { headers: MANAGE });
  try {
    const page = (await ok(client, 'specbase_create_page', { title: 'Audited delete' })).data;
    const done = await ok(client, 'specbase_delete_artifact', { artifactId: page.id });
    await vi.waitFor(
      async () => {
        const entries = await h.services.control.audit.list({ orgId: h.orgId, limit: 50 });
        expect(entries.find((e) => e.action === 'specbase_delete_artifact' && e.artifactId === page.id)).toMatchObject({
          kind: 'tool_call',
          commit: done.data.commit,
          client: 'manage-audit',
          outcome: 'ok',
        });
      },
      { timeout: 5_000, interval: 200 },
    );
  } finally {
    await client.close();
  }
});
