import express, { type Request, type Response } from 'express';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import type { SpecService } from '../../domain/types.js';
import { InvalidInputError, NotFoundError, PermissionDeniedError } from '../../errors.js';
import { orgContext, sendHtml, type OrgContext } from '../context.js';
import { errorPageFor } from '../errors.js';
import { csrfProblem, csrfToken } from '../security.js';
import { audited } from '../audit-trail.js';
import { layout } from '../views/layout.js';
import { folderPage, moveArtifactPage, moveTargetParam } from '../views/move.js';
import { writableArtifactContext, type ArtifactContext } from './artifact-context.js';

const form = express.urlencoded({ extended: false, limit: '4kb' });
const field = (req: Request, name: string): unknown => (req.body as Record<string, unknown>)[name];

/** Move an artifact (a form of the places it may go), and the folder page with Rename, Move and Delete. */
export function moveRoutes(deps: { specs: SpecService; control: ControlPlane; config: Config }): express.Router {
  const { specs, control, config } = deps;
  const router = express.Router();

  async function showMove(req: Request, res: Response, ctx: ArtifactContext, problem?: string) {
    const [artifact, targets] = await Promise.all([
      specs.read(ctx.actor, ctx.type, ctx.id),
      specs.moveTargets(ctx.actor, ctx.id),
    ]);
    const page = moveArtifactPage(
      ctx.org.id,
      artifact,
      ctx.crumbs,
      targets,
      csrfToken(req, res, config.baseUrl),
      problem,
    );
    sendHtml(
      res,
      layout({ title: `Move: ${artifact.title}`, user: ctx.user, org: ctx.org }, page),
      problem ? 409 : 200,
    );
  }

  router.get('/o/:orgId/a/:id/move', async (req, res) => {
    await showMove(req, res, await writableArtifactContext(specs, control, req));
  });

  router.post('/o/:orgId/a/:id/move', form, async (req, res) => {
    const problem = csrfProblem(req, config.baseUrl);
    if (problem) return sendHtml(res, errorPageFor(403, 'Request refused', problem, req.user), 403);
    const ctx = await writableArtifactContext(specs, control, req);
    try {
      const move = () => specs.move(ctx.actor, ctx.id, moveTargetParam(field(req, 'to')));
      await audited(control, ctx, 'web.move', ctx.id, move, (done) => ({ commit: done.commit }));
    } catch (error) {
      if (error instanceof InvalidInputError) return showMove(req, res, ctx, error.message);
      throw error;
    }
    res.redirect(303, `/o/${ctx.org.id}/a/${ctx.id}?done=move`);
  });

  async function showFolder(req: Request, res: Response, ctx: OrgContext, id: string, problem?: string) {
    const folders = await specs.listFolders(ctx.actor);
    const folder = folders.find((f) => f.id === id.toLowerCase());
    if (!folder) throw new NotFoundError('folder');
    const [pages, targets] = await Promise.all([
      specs.listPages(ctx.actor, folder.id),
      specs.folderMoveTargets(ctx.actor, folder.id).catch((error: unknown) => {
        if (error instanceof PermissionDeniedError) return undefined;
        throw error;
      }),
    ]);
    const subfolders = folders.filter((f) => f.parentFolderId === folder.id);
    const page = folderPage(ctx.org.id, {
      folder,
      pages,
      subfolders,
      targets,
      csrf: csrfToken(req, res, config.baseUrl),
      ...(problem ? { problem } : {}),
    });
    sendHtml(
      res,
      layout({ title: folder.name, user: ctx.user, org: { ...ctx.org, section: 'home' } }, page),
      problem ? 409 : 200,
    );
  }

  router.get('/o/:orgId/folders/:id', async (req, res) => {
    await showFolder(req, res, await orgContext(control, req), String(req.params.id));
  });

  for (const verb of ['rename', 'move', 'delete'] as const) {
    router.post(`/o/:orgId/folders/:id/${verb}`, form, async (req, res) => {
      const problem = csrfProblem(req, config.baseUrl);
      if (problem) return sendHtml(res, errorPageFor(403, 'Request refused', problem, req.user), 403);
      const ctx = await orgContext(control, req);
      const id = String(req.params.id);
      try {
        const change = () =>
          verb === 'rename'
            ? specs.renameFolder(ctx.actor, id, String(field(req, 'name') ?? ''))
            : verb === 'move'
              ? specs.moveFolder(ctx.actor, id, moveTargetParam(field(req, 'to')))
              : specs.deleteFolder(ctx.actor, id);
        await audited(control, ctx, `web.folder.${verb}`, null, change, (done) => ({ commit: done.commit }));
      } catch (error) {
        if (error instanceof InvalidInputError) return showFolder(req, res, ctx, id, error.message);
        throw error;
      }
      res.redirect(303, verb === 'delete' ? `/o/${ctx.org.id}` : `/o/${ctx.org.id}/folders/${id}`);
    });
  }

  return router;
}
