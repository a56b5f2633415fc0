/**
 * Store benchmark: commit latency of an edit through GitStore against a raw isomorphic-git write
 * of the same change and against native `git add` + `git commit`, at 1,000 and 10,000 artifacts
 * (BENCH_STORE_SIZES=1000,100000 for others), with the bytes of new objects per edit; then
 * history() of one artifact after 1,000 commits. Run: npx tsx bench/store.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import git from 'isomorphic-git';
import { artifactType, type ArtifactType } from '../src/artifacts/index.js';
import { artifactCommitMessage, artifactPath, renderArtifactFile } from '../src/store/layout/index.js';
import { GitStore } from '../src/store/index.js';

const ORG = '00000000-0000-4000-8000-00000000b0b0';
const WORKSPACE = '00000000-0000-4000-8000-0000000000ws';
const CTX = { author: { name: 'Bench User', email: 'bench@example.com' }, client: 'bench' };
const EDITS = 30;

/** How a product of n artifacts spreads over the types (acceptance criteria are the biggest directory). */
const SHARE: [ArtifactType, number][] = [
  ['capability', 0.002],
  ['feature', 0.02],
  ['requirement', 0.24],
  ['user_type', 0.01],
  ['core_entity', 0.01],
  ['page', 0.018],
];

interface SeedFile {
  readonly id: string;
  readonly path: string;
  readonly content: string;
  readonly type: ArtifactType;
  readonly title: string;
  body: string;
}

/** Deterministic ids spread like random ones, so that the sharded directories fill as they do in use. */
const uuid = (n: number, kind: number) => {
  const hex = createHash('sha1').update(`${kind}:${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

function seedFiles(total: number): SeedFile[] {
  const files: SeedFile[] = [];
  const add = (type: ArtifactType, n: number, parent: string | null) => {
    const id = uuid(n, files.length + 1);
    const title = `${artifactType(type).name} number ${n}`;
    const body = `# ${title}\n\nSome text about ${title}.\n\n- one\n- two\n- three\n`;
    const path = artifactPath(artifactType(type), id, title);
    files.push({
      id,
      path,
      type,
      title,
      body,
      content: renderArtifactFile(
        { id, type, parent, workspace: WORKSPACE, title, created: '2024-01-01T00:00:00.000Z' },
        body,
      ),
    });
    return id;
  };
  const product = add('product', 0, null);
  for (const [type, share] of SHARE)
    for (let i = 0; i < Math.max(1, Math.round(total * share)); i++) add(type, i, product);
  for (let i = 0; files.length < total; i++) add('acceptance_criterion', i, product);
  return files;
}

/** Writes the seed as one commit with `git fast-import`: 10,000 files in seconds, not 10,000 commits. */
function fastImport(gitdir: string, files: readonly SeedFile[], edits: { file: SeedFile; body: string }[] = []): void {
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', gitdir]);
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const who = (t: number) =>
    `author Seed <seed@localhost> ${t} +0000\ncommitter Specbase <specbase@localhost> ${t} +0000\n`;
  chunks.push(`commit refs/heads/main\n${who(1_700_000_000)}${data('Seed')}`);
  for (const f of files) chunks.push(`M 100644 inline ${f.path}\n${data(f.content)}`);
  edits.forEach(({ file, body }, i) => {
    const message = artifactCommitMessage({
      verb: 'edit',
      type: file.type,
      id: file.id,
      title: file.title,
      client: 'bench',
    });
    const content = renderArtifactFile(
      {
        id: file.id,
        type: file.type,
        parent: null,
        workspace: WORKSPACE,
        title: file.title,
        created: '2024-01-01T00:00:00.000Z',
      },
      body,
    );
    chunks.push(
      `commit refs/heads/main\n${who(1_700_000_001 + i)}${data(message)}M 100644 inline ${file.path}\n${data(content)}`,
    );
  });
  const result = spawnSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], { input: chunks.join('') });
  if (result.status !== 0) throw new Error(`fast-import failed: ${result.stderr.toString()}`);
}

const percentile = (samples: number[], p: number) =>
  [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))]!;

async function timed(runs: number, step: (i: number) => Promise<void>): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await step(i);
    samples.push(performance.now() - start);
  }
  return samples;
}

