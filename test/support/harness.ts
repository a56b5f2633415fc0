import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { WorkspaceRole } from '../../src/access/principal.js';
import { createHttpApp, type HttpApp } from '../../src/app/http.js';
import { listen, shutdown, type NodeServer } from '../../src/app/server.js';
import { openServices, type Services } from '../../src/app/services.js';
import { loadConfig } from '../../src/config/index.js';
import type { User } from '../../src/control/types.js';
import { ensureDemo, type DemoInfo } from '../../src/demo/seed.js';
import { newId } from '../../src/ids.js';
import { createLogger } from '../../src/log.js';
import type { McpTuning } from '../../src/mcp/types.js';

export type Persona = 'owner' | 'editor' | 'viewer' | 'partial' | 'outsider';

export interface TestUser {
  readonly user: User;
  readonly token: string;
  readonly password: string;
}

export interface Harness {
  readonly baseUrl: string;
  readonly dataDir: string;
  readonly services: Services;
  readonly demo: DemoInfo;
  readonly orgId: string;
  readonly productId: string;
  readonly defaultWorkspaceId: string;
  /** The demo's 'Leadership' workspace: owner, editor and viewer can read it; partial and outsider cannot. */
  readonly restrictedWorkspaceId: string;
  /** Bare repository of the demo organization, for the git CLI. */
  readonly gitdir: string;
  readonly users: Readonly<Record<Persona, TestUser>>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Extra environment for loadConfig (e.g. SPECBASE_TLS_CERT); PORT and the data dir are the harness's. */
  readonly env?: Record<string, string>;
  /** Public base URL to configure instead of the listening address. */
  readonly baseUrl?: (port: number) => string;
  /** MCP options: an earlier stream poll, a wider gathering of answers, extra fixture tools. */
  readonly mcp?: McpTuning;
  /** Runs on the fresh data directory before the services open it (e.g. to put specbase.db on another disk). */
  readonly prepareDataDir?: (dataDir: string) => void | Promise<void>;
}

const PERSONA_ROLES: Record<
  Exclude<Persona, 'owner' | 'outsider'>,
  { default: WorkspaceRole; restricted?: WorkspaceRole }
> = {
  editor: { default: 'editor', restricted: 'editor' },
  viewer: { default: 'viewer', restricted: 'viewer' },
  partial: { default: 'editor' },
};

/**
 * The whole service on an ephemeral loopback port in a fresh data directory, seeded with the
 * demo organization and one user per persona, each with a personal access token.
 */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'specbase-test-'));
  const probe = loadConfig({ ...options.env, PORT: '0', HOST: '127.0.0.1', SPECBASE_DATA_DIR: dataDir });
  const { server, port } = await listen(probe);
  const scheme = probe.tls ? 'https' : 'http';
  const config = loadConfig({
    ...options.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    SPECBASE_DATA_DIR: dataDir,
    SPECBASE_BASE_URL: options.baseUrl?.(port) ?? `${scheme}://127.0.0.1:${port}`,
    SPECBASE_LOG_LEVEL: process.env.SPECBASE_TEST_LOG_LEVEL ?? 'silent',
  });
  const log = createLogger(config.logLevel);
  let services: Services;
  try {
    await options.prepareDataDir?.(dataDir);
    services = await openServices(config, { log });
  } catch (error) {
    await shutdown(server, 200);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  let app: HttpApp | undefined;
  try {
    const { demo } = await ensureDemo(services);
    app = await createHttpApp(services, log, options.mcp ? { mcp: options.mcp } : {});
    server.on('request', app.listener);
    const workspaces = await services.control.workspaces.list(demo.orgId);
    const defaultWorkspaceId = workspaces.find((w) => w.isDefault)!.id;
    const restrictedWorkspaceId = workspaces.find((w) => !w.isDefault)!.id;
    const owner = (await services.control.users.byEmail(demo.userEmail))!;

    const makeUser = async (persona: Persona): Promise<TestUser> => {
      const user = await services.control.users.upsert({
        issuer: 'local',
        subject: newId(),
        email: `${persona}@example.com`,
        name: `${persona[0]!.toUpperCase()}${persona.slice(1)} Tester`,
      });
      const password = `${persona}-password-123`;
      await services.control.users.setPassword(user.id, password);
      const roles = persona === 'owner' || persona === 'outsider' ? undefined : PERSONA_ROLES[persona];
      if (roles) {
        await services.control.members.grant({
          orgId: demo.orgId,
          userId: user.id,
          workspaceId: defaultWorkspaceId,
          role: roles.default,
        });
        if (roles.restricted) {
          await services.control.members.grant({
            orgId: demo.orgId,
            userId: user.id,
            workspaceId: restrictedWorkspaceId,
            role: roles.restricted,
          });
        }
      }
      const { secret } = await services.control.tokens.create({ userId: user.id, name: `${persona} test token` });
      return { user, token: secret, password };
    };

    const users: Record<Persona, TestUser> = {
      owner: { user: owner, token: demo.token, password: demo.password },
      editor: await makeUser('editor'),
      viewer: await makeUser('viewer'),
      partial: await makeUser('partial'),
      outsider: await makeUser('outsider'),
    };

    return {
      baseUrl: config.baseUrl,
      dataDir,
      services,
      demo,
      orgId: demo.orgId,
      productId: demo.productId,
      defaultWorkspaceId,
      restrictedWorkspaceId,
      gitdir: services.store.gitdir(demo.orgId),
      users,
      close: () => closeAll(server, app, services, dataDir),
    };
  } catch (error) {
    await closeAll(server, app, services, dataDir);
    throw error;
  }
}

async function closeAll(
  server: NodeServer,
  app: HttpApp | undefined,
  services: Services,
  dataDir: string,
): Promise<void> {
  await Promise.all([shutdown(server, 200), app?.drain(200)]);
  await app?.close();
  await services.close();
  await rm(dataDir, { recursive: true, force: true });
}
