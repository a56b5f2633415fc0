import type { Duplex, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { PushLimits } from '../config/index.js';
import { gitEnvironment, launcher } from '../launcher/index.js';
import { pktLine } from './pkt-line.js';
import { watchPackHeader } from './watch-pack-header.js';

export interface ReceivePackOutcome {
  readonly exitCode: number | null;
  readonly stderr: string;
  /** Why the service stopped git (a limit), when it did. */
  readonly stopped?: string;
}

const STDERR_KEEP_CHARS = 4096;
/** git waits this long for `main.lock` (a write of the store, another replica's) instead of failing at once. */
const REF_LOCK_TIMEOUT_MS = 15_000;
const GIT_PROTOCOL_VALUE = /^[A-Za-z0-9._=:-]{1,256}$/;

/**
 * How git receives a push here. The pre-receive hook judges every pushed commit; behind it, git
 * itself refuses a rewind or a deletion of a ref, fsck-checks the objects, bounds the pack, and
 * never runs `gc --auto` (which could pack `main` away from the loose ref file the store watches).
 */
function receiveConfig(hooksDir: string, limits: PushLimits, fsync: boolean): string[] {
  const settings = [
    `core.hooksPath=${hooksDir}`,
    'receive.denyNonFastForwards=true',
    'receive.denyDeletes=true',
    'receive.fsckObjects=true',
    'receive.autogc=false',
    `receive.maxInputSize=${limits.maxPackBytes}`,
    `core.filesRefLockTimeout=${REF_LOCK_TIMEOUT_MS}`,
    ...(fsync ? ['core.fsync=objects,reference', 'core.fsyncMethod=fsync'] : []),
  ];
  return settings.flatMap((setting) => ['-c', setting]);
}

/** The advertisement of `git receive-pack`: refs and capabilities (protocol v0/v1: git has no v2 push). */
export async function advertiseReceivePack(options: {
  gitdir: string;
  gitProtocol: string | undefined;
  output: Writable;
}): Promise<void> {
  const child = launcher.launch('git', ['receive-pack', '--stateless-rpc', '--advertise-refs', options.gitdir], {
    env: gitEnvironment(protocolEnv(options.gitProtocol)),
  });
  child.stdin.end();
  await Promise.all([
    new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('close', resolve);
    }),
    pipeline(child.stdout, options.output),
  ]);
}

/**
 * Runs `git receive-pack --stateless-rpc` for one push: the request body (through `input`) in,
 * git's report out (`output` is not ended). Past the object limit (read from the pack header) or the time limit, git is
 * stopped and the pusher told why on git's error channel.
 */
export async function runReceivePack(options: {
  gitdir: string;
  gitProtocol: string | undefined;
  hooksDir: string;
  /** Names the push's verdict channel to the hook (see push-verdicts.ts). */
  hookEnv: Readonly<Record<string, string>>;
  limits: PushLimits;
  fsync: boolean;
  input: readonly [Readable, ...Duplex[]];
  output: Writable;
}): Promise<ReceivePackOutcome> {
  const args = [...receiveConfig(options.hooksDir, options.limits, options.fsync), 'receive-pack', '--stateless-rpc'];
  const child = launcher.launch('git', [...args, options.gitdir], {
    env: gitEnvironment({ ...protocolEnv(options.gitProtocol), ...options.hookEnv }),
  });
  let stopped: string | undefined;
  let answered = false;
  const stop = (reason: string): void => {
    if (stopped || child.exitCode !== null || child.signalCode !== null) return;
    stopped = reason;
    // git has written nothing yet while it reads the pack: the pusher hears the reason as a fatal remote error.
    if (!answered) options.output.write(pktLine(`\x03${reason}\n`));
    child.kill('SIGKILL');
    // git's own children (unpack-objects, index-pack) hold its input: they end once it ends.
    child.stdin.end();
  };
  const timer = setTimeout(
    () => stop(`the push took longer than ${options.limits.timeoutMs / 1000} s; nothing was changed`),
    options.limits.timeoutMs,
  );
  const stopOnDisconnect = (): void => {
    if (!options.output.writableFinished) stop('the connection closed');
  };
  options.output.once('close', stopOnDisconnect);
  child.stdout.once('data', () => (answered = true));
  const watch = watchPackHeader(options.limits.maxObjects, (count) =>
    stop(`the push holds ${count} objects; the limit is ${options.limits.maxObjects}; nothing was changed`),
  );
  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  let inputDone = false;
  const sendInput = pipeline([...options.input, watch, child.stdin])
    .catch(() => stop('the push could not be read'))
    .finally(() => (inputDone = true));
  // Left open: the caller ends it once the push has been followed, so that git's "done" means done.
  const sendOutput = pipeline(child.stdout, options.output, { end: false }).catch(() => stop('the connection closed'));
  try {
    const [exitCode] = await Promise.all([exited, sendOutput]);
    if (!inputDone) options.input[0].destroy();
    await sendInput;
    return {
      exitCode,
      stderr: child.stderr.slice(0, STDERR_KEEP_CHARS),
      ...(stopped ? { stopped } : {}),
    };
  } finally {
    clearTimeout(timer);
    options.output.off('close', stopOnDisconnect);
  }
}

function protocolEnv(gitProtocol: string | undefined): Record<string, string> {
  return gitProtocol && GIT_PROTOCOL_VALUE.test(gitProtocol) ? { GIT_PROTOCOL: gitProtocol } : {};
}
