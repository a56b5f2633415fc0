import { createGunzip } from 'node:zlib';
import type { Duplex } from 'node:stream';
import { Router, type Request, type Response } from 'express';
import { admitGitRequest, type GitHttpDeps } from './admit-git-request.js';
import { observeUploadPack } from './observe-upload-pack.js';
import { FLUSH_PKT, pktLine } from './pkt-line.js';
import { recordGitAudit } from './record-git-audit.js';
import { runUploadPack } from './run-upload-pack.js';
import { gitErrorHandler, sendText } from './send-git-error.js';

const READ_ONLY = 'read-only: Specbase repositories change only through Specbase';

const NO_CACHE = {
  'Cache-Control': 'no-cache, max-age=0, must-revalidate',
  Pragma: 'no-cache',
  Expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
} as const;

/**
 * Read-only Git smart HTTP, mounted at `/git`: `git clone {base}/git/{orgId}.git` with a
 * personal access token as the password. Served by the system `git upload-pack`, protocol
 * v0 and v2; pushes are refused before credentials are asked for.
 */
export function createGitHttpRouter(deps: GitHttpDeps): Router {
  const router = Router();

  router.get('/:repo/info/refs', async (req, res) => {
    const service = req.query.service;
    if (service === 'git-receive-pack') return sendText(res, 403, READ_ONLY);
    if (service !== 'git-upload-pack') {
      return sendText(res, 403, 'only the smart HTTP protocol is served; use git 1.6.6 or newer');
    }
    const { gitdir } = await admitGitRequest(deps, req);
    const gitProtocol = req.get('git-protocol');
    res.writeHead(200, { ...NO_CACHE, 'Content-Type': 'application/x-git-upload-pack-advertisement' });
    // A v2 advertisement begins with "version 2" itself; v0 clients expect the service line first.
    if (!speaksV2(gitProtocol)) res.write(Buffer.concat([pktLine('# service=git-upload-pack\n'), FLUSH_PKT]));
    await runUploadPack({ gitdir, advertiseRefs: true, gitProtocol, output: res });
  });

  router.post('/:repo/git-upload-pack', async (req, res) => {
    const { orgId, gitdir, principal } = await admitGitRequest(deps, req);
    if (!req.is('application/x-git-upload-pack-request')) {
      return sendText(res, 415, 'expected Content-Type application/x-git-upload-pack-request');
    }
    const started = Date.now();
    const observed = observeUploadPack();
    const stages: Duplex[] = isGzip(req) ? [createGunzip(), observed.request] : [observed.request];
    res.writeHead(200, { ...NO_CACHE, 'Content-Type': 'application/x-git-upload-pack-result' });
    const outcome = await runUploadPack({
      gitdir,
      advertiseRefs: false,
      gitProtocol: req.get('git-protocol'),
      input: [req, ...stages],
      outputTap: observed.response,
      output: res,
    });
    const { summary } = observed;
    if (summary.firstWant === undefined || (!summary.sentPack && outcome.exitCode === 0)) return;
    const ok = outcome.exitCode === 0;
    await recordGitAudit(deps.control, {
      userId: principal.userId,
      orgId,
      action: summary.hasHaves ? 'fetch' : 'clone',
      commit: summary.firstWant,
      client: req.get('user-agent'),
      durationMs: Date.now() - started,
      outcome: ok ? 'ok' : 'error',
      ...(ok ? {} : { detail: outcome.stderr || `git upload-pack exited with ${outcome.exitCode}` }),
    });
  });

  router.post('/:repo/git-receive-pack', (_req: Request, res: Response) => sendText(res, 403, READ_ONLY));

  router.use(gitErrorHandler(deps.realm ?? 'Specbase'));
  return router;
}

function speaksV2(gitProtocol: string | undefined): boolean {
  return (gitProtocol ?? '').split(':').includes('version=2');
}

function isGzip(req: Request): boolean {
  return /^(x-)?gzip$/i.test(req.get('content-encoding') ?? '');
}
