import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitCli } from './git-cli.js';
import { openGitHttpFixture, type GitHttpFixture } from './fixture.js';

const pkt = (line: string) => `${(Buffer.byteLength(line) + 4).toString(16).padStart(4, '0')}${line}`;

describe('git smart HTTP: clone and fetch tell who changed what', () => {
  let fx: GitHttpFixture;
  let git: GitCli;
  let work: string;
  let clone: string;
  let capabilityId: string;
  let capabilityPath: string;

  beforeAll(async () => {
    fx = await openGitHttpFixture();
    git = await GitCli.create();
    work = await mkdtemp(path.join(tmpdir(), 'specbase-git-history-'));
    const { orgId, alice, bob } = fx;
    const created = await fx.store.create(
      orgId,
      {
        type: 'capability',
        parentId: fx.productId,
        workspaceId: fx.defaultWorkspace.id,
        title: 'Search',
        body: '# Search\n\nAlice wrote the first line.\nAlice wrote the second line.\n',
      },
      alice.ctx,
    );
    capabilityId = created.artifact.id;
    capabilityPath = created.artifact.path;
    await fx.store.update(
      orgId,
      capabilityId,
      {
        verb: 'edit',
        body: '# Search\n\nAlice wrote the first line.\nBob added this line.\nAlice wrote the second line.\n',
      },
      bob.ctx,
    );
    await fx.store.create(
      orgId,
      {
        type: 'feature',
        parentId: capabilityId,
        workspaceId: fx.defaultWorkspace.id,
        title: 'Full-text search',
        body: '# Full-text search\n\nBob wrote this feature.\n',
      },
      bob.ctx,
    );
    await fx.store.update(
      orgId,
      capabilityId,
      {
        verb: 'edit',
        body: '# Search\n\nAlice wrote the first line.\nBob added this line.\nAlice rewrote the second line.\n',
      },
      alice.ctx,
    );
    clone = path.join(work, 'clone');
    await git.ok(['clone', fx.repoUrl(), clone], { token: fx.alice.token });
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('clones every commit of main with each edit attributed to its author', async () => {
    const authors = (await git.ok(['log', '--reverse', '--format=%an <%ae>'], { cwd: clone })).trim().split('\n');
    expect(authors.slice(-4)).toEqual([
      'Alice Owner <alice@example.com>',
      'Bob Editor <bob@example.com>',
      'Bob Editor <bob@example.com>',
      'Alice Owner <alice@example.com>',
    ]);
    const server = await git.ok(['--git-dir', fx.gitdir(), 'rev-parse', 'main']);
    expect(await git.ok(['rev-parse', 'HEAD'], { cwd: clone })).toBe(server);
    await git.ok(['fsck', '--strict', '--no-dangling'], { cwd: clone });
  });

  it('blames each line of an artifact on the user who wrote it', async () => {
    const porcelain = await git.ok(['blame', '--line-porcelain', '--', capabilityPath], { cwd: clone });
    const byLine = new Map<string, string>();
    let mail = '';
    for (const line of porcelain.split('\n')) {
      if (line.startsWith('author-mail ')) mail = line.slice('author-mail '.length);
      else if (line.startsWith('\t')) byLine.set(line.slice(1), mail);
    }
    expect(byLine.get('Alice wrote the first line.')).toBe('<alice@example.com>');
    expect(byLine.get('Bob added this line.')).toBe('<bob@example.com>');
    expect(byLine.get('Alice rewrote the second line.')).toBe('<alice@example.com>');
  });

  it("finds an artifact's changes by its Artifact-Id trailer and by following its file", async () => {
    const grep = await git.ok(['log', '--format=%an', `--grep=^Artifact-Id: ${capabilityId}$`], { cwd: clone });
    expect(grep.trim().split('\n')).toEqual(['Alice Owner', 'Bob Editor', 'Alice Owner']);
    const follow = await git.ok(['log', '--follow', '--format=%an', '--', capabilityPath], { cwd: clone });
    expect(follow.trim().split('\n')).toEqual(['Alice Owner', 'Bob Editor', 'Alice Owner']);
  });

  it('brings new edits with git fetch, and audits the clone and the fetch', async () => {
    const latest = await fx.store.update(
      fx.orgId,
      capabilityId,
      {
        verb: 'edit',
        body: '# Search\n\nAlice wrote the first line.\nBob added this line.\nAlice rewrote the second line.\nBob fetched line.\n',
      },
      fx.bob.ctx,
    );
    await git.ok(['fetch', 'origin'], { cwd: clone, token: fx.alice.token });
    expect((await git.ok(['rev-parse', 'origin/main'], { cwd: clone })).trim()).toBe(latest.commit);
    expect((await git.ok(['log', '-1', '--format=%an <%ae>', 'origin/main'], { cwd: clone })).trim()).toBe(
      'Bob Editor <bob@example.com>',
    );
    await git.ok(['fsck', '--strict', '--no-dangling'], { cwd: clone });

    const audit = await fx.control.audit.list({ orgId: fx.orgId, limit: 50 });
    const actions = audit
      .filter((e) => e.kind === 'git' && e.userId === fx.alice.user.id && e.outcome === 'ok')
      .map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(['clone', 'fetch']));
  });

  it('shows change requests as cr/* branches, so that a reviewer can git diff main...cr/{n}', async () => {
    const { orgId, alice, bob } = fx;
    await fx.store.forkChangeRequest(orgId, 7);
    await fx.store.update(
      fx.store.changeRequestKey(orgId, 7),
      capabilityId,
      { verb: 'edit', body: '# Search\n\nProposed by Bob.\n' },
      bob.ctx,
    );
    await git.ok(['fetch', 'origin'], { cwd: clone, token: alice.token });
    const branches = (await git.ok(['branch', '-r', '--format=%(refname:short)'], { cwd: clone })).trim().split('\n');
    expect(branches).toEqual(expect.arrayContaining(['origin/main', 'origin/cr/7']));
    const diff = await git.ok(['diff', 'origin/main...origin/cr/7', '--', capabilityPath], { cwd: clone });
    expect(diff).toContain('+Proposed by Bob.');
    expect((await git.ok(['log', '-1', '--format=%an', 'origin/cr/7'], { cwd: clone })).trim()).toBe('Bob Editor');
  });

  it('speaks protocol v2 when git asks for it, and v0 when it does not', async () => {
    const v2 = await git.run(['-c', 'protocol.version=2', 'clone', fx.repoUrl(), path.join(work, 'v2')], {
      token: fx.alice.token,
      env: { GIT_TRACE_PACKET: '1' },
    });
    expect(v2.code).toBe(0);
    expect(v2.stderr).toMatch(/git< version 2/);
    expect(v2.stderr).toMatch(/clone> command=fetch/);
    await git.ok(['fsck', '--strict', '--no-dangling'], { cwd: path.join(work, 'v2') });

    const v0 = await git.run(['-c', 'protocol.version=0', 'clone', fx.repoUrl(), path.join(work, 'v0')], {
      token: fx.alice.token,
      env: { GIT_TRACE_PACKET: '1' },
    });
    expect(v0.code).toBe(0);
    expect(v0.stderr).toMatch(/git< # service=git-upload-pack/);
    expect(v0.stderr).not.toMatch(/version 2/);
  });

  it('reads a gzip-compressed request body', async () => {
    const request = `${pkt('command=ls-refs\n')}0001${pkt('ref-prefix refs/heads/\n')}0000`;
    const res = await fetch(`${fx.repoUrl()}/git-upload-pack`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${fx.alice.token}`,
        'Content-Type': 'application/x-git-upload-pack-request',
        'Content-Encoding': 'gzip',
        'Git-Protocol': 'version=2',
      },
      body: gzipSync(request),
    });
    expect(res.status).toBe(200);
    const main = (await git.ok(['--git-dir', fx.gitdir(), 'rev-parse', 'main'])).trim();
    expect(await res.text()).toContain(`${main} refs/heads/main`);
  });
});
