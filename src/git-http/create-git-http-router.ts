import { createGunzip } from 'node:zlib';
import type { Duplex } from 'node:stream';
import { Router, type Request } from 'express';
import { PermissionDeniedError } from '../errors.js';
import { pushAdvertisement } from './advertise-push.js';
import { admitGitRequest, type AdmittedRequest, type GitHttpDeps } from './admit-git-request.js';
import { authorizePush } from './authorize-push.js';
import { observeUploadPack } from './observe-upload-pack.js';
import { FLUSH_PKT, pktLine } from './pkt-line.js';
import { recordGitAudit } from './record-git-audit.js';
import { runUploadPack } from './run-upload-pack.js';
import { gitErrorHandler, sendText } from './send-git-error.js';
import { ReadyQuarantines } from './ready-quarantines.js';
import { servePush, type PushDeps } from './serve-push.js';

export interface GitHttpRouterDeps extends GitHttpDeps {
  readonly push: PushDeps;
}

const NO_CACHE = {
  'Cache-Control': 'no-cache, max-age=0, must-revalidate',
  Pragma: 'no-cache',
  Expires: 'Fri, 01 Jan 1980 00:00:00 GMT',
} as const;

/**
 * Git smart HTTP, mounted at `/git`: `git clone {base}/git/{orgId}.git` with a personal access
 * token as the password, served by the system `git upload-pack` (protocol v0 and v2), and
 * `git push` to `main` or a change request's branch by an editor (v0 and v1: git has no v2
 * push), every pushed commit judged by the store before the branch moves (serve-push.ts).
 */
export function createGitHttpRouter(deps: GitHttpRouterDeps): { router: Router; close(): Promise<void> } {
  const router = Router();
  const quarantines = new ReadyQuarantines(deps.push.limits);

  /** A pusher who may change no workspace is refused before sending anything, in a sentence git shows. */
  const admitPush = async (req: Request): Promise<AdmittedRequest> => {
    const admitted = await admitGitRequest(deps, req);
    try {
      await authorizePush(deps.control, admitted.principal);
    } catch (error) {
      if (error instanceof PermissionDeniedError) {
        await recordGitAudit(deps.control, {
          userId: admitted.principal.userId,
          orgId: admitted.orgId,
          action: 'push',
          client: req.get('user-agent'),
          outcome: 'error',
          detail: error.message,
        });
      }
      throw error;
    }
    return admitted;
  };

  router.get('/:repo/info/refs', async (req, res) => {
    const service = req.query.service;
    if (service === 'git-receive-pack') {
      const { gitdir } = await admitPush(req);
      quarantines.prepare(gitdir);
      const refs = pushAdvertisement(gitdir);
      res.writeHead(200, { ...NO_CACHE, 'Content-Type': 'application/x-git-receive-pack-advertisement' });
      res.end(Buffer.concat([pktLine('# service=git-receive-pack\n'), FLUSH_PKT, refs]));
      return;
    }
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

  router.post('/:repo/git-receive-pack', async (req, res) => {
    const admitted = await admitPush(req);
    if (!req.is('application/x-git-receive-pack-request')) {
      return sendText(res, 415, 'expected Content-Type application/x-git-receive-pack-request');
    }
    await servePush({ ...deps, quarantines }, admitted, req, res);
  });

  router.use(gitErrorHandler(deps.realm ?? 'Specbase'));
  return { router, close: () => quarantines.close() };
}

function speaksV2(gitProtocol: string | undefined): boolean {
  return (gitProtocol ?? '').split(':').includes('version=2');
}

function isGzip(req: Request): boolean {
  return /^(x-)?gzip$/i.test(req.get('content-encoding') ?? '');
}
