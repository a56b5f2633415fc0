import express, { type Request, type Response } from 'express';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import type { SpecService } from '../../domain/types.js';
import { ConflictError } from '../../errors.js';
import { sendHtml } from '../context.js';
import { errorPageFor } from '../errors.js';
import { audited } from '../audit-trail.js';
import { csrfProblem, csrfToken } from '../security.js';
import { layout } from '../views/layout.js';
import { confirmPage, type RollbackKind } from '../views/rollback.js';
import { commitParam, writableArtifactContext, type ArtifactContext } from './artifact-context.js';

const form = express.urlencoded({ extended: false, limit: '4kb' });

/** "Revert this change" and "Restore this version": a confirmation page, then a CSRF-protected POST. */
export function rollbackRoutes(deps: { specs: SpecService; control: ControlPlane; config: Config }): express.Router {
  const { specs, control, config } = deps;
  const router = express.Router();

  const writableContext = (req: Request) => writableArtifactContext(specs, control, req);

  async function confirm(
    req: Request,
    res: Response,
    ctx: ArtifactContext,
    kind: RollbackKind,
    commit: string,
    problem?: string,
  ) {
    const [artifact, change] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id),
      specs.change(ctx.actor, ctx.id, commit),
    ]);
    const preview = kind === 'revert' ? change.diff : await specs.compare(ctx.actor, ctx.id, artifact.version, commit);
    const page = confirmPage(
      ctx.org.id,
      artifact,
      ctx.crumbs,
      kind,
      change,
      preview,
      csrfToken(req, res, config.baseUrl),
      problem,
    );
    const heading = kind === 'revert' ? 'Revert a change' : 'Restore a version';
    sendHtml(
      res,
      layout({ title: `${heading}: ${artifact.title}`, user: ctx.user, org: ctx.org }, page),
      problem ? 409 : 200,
    );
  }

  for (const kind of ['revert', 'restore'] as const) {
    router.get(`/o/:orgId/a/:id/${kind}`, async (req, res) => {
      const ctx = await writableContext(req);
      await confirm(req, res, ctx, kind, commitParam(req.query.commit));
    });

    router.post(`/o/:orgId/a/:id/${kind}`, form, async (req, res) => {
      const problem = csrfProblem(req, config.baseUrl);
      if (problem) return sendHtml(res, errorPageFor(403, 'Request refused', problem, req.user), 403);
      const ctx = await writableContext(req);
      const commit = commitParam((req.body as Record<string, unknown>).commit);
      try {
        await audited(
          control,
          ctx,
          `web.${kind}`,
          ctx.id,
          () =>
            kind === 'revert' ? specs.revert(ctx.actor, ctx.id, commit) : specs.restore(ctx.actor, ctx.id, commit),
          (done) => ({ commit: done.version }),
        );
      } catch (error) {
        if (error instanceof ConflictError) return confirm(req, res, ctx, kind, commit, error.message);
        throw error;
      }
      res.redirect(303, `/o/${ctx.org.id}/a/${ctx.id}?done=${kind}`);
    });
  }

  return router;
}
