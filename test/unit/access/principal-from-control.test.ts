import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canManage, canRead, canReadAll, canWrite } from '../../../src/access/index.js';
import type { WorkspaceRole } from '../../../src/access/principal.js';
import { openControlPlane, type SqlControlPlane } from '../../../src/control/index.js';

/** The same questions asked of principals the control plane builds from a real database. */
describe('access with principals from the control plane', () => {
  let dir: string;
  let control: SqlControlPlane;
  let orgId: string;
  let workspaces: string[];
  const users = new Map<string, string>();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'specbase-access-'));
    control = await openControlPlane({ file: path.join(dir, 'specbase.db') });
    const { org, defaultWorkspace } = await control.orgs.create({ name: 'Acme' });
    const restricted = await control.workspaces.create({ orgId: org.id, name: 'Restricted' });
    orgId = org.id;
    workspaces = [defaultWorkspace.id, restricted.id];
    for (const who of ['viewer', 'editor', 'admin', 'owner'] as const) {
      const user = await control.users.upsert({
        issuer: 'local',
        subject: who,
        email: `${who}@example.com`,
        name: who,
      });
      users.set(who, user.id);
      if (who === 'owner') await control.members.setOwner(orgId, user.id, true);
      else
        await control.members.grant({
          orgId,
          userId: user.id,
          workspaceId: defaultWorkspace.id,
          role: who as WorkspaceRole,
        });
    }
  });
  afterAll(async () => {
    await control.close();
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['viewer', [true, false, false], false],
    ['editor', [true, true, false], false],
    ['admin', [true, true, true], false],
    ['owner', [true, true, true], true],
  ] as const)('%s', async (who, [read, write, manage], everywhere) => {
    const p = (await control.members.principal(orgId, users.get(who)!))!;
    const [main, restricted] = workspaces as [string, string];
    expect([canRead(p, main), canWrite(p, main), canManage(p, main)]).toEqual([read, write, manage]);
    expect([canRead(p, restricted), canWrite(p, restricted), canManage(p, restricted)]).toEqual([
      everywhere,
      everywhere,
      everywhere,
    ]);
    expect(canReadAll(p, workspaces)).toBe(everywhere);
  });
});
