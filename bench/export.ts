/**
 * Export benchmark (issue 45, item 5): `specbase export` of a whole organization of 1,000 and of
 * 10,000 artifacts (seeded, see test/support/seed.ts) as a zip archive, each in a fresh process
 * (export-child.ts): files per second, and how far the resident set and the live heap rose
 * above where they stood once the organization was loaded. The export streams one file at a
 * time, so the live heap it adds stays about the same while the archive grows tenfold; one that
 * kept the bodies, or an archive writer that kept a slab per file, rises with it.
 * SPECBASE_BENCH_SIZES=1000,10000 by default (100000 works too). Run: npm run bench -- export
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
        `live heap ${fmt(measured.liveStart / MIB, 0)} MiB at the start, +${fmt((measured.livePeak - measured.liveStart) / MIB)} MiB at most; ` +
        `RSS ${fmt(measured.rssStart / MIB, 0)} MiB, +${fmt((measured.rssPeak - measured.rssStart) / MIB)} MiB at most`,
    );
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await runExportBench();
}
