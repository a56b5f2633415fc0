import { createGunzip } from 'node:zlib';
import type { Duplex } from 'node:stream';
import type { Request, Response } from 'express';
import type { PushLimits } from '../config/index.js';
import type { ChangeRequests, PushToReceive, SpecService } from '../domain/index.js';
import { PushRefusedError } from '../errors.js';
import type { ReceivedPush } from '../store/types.js';
import type { AdmittedRequest, GitHttpDeps } from './admit-git-request.js';
import { preReceiveHooks } from './pre-receive-hook.js';
import { pushTargetOf } from './push-target.js';
import { openVerdictChannel, type HookRequest, type Verdict } from './push-verdicts.js';
import { recordPushAudit } from './record-push-audit.js';
import { runReceivePack, type ReceivePackOutcome } from './run-receive-pack.js';

/** What serving pushes needs beside what every Git request needs. */
export interface PushDeps {
  readonly specs: Pick<SpecService, 'receivePush'>;
  /** Pushes to change requests' branches (`cr/*`); without it they are refused. */
  readonly changeRequests?: Pick<ChangeRequests, 'receivePush'>;
  /** Where this process writes its pre-receive hook (a directory among its caches). */
  readonly hooksDir: string;
  readonly limits: PushLimits;
  /** Whether git syncs the pushed objects and `main` to disk before answering, as the store's writes do. */
  readonly fsync: boolean;
}

const ZERO_OID = /^0{40}$/;
const REFUSED_HEADER = 'Specbase refused this push; nothing was changed:';
const CHECK_FAILED =
  'Specbase could not check this push; nothing was changed. Try again; if it persists, tell an administrator';

/** Git's report of a push, from `git receive-pack` with our pre-receive hook judging every commit. */
export async function servePush(
  deps: GitHttpDeps & { readonly push: PushDeps },
  admitted: AdmittedRequest,
  req: Request,
  res: Response,
): Promise<void> {
  const started = Date.now();
  const actor = { principal: admitted.principal, client: 'git' };
  let received: Promise<ReceivedPush> | undefined;
  let gitDone!: () => void;
  const gitExited = new Promise<void>((resolve) => (gitDone = resolve));
  const judge = (request: HookRequest): Promise<Verdict> => {
    const updates = request.updates
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' ') as [string, string, string]);
    const refusals = updates.flatMap(([, , ref]) => {
      const target = pushTargetOf(ref);
      if (target.kind !== 'refused' && target.kind !== 'main' && !deps.push.changeRequests) {
        return [`${ref} cannot be pushed: this server takes pushes to main only`];
      }
      return target.kind === 'refused' ? [target.reason] : [];
    });
    if (refusals.length > 0) return Promise.resolve(refusedVerdict(refusals));
    if (updates.length !== 1) return Promise.resolve(refusedVerdict(['a push updates one branch at a time']));
    const [old, next, ref] = updates[0]!;
    const target = pushTargetOf(ref);
    return new Promise((answer) => {
      const push: PushToReceive = {
        update: { old: ZERO_OID.test(old) ? null : old, new: ZERO_OID.test(next) ? null : next },
        objects: request.objects,
        accepted: (_commits, note) => answer({ ok: true, message: note ? `${note}\n` : '' }),
        landed: () => gitExited,
      };
      const changeRequests = deps.push.changeRequests;
      received =
        target.kind === 'changeRequest' && changeRequests
          ? changeRequests.receivePush(actor, { number: target.number }, push)
          : target.kind === 'newChangeRequest' && changeRequests
            ? changeRequests.receivePush(actor, { pushedRef: target.ref }, push)
            : deps.push.specs.receivePush(actor, push);
      received.catch((error: unknown) =>
        answer(
          error instanceof PushRefusedError
            ? refusedVerdict(error.message.split('\n'))
            : { ok: false, message: `${CHECK_FAILED}\n` },
        ),
      );
    });
  };
  const channel = await openVerdictChannel(judge);
  let outcome: ReceivePackOutcome;
  try {
    const hooksDir = await preReceiveHooks(deps.push.hooksDir);
    const stages: Duplex[] = /^(x-)?gzip$/i.test(req.get('content-encoding') ?? '') ? [createGunzip()] : [];
    res.writeHead(200, {
      'Cache-Control': 'no-cache, max-age=0, must-revalidate',
      'Content-Type': 'application/x-git-receive-pack-result',
    });
    outcome = await runReceivePack({
      gitdir: admitted.gitdir,
      gitProtocol: req.get('git-protocol'),
      hooksDir,
      hookEnv: channel.env,
      limits: deps.push.limits,
      fsync: deps.push.fsync,
      input: [req, ...stages],
      output: res,
    });
  } finally {
    gitDone();
    await channel.close();
  }
  // git's report ends only once the store has followed main and the webhooks have their events:
  // when `git push` returns, the push is read, searched and announced everywhere, as an edit is
  // when its tool call answers.
  const push = await received?.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
  res.end();
  // Not waited for, as a tool call's row is not: the audit log batches rows and holds them through a database hiccup.
  void recordPushAudit(deps.control, {
    pusher: admitted.principal,
    orgId: admitted.orgId,
    client: req.get('user-agent'),
    durationMs: Date.now() - started,
    ...(push && 'value' in push ? { received: push.value } : {}),
    failure:
      push && 'error' in push
        ? push.error instanceof PushRefusedError
          ? push.error.message
          : `${CHECK_FAILED} (${push.error instanceof Error ? push.error.message : String(push.error)})`
        : (outcome.stopped ?? (outcome.exitCode === 0 ? undefined : outcome.stderr || 'git receive-pack failed')),
  }).catch(() => undefined);
}

function refusedVerdict(reasons: readonly string[]): Verdict {
  return { ok: false, message: `${REFUSED_HEADER}\n${reasons.map((line) => `  ${line}\n`).join('')}` };
}
