import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import type { Request, Response } from 'express';
import type { PushLimits } from '../config/index.js';
import type { ChangeRequests, PushToReceive, SpecService } from '../domain/index.js';
import { PushRefusedError } from '../errors.js';
import type { ReceivedPush } from '../store/types.js';
import type { AdmittedRequest, GitHttpDeps } from './admit-git-request.js';
import type { PushQuarantine } from './push-quarantine.js';
import { pushReport } from './push-report.js';
import { readPushRequest, StreamBytes, type PushRequest } from './push-request.js';
import { pushTargetOf } from './push-target.js';
import type { ReadyQuarantines } from './ready-quarantines.js';
import { recordPushAudit } from './record-push-audit.js';

/** What serving pushes needs beside what every Git request needs. */
export interface PushDeps {
  readonly specs: Pick<SpecService, 'receivePush'>;
  /** Pushes to change requests' branches (`cr/*`); without it they are refused. */
  readonly changeRequests?: Pick<ChangeRequests, 'receivePush'>;
  readonly limits: PushLimits;
  /** Whether git syncs the pushed objects to disk as it writes them, as the store's writes do. */
  readonly fsync: boolean;
}

type ServePushDeps = GitHttpDeps & { readonly push: PushDeps; readonly quarantines: ReadyQuarantines };

/** What became of a push: its pack not taken, refused, or landed. */
interface PushOutcome {
  /** Why the pack was not taken; null when it was (or none came). */
  readonly unpack: string | null;
  /** Why nothing moved; null when the push landed. */
  readonly refusal: readonly string[] | null;
  /** Told to the pusher when it landed (a change request opened). */
  readonly note?: string;
  readonly received?: ReceivedPush;
  /** The reason kept in the audit log when the service itself failed. */
  readonly failure?: string;
}

const REFUSED_HEADER = 'Specbase refused this push; nothing was changed:';
const CHECK_FAILED =
  'Specbase could not check this push; nothing was changed. Try again; if it persists, tell an administrator';
const SHALLOW =
  'a push from a shallow clone cannot be checked commit by commit: fetch the whole history (git fetch --unshallow), then push again';

/**
 * `git push`, received here rather than by `git receive-pack`: native git unpacks the pack into
 * a quarantine (see PushQuarantine; for a small pack, a git started when the advertisement was
 * asked for, see ReadyQuarantines), then the store judges every pushed commit and moves the
 * branch itself, under its lock, as it does for any write (see GitStore.receivePush).
 * receive-pack would first walk every tree of the branch's tip to check the pack's
 * connectivity: tens of milliseconds at 10,000 artifacts, growing with the repository. The
 * store's checks read every object the pushed commits add (their trees down each changed
 * path, and each changed file), so a pack missing one is refused all the same, at a cost that
 * follows the push rather than the repository.
 */
export async function servePush(
  deps: ServePushDeps,
  admitted: AdmittedRequest,
  req: Request,
  res: Response,
): Promise<void> {
  const started = Date.now();
  let input: Readable = req;
  if (/^(x-)?gzip$/i.test(req.get('content-encoding') ?? '')) {
    const gunzip = createGunzip();
    pipeline(req, gunzip).catch(() => undefined);
    input = gunzip;
  }
  const bytes = new StreamBytes(input);
  const request = await readPushRequest(bytes);
  if (request.commands.length === 0) {
    res.writeHead(200, { 'Content-Type': 'application/x-git-receive-pack-result' }).end();
    return;
  }
  const outcome = await receive(deps, admitted, request, bytes, req);
  // What is left of a pack not taken is not read: the connection closes once the answer is out.
  if (!req.complete) res.setHeader('Connection', 'close');
  res.writeHead(200, {
    'Cache-Control': 'no-cache, max-age=0, must-revalidate',
    'Content-Type': 'application/x-git-receive-pack-result',
  });
  const refusedAs = outcome.unpack !== null ? 'unpacker error' : 'refused by Specbase';
  res.end(
    pushReport(request.capabilities, {
      message: messageOf(outcome),
      unpack: outcome.unpack,
      refs: request.commands.map(({ ref }) => ({ ref, refused: outcome.refusal === null ? null : refusedAs })),
    }),
    () => {
      if (!req.complete) req.destroy();
    },
  );
  // Not waited for, as a tool call's row is not: the audit log batches rows and holds them through a database hiccup.
  void recordPushAudit(deps.control, {
    pusher: admitted.principal,
    orgId: admitted.orgId,
    client: req.get('user-agent'),
    durationMs: Date.now() - started,
    ...(outcome.received ? { received: outcome.received } : {}),
    failure: outcome.failure ?? outcome.refusal?.join('\n'),
  }).catch(() => undefined);
}

function messageOf(outcome: PushOutcome): string {
  if (outcome.unpack !== null) return `${outcome.unpack}\n`;
  if (outcome.refusal !== null) return `${REFUSED_HEADER}\n${outcome.refusal.map((line) => `  ${line}\n`).join('')}`;
  return outcome.note ? `${outcome.note}\n` : '';
}

/**
 * A pack of at most this many bytes, once wholly received, is unpacked while the branch is
 * being locked and its state caught up: git needs a moment for it, not the pusher's network.
 * git sends a body up to its `http.postBuffer` (1 MiB) in one piece, with its length.
 */
