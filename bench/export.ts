/**
 * Export benchmark (issue 45, item 5): `specbase export` of a whole organization of 1,000 and of
 * 10,000 artifacts (seeded, see test/support/seed.ts) as a zip archive, each in a fresh process:
 * files per second, and how far resident memory and the heap rose above where they stood once
 * the organization was loaded. The export streams one file at a time, so that rise stays about
 * the same while the archive grows tenfold; one that held the archive or the bodies would rise
 * with it. SPECBASE_BENCH_SIZES=1000,10000 by default. Run: npm run bench -- export
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_USER } from '../src/demo/seed.js';
import { copyDataDir, SCRATCH, seededDataDir } from '../test/support/seed.js';
import { exportInChild } from './support/processes.js';
import { benchSizes, fmt } from './support/stats.js';
import { objectBytes } from './support/store-edits.js';

const SIZES = benchSizes([1_000, 10_000], [1_000, 10_000]);
const MIB = 1024 * 1024;

export async function runExportBench(): Promise<void> {
  console.log('export of a whole organization as a zip archive (specbase export, one process per size)');
  for (const total of SIZES) {
    const seed = await seededDataDir(total);
    const dataDir = path.join(SCRATCH, 'run', `export-${total}`);
    copyDataDir(seed.dir, dataDir);
    const out = path.join(SCRATCH, 'run', `export-${total}.zip`);
    const orgId = seed.manifest.orgId;
    const measured = await exportInChild({ dataDir, orgId, email: DEMO_USER.email, out });
    const repoBytes = objectBytes(path.join(dataDir, 'orgs', `${orgId}.git`));
    console.log(
      `  ${String(total).padStart(6)} artifacts: ${measured.files} files in ${fmt(measured.seconds, 2)} s (${fmt(measured.files / measured.seconds, 0)} files/s), ` +
        `archive ${fmt(statSync(out).size / MIB)} MiB, repository objects ${fmt(repoBytes / MIB)} MiB; ` +
        `RSS ${fmt(measured.rssStart / MIB, 0)} MiB at the start, +${fmt((measured.rssPeak - measured.rssStart) / MIB)} MiB at most; ` +
        `heap ${fmt(measured.heapStart / MIB, 0)} MiB, +${fmt((measured.heapPeak - measured.heapStart) / MIB)} MiB at most`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runExportBench();
}
