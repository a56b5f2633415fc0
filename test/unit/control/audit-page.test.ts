import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../../src/control/index.js';
import { InvalidInputError } from '../../../src/errors.js';
import { BACKENDS, controlBackend, later, type ControlFixture } from './fixture.js';

const entry = (over: Partial<NewAuditEntry>): NewAuditEntry => ({
  userId: null,
  orgId: null,
  kind: 'tool_call',
  action: 'specbase_read_feature',
  artifactId: null,
  commit: null,
  client: null,
  durationMs: null,
  outcome: 'ok',
  detail: null,
  ...over,
});

describe.each(BACKENDS)('an organization’s audit log, filtered and paged (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  let orgId: string;
  let otherOrgId: string;
  let alice: string;
  let bob: string;
  let stranger: string;

  beforeEach(async () => {
    f = await backendOf.fixture();
    const users = f.control.users;
    alice = (await users.upsert({ issuer: 'local', subject: 'a', email: 'alice@example.com', name: 'Alice' })).id;
    bob = (await users.upsert({ issuer: 'local', subject: 'b', email: 'bob@example.com', name: 'Bob' })).id;
    stranger = (await users.upsert({ issuer: 'local', subject: 's', email: 's@example.com', name: 'S' })).id;
    const org = await f.control.orgs.create({ name: 'Acme' });
    orgId = org.org.id;
    otherOrgId = (await f.control.orgs.create({ name: 'Other' })).org.id;
    await f.control.members.setOwner(orgId, alice, true);
    await f.control.members.grant({ orgId, userId: bob, workspaceId: org.defaultWorkspace.id, role: 'editor' });
  });
  afterEach(async () => f.cleanup());

  it('pages newest first with a cursor, joins the user, and keeps other organizations and strangers out', async () => {
    for (let i = 0; i < 5; i++) {
      await f.control.audit.record(
        entry({ orgId, userId: i % 2 ? bob : alice, action: `call-${i}`, client: i % 2 ? 'Claude' : 'web' }),
      );
      later(f.clock, 1000);
    }
    await f.control.audit.record(entry({ orgId: otherOrgId, userId: alice, action: 'elsewhere' }));
    await f.control.audit.record(entry({ userId: bob, kind: 'auth', action: 'signin' }));
    await f.control.audit.record(entry({ userId: stranger, kind: 'auth', action: 'signin' }));

    const first = await f.control.audit.page({ orgId, limit: 4 });
    expect(first.entries.map((e) => e.action)).toEqual(['signin', 'call-4', 'call-3', 'call-2']);
    expect(first.entries[0]).toMatchObject({ userEmail: 'bob@example.com', userName: 'Bob', orgId: null });
    const second = await f.control.audit.page({ orgId, limit: 4, cursor: first.next! });
    expect(second.entries.map((e) => e.action)).toEqual(['call-1', 'call-0']);
    expect(second.next).toBeUndefined();

    expect((await f.control.audit.page({ orgId, limit: 10, userId: bob })).entries.map((e) => e.action)).toEqual([
      'signin',
      'call-3',
      'call-1',
    ]);
    expect((await f.control.audit.page({ orgId, limit: 10, client: 'claude' })).entries.map((e) => e.action)).toEqual([
      'call-3',
      'call-1',
    ]);
    expect((await f.control.audit.page({ orgId, limit: 10, action: 'call-2' })).entries).toHaveLength(1);
  });

  it('filters by artifact and by UTC days, inclusive', async () => {
    await f.control.audit.record(
      entry({ orgId, userId: alice, action: 'jan', artifactId: 'x', at: '2030-01-01T10:00:00Z' }),
    );
    await f.control.audit.record(
      entry({ orgId, userId: alice, action: 'feb', artifactId: 'y', at: '2030-02-01T23:59:59Z' }),
    );
    await f.control.audit.record(
      entry({ orgId, userId: alice, action: 'mar', artifactId: 'x', at: '2030-03-01T00:00:00Z' }),
    );
    const actions = async (q: Record<string, string>) =>
      (await f.control.audit.page({ orgId, limit: 10, ...q })).entries.map((e) => e.action);
    expect(await actions({ artifactId: 'x' })).toEqual(['mar', 'jan']);
    expect(await actions({ since: '2030-02-01', until: '2030-02-01' })).toEqual(['feb']);
    expect(await actions({ since: '2030-01-02' })).toEqual(['mar', 'feb']);
    await expect(f.control.audit.page({ orgId, limit: 10, since: 'yesterday' })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
  });

  it('prunes rows recorded before the retention', async () => {
    await f.control.audit.record(entry({ orgId, action: 'old', at: '2028-01-01T00:00:00Z' }));
    await f.control.audit.record(entry({ orgId, action: 'new' }));
    expect(await f.control.audit.prune(new Date('2029-01-01T00:00:00Z'))).toBe(1);
    expect((await f.control.audit.page({ orgId, limit: 10 })).entries.map((e) => e.action)).toEqual(['new']);
  });
});
