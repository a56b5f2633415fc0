import type { RequestListener } from 'node:http';
import express, { type ErrorRequestHandler } from 'express';
import { createAuth } from '../auth/index.js';
import { createGitHttpRouter } from '../git-http/index.js';
import { droppedLogLines, type Logger } from '../log.js';
import { createMcpRouter, patVerifier } from '../mcp/index.js';
import type { McpTuning } from '../mcp/types.js';
import { createWebApp } from '../web/index.js';
import { appRendering } from '../web/app-rendering.js';
import type { Services } from './services.js';

export interface HttpApp {
  /** Every request of the server: MCP's endpoints first, then the express app for the rest. */
  readonly listener: RequestListener;
  /** Lets MCP tool calls under way finish (up to `limitMs`), then ends every MCP session. */
  drain(limitMs: number): Promise<void>;
  close(): Promise<void>;
}

/** Every surface of Specbase on one server: MCP, and on one express app OAuth and sign-in, Git, web. */
export async function createHttpApp(
  services: Services,
  log: Logger,
  options: { readonly mcp?: McpTuning } = {},
): Promise<HttpApp> {
  const { config, control, specs, store } = services;
  // A server answers searches: its first one after a start should not also wait for the index thread to boot.
  services.search.prepare();
  const app = express();
  app.disable('x-powered-by');

  // Readiness for a load balancer: 503 takes this replica out of rotation until it recovers.
  // The counts are since start (open organizations: now): log lines stderr did not take, audit rows lost to a database
  // that refused writes longer than the held rows lasted, and rows held for it now.
  app.get('/healthz', async (_req, res) => {
    const problem = await services.unready();
    const audit = control.audit.health();
    const webhooks = await control.webhooks.health().catch(() => undefined);
    const counts = {
      droppedLogLines: droppedLogLines(log),
      droppedAuditRows: audit.droppedRows,
      heldAuditRows: audit.heldRows,
      // What this replica holds (see SPECBASE_MAX_OPEN_ORGS), for sizing and for checking affinity.
      openOrganizations: store.openOrganizations().length,
      // Over every replica: webhook events waiting, and those dropped because an endpoint's queue was full.
      ...(webhooks ? { queuedWebhookEvents: webhooks.queued, droppedWebhookEvents: webhooks.dropped } : {}),
    };
    res
      .status(problem ? 503 : 200)
      .json(problem ? { status: 'unavailable', reason: problem, ...counts } : { status: 'ok', ...counts });
  });

  const auth = await createAuth({ config, control, db: control.db, dataDir: config.dataDir });
  const verifyPat = patVerifier(control);
  const mcp = createMcpRouter({
    ...options.mcp,
    specs,
    control,
    config,
    log,
    render: appRendering,
    changeRequests: services.changeRequests,
    commits: (listener) =>
      store.onCommit((orgId, result) =>
        listener({ orgId, id: result.artifact.id, workspaceId: result.artifact.workspaceId }),
      ),
    follow: (orgId) => store.head(orgId).then(() => undefined),
    holdOrganization: (orgId) => store.hold(orgId),
    verifyAccessToken: (token, resource) =>
      token.startsWith('sbp_') ? verifyPat(token, resource) : auth.verifyAccessToken(token, resource),
  });
  const git = createGitHttpRouter({
    control,
    gitdirOf: (orgId) => store.gitdir(orgId),
    push: {
      specs,
      changeRequests: services.changeRequests.changeRequests,
      limits: config.push,
      fsync: config.fsync,
    },
  });
  app.use('/git', git.router);
  app.use(auth.router);
  const web = createWebApp({
    specs,
    changeRequests: services.changeRequests.changeRequests,
    control,
    config,
    auth,
    webhooks: services.webhooks,
    commits: (listener) =>
      store.onCommit((orgId, result) => {
        if (result.deleted) return;
        const { id, version, title, body } = result.artifact;
        listener({ orgId, artifactId: id, version, title, body });
      }),
  });
  app.use(web.router);

  const lastResort: ErrorRequestHandler = (error, req, res, _next) => {
    log.error({ err: error, method: req.method, path: req.path }, 'unhandled request error');
    if (!res.headersSent) res.status(500).json({ error: 'internal_error', message: 'internal server error' });
  };
  app.use(lastResort);

  return {
    listener: (req, res) => {
      if (!mcp.handle(req, res)) app(req, res);
    },
    drain: (limitMs) => mcp.drain(limitMs),
    close: async () => {
      web.close();
      await git.close();
      await auth.close();
    },
  };
}
