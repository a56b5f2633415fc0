import { gitEnvironment, launcher, type LaunchedProcess } from '../../launcher/index.js';

/** Below this many artifacts, walking a file's history is fast enough without the filters. */
const MIN_ARTIFACTS = 1_000;

interface Running {
  readonly child: LaunchedProcess;
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
    const child = launcher.launch('git', args, { env: gitEnvironment(), lowPriority: true });
    child.stdin.end();
    child.stdout.resume();
    child.on('error', () => undefined);
    const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
    this.#running.set(gitdir, { child, exited });
    void exited.then(() => this.#running.delete(gitdir));
  }

  /** Stops the writes under way: git removes its lock, and the graph it had stays valid. */
  async close(): Promise<void> {
    this.#closed = true;
    const running = [...this.#running.values()];
    for (const { child } of running) child.kill();
    await Promise.all(running.map(({ exited }) => exited));
  }
}
