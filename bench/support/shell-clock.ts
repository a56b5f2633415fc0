import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';

/**
 * Commands timed by a shell that stays running, as an engineer's terminal starts `git push`:
 * bash (5.0 or newer, for `$EPOCHREALTIME`) reads each start and end time itself, around the
 * command alone. Timed from this process instead, each command would also carry this process's
 * own cost of starting a child, about 2 ms for a Node.js process of a few hundred megabytes
 * against under 1 ms for bash, which no git user pays.
 */
export class ShellClock {
  readonly #shell;
  readonly #answers: ((line: string) => void)[] = [];
  readonly #errors = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-clock-'));
  #runs = 0;

  constructor(cwd: string, env: NodeJS.ProcessEnv) {
    this.#shell = spawn('bash', ['--noprofile', '--norc'], {
      cwd,
      env: { ...env, LC_ALL: 'C' },
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    readline.createInterface({ input: this.#shell.stdout }).on('line', (line) => this.#answers.shift()?.(line));
  }

  /** Runs `command` with `args` (no shell expansion), in milliseconds; rejects with its stderr when it fails. */
  time(command: string, args: readonly string[]): Promise<number> {
    const errors = path.join(this.#errors, `${this.#runs++}.err`);
    const line = [command, ...args].map(quoted).join(' ');
    return new Promise((resolve, reject) => {
      this.#answers.push((answer) => {
        const [code, started, ended] = answer.split(' ');
        if (code === '0') resolve((Number(ended) - Number(started)) * 1000);
        else reject(new Error(`${line.slice(0, 200)} exited with ${code}: ${fs.readFileSync(errors, 'utf8').trim()}`));
      });
      this.#shell.stdin.write(
        `s=$EPOCHREALTIME; ${line} </dev/null >/dev/null 2>${quoted(errors)}; c=$?; e=$EPOCHREALTIME; echo "$c $s $e"\n`,
      );
    });
  }

  close(): void {
    this.#shell.stdin.end();
    fs.rmSync(this.#errors, { recursive: true, force: true });
  }
}

const quoted = (word: string) => `'${word.replace(/'/g, `'\\''`)}'`;
