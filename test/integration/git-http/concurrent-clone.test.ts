import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GitCli } from './git-cli.js';
import { openGitHttpFixture, type GitHttpFixture } from './fixture.js';

describe('git smart HTTP: clones while edits are committed', () => {
  let fx: GitHttpFixture;
  let git: GitCli;
  let work: string;

  beforeAll(async () => {
    fx = await openGitHttpFixture();
    git = await GitCli.create();
    work = await mkdtemp(path.join(tmpdir(), 'specbase-git-concurrent-'));
  });
  afterAll(async () => {
    await fx?.close();
  });

  it('never yields a broken clone', async () => {
    const capability = await fx.store.create(
      fx.orgId,
      {
        type: 'capability',
        parentId: fx.productId,
        workspaceId: fx.defaultWorkspace.id,
        title: 'Busy',
        body: '# Busy\n',
      },
      fx.alice.ctx,
    );
    const EDITS = 24;
    let writerDone = false;
    const writer = (async () => {
      let body = '# Busy\n';
      try {
        for (let edit = 0; edit < EDITS; edit += 1) {
          const author = edit % 2 === 0 ? fx.alice : fx.bob;
          body += `Line ${edit} by ${author.user.name}.\n`;
          await fx.store.update(fx.orgId, capability.artifact.id, { verb: 'edit', body }, author.ctx);
          if (edit % 5 === 0) {
            await fx.store.create(
              fx.orgId,
              {
                type: 'feature',
                parentId: capability.artifact.id,
                workspaceId: fx.defaultWorkspace.id,
                title: `Feature ${edit}`,
                body: `# Feature ${edit}\n`,
              },
              author.ctx,
            );
          }
        }
      } finally {
        writerDone = true;
      }
    })();

    const clones: string[] = [];
    for (let round = 0; (!writerDone || round < 2) && round < 40; round += 1) {
      const batch = [0, 1, 2].map((i) => path.join(work, `clone-${round}-${i}`));
      await Promise.all(
        batch.map((dir, i) =>
          git.ok(['-c', `protocol.version=${i === 0 ? 0 : 2}`, 'clone', '--quiet', fx.repoUrl(), dir], {
            token: fx.alice.token,
          }),
        ),
      );
      clones.push(...batch);
    }
    await writer;

    const heads = new Set<string>();
    for (const dir of clones) {
      await git.ok(['fsck', '--strict', '--no-dangling', '--full'], { cwd: dir });
      const head = (await git.ok(['rev-parse', 'HEAD'], { cwd: dir })).trim();
      heads.add(head);
      const onMain = await git.run(['--git-dir', fx.gitdir(), 'merge-base', '--is-ancestor', head, 'main']);
      expect(onMain.code).toBe(0);
      expect(await git.ok(['rev-list', '--count', 'HEAD'], { cwd: dir })).toBe(
        await git.ok(['--git-dir', fx.gitdir(), 'rev-list', '--count', head]),
      );
      expect(await git.ok(['status', '--porcelain'], { cwd: dir })).toBe('');
      expect(await git.ok(['for-each-ref', '--format=%(refname)', 'refs/remotes'], { cwd: dir })).toBe(
        'refs/remotes/origin/HEAD\nrefs/remotes/origin/main\n',
      );
    }
    expect(heads.size).toBeGreaterThan(1);
  });
});
