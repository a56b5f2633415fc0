/**
 * Import benchmark: `specbase import` of a directory of markdown pages (files per second, the
 * files read, planned and committed one by one, folders made for the directories) against a raw
 * isomorphic-git loop committing the same files one per commit into the same sharded paths, in
 * the same run. BENCH_IMPORT_FILES=2000 by default. Run: npm run bench -- import
 */
import fs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import git, { type TreeEntry } from 'isomorphic-git';
import { provisionOrganization } from '../src/app/provision.js';
import { openServices } from '../src/app/services.js';
import { artifactType } from '../src/artifacts/index.js';
import { readImportSources } from '../src/cli/import-command.js';
import { loadConfig } from '../src/config/index.js';
import { newId } from '../src/ids.js';
import { artifactCommitMessage, artifactPath, renderArtifactFile } from '../src/store/layout/index.js';

const DIRS = 10;

async function writeSources(dir: string, files: number): Promise<void> {
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, `section-${i % DIRS}`);
    await mkdir(sub, { recursive: true });
    await writeFile(
      path.join(sub, `page-${i}.md`),
      `# Imported page ${i}\n\nSome text of page ${i}.\n\n- one\n- two\n`,
    );
  }
}

/** Specbase's import of `dir` into a new organization: files per second. */
async function specbaseImport(dir: string, work: string, fsync: boolean): Promise<number> {
  const dataDir = path.join(work, `data-${fsync ? 'fsync' : 'nofsync'}`);
  const services = await openServices(
    loadConfig({ SPECBASE_DATA_DIR: dataDir, SPECBASE_LOG_LEVEL: 'silent', SPECBASE_FSYNC: fsync ? 'on' : 'off' }),
  );
  try {
    const owner = await services.control.users.upsert({
      issuer: 'local',
      subject: newId(),
      email: 'bench@example.com',
      name: 'Bench User',
    });
    const { org } = await provisionOrganization(services, { name: 'Bench', owner });
    const principal = (await services.control.members.principal(org.id, owner.id))!;
    const start = performance.now();
    const sources = await readImportSources(dir);
    const report = await services.specs.importFiles({ principal, client: 'cli' }, sources, { dryRun: false });
    const seconds = (performance.now() - start) / 1000;
    if (report.imported.length !== sources.length)
      throw new Error(`imported ${report.imported.length} of ${sources.length}`);
    return sources.length / seconds;
  } finally {
    await services.close();
  }
}

/** The same files committed one per commit by isomorphic-git alone: blob, trees to the root, commit, ref. */
async function rawLoop(dir: string, work: string): Promise<number> {
  const gitdir = path.join(work, 'raw.git');
  await git.init({ fs, gitdir, bare: true, defaultBranch: 'main' });
  const cache = {};
  const person = () => ({
    name: 'Bench',
    email: 'bench@example.com',
    timestamp: Math.floor(Date.now() / 1000),
    timezoneOffset: 0,
  });
  const writePath = async (treeOid: string | null, parts: readonly string[], blob: string): Promise<string> => {
    const tree: TreeEntry[] = treeOid ? (await git.readTree({ fs, gitdir, oid: treeOid, cache })).tree : [];
    const [name, ...rest] = parts;
    const existing = tree.find((e) => e.path === name);
    const oid = rest.length ? await writePath(existing?.oid ?? null, rest, blob) : blob;
    const entry: TreeEntry = {
      mode: rest.length ? '040000' : '100644',
      path: name!,
      oid,
      type: rest.length ? 'tree' : 'blob',
    };
    return git.writeTree({ fs, gitdir, tree: [...tree.filter((e) => e.path !== name), entry] });
  };
  const start = performance.now();
  const sources = await readImportSources(dir);
  let head: string | undefined;
  let tree: string | null = null;
  const def = artifactType('page');
  for (const source of sources) {
    const id = newId();
    const title = `Imported ${source.path}`;
    const content = renderArtifactFile(
      { id, type: 'page', parent: null, workspace: 'bench', title, created: new Date().toISOString() },
      source.body ?? '',
    );
    const blob = await git.writeBlob({ fs, gitdir, blob: Buffer.from(content, 'utf8') });
    tree = await writePath(tree, artifactPath(def, id, title).split('/'), blob);
    const message = artifactCommitMessage({
      verb: 'create',
      type: 'page',
      id,
      title,
      client: 'cli',
      importedFrom: source.path,
    });
    head = await git.writeCommit({
      fs,
      gitdir,
      commit: { message, tree, parent: head ? [head] : [], author: person(), committer: person() },
    });
    await git.writeRef({ fs, gitdir, ref: 'refs/heads/main', value: head, force: true });
  }
  return sources.length / ((performance.now() - start) / 1000);
}

export async function runImportBench(): Promise<void> {
  const files = Number(process.env.BENCH_IMPORT_FILES ?? 2000);
  const work = await mkdtemp(path.join(tmpdir(), 'specbase-bench-import-'));
  try {
    const dir = path.join(work, 'source');
    await writeSources(dir, files);
    const raw = await rawLoop(dir, work);
    const unsynced = await specbaseImport(dir, work, false);
    const synced = await specbaseImport(dir, work, true);
    console.log(`import of ${files} markdown pages in ${DIRS} directories, one commit each`);
    console.log(`  raw isomorphic-git loop      ${raw.toFixed(0)} files/s (no fsync)`);
    console.log(`  specbase import, fsync off   ${unsynced.toFixed(0)} files/s   ${(unsynced / raw).toFixed(2)}x raw`);
    console.log(`  specbase import, fsync on    ${synced.toFixed(0)} files/s   ${(synced / raw).toFixed(2)}x raw`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runImportBench();
}
