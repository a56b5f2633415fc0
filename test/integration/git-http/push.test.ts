import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, unlink, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { newId } from '../../../src/ids.js';
import type { ArtifactMeta } from '../../../src/store/types.js';
import { git as bareGit } from '../../support/git.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { waitUntil } from '../replicas/cluster.js';
import { startReceiver, type Receiver } from '../webhooks/receiver.js';
import { GitCli } from './git-cli.js';

const ENGINEER = ['-c', 'user.name=Eve Engineer', '-c', 'user.email=eve@example.com'];
/** Above git's unpack limit (100), so that a push of many commits arrives as a pack to index. */
const MAX_OBJECTS = 400;

describe('git push to main', () => {
  let h: Harness;
  let git: GitCli;
  let receiver: Receiver;
  let work: string;
  let clone: string;
  let repoUrl: string;
  /** Editor of the default workspace, viewer of the restricted one: may clone, may push only part. */
  let halfToken: string;

  const main = () => bareGit(h.gitdir, 'rev-parse', 'main').then((out) => out.trim());
  const metaOf = async (type: ArtifactMeta['type'], workspaceId = h.defaultWorkspaceId) =>
    (await h.services.store.catalog(h.orgId)).find((m) => m.type === type && m.workspaceId === workspaceId)!;
  const file = (meta: { path: string }) => path.join(clone, meta.path);
  const rewrite = async (meta: { path: string }, change: (text: string) => string) =>
    writeFile(file(meta), change(await readFile(file(meta), 'utf8')));
  /** Local git plumbing in the clone, fed `input`: its output's bytes. */
  const plumbing = (args: string[], input: string | Buffer) =>
    execFileSync('git', args, { cwd: clone, input, env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });
  const commit = (message: string) => git.ok([...ENGINEER, 'commit', '-qam', message], { cwd: clone });
  const push = (args: string[] = ['origin', 'HEAD:main'], token = h.users.editor.token) =>
    git.run(['push', ...args], { cwd: clone, token });
  /** Starts from the remote main, makes one commit with `change`, pushes it, and checks nothing moved. */
  const refusedPush = async (change: () => Promise<void>, token = h.users.editor.token) => {
    await git.ok(['fetch', '-q', 'origin'], { cwd: clone, token: h.users.editor.token });
    await git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: clone });
    const before = await main();
    await change();
    await git.ok([...ENGINEER, 'add', '-A'], { cwd: clone });
    await commit('An engineer tries');
    const result = await push(['origin', 'HEAD:main'], token);
    expect(result.code).not.toBe(0);
    expect(await main()).toBe(before);
    return result.stderr;
  };

  beforeAll(async () => {
    receiver = await startReceiver();
    h = await startHarness({
      env: { SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on', SPECBASE_PUSH_MAX_OBJECTS: String(MAX_OBJECTS) },
    });
    git = await GitCli.create();
    work = await mkdtemp(path.join(tmpdir(), 'specbase-push-'));
    clone = path.join(work, 'clone');
    repoUrl = `${h.baseUrl}/git/${h.orgId}.git`;
    const { secret } = await h.services.webhooks.add({
      orgId: h.orgId,
      url: receiver.url('push'),
      events: ['create', 'edit'],
      workspaceIds: 'all',
      createdBy: null,
    });
    receiver.secrets.set('push', secret);
    const { control } = h.services;
    const half = await control.users.upsert({
      issuer: 'local',
      subject: 'half',
      email: 'half@example.com',
      name: 'Half',
    });
    halfToken = (await control.tokens.create({ userId: half.id, name: 'git' })).secret;
    await control.members.grant({ orgId: h.orgId, userId: half.id, workspaceId: h.defaultWorkspaceId, role: 'editor' });
    await control.members.grant({
      orgId: h.orgId,
      userId: half.id,
      workspaceId: h.restrictedWorkspaceId,
      role: 'viewer',
    });
    await git.ok(['clone', '-q', repoUrl, clone], { token: h.users.editor.token });
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await receiver?.stop();
  });

  it('lands an edit and a new artifact as the store would: read back, authors kept, audited, announced', async () => {
    const requirement = await metaOf('requirement');
    const capability = await metaOf('capability');
    await rewrite(requirement, (text) => `${text}\nAdded from an editor.\n`);
    await commit('Explain the requirement better');
    const id = newId();
    const created = { path: `features/${id.slice(0, 2)}/${id.slice(2, 4)}/pushed-feature-${id.slice(0, 8)}.md` };
    const frontmatter = `---\nid: ${id}\ntype: feature\nparent: ${capability.id}\nworkspace: ${h.defaultWorkspaceId}\ntitle: Pushed feature\ncreated: 2026-01-01T00:00:00.000Z\n---\n`;
    await mkdir(path.dirname(file(created)), { recursive: true });
    await writeFile(file(created), `${frontmatter}# Pushed feature\n\nWritten in an editor.\n`);
    await git.ok(['add', '-A'], { cwd: clone });
    await commit('Add a feature');

    const result = await push();
    expect(result.stderr).not.toMatch(/refused/);
    expect(result.code).toBe(0);
    const head = await main();
    expect(head).toBe((await git.ok(['rev-parse', 'HEAD'], { cwd: clone })).trim());
    expect(await bareGit(h.gitdir, 'log', '-2', '--format=%an <%ae>|%s', 'main')).toBe(
      'Eve Engineer <eve@example.com>|Add a feature\nEve Engineer <eve@example.com>|Explain the requirement better\n',
    );

    const { store, control } = h.services;
    expect((await store.read(h.orgId, requirement.id)).body).toContain('Added from an editor.');
    const feature = await store.read(h.orgId, id);
    expect(feature).toMatchObject({ title: 'Pushed feature', parentId: capability.id, version: head });
    expect((await store.history(h.orgId, id))[0]).toMatchObject({ verb: 'create', author: { name: 'Eve Engineer' } });
    expect((await store.history(h.orgId, requirement.id))[0]).toMatchObject({ verb: 'edit' });
    const search = await (
      await h.services.search.forOrg(h.orgId)
    ).search({ query: 'Pushed feature', limit: 5, workspaceIds: new Set([h.defaultWorkspaceId]) });
    expect(search.hits.map((hit) => hit.id)).toContain(id);

    const pushRows = async () =>
      (await control.audit.list({ orgId: h.orgId, limit: 10 })).filter((r) => r.action === 'push');
    await waitUntil(
      async () => (await pushRows()).length >= 2,
      5_000,
      () => 'no audit rows for the push',
    );
    const rows = await pushRows();
    expect(rows.map((r) => [r.commit, r.artifactId, r.userId, r.outcome])).toEqual(
      expect.arrayContaining([
        [head, id, h.users.editor.user.id, 'ok'],
        [expect.any(String), requirement.id, h.users.editor.user.id, 'ok'],
      ]),
    );
    expect(rows.find((r) => r.commit === head)?.detail).toBe(
      'Add a feature (authored by Eve Engineer <eve@example.com>)',
    );

    await waitUntil(
      async () => receiver.of('push').length >= 2,
      10_000,
      () => `webhooks received: ${JSON.stringify(receiver.of('push'))}`,
    );
    expect(receiver.of('push').map((r) => [r.type, r.data.artifact?.id ?? r.data.id])).toEqual(
      expect.arrayContaining([
        [expect.stringContaining('edit'), requirement.id],
        [expect.stringContaining('create'), id],
      ]),
    );
  });

  it('refuses a push that an edit made meanwhile turned into a non-fast-forward, and moves nothing', async () => {
    await git.ok(['fetch', '-q', 'origin'], { cwd: clone, token: h.users.editor.token });
    await git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: clone });
    const page = await metaOf('requirement');
    await rewrite(page, (text) => `${text}\nLocal change.\n`);
    await commit('A local change');
    const { store } = h.services;
    await store.update(
      h.orgId,
      page.id,
      { body: (r) => `${r.body}\nConcurrent edit.\n`, verb: 'edit' },
      {
        author: { name: 'Owner', email: 'owner@example.com' },
        client: 'test',
      },
    );
    const moved = await main();
    const plain = await push();
    expect(plain.code).not.toBe(0);
    expect(plain.stderr).toMatch(/fetch first|rejected/);
    // Fetched but not rebased, and forced: git leaves it to the server, which refuses it.
    await git.ok(['fetch', '-q', 'origin'], { cwd: clone, token: h.users.editor.token });
    const forced = await push(['--force', 'origin', 'HEAD:main']);
    expect(forced.code).not.toBe(0);
    expect(forced.stderr).toMatch(/remote: .*not on top of main: fetch and rebase/);
    expect(await main()).toBe(moved);
  });

  it('refuses, naming commit, file and rule: bad frontmatter, a changed id, a parent of the wrong type', async () => {
    const requirement = await metaOf('requirement');
    const feature = await metaOf('feature');
    const badFrontmatter = await refusedPush(() => rewrite(requirement, (t) => t.replace(/^type: .*\n/m, '')));
    expect(badFrontmatter).toMatch(
      new RegExp(`remote: +commit [0-9a-f]{10}: ${requirement.path}: frontmatter field "type" is missing`),
    );
    const changedId = await refusedPush(() => rewrite(requirement, (t) => t.replace(requirement.id, newId())));
    expect(changedId).toContain(`${requirement.path}: the id of an existing file never changes`);
    const wrongParent = await refusedPush(() =>
      rewrite(feature, (t) => t.replace(/^parent: .*$/m, `parent: ${requirement.id}`)),
    );
    expect(wrongParent).toContain(`${feature.path}: a feature goes under a capability, not a requirement`);
  });

  it('refuses pushed objects git fsck would refuse, and a pack that lacks an object its commits name', async () => {
    await git.ok(['fetch', '-q', 'origin'], { cwd: clone, token: h.users.editor.token });
    await git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: clone });
    const before = await main();
    // The root tree with its first two entries swapped, written as is (git's own commands would sort it).
    const entries = (await git.ok(['ls-tree', '-z', 'HEAD'], { cwd: clone })).split('\0').filter(Boolean);
    const swapped = [entries[1]!, entries[0]!, ...entries.slice(2)].map((line) => {
      const [info, name] = line.split('\t') as [string, string];
      const [mode, , oid] = info.split(' ') as [string, string, string];
      return Buffer.concat([Buffer.from(`${mode.replace(/^0/, '')} ${name}\0`), Buffer.from(oid, 'hex')]);
    });
    const tree = plumbing(['hash-object', '-t', 'tree', '--literally', '-w', '--stdin'], Buffer.concat(swapped))
      .toString()
      .trim();
    const unordered = await git.ok([...ENGINEER, 'commit-tree', tree, '-p', 'HEAD', '-m', 'Out of order'], {
      cwd: clone,
    });
    const refusedTree = await push(['origin', `${unordered.trim()}:refs/heads/main`]);
    expect(refusedTree.code).not.toBe(0);
    expect(refusedTree.stderr).toContain(
      `remote:   the pack's object ${tree.slice(0, 10)} is a tree whose entries are out of order`,
    );
    expect(await main()).toBe(before);

    const requirement = await metaOf('requirement');
    await rewrite(requirement, (text) => `${text}\nA line whose file stays behind.\n`);
    await commit('Lose a file on the way');
    const tip = (await git.ok(['rev-parse', 'HEAD'], { cwd: clone })).trim();
    const added = (await git.ok(['rev-list', '--objects', `${before}..${tip}`], { cwd: clone })).trim().split('\n');
    const blob = added.find((line) => line.endsWith(requirement.path))!.split(' ')[0]!;
    const others = added.map((line) => line.split(' ')[0]).filter((oid) => oid !== blob);
    const pack = plumbing(['pack-objects', '--stdout', '-q'], `${others.join('\n')}\n`);
    const command = `${before} ${tip} refs/heads/main\0report-status side-band-64k\n`;
    const answer = await fetch(`${repoUrl}/git-receive-pack`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${h.users.editor.token}`,
        'Content-Type': 'application/x-git-receive-pack-request',
      },
      body: Buffer.concat([Buffer.from(`${(command.length + 4).toString(16).padStart(4, '0')}${command}0000`), pack]),
    });
    expect(await answer.text()).toContain(`the pack lacks object ${blob}, which the pushed commits name`);
    expect(await main()).toBe(before);

    // A damaged pack: git's reason comes back, and nothing moves.
    const damaged = Buffer.concat([pack.subarray(0, 40), Buffer.alloc(64, 0x5a)]);
    const broken = await fetch(`${repoUrl}/git-receive-pack`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${h.users.editor.token}`,
        'Content-Type': 'application/x-git-receive-pack-request',
      },
      body: Buffer.concat([
        Buffer.from(`${(command.length + 4).toString(16).padStart(4, '0')}${command}0000`),
        damaged,
      ]),
    });
    expect(await broken.text()).toMatch(/unpack the pack could not be taken \(.+\); nothing was changed/);
    expect(await main()).toBe(before);
    const edited = await h.services.store.read(h.orgId, requirement.id);
    expect(edited.body).not.toContain('A line whose file stays behind.');
    await git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: clone });
  });

  it('has git unpack-objects waiting for the pack once the advertisement is asked for, and takes the pack with it', async () => {
    const incoming = async () =>
      (await readdir(path.join(h.gitdir, 'objects'))).filter((name) => name.startsWith('tmp_objdir-incoming-'));
    // One made ready by an earlier push that never sent its pack is gone after its wait.
    await vi.waitFor(async () => expect(await incoming()).toEqual([]), { timeout: 15_000 });
    const advertisement = (token: string) =>
      fetch(`${repoUrl}/info/refs?service=git-receive-pack`, { headers: { Authorization: `Bearer ${token}` } });
    expect((await advertisement(h.users.viewer.token)).status).toBe(403);
    expect(await incoming()).toEqual([]);
    expect((await advertisement(h.users.editor.token)).status).toBe(200);
    const [ready] = await incoming();
    expect(ready).toBeDefined();

    await git.ok(['fetch', '-q', 'origin'], { cwd: clone, token: h.users.editor.token });
    await git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: clone });
    const requirement = await metaOf('requirement');
    await rewrite(requirement, (text) => `${text}\nPushed through the waiting unpacker.\n`);
    await commit('Through the waiting unpacker');
    const result = await push();
    expect(result.code, result.stderr).toBe(0);
    expect(await main()).toBe((await git.ok(['rev-parse', 'HEAD'], { cwd: clone })).trim());
    // The push's own advertisement found one waiting and made no other; its pack went to that one.
    await vi.waitFor(async () => expect(await incoming()).toEqual([]));
  });

  it('refuses a change to a workspace the pusher only reads, a deletion of main and other branches', async () => {
    const hidden = await metaOf('page', h.restrictedWorkspaceId).catch(() => undefined);
    const target =
      hidden ?? (await h.services.store.catalog(h.orgId)).find((m) => m.workspaceId === h.restrictedWorkspaceId)!;
    const denied = await refusedPush(() => rewrite(target, (t) => `${t}\nNot mine to change.\n`), halfToken);
    expect(denied).toContain(`${target.path}: permission denied: your role in workspace ${h.restrictedWorkspaceId}`);

    const deletion = await push([`origin`, ':main']);
    expect(deletion.code).not.toBe(0);
    expect(deletion.stderr).toContain('remote:   deleting main is refused');
    const branch = await push(['origin', 'HEAD:refs/heads/feature']);
    expect(branch.code).not.toBe(0);
    expect(branch.stderr).toContain(
      "refs/heads/feature cannot be pushed: Specbase takes main, a change request's branch cr/{number}, or a new branch under cr/",
    );
    expect(await bareGit(h.gitdir, 'for-each-ref', '--format=%(refname)', 'refs/heads/feature')).toBe('');
  });

  it('a new branch under cr/ opens a change request; pushing cr/{n} adds to it; main never moves', async () => {
    await git.ok(['fetch', '-q', 'origin'], { cwd: clone, token: h.users.editor.token });
    await git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: clone });
    const before = await main();
    const requirement = await metaOf('requirement');
    await rewrite(requirement, (text) => `${text}\nProposed from an editor.\n`);
    await commit('Propose a clearer requirement');
    const opened = await push(['origin', 'HEAD:cr/clearer-requirement']);
    expect(opened.code).toBe(0);
    const number = Number(/opened change request #(\d+); its branch is cr\/(\d+)/.exec(opened.stderr)?.[1]);
    expect(number).toBeGreaterThan(0);
    const changeRequests = h.services.changeRequests.changeRequests;
    const editor = { principal: (await h.services.control.members.principal(h.orgId, h.users.editor.user.id))! };
    expect(await changeRequests.summary(editor, number)).toMatchObject({
      title: 'Propose a clearer requirement',
      state: 'open',
      author: { id: h.users.editor.user.id },
    });
    const tip = (await git.ok(['rev-parse', 'HEAD'], { cwd: clone })).trim();
    expect((await bareGit(h.gitdir, 'rev-parse', `cr/${number}`)).trim()).toBe(tip);
    expect(await bareGit(h.gitdir, 'for-each-ref', '--format=%(refname)', 'refs/heads/cr/clearer-requirement')).toBe(
      '',
    );
    expect(await main()).toBe(before);

    await rewrite(requirement, (text) => `${text}And a second line.\n`);
    await commit('Second thought');
    const added = await push(['origin', `HEAD:cr/${number}`]);
    expect(added.code).toBe(0);
    const detail = await changeRequests.detail(editor, number);
    expect(detail.commits.map((c) => c.subject)).toEqual(['Second thought', 'Propose a clearer requirement']);
    expect(detail.files.map((f) => f.artifactId)).toEqual([requirement.id]);
    expect((await h.services.store.read(h.orgId, requirement.id)).body).not.toContain('Proposed from an editor.');
    expect(await main()).toBe(before);

    // A rewrite of the branch is refused as on main; a number that names nothing too.
    await git.ok(['reset', '-q', '--hard', 'HEAD~1'], { cwd: clone });
    await rewrite(requirement, (text) => `${text}Another idea.\n`);
    await commit('Another idea');
    const rewound = await push(['--force', 'origin', `HEAD:cr/${number}`]);
    expect(rewound.code).not.toBe(0);
    expect(rewound.stderr).toContain(`the commit is not on top of cr/${number}: fetch and rebase`);
    const nothingNew = await push(['origin', 'origin/main:refs/heads/cr/nothing-new']);
    expect(nothingNew.stderr).toContain("that commit is already main's tip: the push brings nothing new");
    const unknown = await push(['origin', 'HEAD:cr/999999']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/change request not found/);
    // Refused before the store waited for its pack: the quarantine goes all the same.
    await vi.waitFor(async () =>
      expect(await readdir(path.join(h.gitdir, 'objects'))).not.toContainEqual(expect.stringMatching(/^tmp_objdir/)),
    );
  });

  it('lands a push of many commits, packed and read by git rather than in process, as it lands one', async () => {
    await git.ok(['fetch', '-q', 'origin'], { cwd: clone, token: h.users.editor.token });
    await git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: clone });
    const requirement = await metaOf('requirement');
    const commits = 40;
    for (let i = 0; i < commits; i++) {
      await rewrite(requirement, (text) => `${text}\nLine ${i} from a long afternoon.\n`);
      await commit(`Line ${i}`);
    }
    const packs = async () => (await readdir(path.join(h.gitdir, 'objects', 'pack'))).filter((f) => f.endsWith('.idx'));
    const packsBefore = await packs();
    const result = await push();
    expect(result.code, result.stderr).toBe(0);
    const tip = (await git.ok(['rev-parse', 'HEAD'], { cwd: clone })).trim();
    expect(await main()).toBe(tip);
    expect((await packs()).length).toBe(packsBefore.length + 1);
    expect(await bareGit(h.gitdir, 'fsck', '--no-progress', '--connectivity-only')).toBe('');
    await vi.waitFor(async () =>
      expect(await readdir(path.join(h.gitdir, 'objects'))).not.toContainEqual(expect.stringMatching(/^tmp_objdir/)),
    );
    expect((await h.services.store.read(h.orgId, requirement.id)).body).toContain(`Line ${commits - 1} from a long`);
    expect((await h.services.store.history(h.orgId, requirement.id)).slice(0, commits).map((e) => e.commit)).toContain(
      tip,
    );
  });

  it('takes push options (and ignores them); refuses a shallow clone, saying how to unshallow', async () => {
    await git.ok(['fetch', '-q', 'origin'], { cwd: clone, token: h.users.editor.token });
    await git.ok(['reset', '-q', '--hard', 'origin/main'], { cwd: clone });
    const requirement = await metaOf('requirement');
    await rewrite(requirement, (text) => `${text}\nPushed with an option.\n`);
    await commit('Push with an option');
    const withOption = await push(['-o', 'ci.skip', 'origin', 'HEAD:main']);
    expect(withOption.code, withOption.stderr).toBe(0);
    expect(await main()).toBe((await git.ok(['rev-parse', 'HEAD'], { cwd: clone })).trim());

    const shallow = path.join(work, 'shallow');
    await git.ok(['clone', '-q', '--depth', '1', repoUrl, shallow], { token: h.users.editor.token });
    await writeFile(
      path.join(shallow, requirement.path),
      `${await readFile(path.join(shallow, requirement.path), 'utf8')}\nShallow.\n`,
    );
    await git.ok([...ENGINEER, 'commit', '-qam', 'From a shallow clone'], { cwd: shallow });
    const before = await main();
    const refused = await git.run(['push', 'origin', 'HEAD:main'], { cwd: shallow, token: h.users.editor.token });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain('a push from a shallow clone cannot be checked commit by commit');
    expect(await main()).toBe(before);
  });

  it('stops a push past the object limit before git unpacks it, and says why', async () => {
    const stderr = await refusedPush(async () => {
      for (let i = 0; i < MAX_OBJECTS; i++) await writeFile(path.join(clone, `note-${i}.txt`), `note ${i}\n`);
    });
    expect(stderr).toMatch(
      new RegExp(`remote: the push holds \\d+ objects; the limit is ${MAX_OBJECTS}; nothing was changed`),
    );
  });

  it('stops unpacking at once when the pusher goes mid-pack, and keeps nothing of it', async () => {
    const before = await main();
    // Only this push's quarantine counts: one made ready by an earlier advertisement may still wait.
    const waiting = await readdir(path.join(h.gitdir, 'objects'));
    const incoming = async () =>
      (await readdir(path.join(h.gitdir, 'objects'))).filter(
        (name) => name.startsWith('tmp_objdir-incoming-') && !waiting.includes(name),
      );
    const command = `${before} ${'1'.repeat(40)} refs/heads/main\0report-status side-band-64k\n`;
    const pkt = `${(command.length + 4).toString(16).padStart(4, '0')}${command}0000`;
    // A pack header announcing five objects, then a part of one: git waits for the rest.
    const header = Buffer.concat([
      Buffer.from('PACK'),
      Buffer.from([0, 0, 0, 2, 0, 0, 0, 5]),
      Buffer.from([0x35, 0x78]),
    ]);
    const request = http.request(`${repoUrl}/git-receive-pack`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${h.users.editor.token}`,
        'Content-Type': 'application/x-git-receive-pack-request',
        'Content-Length': '100000',
      },
    });
    request.on('error', () => undefined);
    request.write(Buffer.concat([Buffer.from(pkt), header]));
    await waitUntil(
      async () => (await incoming()).length > 0,
      5_000,
      () => 'git never started unpacking',
    );
    request.destroy();
    await waitUntil(
      async () => (await incoming()).length === 0,
      5_000,
      () => 'the quarantine stayed',
    );
    expect(await main()).toBe(before);
  });

  it("refuses a viewer's push before it sends anything, in a sentence git shows", async () => {
    await unlink(path.join(clone, 'product.md'));
    await git.ok(['add', '-A'], { cwd: clone });
    await commit('Viewer tries');
    const before = await main();
    const result = await push(['origin', 'HEAD:main'], h.users.viewer.token);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('remote: pushing needs the editor role in a workspace of this organization');
    expect(await main()).toBe(before);
  });
});
