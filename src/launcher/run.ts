import { launcher, type LaunchOptions } from './launcher.js';

export interface RunOptions extends LaunchOptions {
  /** Written to the process's stdin, which is then closed (closed at once without it). */
  readonly input?: string | Buffer;
  /** More output than this stops the process and fails the run. */
  readonly maxOutputBytes?: number;
  /** A process still running after this long is stopped and the run fails. */
  readonly timeoutMs?: number;
}

export type RunFailureReason = 'exit' | 'too-much-output' | 'timeout' | 'not-started';

/** Why a run failed, with what the process wrote to stderr. */
export class RunFailure extends Error {
  constructor(
    message: string,
    readonly reason: RunFailureReason,
    readonly exitCode: number | null,
    readonly stderr: string,
  ) {
    super(message);
  }
}

/** Runs a command through the launcher to its end, and answers its whole stdout (or a RunFailure). */
export function run(command: string, args: readonly string[], options: RunOptions): Promise<Buffer> {
  const child = launcher.launch(command, args, options);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let stopped: RunFailureReason | undefined;
    const stop = (reason: RunFailureReason) => {
      stopped ??= reason;
      child.kill('SIGKILL');
    };
    const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => stop('timeout'), options.timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (options.maxOutputBytes !== undefined && size > options.maxOutputBytes) stop('too-much-output');
      else if (!stopped) chunks.push(chunk);
    });
    child.once('error', (error: Error) => {
      clearTimeout(timer);
      reject(new RunFailure(`${command} could not be started: ${error.message}`, 'not-started', null, ''));
    });
    child.once('close', (code: number | null, signal: NodeJS.Signals | null) => {
      clearTimeout(timer);
      const stderr = child.stderr.trim();
      if (stopped) reject(new RunFailure(`${command} was stopped: ${stopped}`, stopped, code, stderr));
      else if (code !== 0)
        reject(
          new RunFailure(stderr || `${command} failed with ${signal ?? `exit code ${code}`}`, 'exit', code, stderr),
        );
      else resolve(Buffer.concat(chunks, size));
    });
    child.stdin.end(options.input);
  });
}
