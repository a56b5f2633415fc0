/**
 * Layout migration benchmark: the first open of an organization still in the first, flat layout
 * (which moves every file by one commit, then builds the catalog) against the first open of the
 * same content already in the sharded layout, in the same run. BENCH_LAYOUT_SIZES=1000,10000.
 * Run: npx tsx bench/layout.ts
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { artifactType, type ArtifactType } from '../src/artifacts/index.js';
import { artifactPath, renderArtifactFile, slugify } from '../src/store/layout/index.js';
import { GitStore } from '../src/store/index.js';

const ORG = '00000000-0000-4000-8000-00000000b0b0';
const ROUNDS = 2;

const uuid = (n: number) => {
  const hex = createHash('sha1').update(`layout:${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** The product and n-1 acceptance criteria, each with its first-layout and its sharded path. */
function seed(n: number) {
  return Array.from({ length: n }, (_, i) => {
    const type: ArtifactType = i === 0 ? 'product' : 'acceptance_criterion';
    const id = uuid(i);
    const title = `Criterion ${i}`;
    const def = artifactType(type);
    const content = renderArtifactFile(
      { id, type, parent: null, workspace: 'w', title, created: '2024-01-01T00:00:00.000Z' },
      `# ${title}\n\nGiven a user.\n`,
    );
    const sharded = artifactPath(def, id, title);
    const flat = type === 'product' ? sharded : `${def.pathSegment}/${slugify(title)}-${id.slice(0, 8)}.md`;
    return { flat, sharded, content };
  });
}

function importRepo(gitdir: string, files: readonly { path: string; content: string }[]): void {
  execFileSync('git', ['init', '-q', '--bare', '--initial-branch=main', gitdir]);
  const data = (text: string) => `data ${Buffer.byteLength(text)}\n${text}\n`;
  const head = `commit refs/heads/main\nauthor Seed <seed@localhost> 1700000000 +0000\ncommitter Specbase <specbase@localhost> 1700000000 +0000\n${data('Seed')}`;
  const input = head + files.map((f) => `M 100644 inline ${f.path}\n${data(f.content)}`).join('');
  const result = spawnSync('git', ['--git-dir', gitdir, 'fast-import', '--quiet'], { input });
  if (result.status !== 0) throw new Error(`fast-import failed: ${result.stderr.toString()}`);
}

async function firstOpenMs(dataDir: string): Promise<{ ms: number; moved: number }> {
  const store = new GitStore({ dataDir });
  const start = performance.now();
  const migration = await store.migrateLayout(ORG);
  const ms = performance.now() - start;
  await store.close();
  return { ms, moved: migration?.moved ?? 0 };
}

export async function runLayoutBench(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'specbase-bench-layout-'));
  try {
    for (const n of (process.env.BENCH_LAYOUT_SIZES ?? '10000').split(',').map(Number)) {
      const files = seed(n);
      const baseline: number[] = [];
      const migrating: number[] = [];
      let moved = 0;
      // Rounds interleaved, each on fresh copies, so both sides see the same machine.
      for (let round = 0; round < ROUNDS; round++) {
        const sharded = path.join(work, `sharded-${n}-${round}`);
        const flat = path.join(work, `flat-${n}-${round}`);
        importRepo(
          path.join(sharded, 'orgs', `${ORG}.git`),
          files.map((f) => ({ path: f.sharded, content: f.content })),
        );
        importRepo(
          path.join(flat, 'orgs', `${ORG}.git`),
          files.map((f) => ({ path: f.flat, content: f.content })),
        );
        baseline.push((await firstOpenMs(sharded)).ms);
        const run = await firstOpenMs(flat);
        migrating.push(run.ms);
        moved = run.moved;
      }
      const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
      const spread = (xs: number[]) => `${Math.min(...xs).toFixed(0)}-${Math.max(...xs).toFixed(0)} ms`;
      console.log(`first open at ${n} artifacts (${ROUNDS} rounds, ${moved} files moved by the migration)`);
      console.log(`  already sharded (baseline)   ${spread(baseline)}`);
      console.log(
        `  first layout, migrated       ${spread(migrating)}   ${(mean(migrating) / mean(baseline)).toFixed(2)}x the baseline`,
      );
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runLayoutBench();
}
