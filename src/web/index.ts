import express, { type RequestHandler } from 'express';
import type { GrantAdmin } from '../auth/types.js';
import type { Config } from '../config/index.js';
import type { ControlPlane } from '../control/types.js';
import type { ChangeRequests, SpecService } from '../domain/index.js';
import type { WebhookActions } from '../webhooks/index.js';
import { assetRoutes } from './assets.js';
import { sendHtml } from './context.js';
import { errorPageFor, webErrors } from './errors.js';
import { artifactRoutes } from './routes/artifact.js';
import { auditRoutes } from './routes/audit.js';
import { changeRequestRoutes } from './routes/change-requests/index.js';
import { connectRoutes } from './routes/connect.js';
import { createRoutes } from './routes/create.js';
import { deleteRoutes } from './routes/delete.js';
import { inviteRoutes } from './routes/invite.js';
import { memberRoutes } from './routes/members.js';
import { moveRoutes } from './routes/move.js';
import { editRoutes } from './routes/edit.js';
import { exportRoutes } from './routes/export.js';
import { importRoutes } from './routes/import.js';
import { orgRoutes } from './routes/org.js';
import { rollbackRoutes } from './routes/rollback.js';
import { webhookRoutes } from './routes/webhooks.js';
import { RenderedDocuments, renderOnCommit, type WrittenDocument } from './rendered-documents.js';
import { securityHeaders } from './security.js';

export interface WebDeps {
  readonly specs: SpecService;
  /** Change requests as people review and merge them. */
  readonly changeRequests: ChangeRequests;
  readonly control: ControlPlane;
  readonly config: Config;
  readonly auth: {
    readonly webSession: RequestHandler;
    readonly requireWebUser: RequestHandler;
    readonly grants: GrantAdmin;
  };
  readonly webhooks: WebhookActions;
  /** Registers for every commit this process makes or notices; returns the unsubscribe. */
  readonly commits: (listener: (written: WrittenDocument) => void) => () => void;
}

export interface WebApp {
  readonly router: express.Router;
  /** Stops following commits. */
  close(): void;
}

/** The web application for people: browse, search, review every change, roll back, connect an assistant. */
export function createWebApp(deps: WebDeps): WebApp {
  const router = express.Router();
  const rendered = new RenderedDocuments();
  const stopRendering = renderOnCommit(rendered, deps.commits);
  router.use(securityHeaders(deps.config.imgHosts));
  router.use(assetRoutes());
  router.use(deps.auth.webSession);
  // Before sign-in exists for them: the invited set their password here.
  router.use(inviteRoutes(deps));
  // Only real pages send a visitor to sign-in: a stray request (a favicon) must not start a
  // second sign-in that would replace the one in progress.
  router.get('/', deps.auth.requireWebUser);
  router.use('/o', deps.auth.requireWebUser);
  router.use(orgRoutes(deps));
  router.use(artifactRoutes({ ...deps, rendered }));
  router.use(rollbackRoutes(deps));
  router.use(editRoutes({ ...deps, rendered }));
  router.use(createRoutes(deps));
  router.use(deleteRoutes(deps));
  router.use(moveRoutes(deps));
  router.use(changeRequestRoutes(deps));
  router.use(importRoutes(deps));
  router.use(exportRoutes(deps));
  router.use(connectRoutes(deps));
  router.use(auditRoutes(deps));
  router.use(webhookRoutes(deps));
  router.use(memberRoutes(deps));
  router.use((req, res) =>
    sendHtml(res, errorPageFor(404, 'Not found', 'There is no page at this address.', req.user), 404),
  );
  router.use(webErrors);
  return { router, close: stopRendering };
}
