import { SpecbaseError } from '../errors.js';
import { parseRepositoryFile, type RepositoryFile } from './frontmatter.js';
import { parseCommitMessage } from './message.js';
import type { OrgState } from './org-state.js';
import { isoSeconds, recordArtifactChange } from './record-change.js';
import { readBlobText, readCommitObject, type CommitObject, type Repo } from './repo.js';
import { changedFiles, type FileChange } from './tree-diff.js';
import type { CommitResult } from './types.js';

/** A file another writer broke is kept at its last good state; reading it reports the problem. */
async function parsedOrUndefined(repo: Repo, oid: string, path: string): Promise<RepositoryFile | undefined> {
  try {
    return parseRepositoryFile(await readBlobText(repo, oid), path);
  } catch (error) {
    if (error instanceof SpecbaseError) return undefined;
    throw error;
  }
}

async function applyFileChange(
  repo: Repo,
  state: OrgState,
  oid: string,
  commit: CommitObject,
  change: FileChange,
): Promise<CommitResult | undefined> {
  const knownId = state.idOfPath.get(change.path);
  if (!change.after) {
    if (knownId) state.removeArtifact(knownId);
    if (knownId) state.removeFolder(knownId);
    return undefined;
  }
  const file = await parsedOrUndefined(repo, change.after, change.path);
  if (!file) {
    if (knownId && state.metas.has(knownId)) state.blobs.set(knownId, change.after);
    return undefined;
  }
  const fm = file.frontmatter;
  if (knownId && knownId !== fm.id) return undefined;
  if (file.kind === 'folder') {
    state.setFolder({ id: fm.id, name: file.frontmatter.name, parentId: fm.parent, workspaceId: fm.workspace, path: change.path, createdAt: fm.created });
    return undefined;
  }
  const previous = state.metas.get(fm.id);
  if (previous && previous.path !== change.path) return undefined;
  const beforeFile = previous && change.before ? await parsedOrUndefined(repo, change.before, change.path) : undefined;
  const message = parseCommitMessage(commit.message);
  const verb = message.trailers.get('Artifact-Id') === fm.id && message.verb ? message.verb : previous ? 'edit' : 'create';
  const client = message.trailers.get('Client');
  return recordArtifactChange(state, {
    commit: oid,
    parent: commit.parent[0] ?? null,
    blob: change.after,
    verb,
    id: fm.id,
    type: file.frontmatter.type,
    parentId: fm.parent,
    workspaceId: fm.workspace,
    title: file.frontmatter.title,
    ...(file.frontmatter.requirementType ? { requirementType: file.frontmatter.requirementType } : {}),
    path: change.path,
    createdAt: fm.created,
    author: commit.author,
    authoredAt: isoSeconds(commit.author.timestamp),
    message: commit.message,
    ...(client ? { client } : {}),
    before: beforeFile?.kind === 'artifact' ? beforeFile.body : '',
    body: file.body,
  });
}

/**
 * Brings `state` from its head to `target` along first parents, reading each commit's changed
 * files once. Returns 'diverged' when `target` does not descend from the state's head (history
 * was rewritten): the caller then starts from an empty state.
 */
export async function advanceTo(
  repo: Repo,
  state: OrgState,
  target: string,
  collect: boolean,
): Promise<CommitResult[] | 'diverged'> {
  const chain: { oid: string; commit: CommitObject }[] = [];
  let oid: string | undefined = target;
  while (oid && oid !== state.head) {
    const commit = await readCommitObject(repo, oid);
    chain.push({ oid, commit });
    oid = commit.parent[0];
  }
  if (!oid && state.head) return 'diverged';
  const results: CommitResult[] = [];
  for (const { oid: commitOid, commit } of chain.reverse()) {
    for (const change of await changedFiles(repo, state.rootTree, commit.tree)) {
      if (!change.path.endsWith('.md')) continue;
      const result = await applyFileChange(repo, state, commitOid, commit, change);
      if (result && collect) results.push(result);
    }
    state.moveTo(commitOid, commit.tree);
  }
  return results;
}
