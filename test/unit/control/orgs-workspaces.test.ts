import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_WORKSPACE_NAME } from '../../../src/control/index.js';
import { InvalidInputError, NotFoundError } from '../../../src/errors.js';
import { newId } from '../../../src/ids.js';
import { BACKENDS, controlBackend, type ControlFixture } from './fixture.js';

describe.each(BACKENDS)('organizations and workspaces (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  beforeEach(async () => {
    f = await backendOf.fixture();
  });
  afterEach(async () => f.cleanup());

  it('creates an organization with exactly one default workspace', async () => {
    const { org, defaultWorkspace } = await f.control.orgs.create({ name: ' Acme ' });
    expect(org).toEqual({ id: org.id, name: 'Acme', createdAt: '2030-01-01T00:00:00.000Z' });
    expect(defaultWorkspace).toEqual({
      id: defaultWorkspace.id,
      orgId: org.id,
      name: DEFAULT_WORKSPACE_NAME,
      isDefault: true,
    });
    expect(await f.control.orgs.get(org.id)).toEqual(org);
    expect(await f.control.workspaces.defaultOf(org.id)).toEqual(defaultWorkspace);
    expect(await f.control.workspaces.list(org.id)).toEqual([defaultWorkspace]);
  });

  it('accepts a chosen id and refuses it twice or when it is not a UUID', async () => {
    const id = newId();
    const { org } = await f.control.orgs.create({ id, name: 'Chosen' });
    expect(org.id).toBe(id);
    await expect(f.control.orgs.create({ id, name: 'Again' })).rejects.toThrow(InvalidInputError);
    await expect(f.control.orgs.create({ id: 'acme', name: 'Bad' })).rejects.toThrow(InvalidInputError);
    await expect(f.control.orgs.create({ name: '  ' })).rejects.toThrow(InvalidInputError);
    expect(await f.control.orgs.list()).toEqual([org]);
  });

  it('lists organizations in creation order', async () => {
    const a = await f.control.orgs.create({ name: 'A' });
    const b = await f.control.orgs.create({ name: 'B' });
    expect((await f.control.orgs.list()).map((o) => o.id)).toEqual([a.org.id, b.org.id]);
  });

  it('adds workspaces after the default one, with names unique per organization ignoring case', async () => {
    const { org, defaultWorkspace } = await f.control.orgs.create({ name: 'Acme' });
    const other = await f.control.orgs.create({ name: 'Other' });
    const leadership = await f.control.workspaces.create({ orgId: org.id, name: 'Leadership' });
    expect(leadership).toEqual({ id: leadership.id, orgId: org.id, name: 'Leadership', isDefault: false });
    expect(await f.control.workspaces.get(leadership.id)).toEqual(leadership);
    expect(await f.control.workspaces.list(org.id)).toEqual([defaultWorkspace, leadership]);
    await expect(f.control.workspaces.create({ orgId: org.id, name: 'leadership' })).rejects.toThrow(InvalidInputError);
    await expect(f.control.workspaces.create({ orgId: org.id, name: 'default' })).rejects.toThrow(InvalidInputError);
    await expect(f.control.workspaces.create({ orgId: other.org.id, name: 'Leadership' })).resolves.toMatchObject({
      orgId: other.org.id,
    });
  });

  it('reports unknown organizations and workspaces', async () => {
    await expect(f.control.workspaces.create({ orgId: newId(), name: 'X' })).rejects.toThrow(NotFoundError);
    await expect(f.control.workspaces.defaultOf(newId())).rejects.toThrow(NotFoundError);
    expect(await f.control.workspaces.get(newId())).toBeUndefined();
    expect(await f.control.workspaces.list(newId())).toEqual([]);
    expect(await f.control.orgs.get(newId())).toBeUndefined();
  });

  it('keeps one default workspace per organization in the schema itself', async () => {
    const { org } = await f.control.orgs.create({ name: 'Acme' });
    const insert = f.control.db.run(
      "INSERT INTO workspaces (id, org_id, name, is_default, created_at) VALUES (?, ?, 'Second', 1, 'now')",
      [newId(), org.id],
    );
    await expect(insert).rejects.toThrow(/UNIQUE|unique constraint/);
  });
});
