/**
 * Webhook delivery under one organization's silent endpoints (issue 46): 100 endpoints across
 * 10 organizations on loopback receivers, each commit of an organization one event per endpoint
 * of it. In the measured run, organization 0's 10 endpoints accept connections and never answer
 * (each attempt waits the 10 s timeout); in the baseline, the same load with every endpoint
 * answering 204. Reported for the other 9 organizations: deliveries per second, and the delay
 * from an event's write to its arrival (p50, p95), both as ratios to the baseline of the same
 * round. One process, the SQLite control plane, the server's own dispatcher and defaults.
 *
 * Sizes: BENCH_WEBHOOK_COMMITS (commits per organization, default 30; quick 3), rounds 3 (quick 1).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/index.js';
import { openControlPlane, type ArtifactChange } from '../src/control/index.js';
import { WebhookDispatcher } from '../src/webhooks/index.js';
import { fmt, median, percentile, QUICK, ratioLine } from './support/stats.js';

const ORGS = 10;
const ENDPOINTS_PER_ORG = 10;
const COMMITS = Number(process.env.BENCH_WEBHOOK_COMMITS ?? (QUICK ? 3 : 30));
const ROUNDS = QUICK ? 1 : 3;

interface RunResult {
  /** Deliveries per second to the answering organizations 1..9. */
  readonly rate: number;
  readonly delaysMs: number[];
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** One run: fresh database, receivers and dispatcher; organization 0 silent or not. */
async function run(silentOrg0: boolean): Promise<RunResult> {
  const dir = await mkdtemp(path.join(tmpdir(), 'specbase-bench-webhooks-'));
  const settings = loadConfig({ SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on' }).webhooks;
  const control = await openControlPlane({ file: path.join(dir, 'specbase.db') });
  const written = new Map<string, number>();
  const arrivals: { commit: string; at: number }[] = [];
  const expected = (ORGS - 1) * ENDPOINTS_PER_ORG * COMMITS;
  let allArrived: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (allArrived = resolve));
  const answering = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const commit = (JSON.parse(body) as { data: { commit: string } }).data.commit;
      if (!commit.startsWith('org0-')) {
        arrivals.push({ commit, at: performance.now() });
        if (arrivals.length === expected) allArrived();
      }
      res.writeHead(204).end();
    });
  });
  const silent = createServer((req) => req.resume());
  const answeringPort = await listen(answering);
  const silentPort = await listen(silent);
  const orgs: { id: string; workspaceId: string }[] = [];
  for (let o = 0; o < ORGS; o++) {
    const { org, defaultWorkspace } = await control.orgs.create({ name: `Org ${o}` });
    orgs.push({ id: org.id, workspaceId: defaultWorkspace.id });
    for (let e = 0; e < ENDPOINTS_PER_ORG; e++)
      await control.webhooks.add({
        orgId: org.id,
        url: `http://127.0.0.1:${o === 0 && silentOrg0 ? silentPort : answeringPort}/o${o}/e${e}`,
        events: ['edit'],
        workspaceIds: [defaultWorkspace.id],
        createdBy: null,
        allowHttp: true,
      });
  }
  const dispatcher = new WebhookDispatcher({
    store: control.webhooks,
    policy: { allowLocalhost: true },
    // No retry within the run: a silent endpoint's second attempt would only add to the same wait.
    firstRetryMs: 3600_000,
    owner: 'bench',
    failed: () => undefined,
    maxInFlight: settings.maxInFlight,
    maxInFlightPerEndpoint: settings.maxInFlightPerEndpoint,
    onError: (error) => console.error(error),
  });
  const started = performance.now();
  for (let c = 0; c < COMMITS; c++) {
    for (let o = 0; o < ORGS; o++) {
      const commit = `org${o}-${c}`;
      written.set(commit, performance.now());
      const change: ArtifactChange = {
        orgId: orgs[o]!.id,
        kind: 'edit',
        artifact: {
          id: 'a1',
          type: 'page',
          title: 'Bench',
          url: 'http://localhost/a1',
          workspaceId: orgs[o]!.workspaceId,
        },
        commit,
        author: { name: 'Bench', email: 'bench@example.com' },
        client: 'bench',
        at: new Date().toISOString(),
      };
      await control.webhooks.enqueue(change, { maxQueued: settings.maxQueuedPerEndpoint });
      dispatcher.kick();
    }
  }
  await done;
  const elapsedS = (Math.max(...arrivals.map((a) => a.at)) - started) / 1000;
  silent.closeAllConnections();
  await dispatcher.close();
  await control.close();
  for (const server of [answering, silent]) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
  await rm(dir, { recursive: true, force: true });
  return { rate: expected / elapsedS, delaysMs: arrivals.map((a) => a.at - written.get(a.commit)!) };
}

export async function runWebhooksBench(): Promise<void> {
  console.log(
    `${ORGS} organizations x ${ENDPOINTS_PER_ORG} endpoints, ${COMMITS} commits each; organization 0 silent vs all answering; ${ROUNDS} round(s)`,
  );
  const silent: RunResult[] = [];
  const baseline: RunResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    baseline.push(await run(false));
    silent.push(await run(true));
  }
  const p = (runs: RunResult[], q: number) => runs.map((r) => percentile(r.delaysMs, q));
  console.log(
    ratioLine(
      'deliveries/s to the 9 answering organizations',
      '/s',
      silent.map((r) => r.rate),
      baseline.map((r) => r.rate),
      undefined,
      'paired',
    ),
  );
  console.log(ratioLine('delay p50 seen by the others', 'ms', p(silent, 0.5), p(baseline, 0.5), undefined, 'paired'));
  console.log(ratioLine('delay p95 seen by the others', 'ms', p(silent, 0.95), p(baseline, 0.95), undefined, 'paired'));
  console.log(
    `  (silent run: ${fmt(median(silent.map((r) => r.rate)), 0)} deliveries/s, p95 delay ${fmt(median(p(silent, 0.95)), 0)} ms; the issue's starvation was 61 s for one event)`,
  );
}
