import { createInterface } from 'node:readline';

/** Reads a password from the terminal without echoing it; undefined when stdin is not a terminal. */
export async function readPassword(question = 'Password: '): Promise<string | undefined> {
  if (!process.stdin.isTTY) return undefined;
  const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: true });
  const muted = rl as unknown as { _writeToOutput: (s: string) => void };
  process.stderr.write(question);
  muted._writeToOutput = () => undefined;
  try {
    return await new Promise<string>((resolve) => rl.question('', resolve));
  } finally {
    rl.close();
    process.stderr.write('\n');
  }
}
