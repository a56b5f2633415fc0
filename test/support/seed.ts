import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openServices } from '../../src/app/services.js';
import { loadConfig } from '../../src/config/index.js';
import { ensureDemo } from '../../src/demo/seed.js';
import { artifactCommitMessage } from '../../src/store/layout/index.js';
import { layoutFingerprint, organizationArtifacts, type SeedArtifact } from './org-shape.js';

/** Bumped when what this file seeds changes in a way the fingerprint cannot see. */
const SEED_VERSION = 2;

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const SCRATCH = path.join(ROOT, '.scratch', 'bench');

/** What a benchmark needs to talk to a seeded data directory. */
export interface SeedManifest {
  readonly total: number;
  readonly loose: boolean;
  readonly orgId: string;
  readonly workspaceId: string;
  readonly token: string;
  readonly productId: string;
  /** One artifact of each type, by type, for reads and edits. */
  readonly sample: Readonly<Record<string, { id: string; path: string; title: string; body: string }>>;
}

export interface SeededDataDir {
  readonly dir: string;
  readonly manifest: SeedManifest;
}

/** The control-plane schema the cached database was made with. */
const SCHEMA_FILES = [
  path.join(ROOT, 'src', 'control', 'schema.ts'),
  path.join(ROOT, 'src', 'control', 'sqlite', 'migrations.ts'),
];

function cacheKey(total: number, loose: boolean, commitEach: boolean): string {
  const hash = createHash('sha1')
    .update(`${SEED_VERSION}\n${layoutFingerprint()}\n`)
    .update(SCHEMA_FILES.map((file) => fs.readFileSync(file, 'utf8')).join('\n'))
    .digest('hex')
    .slice(0, 10);
  return `seed-${total}-${loose ? 'loose' : 'packed'}${commitEach ? '-commit-each' : ''}-${hash}`;
}

/**
 * A data directory with one organization of `total` artifacts (the demo account owns it),
 * built once and cached under .scratch/bench keyed by size, object format and layout. Callers
 * copy it (copyDataDir) before starting a server on it.
 */
export async function seededDataDir(
  total: number,
  options: { loose?: boolean; commitEach?: boolean } = {},
): Promise<SeededDataDir> {
  const loose = options.loose ?? true;
  const commitEach = options.commitEach ?? false;
  const dir = path.join(SCRATCH, cacheKey(total, loose, commitEach));
  const manifestFile = path.join(dir, 'bench-manifest.json');
  if (fs.existsSync(manifestFile))
    return { dir, manifest: JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as SeedManifest };

  fs.mkdirSync(SCRATCH, { recursive: true });
  const building = fs.mkdtempSync(path.join(SCRATCH, 'building-'));
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    SPECBASE_DATA_DIR: building,
    SPECBASE_LOG_LEVEL: 'silent',
  });
  const services = await openServices(config);
  let manifest: SeedManifest;
  try {
    const { demo } = await ensureDemo(services);
    const workspaceId = (await services.control.workspaces.defaultOf(demo.orgId)).id;
    const gitdir = services.store.gitdir(demo.orgId);
    await services.store.close();
    const artifacts = organizationArtifacts(total, workspaceId);
    fs.rmSync(gitdir, { recursive: true, force: true });
    fs.rmSync(services.store.cacheDir(demo.orgId), { recursive: true, force: true });
    fastImport(gitdir, artifacts, { commitEach });
    if (loose) explodePacks(gitdir);
    const sample: Record<string, { id: string; path: string; title: string; body: string }> = {};
    for (const a of artifacts) sample[a.type] ??= { id: a.id, path: a.path, title: a.title, body: a.body };
    manifest = { total, loose, orgId: demo.orgId, workspaceId, token: demo.token, productId: artifacts[0]!.id, sample };
  } finally {
    await services.control.close();
  }
  fs.writeFileSync(path.join(building, 'bench-manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.renameSync(building, dir);
  return { dir, manifest };
}

/**
 * A private copy of a seeded data directory for one server to write to. Git object files are
 * hard-linked, not copied: Git and isomorphic-git never write an object file in place (a new
 * object is a new file, repacking writes new packs), and a full copy of a 100,000-artifact seed
 * floods the disk for a minute, stalling whatever else runs on the machine. Everything else
 * (refs, SQLite databases, configuration) is written in place, so it is copied.
 */
export function copyDataDir(from: string, to: string): void {
  fs.rmSync(to, { recursive: true, force: true });
  fs.mkdirSync(path.dirname(to), { recursive: true });
  copyTree(from, to, false);
}

function copyTree(from: string, to: string, underObjects: boolean): void {
  fs.mkdirSync(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory())
      copyTree(source, target, underObjects || (entry.name === 'objects' && from.endsWith('.git')));
    else if (underObjects) fs.linkSync(source, target);
    else fs.copyFileSync(source, target);
  }
}

/**
 * The artifacts written by native `git fast-import` (seconds for 100,000 files): one commit
 * holding every file, or with `commitEach` one commit per artifact, a history as long as an
 * organization whose every artifact was created through the service.
 */
export function fastImport(
  gitdir: string,
  artifacts: readonly SeedArtifact[],
  options: { commitEach?: boolean } = {},
): void {
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', gitdir]);
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const commit = (a: SeedArtifact, at: number) => {
    const message = artifactCommitMessage({
      verb: 'create',
      type: a.type,
      id: a.id,
      title: a.title,
      client: 'bench-seed',
    });
    return `commit refs/heads/main\ncommitter Specbase <specbase@localhost> ${at} +0000\n${data(message)}`;
  };
  const file = (a: SeedArtifact) => `M 100644 inline ${a.path}\n${data(a.content)}`;
  const chunks = options.commitEach
    ? artifacts.map((a, i) => `${commit(a, 1_700_000_000 + i)}${file(a)}`)
    : [commit(artifacts[0]!, 1_700_000_000), ...artifacts.map(file)];
  const result = spawnSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], {
    input: chunks.join(''),
    maxBuffer: 1 << 26,
  });
  if (result.status !== 0) throw new Error(`git fast-import failed: ${result.stderr.toString()}`);
}

/** Loose objects, as a repository written through the store has them. */
export function explodePacks(gitdir: string): void {
  const packDir = path.join(gitdir, 'objects', 'pack');
  for (const name of fs.readdirSync(packDir).filter((n) => n.endsWith('.pack'))) {
    const pack = path.join(packDir, name);
    const moved = path.join(gitdir, name);
    fs.renameSync(pack, moved);
    fs.rmSync(pack.replace(/\.pack$/, '.idx'), { force: true });
    const result = spawnSync('git', ['--git-dir', gitdir, 'unpack-objects', '-q'], {
      input: fs.readFileSync(moved),
      maxBuffer: 1 << 20,
    });
    if (result.status !== 0) throw new Error(`git unpack-objects failed: ${result.stderr.toString()}`);
    fs.rmSync(moved);
  }
}

/** Total bytes of files under `dir` (the growth of objects/ is what an edit wrote). */
export function directoryBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? directoryBytes(full) : fs.statSync(full).size;
  }
  return total;
}
