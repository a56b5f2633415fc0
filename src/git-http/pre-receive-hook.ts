import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * git's pre-receive hook, run with the pushed objects in quarantine: it hands the ref updates
 * and the quarantine's object directories to the service over the push's own socket and relays
 * the verdict. What it writes to stderr git shows the pusher as `remote:` lines; a non-zero exit
 * refuses every ref of the push. CommonJS, to start as fast as Node can.
 */
const HOOK_SCRIPT = `'use strict';
const net = require('node:net');
const input = [];
process.stdin.on('data', (chunk) => input.push(chunk));
process.stdin.on('end', () => {
  const answer = [];
  const socket = net.connect(process.env.SPECBASE_PUSH_SOCKET || '');
  socket.on('data', (chunk) => answer.push(chunk));
  socket.on('end', () => {
    let verdict = { ok: false, message: 'Specbase gave no verdict on this push; nothing was changed\\n' };
    try {
      verdict = JSON.parse(Buffer.concat(answer).toString('utf8'));
    } catch {}
    if (verdict.message) process.stderr.write(verdict.message);
    process.exitCode = verdict.ok ? 0 : 1;
  });
  socket.on('error', (error) => {
    process.stderr.write('Specbase could not check this push (' + error.message + '); nothing was changed\\n');
    process.exitCode = 1;
  });
  socket.end(
    JSON.stringify({
      token: process.env.SPECBASE_PUSH_TOKEN,
      updates: Buffer.concat(input).toString('utf8'),
      objects: {
        GIT_OBJECT_DIRECTORY: process.env.GIT_OBJECT_DIRECTORY || '',
        GIT_ALTERNATE_OBJECT_DIRECTORIES: process.env.GIT_ALTERNATE_OBJECT_DIRECTORIES || '',
      },
    }),
  );
});
`;

const quoted = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

const written = new Map<string, Promise<string>>();

/**
 * The hooks directory for `git -c core.hooksPath=…`, written once per process under `dir`: the
 * `pre-receive` hook runs this Node with the script above. Each file is written beside and
 * renamed into place, so a push never runs half a hook.
 */
export function preReceiveHooks(dir: string): Promise<string> {
  let hooks = written.get(dir);
  if (!hooks) {
    hooks = writeHooks(dir);
    hooks.catch(() => written.delete(dir));
    written.set(dir, hooks);
  }
  return hooks;
}

async function writeHooks(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const script = path.join(dir, 'pre-receive.cjs');
  await replace(script, HOOK_SCRIPT, 0o600);
  await replace(
    path.join(dir, 'pre-receive'),
    `#!/bin/sh\nexec ${quoted(process.execPath)} ${quoted(script)}\n`,
    0o700,
  );
  return dir;
}

async function replace(file: string, content: string, mode: number): Promise<void> {
  const staged = `${file}.${process.pid}.tmp`;
  await writeFile(staged, content, { mode });
  await chmod(staged, mode);
  await rename(staged, file);
}
