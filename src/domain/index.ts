import { canWrite } from '../access/index.js';
import { blameArtifact } from './blame.js';
import { createArtifact, createFolder } from './create.js';
import { deleteArtifact, deletePreview, listDeleted, restoreDeleted } from './delete.js';
import { deleteFolder, moveArtifact, moveFolder, renameFolder } from './move.js';
import { artifactMoveTargets, folderMoveTargets } from './move-targets.js';
import { editArtifact } from './edit.js';
import { importFiles } from './import.js';
import { exportFiles } from './export.js';
import { artifactHistory, bodyAt, changeOf, compareVersions } from './history.js';
import { activityPage, artifactHistoryPage } from './history-page.js';
import { listChildren, listFolders, listPages, listReadable } from './list.js';
import { DiffCache } from './diff-cache.js';
import type { DomainContext, DomainDeps } from './ports.js';
import { readAnyArtifact, readArtifact, readProduct } from './read.js';
import { receivePush } from './receive-push.js';
import { restoreVersion, revertChange } from './rollback.js';
import { saveBody } from './save.js';
import { Scope } from './scope.js';
import { searchArtifacts, searchHighlighted } from './search.js';
import { titlesAsOf } from './titles-as-of.js';
import { locateArtifact, readableTree } from './tree.js';
import type { Actor, SpecService } from './types.js';
import { boundedMemo } from '../bounded-memo.js';
import { branchPorts } from './change-requests/branch-ports.js';
import { ChangeRequests } from './change-requests/change-requests.js';
import { Proposals } from './change-requests/proposals.js';

export type * from './types.js';
export type { ArtifactSearch, ArtifactStore, BlameSource, DomainDeps } from './ports.js';
export { artifactUrl, orgUrl } from './urls.js';
export { CONFLICT_LABELS, editConflictOf } from './save.js';
export { conciseContent, CONCISE_LENGTH } from './views.js';
export { ChangeRequests, type ChangeRequestDeps } from './change-requests/change-requests.js';
export { Proposals, type ProposalTarget } from './change-requests/proposals.js';
export type * from './change-requests/views.js';

/** Change requests' services kept at once (each a SpecService over one branch, with its diff cache). */
const MAX_BRANCH_SERVICES = 64;

export interface ChangeRequestServices {
  readonly changeRequests: ChangeRequests;
  readonly proposals: Proposals;
  /** The SpecService of one change request's branch: reads and writes there. */
  readonly specsOn: (number: number) => SpecService;
}

/** Change requests over the same ports as `main`'s service; undefined when the store has no branches. */
export function createChangeRequestServices(ports: DomainDeps, main: SpecService): ChangeRequestServices | undefined {
  const { branches } = ports;
  if (!branches) return undefined;
  const changeRequests = new ChangeRequests({ ...ports, branches });
  // By number alone: each call brings its organization with its actor.
  const onBranch = boundedMemo(MAX_BRANCH_SERVICES, (number: number) =>
    createSpecService(branchPorts(ports, branches, number)),
  );
  return { changeRequests, proposals: new Proposals(main, ports.store, changeRequests, onBranch), specsOn: onBranch };
}

export function createSpecService(ports: DomainDeps): SpecService {
  const deps: DomainContext = { ...ports, diffs: new DiffCache() };
  const scope = (actor: Actor) => new Scope(deps, actor);
  return {
    search: (actor, input) => searchArtifacts(deps, scope(actor), input),
    searchHighlighted: (actor, input) => searchHighlighted(deps, scope(actor), input),
    readProduct: (actor, mode) => readProduct(deps, scope(actor), mode),
    read: (actor, type, id, mode) => readArtifact(deps, scope(actor), type, id, mode),
    readAny: (actor, id, mode) => readAnyArtifact(deps, scope(actor), id, mode),
    listReadable: (actor) => listReadable(deps, scope(actor)),
    listChildren: (actor, childType, parentId) => listChildren(deps, scope(actor), childType, parentId),
    listPages: (actor, folderId) => listPages(deps, scope(actor), folderId),
    listFolders: (actor, parentFolderId) => listFolders(deps, scope(actor), parentFolderId),
    create: (actor, type, input) => createArtifact(deps, scope(actor), type, input),
    createFolder: (actor, input) => createFolder(deps, scope(actor), input),
    edit: (actor, type, id, input) => editArtifact(deps, scope(actor), type, id, input),
    save: (actor, type, id, input) => saveBody(deps, scope(actor), type, id, input),
    tree: (actor, opening) => readableTree(deps, scope(actor), opening),
    locate: (actor, id) => locateArtifact(deps, scope(actor), id),
    history: (actor, id) => artifactHistory(deps, scope(actor), id),
    change: (actor, id, commit) => changeOf(deps, scope(actor), id, commit),
    compare: (actor, id, from, to) => compareVersions(deps, scope(actor), id, from, to),
    bodyAt: (actor, id, commit) => bodyAt(deps, scope(actor), id, commit),
    revert: (actor, id, commit) => revertChange(deps, scope(actor), id, commit),
    restore: (actor, id, commit) => restoreVersion(deps, scope(actor), id, commit),
    blame: (actor, id, earlier) => blameArtifact(deps, scope(actor), id, earlier),
    historyPage: (actor, id, query) => artifactHistoryPage(deps, scope(actor), id, query),
    activityPage: (actor, query) => activityPage(deps, scope(actor), query),
    deletePreview: (actor, id) => deletePreview(deps, scope(actor), id),
    delete: (actor, id, options) => deleteArtifact(deps, scope(actor), id, options),
    restoreDeleted: (actor, id) => restoreDeleted(deps, scope(actor), id),
    listDeleted: (actor) => listDeleted(deps, scope(actor)),
    titlesAsOf: (actor, queries) => titlesAsOf(deps, scope(actor), queries),
    move: (actor, id, to) => moveArtifact(deps, scope(actor), id, to),
    moveTargets: (actor, id) => artifactMoveTargets(deps, scope(actor), id),
    moveFolder: (actor, id, to) => moveFolder(deps, scope(actor), id, to),
    folderMoveTargets: (actor, id) => folderMoveTargets(deps, scope(actor), id),
    renameFolder: (actor, id, name) => renameFolder(deps, scope(actor), id, name),
    deleteFolder: (actor, id) => deleteFolder(deps, scope(actor), id),
    importFiles: (actor, sources, options) => importFiles(deps, scope(actor), sources, options),
    exportFiles: (actor, selection) => exportFiles(deps, scope(actor), selection),
    receivePush: (actor, push) => receivePush(deps, scope(actor), push),
    canWrite: async (actor, id) => {
      const meta = await scope(actor).readable(id);
      return canWrite(actor.principal, meta.workspaceId);
    },
  };
}
