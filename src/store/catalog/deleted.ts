import { IMPORT_TRAILER, parseCommitMessage } from '../layout/index.js';
import type { DeletedArtifact } from '../types.js';
import type { OrgState } from './org-state.js';

/** Whether a delete change is the one its commit was made for (not a descendant deleted with it). */
const deletedByName = (entry: { readonly artifactId: string; readonly message: string }): boolean => {
  const named = parseCommitMessage(entry.message).trailers.get('Artifact-Id');
  return named === undefined || named === entry.artifactId;
};

/** Artifacts deleted and not restored since, newest first, each with how many went with it. */
export function deletedArtifacts(state: OrgState): DeletedArtifact[] {
  const byCommit = new Map<string, number>();
  for (const { entry } of state.deletes.values()) byCommit.set(entry.commit, (byCommit.get(entry.commit) ?? 0) + 1);
  return [...state.deletes.values()].reverse().map(({ entry, workspaceId }) => {
    const named = deletedByName(entry);
    return {
      id: entry.artifactId,
      type: entry.artifactType,
      title: entry.title,
      workspaceId,
      commit: entry.commit,
      deletedAt: entry.authoredAt,
      deletedBy: entry.author,
      ...(entry.client ? { client: entry.client } : {}),
      named,
      descendants: named ? (byCommit.get(entry.commit) ?? 1) - 1 : 0,
    };
  });
}

/** Files imported so far (the `Specbase-Import` trailer of their create) -> the artifact each became. */
export function importedPaths(state: OrgState): Map<string, string> {
  const imported = new Map<string, string>();
  for (const entry of state.entries) {
    if (entry.verb !== 'create' || !entry.message.includes(IMPORT_TRAILER)) continue;
    const path = parseCommitMessage(entry.message).trailers.get(IMPORT_TRAILER);
    if (path) imported.set(path, entry.artifactId);
  }
  return imported;
}
