/**
 * Import benchmark: `specbase import` of a directory of markdown pages (files per second, the
 * files read, planned and committed one by one, folders made for the directories, and each
 * page's two relative links to other pages rewritten into artifact links) against a raw
 * isomorphic-git loop committing the same files one per commit into the same sharded paths, in
 * the same run, once with fsync off (the raw loop writes plain files) and once with it on: then
 * the raw loop writes through the fs the store hands isomorphic-git (each object and the ref a
 * temp file, synced, renamed, its directory synced), so that both sides make the writes durable
 * as the product does and the ratio is the product's own cost, not the disk's. The export has a
 * bench of its own (export.ts). BENCH_IMPORT_FILES=2000 by default. Run: npm run bench -- import
 */
import plainFs from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import git, { type TreeEntry } from 'isomorphic-git';
import { provisionOrganization } from '../src/app/provision.js';
import { openServices } from '../src/app/services.js';
import { artifactType } from '../src/artifacts/index.js';
import { readImportSources } from '../src/cli/import-command.js';
import { DEFAULT_LIMITS, loadConfig } from '../src/config/index.js';
import { newId } from '../src/ids.js';
import { FSYNC, openRepo } from '../src/store/git/index.js';
import { artifactCommitMessage, artifactPath, renderArtifactFile } from '../src/store/layout/index.js';

const DIRS = 10;

async function writeSources(dir: string, files: number): Promise<void> {
  for (let i = 0; i < files; i++) {
    const sub = path.join(dir, `section-${i % DIRS}`);
    await mkdir(sub, { recursive: true });
    await writeFile(
      path.join(sub, `page-${i}.md`),
      `# Imported page ${i}\n\nSome text of page ${i}, before [the next](../section-${((i + 1) % files) % DIRS}/page-${(i + 1) % files}.md#imported-page-${(i + 1) % files}) and after [this one](page-${i >= DIRS ? i - DIRS : i}).\n\n- one\n- two\n`,
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
    const sources = await readImportSources(dir, DEFAULT_LIMITS);
    const actor = { principal, client: 'cli' };
    const report = await services.specs.importFiles(actor, sources, { dryRun: false });
    const seconds = (performance.now() - start) / 1000;
    if (report.imported.length !== sources.length)
      throw new Error(`imported ${report.imported.length} of ${sources.length}`);
    if (report.linksRewritten !== 2 * sources.length)
      throw new Error(`rewrote ${report.linksRewritten} links of ${2 * sources.length}`);
    return sources.length / seconds;
  } finally {
    await services.close();
  }
}

/**
 * The same files committed one per commit by isomorphic-git alone: blob, trees to the root,
 * commit, ref; with `fsync`, through the fs the store hands isomorphic-git, which syncs.
 */
async function rawLoop(dir: string, work: string, fsync: boolean): Promise<number> {
  const gitdir = path.join(work, `raw-${fsync ? 'fsync' : 'nofsync'}.git`);
  const fs = fsync ? openRepo(gitdir, FSYNC).fs : plainFs;
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
  const sources = await readImportSources(dir, DEFAULT_LIMITS);
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
    // Each pair runs back to back, so that the machine's drift between them stays small.
    const rawUnsynced = await rawLoop(dir, work, false);
    const unsynced = await specbaseImport(dir, work, false);
    const rawSynced = await rawLoop(dir, work, true);
    const synced = await specbaseImport(dir, work, true);
    const row = (label: string, raw: number, specbase: number) =>
      `  ${label.padEnd(10)} raw isomorphic-git loop ${raw.toFixed(0).padStart(5)} files/s   specbase import ${specbase.toFixed(0).padStart(5)} files/s   ${(specbase / raw).toFixed(2)}x raw`;
    console.log(`import of ${files} markdown pages in ${DIRS} directories, one commit each, 2 links each rewritten`);
    console.log(row('fsync off', rawUnsynced, unsynced));
    console.log(`${row('fsync on', rawSynced, synced)} (target 0.7x)`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runImportBench();
}
