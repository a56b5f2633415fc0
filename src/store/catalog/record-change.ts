import { headerSafe, linkTargets } from '../layout/index.js';
import type { ArtifactMeta, Author, ChangeVerb, CommitResult } from '../types.js';
import type { OrgState } from './org-state.js';

/** A commit that changed one artifact: the artifact's catalog facts, and the commit's. */
export interface ArtifactChange extends Omit<ArtifactMeta, 'version' | 'updatedAt' | 'updatedBy'> {
  readonly commit: string;
  readonly parent: string | null;
  readonly blob: string;
  readonly verb: ChangeVerb;
  readonly author: Author;
  readonly authoredAt: string;
  readonly message: string;
  readonly client?: string;
  /** Lines added and removed, as `git diff --stat` counts them. */
  readonly added: number;
  readonly removed: number;
  readonly body: string;
}

/** Brings catalog and history index up to a commit that changed one artifact. */
export function recordArtifactChange(state: OrgState, change: ArtifactChange): CommitResult {
  const { added, removed } = change;
  const author = headerSafe(change.author);
  const targets = linkTargets(change.body);
  const meta = {
    ...artifactMeta(change, state.metas.get(change.id)?.formerPaths),
    ...(targets.length > 0 ? { linkTargets: targets } : {}),
  };
  state.setArtifact(meta, change.blob);
  state.addEntry(
    {
      commit: change.commit,
      parent: change.parent,
      verb: change.verb,
      artifactId: change.id,
      artifactType: change.type,
      title: change.title,
      message: change.message.trimEnd(),
      author,
      authoredAt: change.authoredAt,
      ...(change.client ? { client: change.client } : {}),
      added,
      removed,
    },
    change.workspaceId,
  );
  return { commit: change.commit, artifact: { ...meta, body: change.body }, added, removed };
}

/**
 * An artifact's catalog entry as of the commit that last changed it: one definition for the
 * catalog and for reads answered from Git before the catalog is ready (read-direct.ts).
 */
export function artifactMeta(
  change: Omit<ArtifactChange, 'parent' | 'blob' | 'verb' | 'message' | 'added' | 'removed' | 'body'>,
  formerPaths: readonly string[] | undefined,
): ArtifactMeta {
  return {
    id: change.id,
    type: change.type,
    parentId: change.parentId,
    workspaceId: change.workspaceId,
    title: change.title,
    ...(change.requirementType ? { requirementType: change.requirementType } : {}),
    path: change.path,
    ...(formerPaths ? { formerPaths } : {}),
    createdAt: change.createdAt,
    version: change.commit,
    updatedAt: change.authoredAt,
    updatedBy: headerSafe(change.author),
  };
}

export const isoSeconds = (timestamp: number): string => new Date(timestamp * 1000).toISOString();

/** A commit that removed an artifact's file: who, when, and how many lines went with it. */
export interface ArtifactRemoval {
  readonly commit: string;
  readonly parent: string | null;
  readonly author: Author;
  readonly authoredAt: string;
  readonly message: string;
  readonly client?: string;
  readonly removed: number;
}

/**
 * Takes an artifact out of the catalog for a commit that removed its file, and records a
 * `delete` change in its history, which stays: a restore continues it.
 */
export function recordArtifactRemoval(state: OrgState, id: string, removal: ArtifactRemoval): CommitResult | undefined {
  const meta = state.metas.get(id);
  if (!meta) return undefined;
  state.removeArtifact(id);
  state.addEntry(
    {
      commit: removal.commit,
      parent: removal.parent,
      verb: 'delete',
      artifactId: id,
      artifactType: meta.type,
      title: meta.title,
      message: removal.message.trimEnd(),
      author: headerSafe(removal.author),
      authoredAt: removal.authoredAt,
      ...(removal.client ? { client: removal.client } : {}),
      added: 0,
      removed: removal.removed,
    },
    meta.workspaceId,
  );
  return { commit: removal.commit, artifact: { ...meta, body: '' }, added: 0, removed: removal.removed, deleted: true };
}
