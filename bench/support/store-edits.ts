import fs from 'node:fs';
import path from 'node:path';
import { FSYNC, GitStore, NO_FSYNC, type GitStoreOptions } from '../../src/store/index.js';
import { copyDataDir, SCRATCH, seededDataDir, type SeedManifest } from '../../test/support/seed.js';

const CTX = { author: { name: 'Bench User', email: 'bench@example.com' }, client: 'bench' };

/** A GitStore over a private copy of a seeded organization, editing one acceptance criterion. */
export interface EditTarget {
  readonly label: string;
  readonly store: GitStore;
  readonly gitdir: string;
  readonly manifest: SeedManifest;
  /** Milliseconds the store took to load the organization before the first edit. */
  readonly loadMs: number;
  /** Changes one line of the artifact's body, a different text every time; resolves with the time it took. */
  edit(): Promise<number>;
}

export async function openEditTarget(
  label: string,
  total: number,
  options: Partial<GitStoreOptions> & { fsync?: boolean } = {},
): Promise<EditTarget> {
  const seed = await seededDataDir(total);
  const m = seed.manifest;
  const dataDir = path.join(SCRATCH, 'run', `edit-${label}`);
  copyDataDir(seed.dir, dataDir);
  const { fsync, ...rest } = options;
  const storeOptions: GitStoreOptions = {
    ...rest,
    ...(fsync === undefined ? {} : { durability: fsync ? FSYNC : NO_FSYNC }),
    dataDir,
  };
  const store = new GitStore(storeOptions);
  const started = performance.now();
  await store.catalog(m.orgId);
  const loadMs = performance.now() - started;
  const target = m.sample['acceptance_criterion']!;
  const lines = target.body.split('\n');
  const changed = lines.findIndex((line, i) => i > 0 && line.trim() !== '');
  const original = lines[changed]!;
  let n = 0;
  return {
    label,
    store,
    gitdir: store.gitdir(m.orgId),
    manifest: m,
    loadMs,
    async edit() {
      lines[changed] = `${original} (revision ${++n})`;
      const started = performance.now();
      await store.update(m.orgId, target.id, { body: lines.join('\n'), verb: 'edit' }, CTX);
      return performance.now() - started;
    },
  };
}

/** Bytes under the repository's objects/ directory. */
export function objectBytes(gitdir: string): number {
  const walk = (dir: string): number =>
    fs.readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
      const full = path.join(dir, entry.name);
      return sum + (entry.isDirectory() ? walk(full) : fs.statSync(full).size);
    }, 0);
  return walk(path.join(gitdir, 'objects'));
}

/** Edits the targets alternately, the order swapped every step, so drift hits all alike. */
export async function interleavedEdits(targets: readonly EditTarget[], count: number): Promise<number[][]> {
  const samples = targets.map(() => [] as number[]);
  for (let i = 0; i < count; i++) {
    const order = i % 2 === 0 ? targets.map((_, k) => k) : targets.map((_, k) => targets.length - 1 - k);
    for (const k of order) samples[k]!.push(await targets[k]!.edit());
  }
  return samples;
}
