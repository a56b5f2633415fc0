import express, { type Response } from 'express';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ControlPlane } from '../../control/types.js';
import type { ExportFile, ExportSelection, SpecService } from '../../domain/types.js';
import { slugify } from '../../artifacts/index.js';
import { zipChunks } from '../../transfer/index.js';
import { orgContext, type OrgContext } from '../context.js';

/**
 * Downloads as a zip of markdown: the whole organization, an artifact with its subtree, or a
 * folder, as the person may read them. The first file is read before the headers go out, so
 * a missing or unreadable start is the usual error page; the rest streams, one file at a time.
 */
export function exportRoutes(deps: { specs: SpecService; control: ControlPlane }): express.Router {
  const { specs, control } = deps;
  const router = express.Router();

  async function send(res: Response, ctx: OrgContext, selection: ExportSelection, name: string) {
    const files = specs.exportFiles(ctx.actor, selection);
    const first = await files.next();
    async function* all(): AsyncGenerator<ExportFile> {
      if (first.done) return;
      yield first.value;
      yield* files;
    }
    res.status(200).set({
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${slugify(name) || 'export'}.zip"`,
      'Cache-Control': 'no-store',
    });
    await pipeline(Readable.from(zipChunks(all())), res);
    await control.audit.record({
      kind: 'web',
      userId: ctx.user.id,
      orgId: ctx.org.id,
      action: 'web.export',
      artifactId: 'artifactId' in selection ? selection.artifactId : null,
      commit: null,
      client: 'web',
      durationMs: null,
      outcome: 'ok',
      detail: 'folderId' in selection ? `folder ${selection.folderId}` : null,
    });
  }

  router.get('/o/:orgId/export', async (req, res) => {
    const ctx = await orgContext(control, req);
    await send(res, ctx, { all: true }, ctx.org.name);
  });

  router.get('/o/:orgId/a/:id/export', async (req, res) => {
    const ctx = await orgContext(control, req);
    const artifact = await specs.readAny(ctx.actor, String(req.params.id));
    await send(res, ctx, { artifactId: artifact.id }, artifact.title);
  });

  router.get('/o/:orgId/folders/:id/export', async (req, res) => {
    const ctx = await orgContext(control, req);
    const folder = (await specs.listFolders(ctx.actor)).find((f) => f.id === String(req.params.id).toLowerCase());
    await send(res, ctx, { folderId: folder?.id ?? String(req.params.id) }, folder?.name ?? 'folder');
  });

  return router;
}
