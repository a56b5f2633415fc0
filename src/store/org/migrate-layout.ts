import { artifactType } from '../../artifacts/index.js';
import { ConflictError } from '../../errors.js';
import { gitPlumbing, NO_FSYNC, readRef, writeRef, type Repo } from '../git/index.js';
import { headerSafe, shardedArtifactPath, shardedFolderPath } from '../layout/index.js';
import { recordMove, type OrgState } from '../catalog/index.js';
import type { LayoutMigration } from '../types.js';
import type { OrgHandle, WriteEnv } from './org-handle.js';

const LAYOUT_MIGRATION_TRAILER = 'Specbase-Migration';
const LAYOUT_V2 = 'layout-v2';

export interface LayoutMove {
  readonly id: string;
  readonly from: string;
  readonly to: string;
}

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
  for (const meta of state.metas.values())
    plan(meta.id, meta.path, shardedArtifactPath(artifactType(meta.type), meta.id, meta.path));
  for (const folder of state.folders.values())
    plan(folder.id, folder.path, shardedFolderPath(folder.id, folder.name, folder.path));
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

/** Git's own durability for the pack it writes, as the store's is for our objects. */
const fsyncOptions = (repo: Repo): string[] => (repo.durability === NO_FSYNC ? [] : ['-c', 'core.fsync=objects']);

/** Where git fast-import leaves the migration commit until `main` moves to it; never published. */
const MIGRATION_REF = 'refs/specbase/layout-migration';

/** A path as git fast-import reads it: C-style quoted, so spaces and any byte are safe. */
const quoted = (path: string): string =>
  `"${path.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\u0000-\u001f\u007f]/g, (c) => `\\${c.charCodeAt(0).toString(8).padStart(3, '0')}`)}"`;

/**
 * The migration commit, written by git fast-import: renames inside one commit on top of `head`,
 * all new trees in one pack (a loose object per tree would be thousands of files to create and
 * sync). The commit waits on a private ref; a leftover from a killed run is overwritten.
 */
async function writeMigrationCommit(
  repo: Repo,
  head: string,
  moves: readonly LayoutMove[],
  committer: WriteEnv['committer'],
): Promise<string> {
  const service = headerSafe(committer);
  const who = `${service.name} <${service.email}> ${Math.floor(Date.now() / 1000)} +0000`;
  const message = migrationMessage(moves.length);
  const stream = [
    'feature done',
    `commit ${MIGRATION_REF}`,
    `author ${who}`,
    `committer ${who}`,
    `data ${Buffer.byteLength(message)}`,
    `${message}from ${head}`,
    ...moves.map((move) => `R ${quoted(move.from)} ${quoted(move.to)}`),
    'done',
    '',
  ].join('\n');
  await gitPlumbing(repo.gitdir, [...fsyncOptions(repo), 'fast-import', '--quiet', '--force'], { input: stream });
  return (await gitPlumbing(repo.gitdir, ['rev-parse', '--verify', `${MIGRATION_REF}^{commit}`]))
    .toString('utf8')
    .trim();
}

/**
 * Moves a repository written in the first, flat layout into the sharded one with ONE commit
 * authored by the service. Runs under the organization's lock with the state at `main`; the
 * objects are written first and the move of `main` is the commit point, so a crash leaves the
 * old layout (and an unpublished commit) or the new one. Idempotent: nothing to move, nothing
 * written. The catalog follows the moves in memory; every artifact keeps its id, history and
 * version (no artifact changed), and versions before the move are read at its former path.
 */
export async function migrateLayout(handle: OrgHandle, env: WriteEnv): Promise<LayoutMigration | undefined> {
  const { state, repo } = handle;
  const moves = layoutMoves(state);
  if (moves.length === 0 || !state.head) return undefined;
  const head = state.head;
  const commit = await writeMigrationCommit(repo, head, moves, env.committer);
  const tree = (await gitPlumbing(repo.gitdir, ['rev-parse', '--verify', `${commit}^{tree}`])).toString('utf8').trim();
  if (readRef(repo.gitdir, repo.ref) !== head) {
    throw new ConflictError('the repository moved on during the layout migration; nothing was written');
  }
  await writeRef(repo.gitdir, repo.ref, commit, repo.durability);
  // Only tidiness: the ref is never published, and the next migration would overwrite it.
  await gitPlumbing(repo.gitdir, ['update-ref', '-d', MIGRATION_REF]).catch(() => undefined);
  for (const move of moves) recordMove(state, move.id, move.from, move.to);
  state.moveTo(commit, tree);
  return { commit, moved: moves.length };
}
