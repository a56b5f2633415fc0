import express, { type Request, type Response } from 'express';
import { MergeConflictError, type MergeConflict } from '../../../errors.js';
import { unifiedDiffOffLoop } from '../../../patch/index.js';
import { audited } from '../../audit-trail.js';
import { orgContext, sendHtml, type OrgContext } from '../../context.js';
import { withoutFrontmatter } from '../../markdown.js';
import { renderMarkdownOffLoop } from '../../markdown-thread.js';
import { partsMarkup } from '../../rendered-documents.js';
import { csrfToken } from '../../security.js';
import { resolvePage, type ConflictToResolve } from '../../views/change-requests/resolve.js';
import { shortCommit } from '../../views/format.js';
import { layout } from '../../views/layout.js';
import { documentForm, field, refusedForgery } from '../form.js';
import { numberParam, type ChangeRequestRouteDeps } from './deps.js';

/** Whole documents a resolve form may carry, which sizes its body's limit. */
const RESOLVED_DOCUMENTS = 8;

/** The person's text for each conflicted file, by path, as the resolve form sends it (`path-0`, `file-0`, …). */
function resolutionsOf(req: Request): Map<string, string> {
  const resolutions = new Map<string, string>();
  for (let i = 0; ; i++) {
    const path = field(req, `path-${i}`);
    if (!path) break;
    // Browsers send textarea text with CRLF line breaks; files keep LF.
    resolutions.set(path, field(req, `file-${i}`).replace(/\r\n?/g, '\n'));
  }
  return resolutions;
}

const commitField = (value: string): string | undefined => (/^[0-9a-f]{40}$/.test(value) ? value : undefined);

/** Why the conflicts are shown again, when the person had resolved them. */
function problemOf(error: MergeConflictError, resolvedOn: string | undefined): string | undefined {
  if (resolvedOn && resolvedOn !== error.mainCommit)
    return `Main changed again while you resolved (it is at ${shortCommit(error.mainCommit)} now): the conflicts are shown again against it.`;
  const refused = error.conflicts.filter((c) => c.refused);
  if (refused.length === 0) return undefined;
  return refused.map((c) => `${c.title ?? c.path}: ${c.refused}.`).join(' ');
}

async function toResolve(conflict: MergeConflict, text: string): Promise<ConflictToResolve> {
  const [mainChange, proposedChange, preview] = await Promise.all([
    unifiedDiffOffLoop(conflict.base ?? '', conflict.main ?? '', conflict.path),
    unifiedDiffOffLoop(conflict.base ?? '', conflict.proposed ?? '', conflict.path),
    renderMarkdownOffLoop(withoutFrontmatter(text)),
  ]);
  return { conflict, mainChange, proposedChange, text, preview: partsMarkup(preview) };
}

/**
 * Merge: onto main at once when nothing conflicts; otherwise the conflicts in the editor, and
 * the person's resolutions sent back with the main they were written against, so that a main
 * that moved meanwhile shows them again rather than being overwritten.
 */
export function mergeRoutes(deps: ChangeRequestRouteDeps): express.Router {
  const { control, config, changeRequests } = deps;
  const router = express.Router();
  const form = documentForm(config.limits.maxDocumentBytes * RESOLVED_DOCUMENTS);

  async function showConflicts(
    req: Request,
    res: Response,
    ctx: OrgContext,
    number: number,
    error: MergeConflictError,
    sent: { resolutions: ReadonlyMap<string, string>; resolvedOn: string | undefined },
  ) {
    const cr = await changeRequests.summary(ctx.actor, number);
    // The person's own text stays in the editor while main is where they wrote it.
    const kept = sent.resolvedOn === error.mainCommit ? sent.resolutions : new Map<string, string>();
    const files = await Promise.all(error.conflicts.map((c) => toResolve(c, kept.get(c.path) ?? c.withMarkers)));
    const problem = problemOf(error, sent.resolvedOn);
    const page = resolvePage({
      orgId: ctx.org.id,
      number,
      title: cr.title,
      mainCommit: error.mainCommit,
      files,
      csrf: csrfToken(req, res, config.baseUrl),
      ...(problem ? { problem } : {}),
    });
    const chrome = {
      title: `Resolve conflicts: ${cr.title}`,
      user: ctx.user,
      org: { ...ctx.org, section: 'change-requests' as const },
    };
    sendHtml(res, layout(chrome, page), 409);
  }

  router.post('/o/:orgId/cr/:number/merge', form, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const ctx = await orgContext(control, req);
    const number = numberParam(req);
    const resolvedOn = commitField(field(req, 'resolvedOn'));
    // Resolutions count only with the main they were written against: without it they could undo its later changes.
    const resolutions = resolvedOn ? resolutionsOf(req) : new Map<string, string>();
    try {
      await audited(
        control,
        ctx,
        'web.change_request.merge',
        null,
        () => changeRequests.merge(ctx.actor, number, resolutions.size > 0 ? resolutions : undefined, resolvedOn),
        (merged) => ({
          commit: merged.commit,
          detail: `merged change request ${number} (${merged.kind === 'merge' ? 'a merge commit' : 'fast-forward'}${
            resolutions.size > 0 ? `, ${resolutions.size} file${resolutions.size === 1 ? '' : 's'} resolved` : ''
          })`,
        }),
      );
    } catch (error) {
      if (error instanceof MergeConflictError)
        return showConflicts(req, res, ctx, number, error, { resolutions, resolvedOn });
      throw error;
    }
    res.redirect(303, `/o/${ctx.org.id}/cr/${number}?done=merged`);
  });

  return router;
}
