import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CredentialRef } from '../../../src/control/index.js';
import { BACKENDS, controlBackend, later, type ControlFixture } from './fixture.js';

describe.each(BACKENDS)('credentials in organizations (%s)', (backend) => {
  const backendOf = controlBackend(backend);
  let f: ControlFixture;
  let a: string;
  let b: string;
  let token: CredentialRef;
  const grant: CredentialRef = { kind: 'grant', id: 'family-1' };

  beforeEach(async () => {
    f = await backendOf.fixture();
    a = (await f.control.orgs.create({ name: 'A' })).org.id;
    b = (await f.control.orgs.create({ name: 'B' })).org.id;
    const ann = await f.control.users.upsert({
      issuer: 'local',
      subject: 'ann',
      email: 'ann@example.com',
      name: 'Ann',
    });
    token = { kind: 'token', id: (await f.control.tokens.create({ userId: ann.id, name: 'laptop' })).token.id };
  });
  afterEach(async () => f.cleanup());

  it('admits a credential everywhere until blocked, and records its last use per organization', async () => {
    expect(await f.control.credentialOrgs.admit(token, a)).toBe(true);
    const usedInA = f.clock.now.toISOString();
    later(f.clock, 5 * 60_000);
    expect(await f.control.credentialOrgs.admit(grant, b)).toBe(true);
    expect(await f.control.credentialOrgs.list(a)).toEqual([
      { ...token, orgId: a, lastUsedAt: usedInA, blockedAt: null, blockedBy: null },
    ]);
    expect(await f.control.credentialOrgs.list(b)).toEqual([
      { ...grant, orgId: b, lastUsedAt: f.clock.now.toISOString(), blockedAt: null, blockedBy: null },
    ]);
  });

  it('writes the last use at most once a minute', async () => {
    await f.control.credentialOrgs.admit(token, a);
    const first = f.clock.now.toISOString();
    later(f.clock, 30_000);
    await f.control.credentialOrgs.admit(token, a);
    expect((await f.control.credentialOrgs.list(a))[0]!.lastUsedAt).toBe(first);
    later(f.clock, 30_000);
    await f.control.credentialOrgs.admit(token, a);
    expect((await f.control.credentialOrgs.list(a))[0]!.lastUsedAt).toBe(f.clock.now.toISOString());
  });

  it('blocks in one organization only, once, and unblocks', async () => {
    await f.control.credentialOrgs.admit(token, a);
    expect(await f.control.credentialOrgs.block(token, a, 'admin-of-a')).toBe(true);
    expect(await f.control.credentialOrgs.block(token, a, 'someone-else')).toBe(false);
    expect(await f.control.credentialOrgs.admit(token, a)).toBe(false);
    expect(await f.control.credentialOrgs.admit(token, b)).toBe(true);
    expect(await f.control.credentialOrgs.admit({ kind: 'grant', id: token.id }, a)).toBe(true);
    expect((await f.control.credentialOrgs.list(a)).find((c) => c.kind === 'token')).toMatchObject({
      blockedAt: f.clock.now.toISOString(),
      blockedBy: 'admin-of-a',
    });

    expect(await f.control.credentialOrgs.unblock(token, a)).toBe(true);
    expect(await f.control.credentialOrgs.unblock(token, a)).toBe(false);
    expect(await f.control.credentialOrgs.admit(token, a)).toBe(true);
  });

  it('blocks a credential never used there, and a block survives a restart', async () => {
    expect(await f.control.credentialOrgs.block(grant, a, 'admin-of-a')).toBe(true);
    const reopened = await f.reopen();
    expect(await reopened.credentialOrgs.admit(grant, a)).toBe(false);
    expect(await reopened.credentialOrgs.list(a)).toEqual([
      { ...grant, orgId: a, lastUsedAt: null, blockedAt: f.clock.now.toISOString(), blockedBy: 'admin-of-a' },
    ]);
  });
});
