import express, { type Request, type Response } from 'express';
import type { Config } from '../../config/index.js';
import type { ControlPlane } from '../../control/types.js';
import type { ImportSource, SpecService } from '../../domain/types.js';
import { InvalidInputError, NotFoundError, PermissionDeniedError } from '../../errors.js';
import { importSourceOf, importSourcesOfZip, importSummary, isMarkdown } from '../../transfer/index.js';
import { orgContext, sendHtml, writesSomewhere, type OrgContext } from '../context.js';
import { ImportJobs } from '../import-jobs.js';
import { csrfToken } from '../security.js';
import { readUpload, type Upload } from '../upload.js';
import { importCheckPage, importFormPage, importProgressPage, importResultPage } from '../views/import.js';
import { layout } from '../views/layout.js';
import { refusedForgery, smallForm } from './form.js';

/**
 * The files of an upload as the import takes them: a zip archive's markdown, or a folder's
 * files with the folder picked left out of their paths (as `specbase import DIR` reads DIR).
 */
function sourcesOf(upload: Upload, config: Config): ImportSource[] {
  const zip = upload.files.find((f) => /\.zip$/i.test(f.name));
  if (zip) return importSourcesOfZip(zip.bytes, config.limits.maxDocumentBytes, config.limits.maxImportBytes);
  const files = upload.files
    .map((f) => ({ ...f, name: f.name.replace(/\\/g, '/').replace(/^\/+/, '') }))
    .filter((f) => isMarkdown(f.name));
  const top = files[0]?.name.split('/')[0];
  const shared = top !== undefined && files.every((f) => f.name.startsWith(`${top}/`));
  return files
    .map((f) => importSourceOf(shared ? f.name.slice(top.length + 1) : f.name, f.bytes))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Import for editors: upload, a dry run to look at, then the import with its progress; same rules as the CLI. */
export function importRoutes(deps: { specs: SpecService; control: ControlPlane; config: Config }): express.Router {
  const { specs, control, config } = deps;
  const router = express.Router();
  const jobs = new ImportJobs();

  async function editorContext(req: Request): Promise<OrgContext> {
    const ctx = await orgContext(control, req);
    if (!writesSomewhere(ctx)) throw new PermissionDeniedError('permission denied: your role does not allow importing');
    return ctx;
  }

  async function renderForm(req: Request, res: Response, ctx: OrgContext, problem?: string) {
    const folders = await specs.listFolders(ctx.actor);
    const page = importFormPage(ctx.org.id, folders, csrfToken(req, res, config.baseUrl), problem);
    sendHtml(
      res,
      layout({ title: 'Import', user: ctx.user, org: { ...ctx.org, section: 'import' } }, page),
      problem ? 400 : 200,
    );
  }

  router.get('/o/:orgId/import', async (req, res) => {
    await renderForm(req, res, await editorContext(req));
  });

  router.post('/o/:orgId/import', async (req, res) => {
    const ctx = await editorContext(req);
    const upload = await readUpload(req, config.limits);
    req.body = upload.fields;
    if (refusedForgery(req, res, config.baseUrl)) return;
    const sources = sourcesOf(upload, config);
    if (sources.length === 0)
      return renderForm(req, res, ctx, 'Choose a folder or a .zip archive with markdown (.md) files in it.');
    const folderId = upload.fields.folder || undefined;
    let report;
    try {
      report = await specs.importFiles(ctx.actor, sources, { dryRun: true, ...(folderId ? { folderId } : {}) });
    } catch (error) {
      if (error instanceof NotFoundError || error instanceof InvalidInputError)
        return renderForm(req, res, ctx, error.message);
      throw error;
    }
    const token = jobs.hold(ctx.user.id, ctx.org.id, { state: 'checked', sources, ...(folderId ? { folderId } : {}) });
    const page = importCheckPage(ctx.org.id, token, report, csrfToken(req, res, config.baseUrl));
    sendHtml(res, layout({ title: 'Check the import', user: ctx.user, org: { ...ctx.org, section: 'import' } }, page));
  });

  router.post('/o/:orgId/import/:token', smallForm, async (req, res) => {
    if (refusedForgery(req, res, config.baseUrl)) return;
    const ctx = await editorContext(req);
    const token = String(req.params.token);
    const started = jobs.start(token, ctx.user.id, ctx.org.id, async (job, progress) => {
      const began = performance.now();
      const report = await specs.importFiles(ctx.actor, job.sources, {
        dryRun: false,
        ...(job.folderId ? { folderId: job.folderId } : {}),
        onProgress: progress,
      });
      await control.audit.record({
        kind: 'web',
        userId: ctx.user.id,
        orgId: ctx.org.id,
        action: 'web.import',
        artifactId: null,
        commit: null,
        client: 'web',
        durationMs: performance.now() - began,
        outcome: 'ok',
        detail: importSummary(report),
      });
      return report;
    });
    if (!started && !jobs.get(token, ctx.user.id, ctx.org.id)) throw new NotFoundError('import');
    res.redirect(303, `/o/${ctx.org.id}/import/${token}`);
  });

  router.get('/o/:orgId/import/:token', async (req, res) => {
    const ctx = await editorContext(req);
    const job = jobs.get(String(req.params.token), ctx.user.id, ctx.org.id);
    if (!job || job.state === 'checked') throw new NotFoundError('import');
    if (job.state === 'failed') throw new InvalidInputError(`The import stopped: ${job.message}`);
    const page =
      job.state === 'running'
        ? importProgressPage(ctx.org.id, job.done, job.total)
        : importResultPage(ctx.org.id, job.report);
    sendHtml(
      res,
      layout(
        {
          title: job.state === 'running' ? 'Importing' : 'Import done',
          user: ctx.user,
          org: { ...ctx.org, section: 'import' },
        },
        page,
      ),
    );
  });

  return router;
}
