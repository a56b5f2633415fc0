import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { constants, setPriority } from 'node:os';
import path from 'node:path';
import { SOCKET_DIR_PREFIX, STDERR_KEEP_CHARS, type LauncherEvent, type LauncherRequest } from './protocol.js';

/**
 * The launcher: a small process that starts the service's child processes for it (see
 * launcher.ts). Each process gets the connection the service listens on as its stdin and
 * stdout, so its output never passes through here; stderr is kept and reported with the exit.
 */
const tell = (event: LauncherEvent): void => {
  process.send?.(event);
};
const running = new Map<number, ReturnType<typeof spawn>>();
/** Kills asked for before the process had started: it is stopped as soon as it has. */
const killedEarly = new Map<number, NodeJS.Signals>();

function start(request: Extract<LauncherRequest, { op: 'spawn' }>): void {
  const socket = connect(request.socketPath);
  // Nothing is read here: what the service writes is for the process, once it runs.
  socket.pause();
  socket.on('error', (error) =>
    tell({ op: 'failed', id: request.id, message: `the launcher could not connect: ${error.message}` }),
  );
  socket.write(`${request.token}\n`, () => {
    const env = Object.fromEntries(
      Object.entries(request.env).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
    const child = spawn(request.command, [...request.args], { env, stdio: [socket, socket, 'pipe'] });
    // The process holds the connection now; this end of it would only keep it open.
    socket.destroy();
    let stderr = '';
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      if (stderr.length < STDERR_KEEP_CHARS) stderr += chunk.slice(0, STDERR_KEEP_CHARS - stderr.length);
    });
    child.on('error', (error: NodeJS.ErrnoException) => {
      running.delete(request.id);
      tell({ op: 'failed', id: request.id, message: error.message, ...(error.code ? { code: error.code } : {}) });
    });
    child.on('close', (code, signal) => {
      running.delete(request.id);
      tell({ op: 'exit', id: request.id, code, signal, stderr });
    });
    if (child.pid === undefined) return;
    running.set(request.id, child);
    const early = killedEarly.get(request.id);
    killedEarly.delete(request.id);
    if (early) child.kill(early);
    if (request.lowPriority) {
      try {
        setPriority(child.pid, constants.priority.PRIORITY_LOW);
      } catch {
        // The process may already have ended; at normal priority it is still correct.
      }
    }
    tell({ op: 'spawned', id: request.id, pid: child.pid });
  });
}

process.on('message', (request: LauncherRequest) => {
  if (request.op === 'spawn') start(request);
  else if (running.has(request.id)) running.get(request.id)!.kill(request.signal);
  else killedEarly.set(request.id, request.signal);
});
/** The directory of the service's socket (see launcher.ts), made by the service; nothing else is removed. */
const socketDir =
  process.argv[2] && path.basename(process.argv[2]).startsWith(SOCKET_DIR_PREFIX) ? process.argv[2] : undefined;

// The service is gone: the processes it started finish on their own, nothing more is started.
// Its own exit handler removes the socket's directory, which a killed service never runs.
process.on('disconnect', () => {
  if (socketDir) rmSync(socketDir, { recursive: true, force: true });
  process.exit(0);
});
