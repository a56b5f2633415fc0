import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { WorkspaceRole } from '../../../src/access/principal.js';
import type { Organization, User, Workspace } from '../../../src/control/index.js';
import { ConflictError, InvalidInputError, NotFoundError } from '../../../src/errors.js';
import { newId } from '../../../src/ids.js';
import { afterAnotherProcessCommits, BACKENDS, controlBackend, type ControlFixture } from './fixture.js';

describe.each(BACKENDS)('members and roles (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  let org: Organization;
  let main: Workspace;
  let secret: Workspace;
  let ann: User;
  let bob: User;

  beforeEach(async () => {
    f = await backendOf.fixture();
    const created = await f.control.orgs.create({ name: 'Acme' });
    org = created.org;
    main = created.defaultWorkspace;
    secret = await f.control.workspaces.create({ orgId: org.id, name: 'Secret' });
    ann = await f.control.users.upsert({ issuer: 'local', subject: 'ann', email: 'ann@example.com', name: 'Ann' });
    bob = await f.control.users.upsert({ issuer: 'local', subject: 'bob', email: 'bob@example.com', name: 'Bob' });
  });
  afterEach(async () => f.cleanup());

  it('a user with no owner flag and no role is not a member', async () => {
    expect(await f.control.members.principal(org.id, ann.id)).toBeUndefined();
    expect(await f.control.orgs.forUser(ann.id)).toEqual([]);
    expect(await f.control.members.list(org.id)).toEqual([]);
  });

  it('a role makes a member whose principal carries exactly that role', async () => {
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: main.id, role: 'viewer' });
    expect(await f.control.members.principal(org.id, ann.id)).toEqual({
      userId: ann.id,
      name: 'Ann',
      email: 'ann@example.com',
      orgId: org.id,
      isOwner: false,
      roles: new Map([[main.id, 'viewer']]),
    });
    expect(await f.control.orgs.forUser(ann.id)).toEqual([org]);
  });

  it('a role changed by another process shows in principal reads within milliseconds', async () => {
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: main.id, role: 'editor' });
    for (let i = 0; i < 3; i++)
      expect((await f.control.members.principal(org.id, ann.id))?.roles.get(main.id)).toBe('editor');
    const replica = await f.reopen();
    // Reads share one look at the database for a few milliseconds (SqliteDatabase.changeStamp).
    await replica.members.grant({ orgId: org.id, userId: ann.id, workspaceId: main.id, role: 'viewer' });
    await afterAnotherProcessCommits();
    expect((await f.control.members.principal(org.id, ann.id))?.roles.get(main.id)).toBe('viewer');
    await replica.members.revoke({ orgId: org.id, userId: ann.id, workspaceId: main.id });
    await afterAnotherProcessCommits();
    expect(await f.control.members.principal(org.id, ann.id)).toBeUndefined();
    const added = await replica.workspaces.create({ orgId: org.id, name: 'Later' });
    await afterAnotherProcessCommits();
    expect((await f.control.workspaces.list(org.id)).map((w) => w.id)).toContain(added.id);
  });

  it('granting again changes the role; revoking the last role ends membership', async () => {
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: main.id, role: 'viewer' });
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: main.id, role: 'editor' });
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: secret.id, role: 'admin' });
    const roles = (await f.control.members.principal(org.id, ann.id))?.roles;
    expect(roles).toEqual(
      new Map<string, WorkspaceRole>([
        [main.id, 'editor'],
        [secret.id, 'admin'],
      ]),
    );

    await f.control.members.revoke({ orgId: org.id, userId: ann.id, workspaceId: main.id });
    expect((await f.control.members.principal(org.id, ann.id))?.roles).toEqual(new Map([[secret.id, 'admin']]));
    await f.control.members.revoke({ orgId: org.id, userId: ann.id, workspaceId: secret.id });
    expect(await f.control.members.principal(org.id, ann.id)).toBeUndefined();
    await expect(
      f.control.members.revoke({ orgId: org.id, userId: ann.id, workspaceId: secret.id }),
    ).resolves.toBeUndefined();
  });

  it('an owner is a member without any role, until the flag is cleared', async () => {
    await f.control.members.setOwner(org.id, bob.id, true);
    await f.control.members.setOwner(org.id, ann.id, true);
    expect(await f.control.members.principal(org.id, bob.id)).toMatchObject({ isOwner: true, roles: new Map() });
    expect(await f.control.orgs.forUser(bob.id)).toEqual([org]);
    await f.control.members.setOwner(org.id, bob.id, false);
    expect(await f.control.members.principal(org.id, bob.id)).toBeUndefined();
  });

  it('never lets the last owner go, by clearing the flag or by removal', async () => {
    await f.control.members.setOwner(org.id, bob.id, true);
    await expect(f.control.members.setOwner(org.id, bob.id, false)).rejects.toThrow(ConflictError);
    await expect(f.control.members.remove({ orgId: org.id, userId: bob.id })).rejects.toThrow(ConflictError);
    expect(await f.control.members.principal(org.id, bob.id)).toMatchObject({ isOwner: true });
    await f.control.members.setOwner(org.id, ann.id, true);
    await f.control.members.remove({ orgId: org.id, userId: bob.id });
    expect(await f.control.members.principal(org.id, bob.id)).toBeUndefined();
  });

  it('removes a member from every workspace of the organization at once', async () => {
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: main.id, role: 'editor' });
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: secret.id, role: 'admin' });
    await f.control.members.remove({ orgId: org.id, userId: ann.id });
    expect(await f.control.members.principal(org.id, ann.id)).toBeUndefined();
    expect((await f.control.members.list(org.id)).map((m) => m.user.id)).not.toContain(ann.id);
  });

  it('renames a workspace under a name no other workspace of the organization has', async () => {
    const renamed = await f.control.workspaces.rename({ orgId: org.id, workspaceId: secret.id, name: 'Board' });
    expect(renamed).toMatchObject({ id: secret.id, name: 'Board' });
    await expect(
      f.control.workspaces.rename({ orgId: org.id, workspaceId: secret.id, name: main.name.toUpperCase() }),
    ).rejects.toThrow(InvalidInputError);
    await expect(f.control.workspaces.rename({ orgId: newId(), workspaceId: secret.id, name: 'X' })).rejects.toThrow(
      NotFoundError,
    );
  });

  it('roles in one organization say nothing about another', async () => {
    const other = await f.control.orgs.create({ name: 'Other' });
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: main.id, role: 'admin' });
    await f.control.members.setOwner(org.id, bob.id, true);
    expect(await f.control.members.principal(other.org.id, ann.id)).toBeUndefined();
    expect(await f.control.members.principal(other.org.id, bob.id)).toBeUndefined();
    expect(await f.control.members.principal(newId(), ann.id)).toBeUndefined();
  });

  it('lists members with owner flags and roles', async () => {
    await f.control.members.setOwner(org.id, bob.id, true);
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: secret.id, role: 'editor' });
    await f.control.members.grant({ orgId: org.id, userId: ann.id, workspaceId: main.id, role: 'viewer' });
    expect(await f.control.members.list(org.id)).toEqual([
      {
        user: ann,
        isOwner: false,
        roles: [
          { workspaceId: main.id, role: 'viewer' },
          { workspaceId: secret.id, role: 'editor' },
        ],
      },
      { user: bob, isOwner: true, roles: [] },
    ]);
  });

  it('rejects bad grants with typed errors and changes nothing', async () => {
    const other = await f.control.orgs.create({ name: 'Other' });
    const grant = (over: Partial<{ orgId: string; userId: string; workspaceId: string; role: string }>) =>
      f.control.members.grant({
        orgId: org.id,
        userId: ann.id,
        workspaceId: main.id,
        role: 'viewer',
        ...over,
      } as { orgId: string; userId: string; workspaceId: string; role: WorkspaceRole });
    await expect(grant({ orgId: newId() })).rejects.toThrow(new NotFoundError('organization'));
    await expect(grant({ userId: newId() })).rejects.toThrow(new NotFoundError('user'));
    await expect(grant({ workspaceId: newId() })).rejects.toThrow(new NotFoundError('workspace'));
    await expect(grant({ workspaceId: other.defaultWorkspace.id })).rejects.toThrow(InvalidInputError);
    await expect(grant({ role: 'owner' })).rejects.toThrow(InvalidInputError);
    await expect(f.control.members.setOwner(newId(), ann.id, true)).rejects.toThrow(NotFoundError);
    await expect(f.control.members.setOwner(org.id, newId(), true)).rejects.toThrow(NotFoundError);
    await expect(
      f.control.members.revoke({ orgId: org.id, userId: ann.id, workspaceId: other.defaultWorkspace.id }),
    ).rejects.toThrow(InvalidInputError);
    expect(await f.control.members.principal(org.id, ann.id)).toBeUndefined();
    expect(await f.control.members.principal(other.org.id, ann.id)).toBeUndefined();
  });
});
