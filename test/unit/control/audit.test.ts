import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { NewAuditEntry } from '../../../src/control/index.js';
import { InvalidInputError } from '../../../src/errors.js';
import { newId } from '../../../src/ids.js';
import { BACKENDS, controlBackend, later, type ControlFixture } from './fixture.js';

const entry = (over: Partial<NewAuditEntry> = {}): NewAuditEntry => ({
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

describe.each(BACKENDS)('audit log (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  beforeEach(async () => {
    f = await backendOf.fixture();
  });
  afterEach(async () => f.cleanup());

  it('records every field and lists newest first', async () => {
    const orgId = newId();
    const userId = newId();
    const artifactId = newId();
    await f.control.audit.record(entry({ orgId, userId, action: 'first' }));
    later(f.clock, 1000);
    await f.control.audit.record(
      entry({
        orgId,
        userId,
        action: 'second',
        artifactId,
        commit: 'a'.repeat(40),
        client: 'claude',
        durationMs: 12.4,
        outcome: 'error',
        detail: 'boom',
      }),
    );
    const listed = await f.control.audit.list({ orgId, limit: 10 });
    expect(listed.map((e) => e.action)).toEqual(['second', 'first']);
    expect(listed[0]).toEqual({
      id: listed[0]!.id,
      at: f.clock.now.toISOString(),
      userId,
      orgId,
      kind: 'tool_call',
      action: 'second',
      artifactId,
      commit: 'a'.repeat(40),
      client: 'claude',
      durationMs: 12,
      outcome: 'error',
      detail: 'boom',
    });
  });

  it('orders by the recorded time even when entries arrive late', async () => {
    await f.control.audit.record(entry({ action: 'late', at: '2029-12-31T00:00:00Z' }));
    await f.control.audit.record(entry({ action: 'now' }));
    const listed = await f.control.audit.list({ limit: 10 });
    expect(listed.map((e) => [e.action, e.at])).toEqual([
      ['now', '2030-01-01T00:00:00.000Z'],
      ['late', '2029-12-31T00:00:00.000Z'],
    ]);
  });

  it('filters by organization and user and honours the limit', async () => {
    const [orgA, orgB, ann, bob] = [newId(), newId(), newId(), newId()];
    await f.control.audit.record(entry({ orgId: orgA, userId: ann, action: 'a-ann' }));
    await f.control.audit.record(entry({ orgId: orgA, userId: bob, action: 'a-bob' }));
    await f.control.audit.record(entry({ orgId: orgB, userId: ann, action: 'b-ann' }));
    const actions = async (query: { orgId?: string; userId?: string; limit: number }) =>
      (await f.control.audit.list(query)).map((e) => e.action);
    expect(await actions({ orgId: orgA, limit: 10 })).toEqual(['a-bob', 'a-ann']);
    expect(await actions({ userId: ann, limit: 10 })).toEqual(['b-ann', 'a-ann']);
    expect(await actions({ orgId: orgA, userId: ann, limit: 10 })).toEqual(['a-ann']);
    expect(await actions({ limit: 2 })).toEqual(['b-ann', 'a-bob']);
    expect(await actions({ limit: 0 })).toEqual(['b-ann']);
  });

  it('stores every entry of a burst recorded in one turn, in the order recorded, before each record resolves', async () => {
    const orgId = newId();
    const actions = Array.from({ length: 250 }, (_, n) => `burst-${n}`);
    // More than one INSERT's worth of rows, recorded without waiting in between.
    await Promise.all(actions.map((action) => f.control.audit.record(entry({ orgId, action }))));
    expect((await f.control.audit.list({ orgId, limit: 1000 })).map((e) => e.action)).toEqual([...actions].reverse());
  });

  it('writes what was recorded before the control plane closes', async () => {
    const orgId = newId();
    const recorded = f.control.audit.record(entry({ orgId, action: 'last words' }));
    await f.control.close();
    await recorded;
    const reopened = await f.reopen();
    expect((await reopened.audit.list({ orgId, limit: 10 })).map((e) => e.action)).toEqual(['last words']);
  });

  it('rejects entries without kind or action, with a bad outcome or time', async () => {
    await expect(f.control.audit.record(entry({ kind: '' }))).rejects.toThrow(InvalidInputError);
    await expect(f.control.audit.record(entry({ action: ' ' }))).rejects.toThrow(InvalidInputError);
    await expect(f.control.audit.record(entry({ outcome: 'maybe' as 'ok' }))).rejects.toThrow(InvalidInputError);
    await expect(f.control.audit.record(entry({ at: 'yesterday' }))).rejects.toThrow(InvalidInputError);
    expect(await f.control.audit.list({ limit: 10 })).toEqual([]);
  });
});
