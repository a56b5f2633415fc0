/**
 * Store benchmark: commit latency of an edit through GitStore against a raw isomorphic-git write
 * of the same change and against native `git add` + `git commit`, at 1,000 and 10,000 artifacts;
 * then history() of one artifact after 1,000 commits. Run: npx tsx bench/store.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import git from 'isomorphic-git';
import { artifactType, type ArtifactType } from '../src/artifacts/index.js';
import { renderArtifactFile } from '../src/store/frontmatter.js';
import { GitStore } from '../src/store/index.js';
import { artifactCommitMessage } from '../src/store/message.js';
import { artifactPath } from '../src/store/paths.js';

const ORG = '00000000-0000-4000-8000-00000000b0b0';
const WORKSPACE = '00000000-0000-4000-8000-0000000000ws';
const CTX = { author: { name: 'Bench User', email: 'bench@example.com' }, client: 'bench' };
const EDITS = 30;

/** How a product of n artifacts spreads over the types (acceptance criteria are the biggest directory). */
const SHARE: [ArtifactType, number][] = [
  ['capability', 0.002], ['feature', 0.02], ['requirement', 0.24], ['user_type', 0.01], ['core_entity', 0.01], ['page', 0.018],
];

interface SeedFile { readonly id: string; readonly path: string; readonly content: string; readonly type: ArtifactType; readonly title: string; body: string }

const uuid = (n: number, kind: number) => `${kind.toString(16).padStart(8, '0')}-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

function seedFiles(total: number): SeedFile[] {
  const files: SeedFile[] = [];
  const add = (type: ArtifactType, n: number, parent: string | null) => {
    const id = uuid(n, files.length + 1);
    const title = `${artifactType(type).name} number ${n}`;
    const body = `# ${title}\n\nSome text about ${title}.\n\n- one\n- two\n- three\n`;
    const path = artifactPath(artifactType(type), id, title);
    files.push({ id, path, type, title, body, content: renderArtifactFile({ id, type, parent, workspace: WORKSPACE, title, created: '2024-01-01T00:00:00.000Z' }, body) });
    return id;
  };
  const product = add('product', 0, null);
  for (const [type, share] of SHARE) for (let i = 0; i < Math.max(1, Math.round(total * share)); i++) add(type, i, product);
  for (let i = 0; files.length < total; i++) add('acceptance_criterion', i, product);
  return files;
}

/** Writes the seed as one commit with `git fast-import`: 10,000 files in seconds, not 10,000 commits. */
function fastImport(gitdir: string, files: readonly SeedFile[], edits: { file: SeedFile; body: string }[] = []): void {
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', gitdir]);
  const chunks: string[] = [];
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const who = (t: number) => `author Seed <seed@localhost> ${t} +0000\ncommitter Specbase <specbase@localhost> ${t} +0000\n`;
  chunks.push(`commit refs/heads/main\n${who(1_700_000_000)}${data('Seed')}`);
  for (const f of files) chunks.push(`M 100644 inline ${f.path}\n${data(f.content)}`);
  edits.forEach(({ file, body }, i) => {
    const message = artifactCommitMessage({ verb: 'edit', type: file.type, id: file.id, title: file.title, client: 'bench' });
    const content = renderArtifactFile({ id: file.id, type: file.type, parent: null, workspace: WORKSPACE, title: file.title, created: '2024-01-01T00:00:00.000Z' }, body);
    chunks.push(`commit refs/heads/main\n${who(1_700_000_001 + i)}${data(message)}M 100644 inline ${file.path}\n${data(content)}`);
  });
  const result = spawnSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], { input: chunks.join('') });
  if (result.status !== 0) throw new Error(`fast-import failed: ${result.stderr.toString()}`);
}

const percentile = (samples: number[], p: number) => [...samples].sort((a, b) => a - b)[Math.min(samples.length - 1, Math.floor(samples.length * p))]!;

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

