import { randomBytes, timingSafeEqual } from 'node:crypto';
import { close, constants, open, write } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { run } from '../launcher/index.js';
import type { QuarantineObjects } from '../store/types.js';

/** What the pre-receive hook hands over: git's ref update lines, and where the pushed objects wait. */
export interface HookRequest {
  /** `<old> <new> <ref>` per line, as git gives them to the hook on stdin. */
  readonly updates: string;
  readonly objects: QuarantineObjects;
}

export interface Verdict {
  readonly ok: boolean;
  /** Shown to the pusher as `remote:` lines. */
  readonly message: string;
}

export interface VerdictChannel {
  /** The environment git passes on to its hook, naming this channel. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/** Longest request a hook may send: its secret, two paths and the ref lines. */
const MAX_REQUEST_BYTES = 64 * 1024;
const END_OF_REQUEST = '\n.\n';
const COULD_NOT_CHECK = 'Specbase could not check this push; nothing was changed';
const openFile = promisify(open);
const writeFile = promisify(write);
const closeFile = promisify(close);
/**
 * Opened for reading and writing, a FIFO never blocks its opener and never ends (this end is a
 * writer too): the request is read as a stream of its own, and the verdict waits in the FIFO
 * for the hook, which opens it before it asks.
 */
const FIFO_FLAGS = constants.O_RDWR | constants.O_NONBLOCK;

/**
 * One push's line from its pre-receive hook to the service: two FIFOs in a directory of their
 * own that only this user can enter, and a secret the hook must present, so that nothing but the
 * git this push started can ask for (or read) its verdict. FIFOs, not a socket, because a shell
 * hook can write and read them with no program of its own (see pre-receive-hook.ts).
 */
export async function openVerdictChannel(judge: (request: HookRequest) => Promise<Verdict>): Promise<VerdictChannel> {
  const dir = await mkdtemp(path.join(tmpdir(), 'specbase-push-'));
  const token = randomBytes(24).toString('hex');
  let requests: Socket | undefined;
  let verdictFd: number | undefined;
  try {
    await run('mkfifo', ['-m', '600', path.join(dir, 'request'), path.join(dir, 'verdict')], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    });
    verdictFd = await openFile(path.join(dir, 'verdict'), FIFO_FLAGS);
    requests = new Socket({
      fd: await openFile(path.join(dir, 'request'), FIFO_FLAGS),
      readable: true,
      writable: false,
    });
  } catch (error) {
    if (verdictFd !== undefined) await closeFile(verdictFd);
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const answer = async (verdict: Verdict) => {
    const fd = verdictFd;
    if (fd === undefined) return;
    verdictFd = undefined;
    // Small enough to fit the FIFO's buffer at once; closing this end lets the hook's read end.
    await writeFile(fd, `${verdict.ok ? 'ok' : 'refused'}\n${verdict.message}`).finally(() => closeFile(fd));
  };
  let received = '';
  requests.setEncoding('utf8');
  requests.on('error', () => undefined);
  requests.on('data', (chunk: string) => {
    if (received.endsWith(END_OF_REQUEST)) return;
    received += chunk;
    if (received.length > MAX_REQUEST_BYTES) {
      received = END_OF_REQUEST;
      void answer({ ok: false, message: `${COULD_NOT_CHECK}\n` }).catch(() => undefined);
    } else if (received.endsWith(END_OF_REQUEST)) {
      const request = parseRequest(received.slice(0, -END_OF_REQUEST.length + 1), token);
      const verdict = request
        ? judge(request).catch(() => ({ ok: false, message: `${COULD_NOT_CHECK}\n` }))
        : Promise.resolve({ ok: false, message: `${COULD_NOT_CHECK}\n` });
      void verdict.then(answer).catch(() => undefined);
    }
  });
  return {
    env: { SPECBASE_PUSH_DIR: dir, SPECBASE_PUSH_TOKEN: token },
    async close() {
      requests.destroy();
      if (verdictFd !== undefined) await closeFile(verdictFd).catch(() => undefined);
      verdictFd = undefined;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** `<secret>\n<object dir>\n<alternates>\n<ref lines>` (no directories without a quarantine), the secret checked in constant time. */
function parseRequest(text: string, token: string): HookRequest | undefined {
  const [given = '', objectDir = '', alternates = '', ...updates] = text.split('\n');
  const expected = Buffer.from(token);
  const presented = Buffer.from(given);
  if (presented.length !== expected.length || !timingSafeEqual(presented, expected)) return undefined;
  return {
    updates: updates.join('\n'),
    objects: {
      ...(objectDir ? { GIT_OBJECT_DIRECTORY: objectDir } : {}),
      ...(alternates ? { GIT_ALTERNATE_OBJECT_DIRECTORIES: alternates } : {}),
    },
  };
}
