import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArtifactChange, OutboxMessage, SqlControlPlane } from '../../../src/control/index.js';
import { InvalidInputError } from '../../../src/errors.js';
import { BACKENDS, controlBackend, later, type ControlFixture } from './fixture.js';

const DAY = 86_400_000;

/** The bounds of issue 46, the same on both backends: endpoints per organization, in flight per endpoint, queue per endpoint. */
describe.each(BACKENDS)('webhook bounds and figures (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  let orgId: string;
  let main: string;

  const change = (commit: number): ArtifactChange => ({
    orgId,
    kind: 'edit',
    artifact: { id: 'a1', type: 'feature', title: 'Search', url: 'https://specs.example/o/x/a/a1', workspaceId: main },
    commit: String(commit).padStart(40, '0'),
    author: { name: 'Ann', email: 'ann@example.com' },
    client: 'Claude',
    at: f.clock.now.toISOString(),
  });
  const addEndpoint = async (url = 'https://a.example/', maxEndpoints?: number) =>
    (
      await f.control.webhooks.add({
        orgId,
        url,
        events: ['edit'],
        workspaceIds: [main],
        createdBy: null,
        ...(maxEndpoints === undefined ? {} : { maxEndpoints }),
      })
    ).endpoint;
  const claimFor = (control: SqlControlPlane, owner: string, endpointId: string, maxInFlight: number, limit = 10) =>
    control.webhooks.claim({
      owner,
      leaseUntil: new Date(f.clock.now.getTime() + 60_000),
      limit,
      endpoint: { id: endpointId, maxInFlight },
    });
  const settle = (message: OutboxMessage, owner: string, ok: boolean, durationMs: number) =>
    f.control.webhooks.settle({
      message,
      owner,
      retryAfterMs: 1000,
      giveUpAfterMs: DAY,
      disableAfterMs: DAY,
      outcome: {
        ok,
        responseCode: ok ? 204 : null,
        error: ok ? null : 'the host could not be reached',
        durationMs,
      },
    });

  beforeEach(async () => {
    f = await backendOf.fixture();
    const org = await f.control.orgs.create({ name: 'Acme' });
    orgId = org.org.id;
    main = org.defaultWorkspace.id;
  });
  afterEach(async () => f.cleanup());

  it('refuses an endpoint past the organization cap, counting only that organization', async () => {
    await addEndpoint('https://a.example/', 2);
    await addEndpoint('https://b.example/', 2);
    const third = addEndpoint('https://c.example/', 2);
    await expect(third).rejects.toBeInstanceOf(InvalidInputError);
    await expect(third).rejects.toThrow(/at most 2 webhooks/);
    const other = await f.control.orgs.create({ name: 'Other' });
    await expect(
      f.control.webhooks.add({
        orgId: other.org.id,
        url: 'https://c.example/',
        events: ['edit'],
        workspaceIds: [other.defaultWorkspace.id],
        createdBy: null,
        maxEndpoints: 2,
      }),
    ).resolves.toMatchObject({ endpoint: { orgId: other.org.id } });
  });

  it('leases an endpoint’s messages oldest first, never more in flight than its cap, whoever claims', async () => {
    const endpoint = await addEndpoint();
    for (let i = 0; i < 5; i++) await f.control.webhooks.enqueue(change(i));
    expect(await f.control.webhooks.queues()).toEqual([{ orgId, endpointId: endpoint.id, due: 5, inFlight: 0 }]);
    const other = await f.reopen();
    // Replicas claim at once on PostgreSQL; one process writes a SQLite file, one statement after another.
    const [one, two] =
      backend === 'postgres'
        ? await Promise.all([claimFor(f.control, 'one', endpoint.id, 2), claimFor(other, 'two', endpoint.id, 2)])
        : [await claimFor(f.control, 'one', endpoint.id, 2), await claimFor(other, 'two', endpoint.id, 2)];
    const first = [...one!, ...two!];
    expect(first).toHaveLength(2);
    expect(first.map((m) => JSON.parse(m.payload).data.commit).sort()).toEqual([change(0).commit, change(1).commit]);
    expect(await f.control.webhooks.queues()).toEqual([{ orgId, endpointId: endpoint.id, due: 3, inFlight: 2 }]);
    expect(await claimFor(other, 'three', endpoint.id, 2)).toEqual([]);
    await settle(first[0]!, one!.includes(first[0]!) ? 'one' : 'two', true, 10);
    const next = await claimFor(f.control, 'one', endpoint.id, 2);
    expect(next.map((m) => JSON.parse(m.payload).data.commit)).toEqual([change(2).commit]);
    // A lease that ran out no longer counts: its holder died.
    later(f.clock, 61_000);
    expect(await claimFor(other, 'four', endpoint.id, 2, 1)).toHaveLength(1);
  });

  it('keeps at most maxQueued pending messages per endpoint, dropping the oldest, counted and dated', async () => {
    const endpoint = await addEndpoint();
    const quiet = await addEndpoint('https://b.example/');
    for (let i = 0; i < 5; i++) await f.control.webhooks.enqueue(change(i), { maxQueued: 3 });
    const [leased] = await claimFor(f.control, 'me', endpoint.id, 1);
    expect(JSON.parse(leased!.payload).data.commit).toBe(change(2).commit);
    // The message in flight is kept; the next oldest goes.
    await f.control.webhooks.enqueue(change(5), { maxQueued: 3 });
    const marked = (await f.control.webhooks.get(orgId, endpoint.id))!;
    expect(marked).toMatchObject({ dropped: 3, droppedAt: f.clock.now.toISOString() });
    expect((await f.control.webhooks.get(orgId, quiet.id))!.dropped).toBe(3);
    const figures = await f.control.webhooks.metrics(orgId);
    expect(figures.find((m) => m.endpointId === endpoint.id)).toMatchObject({ queued: 3, inFlight: 1, dropped: 3 });
    expect(await f.control.webhooks.health()).toEqual({ queued: 6, dropped: 6 });
  });

  it('reports deliveries, failures, latency percentiles and the last error per endpoint', async () => {
    const endpoint = await addEndpoint();
    const idle = await addEndpoint('https://b.example/');
    for (let i = 0; i < 20; i++) await f.control.webhooks.enqueue(change(i));
    for (let i = 0; i < 20; i++) {
      const [message] = await claimFor(f.control, 'me', endpoint.id, 1);
      await settle(message!, 'me', i % 5 !== 4, (i + 1) * 10);
      later(f.clock, 1);
    }
    const figures = await f.control.webhooks.metrics(orgId);
    expect(figures).toHaveLength(2);
    expect(figures.find((m) => m.endpointId === endpoint.id)).toEqual({
      endpointId: endpoint.id,
      delivered: 16,
      failed: 4,
      p50Ms: 100,
      p95Ms: 190,
      queued: 4,
      inFlight: 0,
      dropped: 0,
      lastError: 'the host could not be reached',
      lastErrorAt: expect.any(String),
    });
    expect(figures.find((m) => m.endpointId === idle.id)).toMatchObject({
      delivered: 0,
      failed: 0,
      p50Ms: null,
      p95Ms: null,
      queued: 20,
      lastError: null,
    });
  });
});