/** The same change with isomorphic-git alone: read the trees, write blob, trees, commit, ref. */
async function rawIsomorphicEdit(gitdir: string, file: SeedFile, body: string, cache: object): Promise<void> {
  const head = await git.resolveRef({ fs, gitdir, ref: 'refs/heads/main' });
  const { commit } = await git.readCommit({ fs, gitdir, oid: head, cache });
  const dir = path.posix.dirname(file.path);
  const root = (await git.readTree({ fs, gitdir, oid: commit.tree, cache })).tree;
  const sub = (await git.readTree({ fs, gitdir, oid: root.find((e) => e.path === dir)!.oid, cache })).tree;
  const blob = await git.writeBlob({ fs, gitdir, blob: Buffer.from(renderArtifactFile({ id: file.id, type: file.type, parent: null, workspace: WORKSPACE, title: file.title, created: '2024-01-01T00:00:00.000Z' }, body)) });
  const subOid = await git.writeTree({ fs, gitdir, tree: sub.map((e) => (e.path === path.posix.basename(file.path) ? { ...e, oid: blob } : e)) });
  const rootOid = await git.writeTree({ fs, gitdir, tree: root.map((e) => (e.path === dir ? { ...e, oid: subOid } : e)) });
  const person = { ...CTX.author, timestamp: Math.floor(Date.now() / 1000), timezoneOffset: 0 };
  const oid = await git.writeCommit({ fs, gitdir, commit: { message: `Edit ${file.title}\n`, tree: rootOid, parent: [head], author: person, committer: person } });
  await git.writeRef({ fs, gitdir, ref: 'refs/heads/main', value: oid, force: true });
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
  const storeMs = await timed(EDITS, async (i) => {
    await store.update(ORG, target.id, { body: (body = edited(body, i)), verb: 'edit' }, CTX);
  });
  await store.close();

  const cache = {};
  let rawBody = target.body;
  await rawIsomorphicEdit(raw, target, (rawBody = edited(rawBody, -1)), cache);
  const rawMs = await timed(EDITS, (i) => rawIsomorphicEdit(raw, target, (rawBody = edited(rawBody, i)), cache));

  let nativeBody = target.body;
  const nativeGit = (...args: string[]) => execFileSync('git', ['-C', clone, '-c', 'user.name=Bench', '-c', 'user.email=bench@example.com', ...args]);
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
    indexBuildMs, fsckMs,
    storeP50: percentile(storeMs, 0.5), storeP95: percentile(storeMs, 0.95),
    rawP50: percentile(rawMs, 0.5), rawP95: percentile(rawMs, 0.95),
    nativeP50: percentile(nativeMs, 0.5), nativeP95: percentile(nativeMs, 0.95),
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
    for (const total of [1000, 10000]) {
      const r = await editLatency(total, work);
      console.log(`edit at ${total} artifacts (${EDITS} edits of one acceptance criterion; index build ${ms(r.indexBuildMs!)})`);
      console.log(`  GitStore.update        p50 ${ms(r.storeP50!)}  p95 ${ms(r.storeP95!)}`);
      console.log(`  raw isomorphic-git     p50 ${ms(r.rawP50!)}  p95 ${ms(r.rawP95!)}   store/raw p50 ${(r.storeP50! / r.rawP50!).toFixed(2)}x  p95 ${(r.storeP95! / r.rawP95!).toFixed(2)}x`);
      console.log(`  native git add+commit  p50 ${ms(r.nativeP50!)}  p95 ${ms(r.nativeP95!)}   store/native p50 ${(r.storeP50! / r.nativeP50!).toFixed(2)}x  p95 ${(r.storeP95! / r.nativeP95!).toFixed(2)}x`);
      console.log(`  git fsck --strict after the edits: clean (${ms(r.fsckMs!)})`);
    }
    const h = await historyLatency(work);
    console.log('history() of one artifact after 1,000 commits (1,000 artifacts)');
    console.log(`  p50 ${ms(h.historyP50!)}  p95 ${ms(h.historyP95!)}; cold index build ${ms(h.coldBuildMs!)}, restart from sidecar ${ms(h.sidecarLoadMs!)}`);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runStoreBench();
}
