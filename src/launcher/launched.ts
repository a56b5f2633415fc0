import { EventEmitter } from 'node:events';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';

/**
 * A process started by the launcher, used as a child process is: `stdin` and `stdout` are its
 * standard streams, 'exit' and 'close' come with its exit code and signal, 'error' when it could
 * not be started or its launcher was lost. Its stderr (the first 64 KiB) comes with the exit.
 * As for a child process, 'close' waits for stdout to be read to its end.
 */
export class LaunchedProcess extends EventEmitter {
  readonly stdin = new PassThrough();
  readonly stdout = new PassThrough();
  pid: number | undefined;
  exitCode: number | null = null;
  signalCode: NodeJS.Signals | null = null;
  stderr = '';
  #socket: Socket | undefined;
  #inputFlowing = false;
  #exited = false;
  #outputEnded = false;
  #settled = false;

  constructor(private readonly sendKill: (signal: NodeJS.Signals) => void) {
    super();
    // An error with nobody listening would end the service; it is reported through 'error' and 'close'.
    this.stdin.on('error', () => undefined);
  }

  kill(signal: NodeJS.Signals = 'SIGTERM'): void {
    if (!this.#settled) this.sendKill(signal);
  }

  /** The connection the process writes its stdout to and reads its stdin from. */
  connected(socket: Socket): void {
    this.#socket = socket;
    socket.on('error', () => undefined);
    socket.pipe(this.stdout);
    // Once the reader has had all of it: the connection's own end can come while stdout still holds data.
    this.stdout.once('end', () => {
      this.#outputEnded = true;
      this.#maybeClose();
    });
    this.#flowInput();
  }

  /** The process runs: its input may flow (before, the launcher could have read it). */
  spawned(pid: number): void {
    this.pid = pid;
    this.emit('spawn');
    this.#flowInput();
  }

  #flowInput(): void {
    if (this.#inputFlowing || !this.#socket || this.pid === undefined) return;
    this.#inputFlowing = true;
    this.stdin.pipe(this.#socket);
  }

  exited(code: number | null, signal: NodeJS.Signals | null, stderr: string): void {
    if (this.#settled) return;
    this.exitCode = code;
    this.signalCode = signal;
    this.stderr = stderr;
    this.#exited = true;
    this.emit('exit', code, signal);
    this.#maybeClose();
  }

  failed(error: Error): void {
    if (this.#settled) return;
    this.#settled = true;
    this.#socket?.destroy();
    this.stdout.end();
    this.emit('error', error);
    this.emit('close', null, null);
  }

  #maybeClose(): void {
    if (this.#settled || !this.#exited || !this.#outputEnded) return;
    this.#settled = true;
    this.#socket?.destroy();
    this.emit('close', this.exitCode, this.signalCode);
  }
}
