import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { artifactType } from '../../src/artifacts/index.js';
import { openServices } from '../../src/app/services.js';
import { loadConfig } from '../../src/config/index.js';
import type { Actor } from '../../src/domain/index.js';
import { artifactPath, renderArtifactFile } from '../../src/store/layout/index.js';
import type { IrCollection } from './ir-collection.js';
import type { OpenEngine } from './ir-engines.js';
import type { SeedArtifact } from '../../test/support/org-shape.js';
import { fastImport } from '../../test/support/seed.js';

const CREATED = '2024-01-01T00:00:00.000Z';

/** A page id per document, the same in every run and shaped like a random UUID. */
function pageId(collection: string, docId: string): string {
  const hex = createHash('sha1').update(`specbase-ir-${collection}-${docId}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Each document as a root page of the workspace, its file as the store writes it: body `# <title>\n\n<text>`. */
function pagesOf(collection: IrCollection, workspaceId: string): SeedArtifact[] {
  const def = artifactType('page');
  return collection.documents.map((doc) => {
    const id = pageId(collection.name, doc.id);
    const body = `# ${doc.title}\n\n${doc.text}\n`;
    const content = renderArtifactFile(
      { id, type: 'page', parent: null, workspace: workspaceId, title: doc.title, created: CREATED },
      body,
    );
    return {
      id,
      type: 'page',
      parentId: null,
      title: doc.title,
      body,
      path: artifactPath(def, id, doc.title),
      content,
    };
  });
}

const since = (start: number): number => performance.now() - start;

/**
 * Specbase's search as the `specbase_search` tool runs it: the services a server opens (search
 * indexes in their worker thread), an organization whose owner reads everything, and
 * SpecService.search, which the tool calls with the actor and its arguments. The pages are
 * written into the organization's repository by `git fast-import` (support/seed.ts), as the
 * MCP and cold-start benches seed theirs; the index is then built from the store on the first
 * search, as after a server start.
 */
export const openSpecbase: OpenEngine = async (collection) => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'specbase-bench-relevance-'));
  const services = await openServices(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', SPECBASE_DATA_DIR: dataDir, SPECBASE_LOG_LEVEL: 'silent' }),
  );
  try {
    const { control, store } = services;
    const user = await control.users.upsert({
      issuer: 'local',
      subject: 'relevance-bench',
      email: 'bench@example.com',
      name: 'Bench Owner',
    });
    const { org, defaultWorkspace } = await control.orgs.create({ name: `Relevance ${collection.name}` });
    await control.members.setOwner(org.id, user.id, true);
    const principal = await control.members.principal(org.id, user.id);
    if (!principal) throw new Error('the owner has no principal in its organization');
    const actor: Actor = { principal, client: 'relevance-bench' };

    const pages = pagesOf(collection, defaultWorkspace.id);
    const docIds = new Map(pages.map((page, i) => [page.id, collection.documents[i]!.id]));
    let start = performance.now();
    fastImport(store.gitdir(org.id), pages);
    const importMs = since(start);
    start = performance.now();
    const size = await (await services.search.forOrg(org.id)).size();
    const buildMs = since(start);
    if (size !== pages.length) throw new Error(`the index holds ${size} documents of ${pages.length}`);

    return {
      name: 'specbase',
      loadDetail: `${pages.length} pages: git fast-import ${importMs.toFixed(0)} ms, then store read + index build ${buildMs.toFixed(0)} ms`,
      async search(query, limit) {
        const { results } = await services.specs.search(actor, { query, limit });
        return results.map((result) => docIds.get(result.id) ?? result.id);
      },
      async close() {
        await services.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await services.close();
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
};
