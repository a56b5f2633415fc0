import { fork, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { moduleBeside } from '../module-beside.js';
import { LaunchedProcess } from './launched.js';
import { SOCKET_DIR_PREFIX, type LauncherEvent, type LauncherRequest } from './protocol.js';

export interface LaunchOptions {
  readonly env: NodeJS.ProcessEnv;
  /** Runs at the lowest CPU priority, for background work that requests should go before. */
  readonly lowPriority?: boolean;
}

const TOKEN_CHARS = 32;

/**
 * Starts child processes (git) from a small helper process. Node starts a child by forking the
 * process that asks, and a fork copies its page tables: in a service holding a large
 * organization (1 GB) that held the event loop for 25-50 ms a process on a 2-core machine,
 * and a cold start of a large organization starts several. The launcher is started early,
 * while the service is small, and starts every later process itself; their stdin and stdout
 * are a Unix socket connection to this process, so their output comes here directly.
 */
export class Launcher {
  #child: ChildProcess | undefined;
  #server: { server: Server; socketPath: string; dir: string } | undefined;
  readonly #launched = new Map<number, LaunchedProcess>();
  readonly #waitingConnection = new Map<string, LaunchedProcess>();
  #lastId = 0;

  /** Starts the launcher now, while this process is small (it is started on first use otherwise). */
  prepare(): void {
    this.#start();
  }

  launch(command: string, args: readonly string[], options: LaunchOptions): LaunchedProcess {
    const id = ++this.#lastId;
    const token = randomBytes(TOKEN_CHARS / 2).toString('hex');
    const launched = new LaunchedProcess((signal) => this.#send({ op: 'kill', id, signal }));
    const { child, socketPath } = this.#start();
    this.#launched.set(id, launched);
    this.#waitingConnection.set(token, launched);
    launched.once('close', () => {
      this.#launched.delete(id);
      this.#waitingConnection.delete(token);
      if (this.#launched.size === 0) this.#idle();
    });
    child.ref();
    child.channel?.ref();
    this.#send({
      op: 'spawn',
      id,
      command,
      args,
      env: options.env,
      lowPriority: options.lowPriority ?? false,
      socketPath,
      token,
    });
    return launched;
  }

  #start(): { child: ChildProcess; socketPath: string } {
    const server = this.#listen();
    if (this.#child) return { child: this.#child, socketPath: server.socketPath };
    const { url: entry, fromSources } = moduleBeside(import.meta.url, 'launcher.process');
    // The launcher removes the socket's directory when this process is gone, killed included.
    const child = fork(entry, [server.dir], {
      serialization: 'advanced',
      execArgv: fromSources ? ['--import', 'tsx'] : [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    child.on('message', (event: LauncherEvent) => this.#receive(event));
    const lost = (reason: string) => {
      if (this.#child !== child) return;
      this.#child = undefined;
      for (const launched of [...this.#launched.values()]) launched.failed(new Error(`the process launcher ${reason}`));
    };
    child.on('error', (error) => lost(`failed: ${error.message}`));
    child.on('exit', (code, signal) => lost(`stopped (${signal ?? `exit code ${code}`})`));
    this.#child = child;
    this.#idle();
    return { child, socketPath: server.socketPath };
  }

  /** Nothing running: the launcher and its server do not keep this process alive. */
  #idle(): void {
    this.#child?.unref();
    this.#child?.channel?.unref();
  }

  #listen(): { server: Server; socketPath: string; dir: string } {
    if (this.#server) return this.#server;
    // A directory only this user can enter: nobody else can connect in a process's place.
    const dir = mkdtempSync(path.join(tmpdir(), SOCKET_DIR_PREFIX));
    const socketPath = path.join(dir, 'socket');
    const server = createServer({ allowHalfOpen: true, pauseOnConnect: true }, (socket) => this.#accept(socket));
    server.listen(socketPath);
    server.unref();
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    this.#server = { server, socketPath, dir };
    return this.#server;
  }

  /** A connection for a launched process: its first line is the token that says which. */
  #accept(socket: Socket): void {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const newline = head.indexOf('\n');
      if (newline < 0) {
        if (head.length > TOKEN_CHARS) socket.destroy();
        return;
      }
      socket.off('data', onData);
      socket.pause();
      const token = head.slice(0, newline);
      const launched = this.#waitingConnection.get(token);
      if (!launched) {
        socket.destroy();
        return;
      }
      this.#waitingConnection.delete(token);
      const rest = chunk.subarray(chunk.length - (head.length - newline - 1));
      if (rest.length > 0) socket.unshift(rest);
      launched.connected(socket);
    };
    socket.on('error', () => undefined);
    socket.on('data', onData);
    socket.resume();
  }

  #receive(event: LauncherEvent): void {
    const launched = this.#launched.get(event.id);
    if (!launched) return;
    if (event.op === 'spawned') launched.spawned(event.pid);
    else if (event.op === 'exit') launched.exited(event.code, event.signal, event.stderr);
    else launched.failed(Object.assign(new Error(event.message), event.code ? { code: event.code } : {}));
  }

  #send(request: LauncherRequest): void {
    this.#child?.send(request);
  }
}

/** The process's launcher (one per process, like its worker threads). */
export const launcher = new Launcher();
