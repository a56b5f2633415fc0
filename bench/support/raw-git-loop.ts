/**
 * The storm baseline, in its own process: a raw isomorphic-git commit loop on one repository,
 * each commit changing one line of one file (read the trees on its path, write the blob, the
 * trees back up to the root, the commit, and move the ref), as fast as it goes for a while.
 */
import fs from 'node:fs';
import path from 'node:path';
import git, { type TreeEntry } from 'isomorphic-git';
import { exitWithParent } from './child-ipc.js';

interface LoopRequest {
  readonly kind: 'loop';
  readonly gitdir: string;
  readonly filepath: string;
  readonly ms: number;
}

const cache = {};

async function writePath(gitdir: string, treeOid: string, parts: readonly string[], blob: string): Promise<string> {
  const tree: TreeEntry[] = (await git.readTree({ fs, gitdir, oid: treeOid, cache })).tree;
  const [name, ...rest] = parts;
  const entry = tree.find((e) => e.path === name)!;
  const oid = rest.length ? await writePath(gitdir, entry.oid, rest, blob) : blob;
  return git.writeTree({ fs, gitdir, tree: tree.map((e) => (e.path === name ? { ...e, oid } : e)) });
}

async function commitOnce(gitdir: string, filepath: string, n: number): Promise<void> {
  const head = await git.resolveRef({ fs, gitdir, ref: 'refs/heads/main' });
  const { commit } = await git.readCommit({ fs, gitdir, oid: head, cache });
  const { blob } = await git.readBlob({ fs, gitdir, oid: head, filepath, cache });
  const text = Buffer.from(blob)
    .toString('utf8')
    .replace(/\n(- storm[^\n]*\n)?$/, `\n- storm ${n}\n`);
  const blobOid = await git.writeBlob({ fs, gitdir, blob: Buffer.from(text, 'utf8') });
  const tree = await writePath(gitdir, commit.tree, filepath.split('/'), blobOid);
  const person = {
    name: 'Bench',
    email: 'bench@example.com',
    timestamp: Math.floor(Date.now() / 1000),
    timezoneOffset: 0,
  };
  const oid = await git.writeCommit({
    fs,
    gitdir,
    commit: { message: `Edit ${path.basename(filepath)}\n`, tree, parent: [head], author: person, committer: person },
  });
  await git.writeRef({ fs, gitdir, ref: 'refs/heads/main', value: oid, force: true });
}

let n = 0;
process.on('message', (request: LoopRequest) => {
  void (async () => {
    const end = performance.now() + request.ms;
    let commits = 0;
    while (performance.now() < end) {
      await commitOnce(request.gitdir, request.filepath, n++);
      commits += 1;
    }
    process.send!({ kind: 'answer', value: { perSecond: commits / (request.ms / 1000) } });
  })().catch((error: unknown) => process.send!({ kind: 'failed', message: String(error) }));
});
exitWithParent();
process.send!({ kind: 'ready' });
