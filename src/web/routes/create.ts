import express, { type Request, type Response } from 'express';
import {
  childTypesOf,
  isArtifactType,
  REQUIREMENT_TYPES,
  type ArtifactType,
  type RequirementType,
} from '../../artifacts/index.js';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import type { SpecService } from '../../domain/types.js';
import { InvalidInputError, NotFoundError, PermissionDeniedError, type SpecbaseError } from '../../errors.js';
import { audited } from '../audit-trail.js';
import { orgContext, sendHtml, writesSomewhere } from '../context.js';
import { csrfToken } from '../security.js';
import { newChildPage, newPagePage } from '../views/create.js';
import { layout } from '../views/layout.js';
import { writableArtifactContext, type ArtifactContext } from './artifact-context.js';
import { field, refusedForgery, smallForm } from './form.js';

const isRequirementType = (value: string): value is RequirementType =>
  (REQUIREMENT_TYPES as readonly string[]).includes(value);

/** A problem the person can fix in the form is shown on it; anything else is an error page. */
const fixable = (error: unknown): error is SpecbaseError => error instanceof InvalidInputError;

/** New children where the hierarchy allows, new pages in folders and new folders; each opens in the editor. */
export function createRoutes(deps: { specs: SpecService; control: ControlPlane; config: Config }): express.Router {
  const { specs, control, config } = deps;
  const router = express.Router();

  function childType(ctx: ArtifactContext, value: unknown): ArtifactType {
    const allowed = childTypesOf(ctx.type).map((def) => def.type);
    if (!isArtifactType(value) || !allowed.includes(value)) throw new NotFoundError('kind of child');
    return value;
  }

  async function renderChildForm(
    req: Request,
    res: Response,
    ctx: ArtifactContext,
    type: ArtifactType,
    problem?: string,
  ) {
    const parent = await specs.read(ctx.actor, ctx.type, ctx.id);
    const page = newChildPage(ctx.org.id, parent, ctx.crumbs, type, csrfToken(req, res, config.baseUrl), problem);
    sendHtml(
      res,
      layout({ title: `New ${type.replace('_', ' ')}: ${parent.title}`, user: ctx.user, org: ctx.org }, page),
      problem ? 400 : 200,
    );
  }

  router.get('/o/:orgId/a/:id/new', async (req, res) => {
    const ctx = await writableArtifactContext(specs, control, req);
    await renderChildForm(req, res, ctx, childType(ctx, req.query.type));
  });

  router.post('/o/:orgId/a/:id/new', smallForm, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const ctx = await writableArtifactContext(specs, control, req);
    const type = childType(ctx, field(req, 'type'));
    const title = field(req, 'title').trim();
    const requirementType = field(req, 'requirementType');
    try {
      if (!title) throw new InvalidInputError('give it a title');
      const created = await audited(
        control,
        ctx,
        'web.create',
        null,
        () =>
          specs.create(ctx.actor, type, {
            parentId: ctx.id,
            title,
            ...(type === 'requirement' && isRequirementType(requirementType) ? { requirementType } : {}),
          }),
        (made) => ({ artifactId: made.id, commit: made.version }),
      );
      res.redirect(303, `/o/${ctx.org.id}/a/${created.id}/edit`);
    } catch (error) {
      if (fixable(error)) return renderChildForm(req, res, ctx, type, error.message);
      throw error;
    }
  });

  async function renderPageForm(req: Request, res: Response, folderId: string | undefined, problem?: string) {
    const ctx = await orgContext(control, req);
    if (!writesSomewhere(ctx))
      throw new PermissionDeniedError('permission denied: your role does not allow creating pages');
    const folders = await specs.listFolders(ctx.actor);
    const page = newPagePage(ctx.org.id, folders, folderId, csrfToken(req, res, config.baseUrl), problem);
    sendHtml(
      res,
      layout({ title: 'New page or folder', user: ctx.user, org: { ...ctx.org, section: 'home' } }, page),
      problem ? 400 : 200,
    );
  }

  router.get('/o/:orgId/pages/new', async (req, res) => {
    await renderPageForm(req, res, typeof req.query.folder === 'string' ? req.query.folder : undefined);
  });

  router.post('/o/:orgId/pages', smallForm, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const ctx = await orgContext(control, req);
    const folder = field(req, 'folder');
    const title = field(req, 'title').trim();
    try {
      if (!title) throw new InvalidInputError('give the page a title');
      const created = await audited(
        control,
        ctx,
        'web.create',
        null,
        () => specs.create(ctx.actor, 'page', { title, ...(folder ? { parentId: folder } : {}) }),
        (made) => ({ artifactId: made.id, commit: made.version }),
      );
      res.redirect(303, `/o/${ctx.org.id}/a/${created.id}/edit`);
    } catch (error) {
      if (fixable(error)) return renderPageForm(req, res, folder || undefined, error.message);
      throw error;
    }
  });

  router.post('/o/:orgId/folders', smallForm, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const ctx = await orgContext(control, req);
    const parent = field(req, 'parent');
    try {
      await audited(
        control,
        ctx,
        'web.create_folder',
        null,
        () =>
          specs.createFolder(ctx.actor, { name: field(req, 'name'), ...(parent ? { parentFolderId: parent } : {}) }),
        (folder) => ({ artifactId: folder.id }),
      );
      res.redirect(303, `/o/${ctx.org.id}#h-pages`);
    } catch (error) {
      if (fixable(error)) return renderPageForm(req, res, parent || undefined, error.message);
      throw error;
    }
  });

  return router;
}
