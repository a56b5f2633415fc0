import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConflictError, InvalidInputError, NotFoundError } from '../../../src/errors.js';
import { BACKENDS, controlBackend, later, type ControlFixture } from './fixture.js';

const BASE = 'a'.repeat(40);

describe.each(BACKENDS)('change requests (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  let orgId: string;
  let workspaceId: string;
  let userId: string;
  beforeEach(async () => {
    f = await backendOf.fixture();
    const { org, defaultWorkspace } = await f.control.orgs.create({ name: 'Acme' });
    orgId = org.id;
    workspaceId = defaultWorkspace.id;
    userId = (await f.control.users.upsert({ issuer: 'local', subject: 'ada', email: 'ada@example.com', name: 'Ada' }))
      .id;
  });
  afterEach(async () => f.cleanup());

  it('numbers change requests per organization and lists them newest first, by state', async () => {
    const first = await f.control.changeRequests.open({ orgId, title: ' Search ', authorId: userId, baseCommit: BASE });
    later(f.clock, 1000);
    const second = await f.control.changeRequests.open({
      orgId,
      title: 'Billing',
      description: 'Why',
      authorId: userId,
      client: 'claude-code',
      baseCommit: BASE,
    });
    const other = (await f.control.orgs.create({ name: 'Other' })).org.id;
    const elsewhere = await f.control.changeRequests.open({
      orgId: other,
      title: 'X',
      authorId: userId,
      baseCommit: BASE,
    });
    expect([first.number, second.number, elsewhere.number]).toEqual([1, 2, 1]);
    expect(first).toMatchObject({ title: 'Search', description: '', state: 'open', client: null, submittedAt: null });
    expect((await f.control.changeRequests.list(orgId)).map((cr) => cr.number)).toEqual([2, 1]);
    await f.control.changeRequests.transition({ orgId, number: 1, from: 'open', to: 'closed', by: userId });
    expect((await f.control.changeRequests.list(orgId, { state: 'open' })).map((cr) => cr.number)).toEqual([2]);
    expect(await f.control.changeRequests.get(orgId, 3)).toBeUndefined();
  });

  it('finds the one draft a user writes through one client until it is submitted', async () => {
    const { changeRequests } = f.control;
    const draft = await changeRequests.open({
      orgId,
      title: 'A',
      authorId: userId,
      client: 'cursor',
      baseCommit: BASE,
    });
    expect((await changeRequests.draftOf(orgId, userId, 'cursor'))?.number).toBe(draft.number);
    expect(await changeRequests.draftOf(orgId, userId, 'claude-code')).toBeUndefined();
    const submitted = await changeRequests.update(orgId, draft.number, { submitted: true, description: 'Ready' });
    expect(submitted.submittedAt).toBe(f.clock.now.toISOString());
    expect(await changeRequests.draftOf(orgId, userId, 'cursor')).toBeUndefined();
  });

  it('moves between states once: a second reviewer acting on a stale state is refused', async () => {
    const { changeRequests } = f.control;
    await changeRequests.open({ orgId, title: 'A', authorId: userId, baseCommit: BASE });
    const merged = await changeRequests.transition({
      orgId,
      number: 1,
      from: 'open',
      to: 'merged',
      by: userId,
      mergeCommit: BASE,
    });
    expect(merged).toMatchObject({ state: 'merged', mergedBy: userId, mergeCommit: BASE, closedAt: null });
    await expect(
      changeRequests.transition({ orgId, number: 1, from: 'open', to: 'closed', by: userId }),
    ).rejects.toThrow(ConflictError);
    await expect(
      changeRequests.transition({ orgId, number: 9, from: 'open', to: 'closed', by: userId }),
    ).rejects.toThrow(NotFoundError);
  });

  it('keeps a comment thread in order, and refuses empty comments and titles', async () => {
    const { changeRequests } = f.control;
    await changeRequests.open({ orgId, title: 'A', authorId: userId, baseCommit: BASE });
    await changeRequests.comment({ orgId, number: 1, authorId: userId, body: 'First' });
    later(f.clock, 1000);
    await changeRequests.comment({ orgId, number: 1, authorId: userId, body: 'Second' });
    expect((await changeRequests.comments(orgId, 1)).map((c) => c.body)).toEqual(['First', 'Second']);
    await expect(changeRequests.comment({ orgId, number: 1, authorId: userId, body: ' ' })).rejects.toThrow(
      InvalidInputError,
    );
    await expect(changeRequests.comment({ orgId, number: 2, authorId: userId, body: 'x' })).rejects.toThrow(
      NotFoundError,
    );
    await expect(changeRequests.open({ orgId, title: '', authorId: userId, baseCommit: BASE })).rejects.toThrow(
      InvalidInputError,
    );
  });

  it('keeps review rules per workspace, off unless set', async () => {
    const { changeRequests } = f.control;
    expect(await changeRequests.reviewRules(orgId)).toEqual(new Map());
    const rules = { assistantChangesNeedReview: true, authorCannotMerge: true };
    await changeRequests.setReviewRules({ orgId, workspaceId, rules, by: userId });
    expect(await changeRequests.reviewRules(orgId)).toEqual(new Map([[workspaceId, rules]]));
    const other = (await f.control.orgs.create({ name: 'Other' })).org.id;
    await expect(changeRequests.setReviewRules({ orgId: other, workspaceId, rules, by: userId })).rejects.toThrow(
      NotFoundError,
    );
  });
});
