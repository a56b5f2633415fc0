/**
 * One run of the tenants benchmark (bench/tenants.ts) in a process of its own, so that its peak
 * RSS and descriptors are its own: the services as `npm start` composes them (compiled, from
 * dist/) over a data directory of many small organizations, each touched in turn by a listing
 * and a search, twice; then a 1,000-artifact organization's first search after it reopened.
 * Settings come from the environment (SPECBASE_MAX_OPEN_ORGS...); the result goes to the parent.
 */
import fs from 'node:fs';

const built = <T>(module: string): Promise<T> =>
  import(new URL(`../../dist/${module}`, import.meta.url).href) as Promise<T>;
const [{ openServices }, { loadConfig }] = await Promise.all([
  built<typeof import('../../src/app/services.js')>('app/services.js'),
  built<typeof import('../../src/config/index.js')>('config/index.js'),
]);

export interface TenantsInput {
  readonly orgIds: readonly string[];
  readonly largeOrgId: string;
  readonly workspaceId: string;
  readonly query: string;
}

export interface TenantsResult {
  readonly firstMs: number[];
  readonly againMs: number[];
  readonly peakRssMb: number;
  readonly peakFds: number;
  readonly endRssMb: number;
  readonly endFds: number;
  readonly openAtEnd: number;
  /** The large organization's first search after it was closed and reopened; undefined without a limit. */
  readonly largeReopenSearchMs?: number;
  readonly largeFirstSearchMs: number;
}

const input = JSON.parse(fs.readFileSync(process.env.BENCH_TENANTS_FILE!, 'utf8')) as TenantsInput;
const services = await openServices(loadConfig({ ...process.env, SPECBASE_LOG_LEVEL: 'silent' }));
services.search.prepare();
const workspaceIds = new Set([input.workspaceId]);
let peakFds = 0;
const fds = () => fs.readdirSync('/proc/self/fd').length;

async function touch(orgId: string): Promise<number> {
  const start = performance.now();
  await services.store.catalog(orgId);
  const index = await services.search.forOrg(orgId);
  await index.search({ query: input.query, workspaceIds, limit: 10 });
  return performance.now() - start;
}

async function pass(): Promise<number[]> {
  const times: number[] = [];
  for (const [i, orgId] of input.orgIds.entries()) {
    times.push(await touch(orgId));
    if (i % 25 === 0) peakFds = Math.max(peakFds, fds());
  }
  return times;
}

const firstMs = await pass();
const againMs = await pass();
const largeFirstSearchMs = await touch(input.largeOrgId);
const limited = services.config.openOrgs.max > 0;
let largeReopenSearchMs: number | undefined;
if (limited) {
  // Enough others used since that the large organization is closed, its state and search index
  // saved and released; then it is searched again.
  let closed!: () => void;
  const largeClosed = new Promise<void>((resolve) => (closed = resolve));
  services.store.onOrganizationClosed((orgId) => orgId === input.largeOrgId && closed());
  for (const orgId of input.orgIds.slice(0, services.config.openOrgs.max)) await touch(orgId);
  await largeClosed;
  const start = performance.now();
  const index = await services.search.forOrg(input.largeOrgId);
  await index.search({ query: input.query, workspaceIds, limit: 10 });
  largeReopenSearchMs = performance.now() - start;
}
const result: TenantsResult = {
  firstMs,
  againMs,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  peakFds,
  endRssMb: process.memoryUsage().rss / 1024 / 1024,
  endFds: fds(),
  openAtEnd: services.store.openOrganizations().length,
  largeFirstSearchMs,
  ...(largeReopenSearchMs !== undefined ? { largeReopenSearchMs } : {}),
};
await services.close();
// Disconnected once the answer is written: at 10,000 organizations it is large enough that a
// disconnect right after send() lost it (the parent saw the child exit 0 with no answer).
process.send!({ kind: 'answer', value: result }, () => process.disconnect());
