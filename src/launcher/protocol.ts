/** What the process and its launcher say to each other over the IPC channel (see launcher.ts). */
export type LauncherRequest =
  | {
      readonly op: 'spawn';
      readonly id: number;
      readonly command: string;
      readonly args: readonly string[];
      readonly env: Readonly<Record<string, string | undefined>>;
      readonly lowPriority: boolean;
      /** Where the launcher connects the process's stdin and stdout, and the token it sends first. */
      readonly socketPath: string;
      readonly token: string;
    }
  | { readonly op: 'kill'; readonly id: number; readonly signal: NodeJS.Signals };

export type LauncherEvent =
  | { readonly op: 'spawned'; readonly id: number; readonly pid: number }
  | { readonly op: 'failed'; readonly id: number; readonly message: string; readonly code?: string }
  | {
      readonly op: 'exit';
      readonly id: number;
      readonly code: number | null;
      readonly signal: NodeJS.Signals | null;
      readonly stderr: string;
    };

/** Stderr kept per process: enough for any error message git writes. */
export const STDERR_KEEP_CHARS = 64 * 1024;

/** How the directory of the service's socket is named under the temporary directory. */
export const SOCKET_DIR_PREFIX = 'specbase-launcher-';
