import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ArtifactChange, OutboxMessage, SqlControlPlane } from '../../../src/control/index.js';
import { InvalidInputError } from '../../../src/errors.js';
import { BACKENDS, controlBackend, later, type ControlFixture } from './fixture.js';

const HOUR = 3600_000;
const DAY = 24 * HOUR;

describe.each(BACKENDS)('webhook endpoints and their outbox (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  let orgId: string;
  let main: string;
  let secretWorkspace: string;

  const change = (over: Partial<ArtifactChange> = {}, workspaceId = main): ArtifactChange => ({
    orgId,
    kind: 'edit',
    artifact: { id: 'a1', type: 'feature', title: 'Search', url: 'https://specs.example/o/x/a/a1', workspaceId },
    commit: 'c'.repeat(40),
    author: { name: 'Ann', email: 'ann@example.com' },
    client: 'Claude',
    at: f.clock.now.toISOString(),
    ...over,
  });
  const claim = (control: SqlControlPlane, owner: string, limit = 10) =>
    control.webhooks.claim({ owner, leaseUntil: new Date(f.clock.now.getTime() + 60_000), limit });
  const settle = (message: OutboxMessage, owner: string, ok: boolean, retryAfterMs = 1000) =>
    f.control.webhooks.settle({
      message,
      owner,
      retryAfterMs,
      giveUpAfterMs: DAY,
      disableAfterMs: DAY,
      outcome: { ok, responseCode: ok ? 204 : 503, error: ok ? null : 'the endpoint answered HTTP 503', durationMs: 5 },
    });

  beforeEach(async () => {
    f = await backendOf.fixture();
    const org = await f.control.orgs.create({ name: 'Acme' });
    orgId = org.org.id;
    main = org.defaultWorkspace.id;
    secretWorkspace = (await f.control.workspaces.create({ orgId, name: 'Secret' })).id;
  });
  afterEach(async () => f.cleanup());

  it('adds an endpoint with a Standard Webhooks secret, refuses what is not https, unknown kinds and foreign workspaces', async () => {
    const { endpoint, secret } = await f.control.webhooks.add({
      orgId,
      url: 'https://hooks.example/in',
      events: ['revert', 'edit'],
      workspaceIds: [main],
      createdBy: null,
    });
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(endpoint).toMatchObject({
      orgId,
      url: 'https://hooks.example/in',
      events: ['edit', 'revert'],
      workspaceIds: [main],
      disabledAt: null,
    });
    expect(await f.control.webhooks.list(orgId)).toEqual([endpoint]);
    const other = (await f.control.orgs.create({ name: 'Other' })).defaultWorkspace.id;
    for (const [input, message] of [
      [{ url: 'http://hooks.example/in' }, /https/],
      [{ url: 'https://u:p@hooks.example/in' }, /credentials/],
      [{ events: ['publish'] }, /unknown event kind publish/],
      [{ events: [] }, /at least one event kind/],
      [{ workspaceIds: [other] }, /not a workspace of this organization/],
    ] as const) {
      const valid = { orgId, url: 'https://hooks.example/in', events: ['edit'], workspaceIds: [main], createdBy: null };
      const attempt = f.control.webhooks.add({ ...valid, ...input });
      await expect(attempt).rejects.toThrow(message);
      await expect(attempt).rejects.toBeInstanceOf(InvalidInputError);
    }
    expect(await f.control.webhooks.remove(orgId, endpoint.id)).toBe(true);
    expect(await f.control.webhooks.list(orgId)).toEqual([]);
  });

  it('writes one message per endpoint that asked for the kind in that workspace, never for another workspace', async () => {
    const both = (
      await f.control.webhooks.add({
        orgId,
        url: 'https://a.example/',
        events: ['edit', 'create'],
        workspaceIds: [main, secretWorkspace],
        createdBy: null,
      })
    ).endpoint;
    const mainOnly = (
      await f.control.webhooks.add({
        orgId,
        url: 'https://b.example/',
        events: ['edit'],
        workspaceIds: [main],
        createdBy: null,
      })
    ).endpoint;
    await f.control.webhooks.add({
      orgId,
      url: 'https://c.example/',
      events: ['delete'],
      workspaceIds: [main, secretWorkspace],
      createdBy: null,
    });
    expect(await f.control.webhooks.enqueue(change())).toBe(2);
    expect(await f.control.webhooks.enqueue(change({}, secretWorkspace))).toBe(1);
    expect(await f.control.webhooks.enqueue(change({ kind: 'revert' }))).toBe(0);
    const messages = await claim(f.control, 'me');
    expect(messages.map((m) => m.endpointId).sort()).toEqual([both.id, both.id, mainOnly.id].sort());
    const forMainOnly = messages.find((m) => m.endpointId === mainOnly.id)!;
    expect(JSON.parse(forMainOnly.payload)).toEqual({
      type: 'artifact.edit',
      timestamp: f.clock.now.toISOString(),
      data: {
        organization: { id: orgId, name: 'Acme' },
        artifact: {
          id: 'a1',
          type: 'feature',
          title: 'Search',
          url: 'https://specs.example/o/x/a/a1',
          workspaceId: main,
        },
        commit: 'c'.repeat(40),
        author: { name: 'Ann', email: 'ann@example.com' },
        client: 'Claude',
      },
    });
    expect(forMainOnly.id).toMatch(/^msg_[0-9a-f]{32}$/);
  });

  it("keeps 'all' workspaces as all: a workspace made after the endpoint is covered, after a reopen too", async () => {
    const { endpoint } = await f.control.webhooks.add({
      orgId,
      url: 'https://all.example/',
      events: ['edit'],
      workspaceIds: 'all',
      createdBy: null,
    });
    expect(endpoint.workspaceIds).toBe('all');
    const later = (await f.control.workspaces.create({ orgId, name: 'Made later' })).id;
    expect(await f.control.webhooks.enqueue(change({}, later))).toBe(1);
    expect(await f.control.webhooks.enqueue(change({}, main))).toBe(1);
    const reopened = await f.reopen();
    expect((await reopened.webhooks.get(orgId, endpoint.id))?.workspaceIds).toBe('all');
    expect((await claim(reopened, 'me')).map((m) => m.endpointId)).toEqual([endpoint.id, endpoint.id]);
  });

  it('leases each due message to one claimer at a time, even claiming at once from two connections', async () => {
    await f.control.webhooks.add({
      orgId,
      url: 'https://a.example/',
      events: ['edit'],
      workspaceIds: [main],
      createdBy: null,
    });
    for (let i = 0; i < 40; i++) await f.control.webhooks.enqueue(change({ commit: String(i).padStart(40, '0') }));
    const other = await f.reopen();
    const ids: string[] = [];
    const rounds: number[] = [];
    while (ids.length < 40 && rounds.length < 10) {
      const claimed = await Promise.all([
        claim(f.control, 'one', 15),
        claim(other, 'two', 15),
        claim(f.control, 'three', 15),
        claim(other, 'four', 15),
      ]);
      ids.push(...claimed.flat().map((m) => m.id));
      rounds.push(claimed.flat().length);
    }
    // On PostgreSQL the claimers skip the rows another is leasing (one round takes all); on
    // SQLite the losers of a row's conditional UPDATE get none of it.
    if (backend === 'postgres') expect(rounds[0]).toBe(40);
    expect(ids).toHaveLength(40);
    expect(new Set(ids).size).toBe(40);
    expect(await claim(f.control, 'five')).toEqual([]);
    // A lease that ran out (its holder died) frees the message for another.
    later(f.clock, 61_000);
    expect(await claim(other, 'six', 100)).toHaveLength(40);
  });

  it('retries after the pause, gives up after a day, and disables an endpoint failing for a day, with the reason', async () => {
    const { endpoint } = await f.control.webhooks.add({
      orgId,
      url: 'https://a.example/',
      events: ['edit'],
      workspaceIds: [main],
      createdBy: null,
    });
    await f.control.webhooks.enqueue(change());
    let [message] = await claim(f.control, 'me');
    const first = await settle(message!, 'me', false, 10 * 60_000);
    expect(first).toMatchObject({ ok: false, responseCode: 503, state: 'retrying', kind: 'edit' });
    expect(await claim(f.control, 'me')).toEqual([]);
    later(f.clock, 10 * 60_000);
    [message] = await claim(f.control, 'me');
    expect(message!.attempts).toBe(1);
    later(f.clock, 24 * HOUR);
    const last = await settle(message!, 'me', false, 2 * HOUR);
    expect(last.state).toBe('given_up');
    expect((await f.control.webhooks.get(orgId, endpoint.id))!.disabledAt).toBe(f.clock.now.toISOString());
    expect((await f.control.webhooks.get(orgId, endpoint.id))!.disabledReason).toMatch(
      /failed for a day; the last: HTTP 503/,
    );
    // A disabled endpoint hears of nothing new, and its messages wait.
    expect(await f.control.webhooks.enqueue(change())).toBe(0);
    expect((await f.control.webhooks.attempts(orgId, endpoint.id, 10)).map((a) => a.state)).toEqual([
      'given_up',
      'retrying',
    ]);
    expect(await f.control.webhooks.enable(orgId, endpoint.id)).toBe(true);
    expect(await f.control.webhooks.enqueue(change())).toBe(1);
    [message] = await claim(f.control, 'me');
    expect((await settle(message!, 'me', true)).state).toBe('delivered');
    expect((await f.control.webhooks.get(orgId, endpoint.id))!.failingSince).toBeNull();
    // Retention: settled messages go with their attempts; one still due stays.
    await f.control.webhooks.enqueue(change());
    later(f.clock, 1000);
    expect(await f.control.webhooks.prune(f.clock.now)).toBe(2);
    expect(await f.control.webhooks.attempts(orgId, endpoint.id, 10)).toEqual([]);
    expect(await claim(f.control, 'me')).toHaveLength(1);
  });
});
