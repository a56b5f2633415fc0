import { NotFoundError, PayloadTooLargeError } from '../../errors.js';
import { parseRepositoryFile } from '../layout/index.js';
import type { OrgState } from '../catalog/index.js';
import type { SavedState } from '../persist/index.js';
import { MissingObjectError, readBlobText, type Repo } from '../git/index.js';
import type { ArtifactMeta, ArtifactRecord, Author, LayoutMigration } from '../types.js';
import type { ObjectReader } from './version-readers.js';

/** Where a handle's state comes from: the organization's repository, and the branch it follows. */
export interface RepoPlace {
  readonly gitdir: string;
  readonly ref: string;
}

/** One organization as the store holds it: its repository and the state as of `state.head`. */
export interface OrgHandle {
  readonly orgId: string;
  readonly repo: Repo;
  state: OrgState;
  /** Where the state is saved; undefined when it cannot be (the store works without it). */
  saved?: SavedState | undefined;
  /** The move to the sharded layout this process made when it opened the organization. */
  layoutMigration?: LayoutMigration;
  /** The stamp of `main` (refs.ts) when `state` was last known to match `main`; null forces a read of the ref. */
  refStamp?: string | null;
}

/** What every write needs besides the organization. */
export interface WriteEnv {
  readonly committer: Author;
  readonly maxDocumentBytes: number;
  readonly bodies: BodyCache;
}

/** Recently read or written bodies by blob id; blobs never change, so entries never go stale. */
export class BodyCache {
  private readonly bodies = new Map<string, string>();
  constructor(private readonly capacity = 512) {}

  get(blob: string): string | undefined {
    const body = this.bodies.get(blob);
    if (body !== undefined) {
      this.bodies.delete(blob);
      this.bodies.set(blob, body);
    }
    return body;
  }

  set(blob: string, body: string): void {
    this.bodies.set(blob, body);
    if (this.bodies.size > this.capacity) this.bodies.delete(this.bodies.keys().next().value as string);
  }
}

export async function readRecord(handle: OrgHandle, id: string, bodies: BodyCache): Promise<ArtifactRecord> {
  const meta = handle.state.metas.get(id);
  const blob = handle.state.blobs.get(id);
  if (!meta || !blob) throw new NotFoundError('artifact');
  let body = bodies.get(blob);
  if (body === undefined) {
    const file = parseRepositoryFile(await readBlobText(handle.repo, blob), meta.path);
    if (file.kind !== 'artifact') throw new NotFoundError('artifact');
    body = file.body;
    bodies.set(blob, body);
  }
  return { ...meta, body };
}

/**
 * An artifact's body as of a commit, undefined when it did not exist then. Commits older than a
 * move of its file (the layout migration) have it at a former path. Read by native git, in its
 * own process: isomorphic-git inflates in JavaScript, on the event loop, and an old version of
 * a 1 MiB document held it for 90 ms.
 */
export async function readBodyAt(
  objects: ObjectReader,
  meta: ArtifactMeta,
  commit: string,
): Promise<string | undefined> {
  for (const path of [meta.path, ...(meta.formerPaths ?? [])]) {
    const data = await objects.read(`${commit}:${path}`).catch((error: unknown) => {
      if (error instanceof MissingObjectError) return undefined;
      throw error;
    });
    if (data === undefined) continue;
    const file = parseRepositoryFile(data.toString('utf8'), path);
    return file.kind === 'artifact' && file.frontmatter.id === meta.id ? file.body : undefined;
  }
  return undefined;
}

export function checkDocumentSize(body: string, env: WriteEnv): void {
  const bytes = Buffer.byteLength(body, 'utf8');
  if (bytes > env.maxDocumentBytes) throw new PayloadTooLargeError('the document', env.maxDocumentBytes, bytes);
}
