import express, { type Request, type Response } from 'express';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import { editConflictOf } from '../../domain/index.js';
import type { ArtifactView, SpecService } from '../../domain/types.js';
import { artifactType } from '../../artifacts/index.js';
import { InvalidInputError, PayloadTooLargeError, storageFailureOf } from '../../errors.js';
import { orgContext, sendHtml } from '../context.js';
import { html } from '../html.js';
import { renderMarkdown, withoutFrontmatter, withoutTitleHeading } from '../markdown.js';
import { renderMarkdownOffLoop } from '../markdown-thread.js';
import { pageKey, partsMarkup, renderTiming, type RenderedDocuments } from '../rendered-documents.js';
import { csrfProblem, csrfToken } from '../security.js';
import { editorPage, type EditorState } from '../views/editor.js';
import { typeName } from '../views/format.js';
import { layout } from '../views/layout.js';
import { commitParam, writableArtifactContext, type ArtifactContext } from './artifact-context.js';
import { audited } from '../audit-trail.js';
import { documentForm, field, refusedForgery } from './form.js';

/** The web editor: markdown with a live preview, saved as one commit guarded by the version it opened. */
export function editRoutes(deps: {
  specs: SpecService;
  control: ControlPlane;
  config: Config;
  rendered: RenderedDocuments;
}): express.Router {
  const { specs, control, config, rendered } = deps;
  const router = express.Router();
  const form = documentForm(config.limits.maxDocumentBytes);

  async function writableContext(req: Request): Promise<ArtifactContext> {
    const ctx = await writableArtifactContext(specs, control, req);
    if (!artifactType(ctx.type).editable)
      throw new InvalidInputError(`the ${typeName(ctx.type).toLowerCase()} is not edited here`);
    return ctx;
  }

  async function render(req: Request, res: Response, ctx: ArtifactContext, state: Partial<EditorState>, status = 200) {
    const artifact = await specs.read(ctx.actor, ctx.type, ctx.id, 'full');
    const full: EditorState = { text: artifact.content, baseVersion: artifact.version, summary: '', ...state };
    const preview = state.text === undefined ? await storedPreview(ctx, artifact) : await typedPreview(full.text);
    res.set('Server-Timing', renderTiming(preview.from));
    const page = editorPage(
      ctx.org.id,
      artifact,
      ctx.crumbs,
      full,
      csrfToken(req, res, config.baseUrl),
      preview.markup,
    );
    sendHtml(res, layout({ title: `Edit: ${artifact.title}`, user: ctx.user, org: ctx.org }, page), status);
  }

  /**
   * The stored version's preview is its page's rendering (kept per version) under its title
   * heading: opening the editor after reading the page renders nothing again.
   */
  async function storedPreview(ctx: ArtifactContext, artifact: ArtifactView) {
    const body = withoutTitleHeading(artifact.content, artifact.title);
    const page = await rendered.html(pageKey(ctx.org.id, artifact.id, artifact.version), body);
    const heading = renderMarkdown(artifact.content.slice(0, artifact.content.length - body.length));
    return { markup: html`${heading}${page.markup}`, from: page.from };
  }

  /** Text typed and sent back (a refused save) is no version: rendered once, off the event loop. */
  const typedPreview = async (text: string) => ({
    markup: partsMarkup(await renderMarkdownOffLoop(text)),
    from: 'rendered' as const,
  });

  router.get('/o/:orgId/a/:id/edit', async (req, res) => {
    await render(req, res, await writableContext(req), {});
  });

  router.post('/o/:orgId/a/:id/edit', form, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const ctx = await writableContext(req);
    const body = field(req, 'body');
    const summary = field(req, 'summary');
    const baseVersion = commitParam(field(req, 'baseVersion'));
    try {
      // The page this redirects to started rendering when the version was committed (renderOnCommit).
      await audited(
        control,
        ctx,
        'web.edit',
        ctx.id,
        () => specs.save(ctx.actor, ctx.type, ctx.id, { body, baseVersion, summary }),
        (saved) => ({ commit: saved.version }),
      );
    } catch (error) {
      const conflict = editConflictOf(error);
      if (conflict)
        return render(
          req,
          res,
          ctx,
          { text: conflict.withMarkers, baseVersion: conflict.currentVersion, summary, conflict },
          409,
        );
      if (error instanceof InvalidInputError || error instanceof PayloadTooLargeError) {
        return render(
          req,
          res,
          ctx,
          { text: body.replace(/\r\n?/g, '\n'), baseVersion, summary, problem: error.message },
          400,
        );
      }
      // The disk refused the write: the person keeps their text, to save again once it is back.
      const storage = storageFailureOf(error);
      if (storage)
        return render(
          req,
          res,
          ctx,
          { text: body.replace(/\r\n?/g, '\n'), baseVersion, summary, problem: storage.message },
          503,
        );
      throw error;
    }
    res.redirect(303, `/o/${ctx.org.id}/a/${ctx.id}?done=edit`);
  });

  // The live preview: the same sanitized renderer as the page itself, for members of the organization;
  // a whole repository file (a merge's conflict) is previewed without its frontmatter.
  router.post('/o/:orgId/preview', form, async (req, res) => {
    const problem = csrfProblem(req, config.baseUrl);
    if (problem) return res.status(403).type('text').send(problem);
    await orgContext(control, req);
    const body = field(req, 'body');
    const parts = await renderMarkdownOffLoop(req.query.frontmatter === 'skip' ? withoutFrontmatter(body) : body);
    res.status(200).type('html').set('Cache-Control', 'no-store').send(partsMarkup(parts).toString());
  });

  return router;
}
