import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { artifactType } from '../artifacts/index.js';
import { ConflictError } from '../errors.js';
import { NO_FSYNC } from './atomic-fs.js';
import { headerSafe } from './commit-file.js';
import { gitPlumbing } from './git-plumbing.js';
import type { OrgHandle, WriteEnv } from './org-handle.js';
import type { OrgState } from './org-state.js';
import { shardedArtifactPath, shardedFolderPath } from './paths.js';
import { recordMove } from './record-move.js';
import { readMain, writeMain } from './refs.js';
import type { Repo } from './repo.js';
import type { LayoutMigration } from './types.js';

const LAYOUT_MIGRATION_TRAILER = 'Specbase-Migration';
const LAYOUT_V2 = 'layout-v2';

export interface LayoutMove {
  readonly id: string;
  readonly from: string;
  readonly to: string;
}

const NO_OBJECT = '0'.repeat(40);

/**
 * The files that are not where the sharded layout puts them, read from the catalog alone. Empty
 * for a repository already in layout v2, so this is the cheap check made at every open. A
 * target that is taken (two hand-named files that would meet in one shard) is left alone
 * rather than overwritten.
 */
export function layoutMoves(state: OrgState): LayoutMove[] {
  const moves: LayoutMove[] = [];
  const planned = new Set<string>();
  const plan = (id: string, from: string, to: string) => {
    if (to === from || planned.has(to) || state.idOfPath.has(to)) return;
    planned.add(to);
    moves.push({ id, from, to });
  };
  for (const meta of state.metas.values()) plan(meta.id, meta.path, shardedArtifactPath(artifactType(meta.type), meta.id, meta.path));
  for (const folder of state.folders.values()) plan(folder.id, folder.path, shardedFolderPath(folder.id, folder.name, folder.path));
  return moves;
}

const migrationMessage = (moved: number): string =>
  `Move the repository to the sharded layout (${LAYOUT_V2})

Specbase now keeps every artifact at <type dir>/<id[0:2]>/<id[2:4]>/<title-slug>-<id8>.md
(pages under pages/, their folder named in the frontmatter) and every folder record at
folders/<id[0:2]>/<id[2:4]>/<name-slug>-<id8>.md, so that an edit rewrites a few small
directories instead of a directory that lists every artifact of its type.

Each file keeps its name and its content: this commit changes no artifact, and
\`git log --follow -- <new path>\` and \`git blame\` show the history from before the move.

${LAYOUT_MIGRATION_TRAILER}: ${LAYOUT_V2}
Moved-Files: ${moved}
`;

/** Mode and blob of every file of `treeish`, by path (one native ls-tree, whatever the size). */
async function filesOf(gitdir: string, treeish: string): Promise<Map<string, { mode: string; oid: string }>> {
  const out = (await gitPlumbing(gitdir, ['ls-tree', '-r', '-z', '--full-tree', treeish])).toString('utf8');
  const files = new Map<string, { mode: string; oid: string }>();
  for (const record of out.split('\0')) {
    const match = /^(\d+) blob ([0-9a-f]{40})\t(.*)$/s.exec(record);
    if (match) files.set(match[3] as string, { mode: match[1] as string, oid: match[2] as string });
  }
  return files;
}

/**
 * Git's own durability for the objects it writes, as the store's is for ours: batch mode flushes
 * thousands of new trees with one sync instead of one per object.
 */
const fsyncOptions = (repo: Repo): string[] =>
  repo.durability === NO_FSYNC ? [] : ['-c', 'core.fsync=loose-object', '-c', 'core.fsyncMethod=batch'];

/** The tree of `head` with the moves applied, written by git from a temporary index. */
async function movedTree(repo: Repo, head: string, moves: readonly LayoutMove[]): Promise<string> {
  const { gitdir } = repo;
  const files = await filesOf(gitdir, head);
  const lines: string[] = [];
  for (const move of moves) {
    const file = files.get(move.from);
    if (!file) throw new ConflictError(`the layout migration found no file at ${move.from}; nothing was written`);
    lines.push(`0 ${NO_OBJECT}\t${move.from}`, `${file.mode} ${file.oid}\t${move.to}`);
  }
  const index = path.join(gitdir, 'specbase', 'layout-migration.index');
  await fsp.mkdir(path.dirname(index), { recursive: true });
  await fsp.rm(index, { force: true });
  const env = { GIT_INDEX_FILE: index };
  try {
    await gitPlumbing(gitdir, ['read-tree', head], { env });
    await gitPlumbing(gitdir, ['update-index', '-z', '--index-info'], { env, input: lines.map((l) => `${l}\0`).join('') });
    return (await gitPlumbing(gitdir, [...fsyncOptions(repo), 'write-tree'], { env })).toString('utf8').trim();
  } finally {
    await fsp.rm(index, { force: true });
  }
}

/**
 * Moves a repository written in the first, flat layout into the sharded one with ONE commit
 * authored by the service. Runs under the organization's lock with the state at `main`; the
 * objects are written first and the move of `main` is the commit point, so a crash leaves the
 * old layout (and unreferenced objects) or the new one. Idempotent: nothing to move, nothing
 * written. The catalog follows the moves in memory; every artifact keeps its id, history and
 * version (no artifact changed), and versions before the move are read at its former path.
 */
export async function migrateLayout(handle: OrgHandle, env: WriteEnv): Promise<LayoutMigration | undefined> {
  const { state, repo } = handle;
  const moves = layoutMoves(state);
  if (moves.length === 0 || !state.head) return undefined;
  const head = state.head;
  const tree = await movedTree(repo, head, moves);
  const service = headerSafe(env.committer);
  const when = `${Math.floor(Date.now() / 1000)} +0000`;
  const commit = (
    await gitPlumbing(repo.gitdir, [...fsyncOptions(repo), 'commit-tree', tree, '-p', head, '-F', '-'], {
      input: migrationMessage(moves.length),
      env: {
        GIT_AUTHOR_NAME: service.name, GIT_AUTHOR_EMAIL: service.email, GIT_AUTHOR_DATE: when,
        GIT_COMMITTER_NAME: service.name, GIT_COMMITTER_EMAIL: service.email, GIT_COMMITTER_DATE: when,
      },
    })
  ).toString('utf8').trim();
  if ((await readMain(repo.gitdir)) !== head) {
    throw new ConflictError('the repository moved on during the layout migration; nothing was written');
  }
  await writeMain(repo.gitdir, commit, repo.durability);
  for (const move of moves) recordMove(state, move.id, move.from, move.to);
  state.moveTo(commit, tree);
  return { commit, moved: moves.length };
}
