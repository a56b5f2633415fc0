import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../../src/ids.js';
import { GitCli } from './git-cli.js';
import { openGitHttpFixture, type GitHttpFixture } from './fixture.js';

describe('git smart HTTP: who may clone', () => {
  let fx: GitHttpFixture;
  let git: GitCli;
  let work: string;

  beforeAll(async () => {
    fx = await openGitHttpFixture();
    git = await GitCli.create();
    work = await mkdtemp(path.join(tmpdir(), 'specbase-git-access-'));
  });
  afterAll(async () => {
    await fx?.close();
  });

  const advertise = (headers: Record<string, string> = {}, orgId?: string) =>
    fetch(`${fx.repoUrl(orgId)}/info/refs?service=git-upload-pack`, { headers });
  const basic = (token: string) => ({ Authorization: `Basic ${Buffer.from(`anyone:${token}`).toString('base64')}` });
  const cloneAs = (token: string, name: string) => git.run(['clone', fx.repoUrl(), path.join(work, name)], { token });

  it('answers a request without credentials with a Basic challenge, so git asks for them', async () => {
    const res = await advertise();
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="Specbase"/);
  });

  it('accepts the token as the Basic password under any user name, or as a Bearer token', async () => {
    for (const headers of [basic(fx.alice.token), { Authorization: `Bearer ${fx.alice.token}` }]) {
      const res = await advertise(headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/x-git-upload-pack-advertisement');
      expect((await res.text()).startsWith('001e# service=git-upload-pack\n0000')).toBe(true);
    }
  });

  it('rejects a wrong token with 401, and git reports the failed authentication', async () => {
    expect((await advertise(basic('specbase_pat_not-a-real-token'))).status).toBe(401);
    const clone = await cloneAs('specbase_pat_not-a-real-token', 'wrong-token');
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toContain('Authentication failed');
  });

  it('rejects revoked and expired tokens with 401', async () => {
    const revoked = await fx.control.tokens.create({ userId: fx.bob.user.id, name: 'revoked' });
    expect((await advertise(basic(revoked.secret))).status).toBe(200);
    expect(await fx.control.tokens.revoke(revoked.token.id, fx.bob.user.id)).toBe(true);
    expect((await advertise(basic(revoked.secret))).status).toBe(401);

    const expiring = await fx.control.tokens.create({
      userId: fx.alice.user.id,
      name: 'expiring',
      expiresAt: new Date(Date.now() + 60 * 60_000),
    });
    expect((await advertise(basic(expiring.secret))).status).toBe(200);
    fx.advanceClock(2 * 60 * 60_000);
    expect((await advertise(basic(expiring.secret))).status).toBe(401);
    expect((await advertise(basic(fx.alice.token))).status).toBe(200);
    expect((await cloneAs(expiring.secret, 'expired')).stderr).toContain('Authentication failed');
  });

  it('answers a user who is not a member exactly as for an organization that does not exist: 404', async () => {
    const res = await advertise(basic(fx.dave.token));
    const unknown = await advertise(basic(fx.dave.token), newId());
    expect(res.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(await res.text()).toBe(await unknown.text());
    const clone = await cloneAs(fx.dave.token, 'non-member');
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).not.toMatch(/not a member/);
    expect(clone.stderr).toMatch(/not found/);
  });

  it('refuses a member who cannot read every workspace with 403 and says why', async () => {
    const res = await advertise(basic(fx.carol.token));
    expect(res.status).toBe(403);
    const clone = await cloneAs(fx.carol.token, 'partial');
    expect(clone.code).not.toBe(0);
    expect(clone.stderr).toMatch(/remote: .*every workspace/);
  });

  it('lets a member clone once they can read every workspace', async () => {
    await fx.control.members.grant({
      orgId: fx.orgId,
      userId: fx.carol.user.id,
      workspaceId: fx.privateWorkspace.id,
      role: 'viewer',
    });
    try {
      const clone = await cloneAs(fx.carol.token, 'full-reader');
      expect(clone.stderr).not.toMatch(/fatal/);
      expect(clone.code).toBe(0);
    } finally {
      await fx.control.members.revoke({
        orgId: fx.orgId,
        userId: fx.carol.user.id,
        workspaceId: fx.privateWorkspace.id,
      });
    }
  });

  it('refuses a token an admin blocked in this organization with 403 and says so, and lets it clone once unblocked', async () => {
    const token = (await fx.control.tokens.list(fx.bob.user.id)).find((t) => t.name === 'git')!;
    await fx.control.credentialOrgs.block({ kind: 'token', id: token.id }, fx.orgId, fx.alice.user.id);
    try {
      const res = await advertise(basic(fx.bob.token));
      expect(res.status).toBe(403);
      expect(await res.text()).toContain('blocked in this organization by an organization admin');
      const clone = await cloneAs(fx.bob.token, 'blocked');
      expect(clone.code).not.toBe(0);
      expect(clone.stderr).toMatch(/remote: .*blocked in this organization/);
    } finally {
      await fx.control.credentialOrgs.unblock({ kind: 'token', id: token.id }, fx.orgId);
    }
    expect((await advertise(basic(fx.bob.token))).status).toBe(200);
  });

  it('records refused access in the audit log', async () => {
    const entries = await fx.control.audit.list({ orgId: fx.orgId, limit: 100 });
    const refused = entries.filter((e) => e.kind === 'git' && e.outcome === 'error');
    expect(refused.map((e) => e.userId)).toEqual(
      expect.arrayContaining([fx.dave.user.id, fx.carol.user.id, fx.bob.user.id]),
    );
  });

  it('answers an unknown and a malformed organization alike with 404', async () => {
    const unknown = await advertise(basic(fx.alice.token), newId());
    const malformed = await fetch(`${fx.baseUrl}/git/not-an-org.git/info/refs?service=git-upload-pack`, {
      headers: basic(fx.alice.token),
    });
    expect(unknown.status).toBe(404);
    expect(malformed.status).toBe(404);
    expect(await unknown.text()).toBe(await malformed.text());
  });

  it('takes a push only as a receive-pack request, and one that names no ref moves nothing', async () => {
    const before = await git.ok(['--git-dir', fx.gitdir(), 'rev-parse', 'main']);
    const post = (type: string) =>
      fetch(`${fx.repoUrl()}/git-receive-pack`, {
        method: 'POST',
        headers: { ...basic(fx.alice.token), 'Content-Type': type },
        body: '0000',
      });
    expect((await post('text/plain')).status).toBe(415);
    const empty = await post('application/x-git-receive-pack-request');
    expect(empty.status).toBe(200);
    await empty.arrayBuffer();
    expect(await git.ok(['--git-dir', fx.gitdir(), 'rev-parse', 'main'])).toBe(before);
  });
});
