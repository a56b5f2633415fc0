import { execFile } from 'node:child_process';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli.js';
import { git } from '../../support/git.js';
import { artifactCommit, writeFirstLayoutRepository } from '../store/first-layout.js';
import { alice } from '../store/fixture.js';

const exec = promisify(execFile);

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

let dataDir: string;

async function specbase(...args: string[]): Promise<Run> {
  try {
    const { stdout, stderr } = await runCli([...args, '--data-dir', dataDir], {
      ...process.env,
      SPECBASE_LOG_LEVEL: 'silent',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function json(...args: string[]): Promise<Record<string, unknown>> {
  const run = await specbase(...args, '--json');
  expect(run.stderr, run.stderr).not.toMatch(/error/i);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as Record<string, unknown>;
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-cli-'));
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('specbase CLI', () => {
  it('sets up users, an organization with its repository, workspaces, roles and tokens', async () => {
    expect(await json('init')).toEqual({ dataDir });
    await stat(path.join(dataDir, 'specbase.db'));

    const ana = await json(
      'user',
      'add',
      '--email',
      'Ana@Example.com',
      '--name',
      'Ana Lima',
      '--password',
      'correct horse',
    );
    expect(ana).toMatchObject({ email: 'ana@example.com', name: 'Ana Lima', password: true });
    await json('user', 'add', '--email', 'bo@example.com', '--name', 'Bo Berg');

    const org = await json('org', 'create', '--name', 'Acme', '--owner', 'ana@example.com');
    const orgId = org.orgId as string;
    const gitdir = path.join(dataDir, 'orgs', `${orgId}.git`);
    expect(await git(gitdir, 'log', '--format=%an <%ae>|%s', 'main')).toBe(
      'Ana Lima <ana@example.com>|Create product: Acme\n',
    );
    expect(await git(gitdir, 'show', 'main:product.md')).toContain('# Acme');
    await exec('git', ['--git-dir', gitdir, 'fsck', '--strict']);

    const ws = await json('workspace', 'create', '--org', orgId, '--name', 'Leadership');
    const grant = await json(
      'member',
      'grant',
      '--org',
      orgId,
      '--user',
      'bo@example.com',
      '--workspace',
      'leadership',
      '--role',
      'viewer',
    );
    expect(grant).toEqual({ orgId, userId: expect.any(String), workspaceId: ws.workspaceId, role: 'viewer' });

    const token = await json('token', 'create', '--user', 'bo@example.com', '--name', 'laptop', '--expires-days', '30');
    expect(token.token).toMatch(/^sbp_[A-Za-z0-9_-]{43}$/);
    expect(Date.parse(token.expiresAt as string) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    // Without a lifetime a token lasts 90 days; one that never expires must be asked for.
    const plain = await json('token', 'create', '--user', 'bo@example.com', '--name', 'plain');
    expect((Date.parse(plain.expiresAt as string) - Date.now()) / 86_400_000).toBeCloseTo(90, 0);
    const week = await json('token', 'create', '--user', 'bo@example.com', '--name', 'week', '--expires-in-days', '7');
    expect((Date.parse(week.expiresAt as string) - Date.now()) / 86_400_000).toBeCloseTo(7, 0);
    expect(
      (await json('token', 'create', '--user', 'bo@example.com', '--name', 'forever', '--no-expiry')).expiresAt,
    ).toBeNull();
    expect(plain.readOnly).toBe(false);
    expect((await json('token', 'create', '--user', 'bo@example.com', '--name', 'reader', '--readonly')).readOnly).toBe(
      true,
    );

    const orgs = (await json('org', 'list')).organizations as { id: string }[];
    expect(orgs.map((o) => o.id)).toEqual([orgId]);
  });

  it('adds and removes members and renames workspaces as the Members page does, never the last owner', async () => {
    const orgId = ((await json('org', 'list')).organizations as { id: string }[])[0]!.id;
    const added = await json(
      'member',
      'add',
      '--org',
      orgId,
      '--email',
      'cy@example.com',
      '--workspace',
      'Default',
      '--role',
      'editor',
    );
    expect(added).toMatchObject({ email: 'cy@example.com', role: 'editor', awaitingSignIn: false });
    expect(added.invitationUrl).toMatch(/\/invite\/[A-Za-z0-9_-]{43}$/);
    expect(await json('member', 'remove', '--org', orgId, '--user', 'cy@example.com')).toMatchObject({ removed: true });
    const lastOwner = await specbase('member', 'remove', '--org', orgId, '--user', 'ana@example.com');
    expect(lastOwner.code).not.toBe(0);
    expect(lastOwner.stderr).toContain('the last owner of an organization cannot be removed');
    expect(
      await json('workspace', 'rename', '--org', orgId, '--workspace', 'leadership', '--name', 'Board'),
    ).toMatchObject({ orgId, name: 'Board' });
  }, 120_000);

  it('creates the demo organization once and prints what a client needs', async () => {
    const first = await json('demo');
    expect(first).toMatchObject({ created: true, userEmail: 'demo@example.com' });
    for (const key of ['orgId', 'token', 'password', 'mcpUrl', 'sseUrl'])
      expect(first[key], key).toEqual(expect.any(String));
    const second = await json('demo');
    expect(second).toEqual({ ...first, created: false });
    const log = await git(path.join(dataDir, 'orgs', `${first.orgId as string}.git`), 'log', '--format=%s', 'main');
    expect(log).toMatch(/^Create requirement: /m);
    expect(log).toMatch(/^Create folder: Leadership$/m);
  });

  it("moves an organization's repository in the first layout to the sharded one, once", async () => {
    const orgId = (await json('org', 'create', '--name', 'Legacy', '--owner', 'ana@example.com')).orgId as string;
    const gitdir = path.join(dataDir, 'orgs', `${orgId}.git`);
    await rm(gitdir, { recursive: true });
    const capability = {
      id: '3f2c9a1e-5b7d-4c3e-9f10-2a4b6c8d0e12',
      type: 'capability' as const,
      parent: null,
      title: 'Payments',
      body: '# Payments\n',
    };
    writeFirstLayoutRepository(gitdir, [
      artifactCommit(alice, 'create', { ...capability, path: 'capabilities/payments-3f2c9a1e.md' }),
    ]);
    const first = (await json('migrate-layout', '--org', orgId)).organizations as Record<string, unknown>[];
    expect(first).toEqual([
      { orgId, migrated: true, commit: (await git(gitdir, 'rev-parse', 'main')).trim(), moved: 1 },
    ]);
    expect(await git(gitdir, 'ls-tree', '-r', '--name-only', 'main')).toBe('capabilities/3f/2c/payments-3f2c9a1e.md\n');
    const all = (await json('migrate-layout', '--all')).organizations as Record<string, unknown>[];
    expect(all.map((o) => o.migrated)).not.toContain(true);
    expect(all.map((o) => o.orgId)).toContain(orgId);
    for (const args of [['migrate-layout'], ['migrate-layout', '--org', orgId, '--all']]) {
      const run = await specbase(...args);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/name one organization with --org ORG_ID, or all of them with --all/);
    }
  });

  it('rejects bad input with a specific message, a non-zero exit and no change', async () => {
    const cases: [string[], number, RegExp][] = [
      [['org', 'create', '--name', 'X'], 2, /missing --owner/],
      [['org', 'create', '--name', 'X', '--owner', 'nobody@example.com'], 1, /user not found/],
      [
        ['member', 'grant', '--org', 'not-a-uuid', '--user', 'bo@example.com', '--workspace', 'x', '--role', 'viewer'],
        1,
        /organization not found/,
      ],
      [
        ['member', 'grant', '--org', 'x', '--user', 'bo@example.com', '--workspace', 'x', '--role', 'boss'],
        1,
        /role must be one of viewer, editor, admin/,
      ],
      [
        ['token', 'create', '--user', 'bo@example.com', '--name', 't', '--expires-days=-3'],
        1,
        /--expires-in-days must be a whole number/,
      ],
      [
        ['token', 'create', '--user', 'bo@example.com', '--name', 't', '--expires-in-days', '0'],
        1,
        /--expires-in-days must be a whole number/,
      ],
      [
        ['token', 'create', '--user', 'bo@example.com', '--name', 't', '--expires-in-days', '5', '--no-expiry'],
        1,
        /either --expires-in-days or --no-expiry, not both/,
      ],
      [['user', 'add', '--email', 'not-an-email', '--name', 'N'], 1, /not an email address/],
      [['user', 'add', '--email', 'c@example.com', '--name', 'C', '--password', 'short'], 1, /at least 8 characters/],
      [['frobnicate'], 2, /unknown command: frobnicate/],
      [['org', 'create', '--name', 'X', '--owner', 'a@b.c', '--colour', 'red'], 2, /Unknown option '--colour'/],
    ];
    const before = (await specbase('org', 'list', '--json')).stdout;
    for (const [args, code, message] of cases) {
      const run = await specbase(...args);
      expect({ args, code: run.code }).toEqual({ args, code });
      expect(run.stderr).toMatch(message);
    }
    expect((await specbase('org', 'list', '--json')).stdout).toBe(before);
    expect(
      await specbase('user', 'add', '--email', 'c@example.com', '--name', 'C', '--password', 'long enough', '--json'),
    ).toMatchObject({ code: 0 });
  });

  it('answers errors as JSON with --json', async () => {
    const run = await specbase('org', 'create', '--name', 'X', '--owner', 'nobody@example.com', '--json');
    expect(run.code).toBe(1);
    expect(JSON.parse(run.stderr)).toEqual({ error: 'not_found', message: 'user not found' });
  });
});
