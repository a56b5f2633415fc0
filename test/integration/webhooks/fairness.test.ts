import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { provisionOrganization } from '../../../src/app/provision.js';
import type { Actor } from '../../../src/domain/types.js';
import { runCli } from '../../support/cli.js';
import { startHarness, type Harness } from '../../support/harness.js';
import { waitUntil } from '../replicas/cluster.js';
import { startReceiver, type Receiver } from './receiver.js';
import { startSilent, type Silent } from './silent.js';

let receiver: Receiver;
let silent: Silent;
let h: Harness;
let ownerA: Actor;
let ownerB: Actor;
let orgB: string;
const bEndpoints: string[] = [];

const MAX_QUEUED = 4;

/** An endpoint of A (the demo organization) for its default workspace. */
const addToA = (url: string, kind: 'create' | 'edit') =>
  h.services.webhooks.add({
    orgId: h.orgId,
    url,
    events: [kind],
    workspaceIds: [h.defaultWorkspaceId],
    createdBy: null,
  });

/** An endpoint of B on the silent server, for every workspace of B. */
const addToB = async (n: number, kind: 'create' | 'edit') =>
  h.services.webhooks.add({
    orgId: orgB,
    url: `http://127.0.0.1:${silent.port}/b/${n}`,
    events: [kind],
    workspaceIds: (await h.services.control.workspaces.list(orgB)).map((w) => w.id),
    createdBy: null,
  });

beforeAll(async () => {
  receiver = await startReceiver();
  silent = await startSilent();
  h = await startHarness({
    env: {
      // The development setting: plain http receivers on this machine, as a developer tries webhooks.
      SPECBASE_WEBHOOK_ALLOW_LOCALHOST: 'on',
      SPECBASE_WEBHOOK_RETRY_SECONDS: '0.3',
      SPECBASE_WEBHOOK_MAX_ENDPOINTS: '20',
      SPECBASE_WEBHOOK_MAX_QUEUED: String(MAX_QUEUED),
    },
  });
  const owner = h.users.owner.user;
  const b = await provisionOrganization(h.services, { name: 'Busy B', owner });
  orgB = b.org.id;
  ownerA = { principal: (await h.services.control.members.principal(h.orgId, owner.id))!, client: 'web' };
  ownerB = { principal: (await h.services.control.members.principal(orgB, owner.id))!, client: 'web' };
}, 60_000);

afterAll(async () => {
  await h?.close();
  await silent?.close();
  await receiver?.stop().catch(() => undefined);
});

