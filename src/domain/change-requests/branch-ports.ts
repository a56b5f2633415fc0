import type { SearchHit } from '../../search/types.js';
import type { ArtifactSearch, ArtifactStore, BranchStore, DomainDeps } from '../ports.js';

/** Every method of ArtifactStore: each takes the organization first, which a branch maps to its key. */
const STORE_METHODS = [
  'view',
  'current',
  'meta',
  'read',
  'bodyAt',
  'children',
  'create',
  'update',
  'delete',
  'restoreDeleted',
  'deleted',
  'move',
  'moveFolder',
  'renameFolder',
  'deleteFolder',
  'importedPaths',
  'links',
  'history',
  'activity',
  'createFolder',
  'folders',
] as const satisfies readonly (keyof ArtifactStore)[];
// Compile-time: a method added to ArtifactStore and not listed above fails here.
const everyMethod: Exclude<keyof ArtifactStore, (typeof STORE_METHODS)[number]> extends never ? true : never = true;
void everyMethod;

/** The artifact store as change request `number`'s branch holds it: reads and writes alike. */
function branchStore(store: ArtifactStore, branches: BranchStore, number: number): ArtifactStore {
  const methods = STORE_METHODS.map((name) => {
    const method = store[name] as (orgId: string, ...rest: unknown[]) => unknown;
    return [
      name,
      (orgId: string, ...rest: unknown[]) => method.call(store, branches.changeRequestKey(orgId, number), ...rest),
    ];
  });
  return Object.fromEntries(methods) as unknown as ArtifactStore;
}

const PREVIEW_BEFORE = 60;
const PREVIEW_LENGTH = 200;

/** A one-line snippet from a little before the first match, never cut inside a word. */
function previewAt(text: string, at: number): string {
  const from = Math.max(0, text.lastIndexOf(' ', Math.max(0, at - PREVIEW_BEFORE)));
  const snippet = text
    .slice(from, from + PREVIEW_LENGTH)
    .replace(/\s+/g, ' ')
    .trim();
  return `${from > 0 ? '…' : ''}${snippet}${from + PREVIEW_LENGTH < text.length ? '…' : ''}`;
}

/**
 * Search as the branch reads: `main`'s index, less the artifacts the change request changed,
 * and those of them that match the query (by the index's own analysis of words) ranked
 * first, scored 1: on a proposal connection the assistant looks for what it just wrote.
 */
function branchSearch(deps: DomainDeps, branches: BranchStore, number: number): ArtifactSearch {
  return {
    async forOrg(orgId) {
      const index = await deps.search.forOrg(orgId);
      const key = branches.changeRequestKey(orgId, number);
      return {
        matchRanges: (query, text) => index.matchRanges(query, text),
        async search(query) {
          const { files } = await branches.changeRequestChanges(orgId, number);
          const changed = new Set(files.flatMap((file) => (file.artifactId ? [file.artifactId] : [])));
          const answer = await index.search({ ...query, limit: Math.min(50, query.limit + changed.size) });
          const proposed: SearchHit[] = [];
          for (const id of changed) {
            const meta = await deps.store.meta(key, id);
            if (!meta || !query.workspaceIds.has(meta.workspaceId)) continue;
            if (query.types && !query.types.includes(meta.type)) continue;
            const { body } = await deps.store.read(key, id);
            const text = `${meta.title}\n${body}`;
            const first = index.matchRanges(query.query, text)[0];
            if (!first) continue;
            const preview = previewAt(body, Math.max(0, first[0] - meta.title.length - 1));
            proposed.push({ id, type: meta.type, title: meta.title, workspaceId: meta.workspaceId, preview, score: 1 });
          }
          const hits = [...proposed, ...answer.hits.filter((hit) => !changed.has(hit.id))].slice(0, query.limit);
          return answer.notice ? { hits, notice: answer.notice } : { hits };
        },
      };
    },
  };
}

/**
 * The domain's ports as change request `number` sees them: its branch for every read and
 * write, search through `main`'s index with the branch's changes over it, and no webhook
 * events for artifacts (nothing on a change request is announced until it is merged).
 */
export function branchPorts(deps: DomainDeps, branches: BranchStore, number: number): DomainDeps {
  const { changes: _notAnnounced, ...rest } = deps;
  return { ...rest, store: branchStore(deps.store, branches, number), search: branchSearch(deps, branches, number) };
}
