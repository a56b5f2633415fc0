/**
 * Import benchmark: `specbase import` of a directory of markdown pages (files per second, the
 * files read, planned and committed one by one, folders made for the directories, and each
 * page's two relative links to other pages rewritten into artifact links) against a raw
 * isomorphic-git loop committing the same files one per commit into the same sharded paths, in
 * the same run. Then the export of what was imported as a zip archive: files per second and
 * the heap at its start and the most it held (it streams: that stays flat as the count
 * grows). BENCH_IMPORT_FILES=2000 by default. Run: npm run bench -- import
 */
import fs from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
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
import { zipChunks } from '../src/transfer/index.js';
import { newId } from '../src/ids.js';
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

/** Export of the whole organization as a zip archive, thrown away as it streams: files/s, heap at the start and at most. */
async function exportOrg(
  services: Awaited<ReturnType<typeof openServices>>,
  actor: Parameters<Awaited<ReturnType<typeof openServices>>['specs']['exportFiles']>[0],
): Promise<{ filesPerSecond: number; files: number; startHeapMiB: number; peakHeapMiB: number }> {
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  let files = 0;
  const start = performance.now();
  async function* counted() {
    for await (const file of services.specs.exportFiles(actor, { all: true })) {
      files++;
      if (files % 100 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed);
      yield file;
    }
  }
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  await pipeline(Readable.from(zipChunks(counted())), sink);
  const seconds = (performance.now() - start) / 1000;
  const mib = (bytes: number) => bytes / (1024 * 1024);
  return { filesPerSecond: files / seconds, files, startHeapMiB: mib(base), peakHeapMiB: mib(peak) };
}

/** Specbase's import of `dir` into a new organization: files per second, then (optionally) its export. */
async function specbaseImport(
  dir: string,
  work: string,
  fsync: boolean,
  then?: (exported: Awaited<ReturnType<typeof exportOrg>>) => void,
): Promise<number> {
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
    if (then) then(await exportOrg(services, actor));
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
    const raw = await rawLoop(dir, work);
    let exported: Awaited<ReturnType<typeof exportOrg>> | undefined;
    const unsynced = await specbaseImport(dir, work, false, (result) => (exported = result));
    const synced = await specbaseImport(dir, work, true);
    console.log(`import of ${files} markdown pages in ${DIRS} directories, one commit each, 2 links each rewritten`);
    console.log(`  raw isomorphic-git loop      ${raw.toFixed(0)} files/s (no fsync)`);
    console.log(`  specbase import, fsync off   ${unsynced.toFixed(0)} files/s   ${(unsynced / raw).toFixed(2)}x raw`);
    console.log(`  specbase import, fsync on    ${synced.toFixed(0)} files/s   ${(synced / raw).toFixed(2)}x raw`);
    console.log(
      `export of ${exported!.files} files as a zip   ${exported!.filesPerSecond.toFixed(0)} files/s, heap ${exported!.startHeapMiB.toFixed(0)} MiB at the start, at most ${exported!.peakHeapMiB.toFixed(0)} MiB`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runImportBench();
}
