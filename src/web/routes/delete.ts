import express, { type Request, type Response } from 'express';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import type { SpecService } from '../../domain/types.js';
import { InvalidInputError } from '../../errors.js';
import { isUuid } from '../../ids.js';
import { orgContext, sendHtml, type OrgContext } from '../context.js';
import { errorPageFor } from '../errors.js';
import { csrfProblem, csrfToken } from '../security.js';
import { deleteConfirmPage, deletedPage } from '../views/delete.js';
import { layout } from '../views/layout.js';
import { audited } from '../audit-trail.js';
import { writableArtifactContext } from './artifact-context.js';

const form = express.urlencoded({ extended: false, limit: '4kb' });

/** Delete (a confirmation listing what goes with it, then a POST) and the Deleted page with Restore. */
export function deleteRoutes(deps: { specs: SpecService; control: ControlPlane; config: Config }): express.Router {
  const { specs, control, config } = deps;
  const router = express.Router();

  async function showDeleted(req: Request, res: Response, ctx: OrgContext, problem?: string) {
    const deleted = await specs.listDeleted(ctx.actor);
    const page = deletedPage(ctx.org.id, deleted, csrfToken(req, res, config.baseUrl), problem);
    sendHtml(
      res,
      layout({ title: 'Deleted', user: ctx.user, org: { ...ctx.org, section: 'deleted' } }, page),
      problem ? 409 : 200,
    );
  }

  router.get('/o/:orgId/a/:id/delete', async (req, res) => {
    const ctx = await writableArtifactContext(specs, control, req);
    const preview = await specs.deletePreview(ctx.actor, ctx.id);
    const page = deleteConfirmPage(ctx.org.id, preview, ctx.crumbs, csrfToken(req, res, config.baseUrl));
    sendHtml(res, layout({ title: `Delete: ${preview.artifact.title}`, user: ctx.user, org: ctx.org }, page));
  });

  router.post('/o/:orgId/a/:id/delete', form, async (req, res) => {
    const problem = csrfProblem(req, config.baseUrl);
    if (problem) return sendHtml(res, errorPageFor(403, 'Request refused', problem, req.user), 403);
    const ctx = await writableArtifactContext(specs, control, req);
    // The confirmation listed the descendants: if more were added since, the person confirms again.
    const confirmed = Number((req.body as Record<string, unknown>).descendants ?? 0);
    const preview = await specs.deletePreview(ctx.actor, ctx.id);
    if (preview.descendants.length !== confirmed) return res.redirect(303, `/o/${ctx.org.id}/a/${ctx.id}/delete`);
    await audited(
      control,
      ctx,
      'web.delete',
      ctx.id,
      () => specs.delete(ctx.actor, ctx.id, { recursive: confirmed > 0 }),
      (done) => ({ commit: done.commit }),
    );
    res.redirect(303, `/o/${ctx.org.id}/deleted`);
  });

  router.get('/o/:orgId/deleted', async (req, res) => {
    await showDeleted(req, res, await orgContext(control, req));
  });

  router.post('/o/:orgId/deleted/:id/restore', form, async (req, res) => {
    const problem = csrfProblem(req, config.baseUrl);
    if (problem) return sendHtml(res, errorPageFor(403, 'Request refused', problem, req.user), 403);
    const ctx = await orgContext(control, req);
    const id = String(req.params.id ?? '').toLowerCase();
    try {
      const restore = () => specs.restoreDeleted(ctx.actor, isUuid(id) ? id : '');
      await audited(control, ctx, 'web.restore_deleted', isUuid(id) ? id : null, restore, (done) => ({
        commit: done.commit,
      }));
    } catch (error) {
      if (error instanceof InvalidInputError) return showDeleted(req, res, ctx, error.message);
      throw error;
    }
    res.redirect(303, `/o/${ctx.org.id}/a/${id}?done=undelete`);
  });

  return router;
}
