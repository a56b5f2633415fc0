import { execFile, type ChildProcess } from 'node:child_process';
import { constants, setPriority } from 'node:os';
import { cleanEnvironment } from './git-plumbing.js';

/** Below this many artifacts, walking a file's history is fast enough without the filters. */
const MIN_ARTIFACTS = 1_000;

interface Running {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
}

/**
 * Git's commit-graph with changed-path Bloom filters lets `git log -- <path>` skip the commits
 * that did not touch the path. A read answered from Git during a cold start (read-direct.ts)
 * walks its file's history back to where the file was added: on a 100,000-commit history, a
 * file added in the first commits takes seconds without the filters and a tenth of that with
 * them. Native git writes them in the background once a large organization is open, at the
 * lowest CPU priority so that requests go first; `--split` adds only the commits since the
 * last write. A failed write (an old git, another process holding the lock) changes nothing.
 */
export class CommitGraphs {
  readonly #running = new Map<string, Running>();
  #closed = false;

  refresh(gitdir: string, artifacts: number): void {
    if (this.#closed || artifacts < MIN_ARTIFACTS || this.#running.has(gitdir)) return;
    const args = ['--git-dir', gitdir, 'commit-graph', 'write', '--reachable', '--changed-paths', '--split'];
    let exited!: () => void;
    const running: Running = {
      child: execFile('git', args, { env: cleanEnvironment() }, () => {
        this.#running.delete(gitdir);
        exited();
      }),
      exited: new Promise<void>((resolve) => (exited = resolve)),
    };
    this.#running.set(gitdir, running);
    try {
      if (running.child.pid !== undefined) setPriority(running.child.pid, constants.priority.PRIORITY_LOW);
    } catch {
      // The process may already have ended; a write at normal priority is still correct.
    }
  }

  /** Stops the writes under way: git removes its lock, and the graph it had stays valid. */
  async close(): Promise<void> {
    this.#closed = true;
    const running = [...this.#running.values()];
    for (const { child } of running) child.kill();
    await Promise.all(running.map(({ exited }) => exited));
  }
}
