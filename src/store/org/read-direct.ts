import { ARTIFACT_TYPE_TABLE } from '../../artifacts/index.js';
import { SpecbaseError } from '../../errors.js';
import {
  basenameOf,
  parseRepositoryFile,
  PRODUCT_PATH,
  shardDir,
  shortId,
  type ArtifactFrontmatter,
} from '../layout/index.js';
import { deletedFiles, gitPlumbing, pathHistory, readRef, type FileChange, type HistoryStep } from '../git/index.js';
import type { RepoPlace } from './org-handle.js';
import { artifactMeta, isoSeconds } from '../catalog/index.js';
import type { ArtifactMeta } from '../types.js';

/** An artifact as `main` holds it now, and the blob of its file. */
export interface DirectRecord {
  readonly main: string;
  readonly meta: ArtifactMeta;
  readonly body: string;
  readonly blob: string;
}

interface Located {
  readonly path: string;
  readonly blob: string;
  readonly frontmatter: ArtifactFrontmatter;
  readonly body: string;
}

/** A commit that moved the artifact's file, and from where. */
interface Move {
  readonly from: string;
  /** The content did not change: the move is not a change of the artifact. */
  readonly pure: boolean;
}

/**
 * Reads artifacts by id straight from Git, for the requests that arrive while an organization's
 * catalog is still being built (a first start without saved state can take seconds). The file
 * is found by the sharded layout, `<type dir>/<id[0:2]>/<id[2:4]>/*-<id8>.md`, and its catalog
 * facts are the ones the catalog would give: frontmatter of the file at `main`; version, time
 * and author of the last first-parent commit that changed it, following moves back (a move
 * alone changes no artifact, and leaves a former path). That costs the commits since the file
 * was created at its path, never the whole history.
 *
 * Only positive answers: undefined whenever this cannot be sure (no file at the sharded path, a
 * broken file, two files claiming the id), and the caller waits for the catalog instead; so an
 * artifact is never reported missing from here. Caches live as long as this reader (one cold start).
 */
export class DirectReader {
  readonly #records = new Map<string, Promise<DirectRecord | undefined>>();
  readonly #deletions = new Map<string, Promise<FileChange[]>>();

  private readonly gitdir: string;

  constructor(private readonly place: RepoPlace) {
    this.gitdir = place.gitdir;
  }

  async read(id: string): Promise<DirectRecord | undefined> {
    const main = readRef(this.gitdir, this.place.ref);
    if (!main) return undefined;
    const key = `${main}:${id}`;
    let record = this.#records.get(key);
    if (!record) {
      record = this.#read(main, id);
      this.#records.set(key, record);
    }
    return record;
  }

