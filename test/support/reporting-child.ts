import { spawn } from 'node:child_process';

/**
 * A Node process of its own that works until its standard input closes, then prints one JSON
 * report and exits: the measuring helpers of the event-loop test, kept out of the process whose
 * loop and thread pool they would otherwise share with the server under test.
 */
export function startReportingChild<T>(what: string, nodeArgs: readonly string[]): { stop(): Promise<T> } {
  const child = spawn(process.execPath, nodeArgs, { stdio: ['pipe', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve, reject) => child.once('exit', resolve).once('error', reject));
  // Its failure is reported by stop(), not as unhandled in between.
  exited.catch(() => undefined);
  return {
    async stop() {
      child.stdin.end();
      const code = await exited;
      if (code !== 0) throw new Error(`${what} exited with ${code}`);
      return JSON.parse(output) as T;
    },
  };
}
