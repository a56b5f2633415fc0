import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createHttpApp, type HttpApp } from '../../src/app/http.js';
import { listen, shutdown, type NodeServer } from '../../src/app/server.js';
import { openServices, type Services } from '../../src/app/services.js';
import { loadConfig } from '../../src/config/index.js';
import { ensureDemo, type DemoInfo } from '../../src/demo/seed.js';
import { copyDemoInto, seedPersonas, type Personas } from './demo-template.js';
import { createLogger } from '../../src/log.js';
import type { McpTuning } from '../../src/mcp/types.js';

export type { Persona, TestUser } from './demo-template.js';

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
  readonly users: Personas;
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
  let seeded: Personas | undefined;
  try {
    if (startsFromTemplate(options)) seeded = await copyDemoInto(dataDir);
    else await options.prepareDataDir?.(dataDir);
    services = await openServices(config, { log });
  } catch (error) {
    await shutdown(server, 200);
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
  let app: HttpApp | undefined;
  try {
    const { demo } = await ensureDemo(services);
    const users = seeded ?? (await seedPersonas(services, demo));
    app = await createHttpApp(services, log, options.mcp ? { mcp: options.mcp } : {});
    server.on('request', app.listener);
    const workspaces = await services.control.workspaces.list(demo.orgId);
    const defaultWorkspaceId = workspaces.find((w) => w.isDefault)!.id;
    const restrictedWorkspaceId = workspaces.find((w) => !w.isDefault)!.id;

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

/**
 * A copy of the seeded demo serves every harness whose data does not depend on its options: not
 * one with its control plane on PostgreSQL, an external identity provider, or a data directory
 * prepared before it opens.
 */
function startsFromTemplate(options: HarnessOptions): boolean {
  const env = options.env ?? {};
  return !options.prepareDataDir && !env.SPECBASE_DATABASE_URL && !env.SPECBASE_OIDC_ISSUER;
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