const edited = (body: string, i: number) => `${body}- edit ${i}\n`;

/** The same change with isomorphic-git alone: read the trees on the file's path, write blob, trees, commit, ref. */
async function rawIsomorphicEdit(gitdir: string, file: SeedFile, body: string, cache: object): Promise<void> {
  const head = await git.resolveRef({ fs, gitdir, ref: 'refs/heads/main' });
  const { commit } = await git.readCommit({ fs, gitdir, oid: head, cache });
  const names = file.path.split('/');
  const trees = [(await git.readTree({ fs, gitdir, oid: commit.tree, cache })).tree];
  for (const name of names.slice(0, -1)) {
    trees.push((await git.readTree({ fs, gitdir, oid: trees.at(-1)!.find((e) => e.path === name)!.oid, cache })).tree);
  }
  let oid = await git.writeBlob({
    fs,
    gitdir,
    blob: Buffer.from(
      renderArtifactFile(
        {
          id: file.id,
          type: file.type,
          parent: null,
          workspace: WORKSPACE,
          title: file.title,
          created: '2024-01-01T00:00:00.000Z',
        },
        body,
      ),
    ),
  });
  for (let depth = names.length - 1; depth >= 0; depth--) {
    const name = names[depth]!;
    oid = await git.writeTree({ fs, gitdir, tree: trees[depth]!.map((e) => (e.path === name ? { ...e, oid } : e)) });
  }
  const person = { ...CTX.author, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  const newCommit = await git.writeCommit({
    fs,
    gitdir,
    commit: { message: `Edit ${file.title}\n`, tree: oid, parent: [head], author: person, committer: person },
  });
  await git.writeRef({ fs, gitdir, ref: 'refs/heads/main', value: newCommit, force: true });
}

/** Total size of a repository's loose objects: what edits have written since a fast-import pack. */
function looseObjectBytes(gitdir: string): number {
  const objects = path.join(gitdir, 'objects');
  let bytes = 0;
  for (const dir of fs.readdirSync(objects).filter((d) => /^[0-9a-f]{2}$/.test(d))) {
    for (const file of fs.readdirSync(path.join(objects, dir)))
      bytes += fs.statSync(path.join(objects, dir, file)).size;
  }
  return bytes;
}

async function editLatency(total: number, work: string): Promise<Record<string, number>> {
  const files = seedFiles(total);
  const target = files.at(-1)!;
  const seed = path.join(work, `seed-${total}.git`);
  const dataDir = path.join(work, `data-${total}`);
  const raw = path.join(work, `raw-${total}.git`);
  const clone = path.join(work, `clone-${total}`);
  fastImport(seed, files);
  fs.mkdirSync(path.join(dataDir, 'orgs'), { recursive: true });
  fs.cpSync(seed, path.join(dataDir, 'orgs', `${ORG}.git`), { recursive: true });
  fs.cpSync(seed, raw, { recursive: true });
  execFileSync('git', ['clone', '-q', seed, clone]);

  const store = new GitStore({ dataDir });
  let start = performance.now();
  await store.catalog(ORG);
  const indexBuildMs = performance.now() - start;
  let body = target.body;
  await store.update(ORG, target.id, { body: (body = edited(body, -1)), verb: 'edit' }, CTX);
  const bytesBefore = looseObjectBytes(path.join(dataDir, 'orgs', `${ORG}.git`));
  const storeMs = await timed(EDITS, async (i) => {
    await store.update(ORG, target.id, { body: (body = edited(body, i)), verb: 'edit' }, CTX);
  });
  const bytesPerEdit = (looseObjectBytes(path.join(dataDir, 'orgs', `${ORG}.git`)) - bytesBefore) / EDITS;
  await store.close();

  const cache = {};
  let rawBody = target.body;
  await rawIsomorphicEdit(raw, target, (rawBody = edited(rawBody, -1)), cache);
  const rawMs = await timed(EDITS, (i) => rawIsomorphicEdit(raw, target, (rawBody = edited(rawBody, i)), cache));

  let nativeBody = target.body;
  const nativeGit = (...args: string[]) =>
    execFileSync('git', ['-C', clone, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args]);
  const nativeMs = await timed(EDITS + 1, async (i) => {
    nativeBody = edited(nativeBody, i);
    await writeFile(path.join(clone, target.path), nativeBody);
    nativeGit('add', target.path);
    nativeGit('commit', '-q', '-m', `Edit ${target.title}`);
  });
  nativeMs.shift();

  start = performance.now();
  execFileSync('git', ['--git-dir', path.join(dataDir, 'orgs', `${ORG}.git`), 'fsck', '--strict', '--no-dangling']);
  const fsckMs = performance.now() - start;
  return {
    indexBuildMs,
    fsckMs,
    bytesPerEdit,
    storeP50: percentile(storeMs, 0.5),
    storeP95: percentile(storeMs, 0.95),
    rawP50: percentile(rawMs, 0.5),
    rawP95: percentile(rawMs, 0.95),
    nativeP50: percentile(nativeMs, 0.5),
    nativeP95: percentile(nativeMs, 0.95),
  };
}

async function historyLatency(work: string): Promise<Record<string, number>> {
  const files = seedFiles(1000);
  const targets = files.slice(-10);
  const bodies = targets.map((f) => f.body);
  const edits = Array.from({ length: 1000 }, (_, i) => {
    const k = i % targets.length;
    bodies[k] = edited(bodies[k]!, i);
    return { file: targets[k]!, body: bodies[k]! };
  });
  const dataDir = path.join(work, 'history');
  fastImport(path.join(dataDir, 'orgs', `${ORG}.git`), files, edits);
  let start = performance.now();
  const cold = new GitStore({ dataDir });
  const coldHistory = await cold.history(ORG, targets[0]!.id);
  const coldBuildMs = performance.now() - start;
  if (coldHistory.length !== 101) throw new Error(`expected 101 history entries, got ${coldHistory.length}`);
  await cold.close();
  start = performance.now();
  const warm = new GitStore({ dataDir });
  await warm.history(ORG, targets[0]!.id);
  const sidecarLoadMs = performance.now() - start;
  const samples = await timed(200, async (i) => {
    await warm.history(ORG, targets[i % targets.length]!.id);
  });
  return { coldBuildMs, sidecarLoadMs, historyP50: percentile(samples, 0.5), historyP95: percentile(samples, 0.95) };
}

const ms = (value: number) => `${value.toFixed(2)} ms`;

export async function runStoreBench(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'specbase-bench-store-'));
  try {
    const sizes = (process.env.BENCH_STORE_SIZES ?? '1000,10000').split(',').map(Number);
    const results = [];
    for (const total of sizes) {
      const r = await editLatency(total, work);
      results.push(r);
      console.log(
        `edit at ${total} artifacts (${EDITS} edits of one acceptance criterion; index build ${ms(r.indexBuildMs!)})`,
      );
      console.log(`  GitStore.update        p50 ${ms(r.storeP50!)}  p95 ${ms(r.storeP95!)}`);
      console.log(
        `  raw isomorphic-git     p50 ${ms(r.rawP50!)}  p95 ${ms(r.rawP95!)}   store/raw p50 ${(r.storeP50! / r.rawP50!).toFixed(2)}x  p95 ${(r.storeP95! / r.rawP95!).toFixed(2)}x`,
      );
      console.log(
        `  native git add+commit  p50 ${ms(r.nativeP50!)}  p95 ${ms(r.nativeP95!)}   store/native p50 ${(r.storeP50! / r.nativeP50!).toFixed(2)}x  p95 ${(r.storeP95! / r.nativeP95!).toFixed(2)}x`,
      );
      console.log(`  git fsck --strict after the edits: clean (${ms(r.fsckMs!)})`);
      console.log(
        `  new objects per edit   ${(r.bytesPerEdit! / 1024).toFixed(1)} KB   vs ${sizes[0]} artifacts ${(r.bytesPerEdit! / results[0]!.bytesPerEdit!).toFixed(2)}x, p50 ${(r.storeP50! / results[0]!.storeP50!).toFixed(2)}x`,
      );
    }
    const h = await historyLatency(work);
    console.log('history() of one artifact after 1,000 commits (1,000 artifacts)');
    console.log(
      `  p50 ${ms(h.historyP50!)}  p95 ${ms(h.historyP95!)}; cold index build ${ms(h.coldBuildMs!)}, restart from sidecar ${ms(h.sidecarLoadMs!)}`,
    );
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runStoreBench();
}
