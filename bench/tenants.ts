/**
 * Many small organizations in one process (issue 32): N organizations of 20 artifacts, each
 * touched in turn (a listing and a search) and then all once more, by one process holding at
 * most CAP open (SPECBASE_MAX_OPEN_ORGS) against the same run without a limit. Reported: peak
 * RSS and descriptors, and first-touch latency p50/p99 of the first pass (first open: built
 * from Git) and of the second (with the limit: reopened from saved state; without: still open).
 * Then a 1,000-artifact organization's first search after it was closed and reopened (target:
 * within 200 ms). Each run is a process of its own (bench/support/tenants-child.ts).
 *
 * Sizes: SPECBASE_BENCH_TENANTS=N,CAP (default 10000,500; quick 300,50).
 */
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fastImport, SCRATCH } from '../test/support/seed.js';
import { layoutFingerprint, organizationArtifacts } from '../test/support/org-shape.js';
import { fmt, percentile, QUICK } from './support/stats.js';
import type { TenantsInput, TenantsResult } from './support/tenants-child.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const [TENANTS, CAP] = (process.env.SPECBASE_BENCH_TENANTS ?? (QUICK ? '300,50' : '10000,500'))
  .split(',')
  .map(Number) as [number, number];
const SMALL_ARTIFACTS = 20;
const LARGE_ARTIFACTS = 1_000;
const WORKSPACE = '6f1c2b3a-4d5e-4f60-8a7b-9c0d1e2f3a4b';
const QUERY = 'dashboard export';

const orgIdOf = (n: number): string => {
  const hex = createHash('sha1').update(`specbase-tenant-${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
};

/** N small repositories (copies of one) and a large one, made once per size and layout under .scratch/bench. */
function seededTenants(): { dataDir: string; input: TenantsInput } {
  const dataDir = path.join(
    SCRATCH,
    `tenants-${TENANTS}-${createHash('sha1').update(layoutFingerprint()).digest('hex').slice(0, 10)}`,
  );
  const orgIds = Array.from({ length: TENANTS }, (_, n) => orgIdOf(n));
  const input = { orgIds, largeOrgId: orgIdOf(-1), workspaceId: WORKSPACE, query: QUERY };
  const done = path.join(dataDir, 'seeded');
  if (fs.existsSync(done)) return { dataDir, input };
  fs.rmSync(dataDir, { recursive: true, force: true });
  const orgs = path.join(dataDir, 'orgs');
  fs.mkdirSync(orgs, { recursive: true });
  const template = path.join(dataDir, 'template.git');
  fastImport(template, organizationArtifacts(SMALL_ARTIFACTS, WORKSPACE));
  for (const orgId of orgIds) fs.cpSync(template, path.join(orgs, `${orgId}.git`), { recursive: true });
  fs.rmSync(template, { recursive: true });
  fastImport(path.join(orgs, `${input.largeOrgId}.git`), organizationArtifacts(LARGE_ARTIFACTS, WORKSPACE));
  fs.writeFileSync(done, '');
  return { dataDir, input };
}

/** One run in a process of its own, with its own (empty) caches. */
async function run(dataDir: string, input: TenantsInput, cap: number): Promise<TenantsResult> {
  const cacheDir = path.join(SCRATCH, 'run', `tenants-cache-${cap}`);
  fs.rmSync(cacheDir, { recursive: true, force: true });
  // In a file, not the environment: 10,000 organization ids are over Linux's 128 KiB limit on one
  // variable (spawn failed with E2BIG at the default size).
  const inputFile = path.join(SCRATCH, 'run', 'tenants-input.json');
  fs.mkdirSync(path.dirname(inputFile), { recursive: true });
  fs.writeFileSync(inputFile, JSON.stringify(input));
  const child = fork(path.join(HERE, 'support', 'boot-child.mjs'), ['tenants-child.ts'], {
    env: {
      ...process.env,
      SPECBASE_DATA_DIR: dataDir,
      SPECBASE_CACHE_DIR: cacheDir,
      SPECBASE_MAX_OPEN_ORGS: String(cap),
      BENCH_TENANTS_FILE: inputFile,
    },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  try {
    return await new Promise<TenantsResult>((resolve, reject) => {
      child.once('message', (message: { value: TenantsResult }) => resolve(message.value));
      child.once('exit', (code) => reject(new Error(`the tenants run exited with ${code}`)));
    });
  } finally {
    fs.rmSync(cacheDir, { recursive: true, force: true });
  }
}

const latency = (times: readonly number[]) =>
  `p50 ${fmt(percentile(times, 0.5))} ms, p99 ${fmt(percentile(times, 0.99))} ms`;

export async function runTenantsBench(): Promise<void> {
  const { dataDir, input } = seededTenants();
  console.log(`${TENANTS} organizations of ${SMALL_ARTIFACTS} artifacts, touched in turn (listing + search), twice`);
  for (const cap of [CAP, 0]) {
    const label = cap > 0 ? `SPECBASE_MAX_OPEN_ORGS=${cap}` : 'no limit';
    let r: TenantsResult;
    try {
      r = await run(dataDir, input, cap);
    } catch (error) {
      // Without a limit, enough organizations exhaust the descriptors (EMFILE): a result, not a crash of the bench.
      console.log(`${label}: ${(error as Error).message}; its error is above`);
      continue;
    }
    console.log(
      [
        `${label}: peak RSS ${fmt(r.peakRssMb, 0)} MB, peak fds ${r.peakFds}; at end ${fmt(r.endRssMb, 0)} MB, ${r.endFds} fds, ${r.openAtEnd} open`,
        `  first touch, first open (built from Git): ${latency(r.firstMs)}`,
        `  first touch, second pass (${cap > 0 ? 'reopened from saved state' : 'still open'}): ${latency(r.againMs)}`,
        `  ${LARGE_ARTIFACTS}-artifact organization: first search ${fmt(r.largeFirstSearchMs)} ms (first open)` +
          (r.largeReopenSearchMs !== undefined
            ? `, first search after reopen ${fmt(r.largeReopenSearchMs)} ms (target 200 ms)`
            : ''),
      ].join('\n'),
    );
  }
}