describe('webhook delivery is fair between organizations and bounded per endpoint', () => {
  it('19 endpoints of B that never answer, six commits in B: A’s event still arrives within 5 s', async () => {
    for (let i = 0; i < 19; i++) bEndpoints.push((await addToB(i, 'create')).endpoint.id);
    const { endpoint, secret } = await addToA(`http://localhost:${receiver.port}/hooks/a`, 'create');
    receiver.secrets.set('a', secret);
    for (let i = 0; i < 6; i++) await h.services.specs.create(ownerB, 'page', { title: `B busy ${i}` });
    await waitUntil(
      async () => silent.open === 19,
      10_000,
      () => `B's endpoints hold ${silent.open} requests`,
    );
    const committed = Date.now();
    const page = await h.services.specs.create(ownerA, 'page', { title: 'A needs to know' });
    await waitUntil(
      async () => receiver.of('a').length === 1,
      5_000,
      () => `A's event not delivered within 5 s of its commit`,
    );
    const delay = Date.now() - committed;
    expect(delay).toBeLessThan(5_000);
    expect(receiver.of('a')[0]!.data.artifact.id).toBe(page.id);
    // Each silent endpoint holds its own one slot, never more.
    expect(silent.mostOpenOnOnePath).toBe(1);
    expect(silent.mostOpen).toBeLessThanOrEqual(19);
    expect(receiver.rejected).toEqual([]);
    // The receiver has the event before the sender has recorded its answer.
    await waitUntil(
      async () => (await h.services.control.webhooks.metrics(h.orgId))[0]?.delivered === 1,
      5_000,
      () => `A's delivery not recorded as delivered`,
    );
    const [figures] = await h.services.control.webhooks.metrics(h.orgId);
    expect(figures).toMatchObject({ endpointId: endpoint.id, delivered: 1, failed: 0, queued: 0, lastError: null });
  });

  it('an organization adds at most its cap of endpoints', async () => {
    await addToB(19, 'edit');
    await expect(addToB(20, 'edit')).rejects.toThrow(/at most 20 webhooks/);
  });

  it('an endpoint that falls behind keeps its newest events, counts the dropped ones, and says so in figures and /healthz', async () => {
    const [first] = bEndpoints;
    const marked = (await h.services.control.webhooks.get(orgB, first!))!;
    // Six events each, one in flight: past MAX_QUEUED the oldest waiting were dropped.
    expect(marked.dropped).toBeGreaterThanOrEqual(6 - MAX_QUEUED);
    expect(marked.droppedAt).not.toBeNull();
    const figures = (await h.services.control.webhooks.metrics(orgB)).find((m) => m.endpointId === first)!;
    expect(figures.queued).toBeLessThanOrEqual(MAX_QUEUED);
    expect(figures.dropped).toBe(marked.dropped);
    const health = (await (await fetch(`${h.baseUrl}/healthz`)).json()) as Record<string, number>;
    expect(health.droppedWebhookEvents).toBeGreaterThanOrEqual(19 * (6 - MAX_QUEUED));
    expect(health.queuedWebhookEvents).toBeGreaterThan(0);
  });

  it('errors name the rule, never how a name resolved or what the system said', async () => {
    const closed = await startSilent();
    const port = closed.port;
    await closed.close();
    const { endpoint } = await addToA(`http://localhost:${port}/gone`, 'edit');
    const attempt = await h.services.webhooks.test(h.orgId, endpoint.id);
    expect(attempt).toMatchObject({ ok: false, responseCode: null, error: 'the host could not be reached' });
    // Pointing inside is refused when added, even with the development setting: it lets only localhost through.
    for (const url of ['https://169.254.169.254/latest', 'https://10.1.2.3/hook', 'http://[::ffff:10.0.0.1]/x']) {
      await expect(addToA(url, 'edit'), url).rejects.toThrow(
        /^the address is not allowed: private, loopback or link-local$|must be https/,
      );
    }
    const [figures] = (await h.services.control.webhooks.metrics(h.orgId)).filter((m) => m.endpointId === endpoint.id);
    expect(figures!.lastError).toBe('the host could not be reached');
    await h.services.control.webhooks.remove(h.orgId, endpoint.id);
  });

  it('`specbase webhook test` is answered by the running server, with its settings, not the CLI’s', async () => {
    const { endpoint, secret } = await addToA(`http://localhost:${receiver.port}/hooks/cli`, 'edit');
    receiver.secrets.set('cli', secret);
    // The CLI's own environment has no development setting: only the server's counts.
    const env: NodeJS.ProcessEnv = { ...process.env, SPECBASE_LOG_LEVEL: 'silent', SPECBASE_BASE_URL: h.baseUrl };
    delete env.SPECBASE_WEBHOOK_ALLOW_LOCALHOST;
    const { stdout } = await runCli(
      ['webhook', 'test', '--org', h.orgId, '--id', endpoint.id, '--json', '--data-dir', h.dataDir],
      env,
    );
    const { attempt } = JSON.parse(stdout) as { attempt: Record<string, unknown> };
    expect(attempt).toMatchObject({ ok: true, responseCode: 204, kind: 'test', state: 'delivered' });
    expect(receiver.of('cli').map((e) => e.type)).toEqual(['webhook.test']);
    const listed = await runCli(['webhook', 'list', '--org', h.orgId, '--json', '--data-dir', h.dataDir], env);
    const cli = (JSON.parse(listed.stdout) as { webhooks: Record<string, any>[] }).webhooks.find(
      (w) => w.id === endpoint.id,
    )!;
    expect(cli.metrics).toMatchObject({ delivered: 1, failed: 0, queued: 0, dropped: 0, lastError: null });
    expect(cli.metrics.p50Ms).toEqual(expect.any(Number));
  });
});
