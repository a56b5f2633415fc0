import type { Duplex, Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { gitEnvironment, launcher } from '../launcher/index.js';

export interface UploadPackOutcome {
  readonly exitCode: number | null;
  /** The first few kilobytes git wrote to stderr, for the audit log when it fails. */
  readonly stderr: string;
}

const STDERR_KEEP_CHARS = 4096;
/**
 * Only `main` (and HEAD) and change requests' branches `cr/*` are published: whatever else
 * appears under refs/ (a writer's temporary file beside the ref it is about to replace, a ref
 * made by hand) stays private. Whoever may clone reads every workspace, and so every change
 * request: `git diff main...cr/{n}` shows one as its reviewers see it.
 */
const PUBLISHED_REFS = [
  '-c',
  'uploadpack.hideRefs=refs/',
  '-c',
  'uploadpack.hideRefs=!refs/heads/main',
  '-c',
  'uploadpack.hideRefs=!refs/heads/cr/',
];
/** `version=2`, `version=2:object-format=sha1`: key=value pairs joined by colons, nothing else. */
const GIT_PROTOCOL_VALUE = /^[A-Za-z0-9._=:-]{1,256}$/;

/**
 * Runs the system `git upload-pack` for one stateless HTTP exchange, streaming `input` (the
 * request body) to it and its output to `output`. Nothing is buffered: packs flow through.
 */
export async function runUploadPack(options: {
  gitdir: string;
  advertiseRefs: boolean;
  gitProtocol: string | undefined;
  /** The request body and the transforms it passes through on its way to git, in order. */
  input?: readonly [Readable, ...Duplex[]];
  /** Sees the output on its way to `output`. */
  outputTap?: Duplex;
  output: Writable;
}): Promise<UploadPackOutcome> {
  const args = [...PUBLISHED_REFS, 'upload-pack', '--stateless-rpc', '--strict'];
  if (options.advertiseRefs) args.push('--advertise-refs');
  args.push(options.gitdir);
  // Started by the launcher, as every git of the service is: a fork of the service stalls it.
  const protocol: Record<string, string> = {};
  if (options.gitProtocol && GIT_PROTOCOL_VALUE.test(options.gitProtocol)) protocol.GIT_PROTOCOL = options.gitProtocol;
  const child = launcher.launch('git', args, { env: gitEnvironment(protocol) });
  const stopChild = (): void => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  };
  const stopOnDisconnect = (): void => {
    if (!options.output.writableFinished) stopChild();
  };
  options.output.once('close', stopOnDisconnect);

  const exited = new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve(code));
  });
  if (!options.input) child.stdin.end();
  let inputDone = !options.input;
  const sendInput = options.input
    ? pipeline([...options.input, child.stdin])
        .catch(stopChild)
        .finally(() => (inputDone = true))
    : Promise.resolve();
  const outputStages = options.outputTap ? [options.outputTap, options.output] : [options.output];
  const sendOutput = pipeline([child.stdout, ...outputStages]).catch(stopChild);

  try {
    const [exitCode] = await Promise.all([exited, sendOutput]);
    // git has answered and exited: a request body it left unread is failed (its connection
    // closed), not waited for while the client holds it open.
    if (!inputDone) options.input?.[0].destroy();
    await sendInput;
    return { exitCode, stderr: child.stderr.slice(0, STDERR_KEEP_CHARS) };
  } finally {
    options.output.off('close', stopOnDisconnect);
  }
}