const SMALL_PACK_BYTES = 1024 * 1024;

/** Why git did not take the pack, raised where the store waits for it (see PushToLand.unpacked). */
class PackNotTaken extends Error {}

/**
 * Takes the pack into quarantine, has the push judged and landed, and drops the quarantine
 * whatever happened, while the answer goes out: nothing reads it once the push is judged. A
 * small pack wholly received is judged as soon as it is in hand: the store locks the branch
 * and catches up while git unpacks it, and waits for git before reading it (PushToLand.unpacked).
 */
async function receive(
  deps: ServePushDeps,
  admitted: AdmittedRequest,
  request: PushRequest,
  bytes: StreamBytes,
  req: Request,
): Promise<PushOutcome> {
  const { limits, fsync } = deps.push;
  const quarantine = await deps.quarantines.take(admitted.gitdir);
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(`the push took longer than ${limits.timeoutMs / 1000} s; nothing was changed`),
    limits.timeoutMs,
  );
  // A pusher gone mid-pack leaves git waiting for the rest: it is stopped at once, not at the time limit.
  const gone = () => {
    if (!req.complete) deadline.abort('the connection closed before the pack arrived; nothing was changed');
  };
  req.once('close', gone);
  const unpacking = request.sendsPack
    ? quarantine.unpack(bytes, limits, fsync, deadline.signal)
    : Promise.resolve(undefined);
  try {
    // A pack refused from its header, or none sent, leaves the request unread: it never ends.
    const early = await Promise.race([smallRequestReceived(req), unpacking.then(() => false)]);
    if (!early) {
      const unpack = await unpacking;
      if (unpack !== undefined) return { unpack, refusal: [unpack] };
    }
    return await judge(deps, admitted, request, quarantine, unpacking);
  } finally {
    req.off('close', gone);
    // A push may be refused before its pack is unpacked (a change request not open): the
    // quarantine goes once git is done with it, which the time limit still bounds.
    void unpacking
      .catch(() => undefined)
      .then(() => {
        clearTimeout(timer);
        return quarantine.discard();
      })
      .catch(() => undefined);
  }
}

/** True once the whole request is read, when it is small (see SMALL_PACK_BYTES); false when it is not, or when it closed first. */
function smallRequestReceived(req: Request): Promise<boolean> {
  if (!(Number(req.get('content-length')) <= SMALL_PACK_BYTES)) return Promise.resolve(false);
  if (req.readableEnded) return Promise.resolve(true);
  return new Promise((resolve) => {
    req.once('end', () => resolve(true));
    req.once('close', () => resolve(req.readableEnded));
  });
}

/** The refs a push names, checked against what may be pushed, then the one update handed to the store. */
async function judge(
  deps: GitHttpDeps & { readonly push: PushDeps },
  admitted: AdmittedRequest,
  request: PushRequest,
  quarantine: PushQuarantine,
  unpacking: Promise<string | undefined>,
): Promise<PushOutcome> {
  const refused = (refusal: readonly string[], failure?: string): PushOutcome => ({
    unpack: null,
    refusal,
    ...(failure ? { failure } : {}),
  });
  const { changeRequests } = deps.push;
  const targets = request.commands.map((command) => ({ command, target: pushTargetOf(command.ref) }));
  const refusals = targets.flatMap(({ command, target }) => {
    if (target.kind === 'refused') return [target.reason];
    return target.kind !== 'main' && !changeRequests
      ? [`${command.ref} cannot be pushed: this server takes pushes to main only`]
      : [];
  });
  if (refusals.length > 0) return refused(refusals);
  if (request.shallow.length > 0) return refused([SHALLOW]);
  if (targets.length !== 1) return refused(['a push updates one branch at a time']);
  const { command, target } = targets[0]!;
  let note: string | undefined;
  const taken = async () => {
    const unpack = await unpacking;
    if (unpack !== undefined) throw new PackNotTaken(unpack);
  };
  const push: PushToReceive = {
    update: { old: command.old, new: command.new },
    objects: quarantine.objects,
    // Judged from when git has written the objects; landed only once it said it took the pack.
    unpacked: async () => {
      await Promise.race([quarantine.written, taken()]);
    },
    accepted: (_commits, said) => (note = said),
    land: async () => {
      await taken();
      await quarantine.land(deps.push.fsync);
    },
  };
  const actor = { principal: admitted.principal, client: 'git' };
  try {
    const received =
      target.kind === 'changeRequest' && changeRequests
        ? await changeRequests.receivePush(actor, { number: target.number }, push)
        : target.kind === 'newChangeRequest' && changeRequests
          ? await changeRequests.receivePush(actor, { pushedRef: target.ref }, push)
          : await deps.push.specs.receivePush(actor, push);
    return { unpack: null, refusal: null, received, ...(note ? { note } : {}) };
  } catch (error) {
    // Objects read before git finished failing may be refused as missing: git's reason comes first.
    const unpack = error instanceof PackNotTaken ? error.message : await unpacking.catch(() => undefined);
    if (unpack !== undefined) return { unpack, refusal: [unpack] };
    if (error instanceof PushRefusedError) return refused(error.message.split('\n'));
    return refused([CHECK_FAILED], `${CHECK_FAILED} (${error instanceof Error ? error.message : String(error)})`);
  }
}
