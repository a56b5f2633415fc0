import { randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
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

/** Longest request a hook may send: ref lines and two paths. */
const MAX_REQUEST_BYTES = 64 * 1024;

export interface VerdictChannel {
  /** The environment git passes on to its hook, naming this channel. */
  readonly env: Readonly<Record<string, string>>;
  close(): Promise<void>;
}

/**
 * One push's line from its pre-receive hook to the service: a Unix socket in a directory of its
 * own that only this user can enter, and a secret the hook must present, so that nothing but the
 * git this push started can ask for (or receive) its verdict.
 */
export async function openVerdictChannel(judge: (request: HookRequest) => Promise<Verdict>): Promise<VerdictChannel> {
  const dir = await mkdtemp(path.join(tmpdir(), 'specbase-push-'));
  const socketPath = path.join(dir, 'hook.sock');
  const token = randomBytes(24).toString('hex');
  const server = createServer({ allowHalfOpen: true }, (socket) => answer(socket, token, judge));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => resolve());
  });
  return {
    env: { SPECBASE_PUSH_SOCKET: socketPath, SPECBASE_PUSH_TOKEN: token },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function answer(socket: Socket, token: string, judge: (request: HookRequest) => Promise<Verdict>): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const reply = (verdict: Verdict) => socket.end(JSON.stringify(verdict));
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk: Buffer) => {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) socket.destroy();
    else chunks.push(chunk);
  });
  socket.on('end', () => {
    const request = parseRequest(Buffer.concat(chunks).toString('utf8'), token);
    if (!request) return reply({ ok: false, message: 'Specbase could not check this push; nothing was changed\n' });
    judge(request).then(reply, () =>
      reply({ ok: false, message: 'Specbase could not check this push; nothing was changed\n' }),
    );
  });
}

function parseRequest(text: string, token: string): HookRequest | undefined {
  try {
    const body = JSON.parse(text) as { token?: unknown; updates?: unknown; objects?: Record<string, unknown> };
    const given = Buffer.from(typeof body.token === 'string' ? body.token : '');
    const expected = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    const objectDir = body.objects?.GIT_OBJECT_DIRECTORY;
    const alternates = body.objects?.GIT_ALTERNATE_OBJECT_DIRECTORIES;
    if (typeof body.updates !== 'string' || typeof objectDir !== 'string' || typeof alternates !== 'string')
      return undefined;
    return {
      updates: body.updates,
      objects: { GIT_OBJECT_DIRECTORY: objectDir, GIT_ALTERNATE_OBJECT_DIRECTORIES: alternates },
    };
  } catch {
    return undefined;
  }
}
