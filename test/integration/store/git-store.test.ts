import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GitStore } from '../../../src/store/index.js';
import type { CommitResult } from '../../../src/store/types.js';
import { alice, bob, capabilityInput, git, openStoreFixture, ORG, WORKSPACE, type StoreFixture } from './fixture.js';

const execFileAsync = promisify(execFile);

let fx: StoreFixture;
beforeEach(async () => {
  fx = await openStoreFixture();
});
afterEach(async () => {
  await fx.close();
});

describe('GitStore writes real Git history', () => {
  it('creates the organization repository with the product on main', async () => {
    expect(git(fx.gitdir, 'rev-parse', '--is-bare-repository')).toBe('true');
    expect(git(fx.gitdir, 'symbolic-ref', 'HEAD')).toBe('refs/heads/main');
    expect(git(fx.gitdir, 'ls-tree', '-r', '--name-only', 'main')).toBe('product.md');
    expect(await fx.store.head(ORG)).toBe(git(fx.gitdir, 'rev-parse', 'main'));
    const product = await fx.store.read(ORG, fx.productId);
    expect(product).toMatchObject({
      type: 'product',
      title: 'Acme',
      parentId: null,
      workspaceId: WORKSPACE,
      body: '# Acme\n\nThe product.\n',
    });
    await expect(
      fx.store.initOrganization(ORG, { productTitle: 'X', productBody: '# X\n', workspaceId: WORKSPACE }, alice),
    ).rejects.toThrow(/already/);
  });

  it('stores each type at its path with service-owned frontmatter', async () => {
    const cap = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments & Billing'), alice);
    const feature = await fx.store.create(
      ORG,
      {
        type: 'feature',
        parentId: cap.artifact.id,
        workspaceId: WORKSPACE,
        title: 'Saved cards',
        body: '# Saved cards\n',
      },
      alice,
    );
    const req = await fx.store.create(
      ORG,
      {
        type: 'requirement',
        parentId: feature.artifact.id,
        workspaceId: WORKSPACE,
        title: 'Tokenize',
        body: '# Tokenize\n',
        requirementType: 'CONSTRAINT',
      },
      alice,
    );
    const ac = await fx.store.create(
      ORG,
      {
        type: 'acceptance_criterion',
        parentId: req.artifact.id,
        workspaceId: WORKSPACE,
        title: 'Pays with saved card',
        body: '# Pays with saved card\n\n**Given** a card\n',
      },
      alice,
    );
    const shard = (r: CommitResult) => `${r.artifact.id.slice(0, 2)}/${r.artifact.id.slice(2, 4)}`;
    const id8 = (r: CommitResult) => r.artifact.id.slice(0, 8);
    expect(cap.artifact.path).toBe(`capabilities/${shard(cap)}/payments-billing-${id8(cap)}.md`);
    expect(feature.artifact.path).toBe(`features/${shard(feature)}/saved-cards-${id8(feature)}.md`);
    expect(req.artifact.path).toBe(`requirements/${shard(req)}/tokenize-${id8(req)}.md`);
    expect(ac.artifact.path).toBe(`acceptance-criteria/${shard(ac)}/pays-with-saved-card-${id8(ac)}.md`);
    const file = git(fx.gitdir, 'cat-file', '-p', `main:${req.artifact.path}`);
    expect(file).toBe(
      [
        '---',
        `id: ${req.artifact.id}`,
        'type: requirement',
        `parent: ${feature.artifact.id}`,
        `workspace: ${WORKSPACE}`,
        'title: "Tokenize"',
        'requirementType: CONSTRAINT',
        `created: "${req.artifact.createdAt}"`,
        '---',
        '# Tokenize',
      ].join('\n'),
    );
    expect((await fx.store.read(ORG, req.artifact.id)).body).toBe('# Tokenize\n');
    expect(git(fx.gitdir, 'cat-file', '-p', 'main:product.md')).toMatch(/^---\nid: .*\ntype: product\nparent: null\n/);
  });

  it('commits each change with the user as author, the service as committer, and trailers', async () => {
    const cap = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice);
    const ac = await fx.store.create(
      ORG,
      {
        type: 'acceptance_criterion',
        parentId: (
          await fx.store.create(
            ORG,
            {
              type: 'requirement',
              parentId: (
                await fx.store.create(
                  ORG,
                  { type: 'feature', parentId: cap.artifact.id, workspaceId: WORKSPACE, title: 'F', body: '# F\n' },
                  alice,
                )
              ).artifact.id,
              workspaceId: WORKSPACE,
              title: 'R',
              body: '# R\n',
            },
            alice,
          )
        ).artifact.id,
        workspaceId: WORKSPACE,
        title: 'Pays with saved card',
        body: '# Pays with saved card\n\nline one\n',
      },
      alice,
    );
    const edit = await fx.store.update(
      ORG,
      ac.artifact.id,
      { body: '# Pays with saved card\n\nline one\nline two by bob\n', verb: 'edit' },
      bob,
    );
    expect(edit).toMatchObject({ added: 1, removed: 0 });
    expect(git(fx.gitdir, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s')).toBe(
      'Bob Builder <bob@example.com>|Specbase <specbase@localhost>|Edit acceptance criterion: Pays with saved card',
    );
    expect(git(fx.gitdir, 'log', '-1', '--format=%(trailers)')).toBe(
      `Artifact-Id: ${ac.artifact.id}\nArtifact-Type: acceptance_criterion\nClient: web`,
    );
    expect(git(fx.gitdir, 'log', '--format=%an', '--', cap.artifact.path)).toBe('Alice Author');
    const blame = git(fx.gitdir, 'blame', '--line-porcelain', 'main', '--', ac.artifact.path);
    const authorOf = (text: string) => {
      const lines = blame.split('\n');
      const at = lines.indexOf(`\t${text}`);
      return lines
        .slice(0, at)
        .reverse()
        .find((l) => l.startsWith('author '));
    };
    expect(authorOf('line two by bob')).toBe('author Bob Builder');
    expect(authorOf('line one')).toBe('author Alice Author');
    const restore = await fx.store.update(
      ORG,
      ac.artifact.id,
      { body: ac.artifact.body, verb: 'restore', sourceCommit: ac.commit },
      { author: alice.author },
    );
    expect(git(fx.gitdir, 'log', '-1', '--format=%B')).toBe(
      `Restore acceptance criterion: Pays with saved card\n\nThis restores the version of commit ${ac.commit}.\n\nArtifact-Id: ${ac.artifact.id}\nArtifact-Type: acceptance_criterion`,
    );
    expect(restore.commit).toBe(git(fx.gitdir, 'rev-parse', 'main'));
    expect(git(fx.gitdir, 'rev-list', '--count', 'main')).toBe('7');
    git(fx.gitdir, 'fsck', '--strict', '--no-dangling');
  });

  it('follows the first heading as title and keeps the path', async () => {
    const cap = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice);
    const renamed = await fx.store.update(
      ORG,
      cap.artifact.id,
      { body: 'intro\n\n# Checkout\n\ntext\n', verb: 'edit' },
      alice,
    );
    expect(renamed.artifact).toMatchObject({ title: 'Checkout', path: cap.artifact.path, version: renamed.commit });
    const headless = await fx.store.update(
      ORG,
      cap.artifact.id,
      { body: 'no heading any more\n', verb: 'edit' },
      alice,
    );
    expect(headless.artifact.title).toBe('Checkout');
    expect(git(fx.gitdir, 'cat-file', '-p', `main:${cap.artifact.path}`)).toContain('title: "Checkout"');
    expect(git(fx.gitdir, 'log', '-1', '--format=%s')).toBe('Edit capability: Checkout');
  });

  it('lists, reads history, activity and old bodies', async () => {
    const a = await fx.store.create(ORG, capabilityInput(fx.productId, 'Alpha'), alice);
    const b = await fx.store.create(ORG, capabilityInput(fx.productId, 'Beta'), alice);
    const user = await fx.store.create(
      ORG,
      { type: 'user_type', parentId: fx.productId, workspaceId: WORKSPACE, title: 'Admin', body: '# Admin\n' },
      alice,
    );
    const edit = await fx.store.update(ORG, a.artifact.id, { body: '# Alpha\n\nchanged\n', verb: 'edit' }, bob);
    expect((await fx.store.children(ORG, fx.productId)).map((m) => m.title)).toEqual(['Alpha', 'Beta', 'Admin']);
    expect((await fx.store.children(ORG, fx.productId, 'capability')).map((m) => m.id)).toEqual([
      a.artifact.id,
      b.artifact.id,
    ]);
    expect((await fx.store.children(ORG, null, 'product')).map((m) => m.id)).toEqual([fx.productId]);
    expect((await fx.store.catalog(ORG)).map((m) => m.type)).toEqual([
      'product',
      'capability',
      'capability',
      'user_type',
    ]);
    expect(await fx.store.meta(ORG, a.artifact.id)).toMatchObject({ version: edit.commit, updatedBy: bob.author });
    const history = await fx.store.history(ORG, a.artifact.id);
    expect(history.map((h) => [h.verb, h.commit, h.author.name, h.client, h.added, h.removed])).toEqual([
      ['edit', edit.commit, 'Bob Builder', 'web', 1, 1],
      ['create', a.commit, 'Alice Author', 'claude-code', 3, 0],
    ]);
    expect(history[0]!.parent).toBe(user.commit);
    expect(
      (await fx.store.activity(ORG, { limit: 2, workspaceIds: new Set([WORKSPACE]) })).map((h) => h.commit),
    ).toEqual([edit.commit, user.commit]);
    expect(await fx.store.activity(ORG, { limit: 2, workspaceIds: new Set([randomUUID()]) })).toEqual([]);
    expect(await fx.store.bodyAt(ORG, a.artifact.id, a.commit)).toBe(a.artifact.body);
    expect(await fx.store.bodyAt(ORG, a.artifact.id, edit.commit)).toBe('# Alpha\n\nchanged\n');
    const beforeAlpha = (await fx.store.history(ORG, fx.productId))[0]!.commit;
    expect(await fx.store.bodyAt(ORG, a.artifact.id, beforeAlpha)).toBeUndefined();
    expect(await fx.store.bodyAt(ORG, a.artifact.id, 'not-a-commit')).toBeUndefined();
  });

  it('keeps folders as records in their shards, and pages in theirs with the folder in the frontmatter', async () => {
    const guides = await fx.store.createFolder(ORG, { name: 'Guides', parentId: null, workspaceId: WORKSPACE }, alice);
    const twin = await fx.store.createFolder(ORG, { name: 'guides!', parentId: null, workspaceId: WORKSPACE }, alice);
    const setup = await fx.store.createFolder(
      ORG,
      { name: 'Set-up notes', parentId: guides.id, workspaceId: WORKSPACE },
      alice,
    );
    const page = await fx.store.create(
      ORG,
      { type: 'page', parentId: setup.id, workspaceId: WORKSPACE, title: 'Install', body: '# Install\n' },
      alice,
    );
    const root = await fx.store.create(
      ORG,
      { type: 'page', parentId: null, workspaceId: WORKSPACE, title: 'Untitled page', body: '' },
      alice,
    );
    const shard = (id: string) => `${id.slice(0, 2)}/${id.slice(2, 4)}`;
    expect(guides.path).toBe(`folders/${shard(guides.id)}/guides-${guides.id.slice(0, 8)}.md`);
    expect(twin.path).toBe(`folders/${shard(twin.id)}/guides-${twin.id.slice(0, 8)}.md`);
    expect(setup.path).toBe(`folders/${shard(setup.id)}/set-up-notes-${setup.id.slice(0, 8)}.md`);
    expect(page.artifact).toMatchObject({
      parentId: setup.id,
      path: `pages/${shard(page.artifact.id)}/install-${page.artifact.id.slice(0, 8)}.md`,
    });
    expect(git(fx.gitdir, 'cat-file', '-p', `main:${page.artifact.path}`)).toContain(`\nparent: ${setup.id}\n`);
    const rootPath = `pages/${shard(root.artifact.id)}/untitled-page-${root.artifact.id.slice(0, 8)}.md`;
    expect(root.artifact).toMatchObject({ path: rootPath, parentId: null, body: '', title: 'Untitled page' });
    expect(await fx.store.folders(ORG)).toEqual([guides, twin, setup]);
    expect(git(fx.gitdir, 'cat-file', '-p', `main:${setup.path}`)).toBe(
      `---\nid: ${setup.id}\ntype: folder\nname: "Set-up notes"\nparent: ${guides.id}\nworkspace: ${WORKSPACE}\ncreated: "${setup.createdAt}"\n---`,
    );
    expect(git(fx.gitdir, 'log', '-1', '--skip=2', '--format=%s%n%(trailers)')).toBe(
      `Create folder: Set-up notes\nFolder-Id: ${setup.id}\nClient: claude-code`,
    );
    await expect(
      fx.store.createFolder(
        ORG,
        { name: 'x', parentId: '4d3c2b1a-0000-4000-8000-000000000000', workspaceId: WORKSPACE },
        alice,
      ),
    ).rejects.toThrow('folder not found');
  });

  it("tells listeners after main moved, and a second instance sees the first one's commits", async () => {
    const seen: string[] = [];
    const stop = fx.store.onCommit((orgId, result) =>
      seen.push(`${orgId}:${result.commit}:${git(fx.gitdir, 'rev-parse', 'main')}`),
    );
    const cap = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice);
    expect(seen).toEqual([`${ORG}:${cap.commit}:${cap.commit}`]);
    stop();

    const other = new GitStore({ dataDir: fx.dataDir });
    const otherSeen: string[] = [];
    other.onCommit((_org, result) => otherSeen.push(result.artifact.title));
    expect((await other.catalog(ORG)).map((m) => m.title)).toEqual(['Acme', 'Payments']);
    const edit = await fx.store.update(ORG, cap.artifact.id, { body: '# Payments v2\n', verb: 'edit' }, bob);
    expect(await other.read(ORG, cap.artifact.id)).toMatchObject({
      title: 'Payments v2',
      version: edit.commit,
      body: '# Payments v2\n',
    });
    expect((await other.history(ORG, cap.artifact.id)).map((h) => h.verb)).toEqual(['edit', 'create']);
    expect(otherSeen).toEqual(['Payments v2']);
    const third = await other.update(ORG, cap.artifact.id, { body: '# Payments v3\n', verb: 'edit' }, alice);
    expect((await fx.store.history(ORG, cap.artifact.id)).map((h) => h.commit)).toEqual([
      third.commit,
      edit.commit,
      cap.commit,
    ]);
    await other.close();
  });

  it('answers reads issued together with one look at main, and sees a commit native git made between two reads', async () => {
    const cap = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice);
    const reads = await Promise.all([
      fx.store.read(ORG, cap.artifact.id),
      fx.store.meta(ORG, cap.artifact.id),
      fx.store.read(ORG, fx.productId),
    ]);
    expect(reads.map((r) => r?.title)).toEqual(['Payments', 'Payments', 'Acme']);
    // Another process moves main: a commit object written and the ref updated, as a push does.
    const tree = git(fx.gitdir, 'rev-parse', 'main^{tree}');
    const foreign = git(
      fx.gitdir,
      '-c',
      'user.name=Native',
      '-c',
      'user.email=native@example.com',
      'commit-tree',
      tree,
      '-p',
      'main',
      '-m',
      'An empty commit by hand',
    );
    await execFileAsync('git', ['--git-dir', fx.gitdir, 'update-ref', 'refs/heads/main', foreign]);
    expect(await fx.store.head(ORG)).toBe(foreign);
  });

  it('restarts from the persisted index and catches up from the last indexed commit', async () => {
    const cap = await fx.store.create(ORG, capabilityInput(fx.productId, 'Payments'), alice);
    await fx.store.close();
    expect(git(fx.gitdir, 'rev-parse', 'main')).toBe(cap.commit);
    const writer = new GitStore({ dataDir: fx.dataDir });
    const edit = await writer.update(ORG, cap.artifact.id, { body: '# Payments\n\nmore\n', verb: 'edit' }, bob);
    const restarted = new GitStore({ dataDir: fx.dataDir });
    expect((await restarted.history(ORG, cap.artifact.id)).map((h) => [h.commit, h.added])).toEqual([
      [edit.commit, 1],
      [cap.commit, 3],
    ]);
    expect((await restarted.catalog(ORG)).map((m) => m.version)).toEqual([
      (await fx.store.history(ORG, fx.productId))[0]!.commit,
      edit.commit,
    ]);
    git(fx.gitdir, 'fsck', '--strict', '--no-dangling');
  });
});
