import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import express from 'express';
import { DEFAULT_LIMITS, loadConfig } from '../../../src/config/index.js';
import { openControlPlane } from '../../../src/control/index.js';
import { createSpecService } from '../../../src/domain/index.js';
import type { ControlPlane, User, Workspace } from '../../../src/control/types.js';
import { createGitHttpRouter } from '../../../src/git-http/index.js';
import { GitStore } from '../../../src/store/index.js';
import type { ChangeContext } from '../../../src/store/types.js';

export interface Person {
  readonly user: User;
  readonly token: string;
  readonly ctx: ChangeContext;
}

/**
 * A seeded organization behind a real HTTP server: Alice owns it, Bob edits every workspace,
 * Carol reads only the default workspace, Dave belongs to none. Each has a personal access token.
 */
export interface GitHttpFixture {
  readonly dataDir: string;
  readonly control: ControlPlane;
  readonly store: GitStore;
  readonly orgId: string;
  readonly defaultWorkspace: Workspace;
  readonly privateWorkspace: Workspace;
  readonly productId: string;
  readonly alice: Person;
  readonly bob: Person;
  readonly carol: Person;
  readonly dave: Person;
  readonly baseUrl: string;
  repoUrl(orgId?: string): string;
  /** Moves the control plane's clock forward, past token expiry dates. */
  advanceClock(ms: number): void;
  gitdir(orgId?: string): string;
  close(): Promise<void>;
}

export async function openGitHttpFixture(): Promise<GitHttpFixture> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-git-http-'));
  let clockSkewMs = 0;
  const control = await openControlPlane({
    file: path.join(dataDir, 'specbase.db'),
    clock: () => new Date(Date.now() + clockSkewMs),
  });
  const store = new GitStore({ dataDir, maxDocumentBytes: 1024 * 1024 });
  const person = async (name: string, email: string): Promise<Person> => {
    const user = await control.users.upsert({ issuer: 'local', subject: email, email, name });
    const { secret } = await control.tokens.create({ userId: user.id, name: 'git' });
    return { user, token: secret, ctx: { author: { name, email }, client: 'test' } };
  };
  const alice = await person('Alice Owner', 'alice@example.com');
  const bob = await person('Bob Editor', 'bob@example.com');
  const carol = await person('Carol Viewer', 'carol@example.com');
  const dave = await person('Dave Outsider', 'dave@example.com');

  const { org, defaultWorkspace } = await control.orgs.create({ name: 'Acme' });
  const privateWorkspace = await control.workspaces.create({ orgId: org.id, name: 'Private' });
  await control.members.setOwner(org.id, alice.user.id, true);
  for (const workspace of [defaultWorkspace, privateWorkspace]) {
    await control.members.grant({ orgId: org.id, userId: bob.user.id, workspaceId: workspace.id, role: 'editor' });
  }
  await control.members.grant({
    orgId: org.id,
    userId: carol.user.id,
    workspaceId: defaultWorkspace.id,
    role: 'viewer',
  });
  const init = await store.initOrganization(
    org.id,
    { productTitle: 'Acme', productBody: '# Acme\n\nThe product.\n', workspaceId: defaultWorkspace.id },
    alice.ctx,
  );

  const app = express();
  const gitdir = (orgId = org.id): string => store.gitdir(orgId);
  // Only pushes reach the domain here: search and blame are never asked.
  const unused = () => Promise.reject(new Error('not used by the git fixture'));
  const specs = createSpecService({
    store,
    search: { forOrg: unused },
    blame: { blame: unused },
    control,
    baseUrl: 'http://127.0.0.1',
    limits: DEFAULT_LIMITS,
    pushes: store,
  });
  const git = createGitHttpRouter({
    control,
    gitdirOf: gitdir,
    push: {
      specs,
      limits: loadConfig({}).push,
      fsync: false,
    },
  });
  app.use('/git', git.router);
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    dataDir,
    control,
    store,
    orgId: org.id,
    defaultWorkspace,
    privateWorkspace,
    productId: init.artifact.id,
    alice,
    bob,
    carol,
    dave,
    baseUrl,
    repoUrl: (orgId = org.id) => `${baseUrl}/git/${orgId}.git`,
    gitdir,
    advanceClock(ms) {
      clockSkewMs += ms;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await git.close();
      await store.close();
      await control.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