  async #read(main: string, id: string): Promise<DirectRecord | undefined> {
    const located = await this.#locate(main, id);
    if (!located) return undefined;
    const formerPaths: string[] = [];
    let path = located.path;
    let from = main;
    let version: HistoryStep | undefined;
    for (;;) {
      const steps = await pathHistory(this.gitdir, from, path, (step) => addedAt(step, path) !== undefined);
      const created = steps.at(-1);
      const added = created && addedAt(created, path);
      if (!created || !added) return undefined;
      const move = await this.#moveInto(created, added, id);
      if (!version && !(move?.pure && steps.length === 1)) version = steps[0];
      if (!move) break;
      formerPaths.push(move.from);
      path = move.from;
      from = created.commit.parent[0]!;
    }
    if (!version) return undefined;
    const fm = located.frontmatter;
    const meta = artifactMeta(
      {
        commit: version.oid,
        id: fm.id,
        type: fm.type,
        parentId: fm.parent,
        workspaceId: fm.workspace,
        title: fm.title,
        ...(fm.requirementType ? { requirementType: fm.requirementType } : {}),
        path: located.path,
        createdAt: fm.created,
        author: version.commit.author,
        authoredAt: isoSeconds(version.commit.author.timestamp),
      },
      formerPaths.length ? formerPaths : undefined,
    );
    return { main, meta, body: located.body, blob: located.blob };
  }

  /** The one file at `main` that holds artifact `id`, where the sharded layout puts it. */
  async #locate(main: string, id: string): Promise<Located | undefined> {
    const dirs = ARTIFACT_TYPE_TABLE.filter((def) => def.type !== 'product').map(
      (def) => `${shardDir(def.pathSegment, id)}/`,
    );
    const listing = (await gitPlumbing(this.gitdir, ['ls-tree', '-z', main, '--', ...dirs, PRODUCT_PATH])).toString(
      'utf8',
    );
    const files = listing.split('\0').flatMap((line) => {
      const tab = line.indexOf('\t');
      const [mode, type, blob] = line.slice(0, tab).split(' ');
      return tab > 0 && type === 'blob' && mode?.startsWith('100') ? [{ path: line.slice(tab + 1), blob: blob! }] : [];
    });
    const named = files.filter(
      (file) => file.path !== PRODUCT_PATH && basenameOf(file.path).endsWith(`-${shortId(id)}.md`),
    );
    const candidates = named.length > 0 ? named : files.filter((file) => file.path === PRODUCT_PATH);
    const parsed = (await Promise.all(candidates.map((file) => this.#artifact(file.path, file.blob)))).filter(
      (file): file is Located => file?.frontmatter.id === id,
    );
    return parsed.length === 1 ? parsed[0] : undefined;
  }

  async #artifact(path: string, blob: string): Promise<Located | undefined> {
    try {
      const file = parseRepositoryFile(
        (await gitPlumbing(this.gitdir, ['cat-file', 'blob', blob])).toString('utf8'),
        path,
      );
      return file.kind === 'artifact' ? { path, blob, frontmatter: file.frontmatter, body: file.body } : undefined;
    } catch (error) {
      if (error instanceof SpecbaseError) return undefined;
      throw error;
    }
  }

  /**
   * Whether the commit that added the file moved it from elsewhere, as the catalog sees a move
   * (advance.ts, record-move.ts): the same blob deleted in that commit (a pure move), or a file
   * of the same artifact deleted in it (moved and changed). The deleted files named for the
   * artifact are asked for first: the layout migration's commit deletes every file of the
   * organization (about 20 MB of output at 100,000 artifacts), and each was named for its
   * artifact. All of a commit's deletions are read only when none of those is the move.
   */
  async #moveInto(step: HistoryStep, added: FileChange, id: string): Promise<Move | undefined> {
    const parent = step.commit.parent[0];
    if (!parent) return undefined;
    const named = await deletedFiles(this.gitdir, parent, step.oid, `:(glob)**/*-${shortId(id)}.md`);
    return (
      (await this.#moveAmong(named, added, id)) ??
      (await this.#moveAmong(await this.#deletedIn(parent, step.oid), added, id))
    );
  }

  async #moveAmong(deletions: readonly FileChange[], added: FileChange, id: string): Promise<Move | undefined> {
    const deleted = deletions.filter((change) => change.path.endsWith('.md') && change.before);
    const same = deleted.find((change) => change.before === added.after);
    if (same) return { from: same.path, pure: true };
    for (const change of deleted.filter((c) => basenameOf(c.path).endsWith(`-${shortId(id)}.md`))) {
      if ((await this.#artifact(change.path, change.before!))?.frontmatter.id === id)
        return { from: change.path, pure: false };
    }
    return undefined;
  }

  #deletedIn(parent: string, commit: string): Promise<FileChange[]> {
    let deletions = this.#deletions.get(commit);
    if (!deletions) {
      deletions = deletedFiles(this.gitdir, parent, commit);
      this.#deletions.set(commit, deletions);
    }
    return deletions;
  }
}

/** The change of `step` that created the file at `path`, if it did. */
const addedAt = (step: HistoryStep, path: string): FileChange | undefined =>
  step.changes.find((change) => change.path === path && change.before === null && change.after !== null);
