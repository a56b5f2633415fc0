import { describe, expect, it } from 'vitest';
import type { ArtifactType } from '../../../src/artifacts/index.js';
import { OrgState } from '../../../src/store/catalog/index.js';
import { parseRepositoryFile, renderArtifactFile } from '../../../src/store/layout/index.js';
import { BodyCache } from '../../../src/store/org/index.js';
import { checkChangedFile, type FileCheck } from '../../../src/store/receive/check-file.js';
import { checkPlacement, strandedChild } from '../../../src/store/receive/check-placement.js';
import { PushedCatalog } from '../../../src/store/receive/pushed-catalog.js';
import type { ArtifactMeta } from '../../../src/store/types.js';

const WS = 'ws-a';
const READ_ONLY_WS = 'ws-b';
const ids = {
  product: '00000000-0000-4000-8000-000000000001',
  capability: 'aa000000-0000-4000-8000-000000000002',
  feature: 'bb000000-0000-4000-8000-000000000003',
  requirement: 'cc000000-0000-4000-8000-000000000004',
  folder: 'dd000000-0000-4000-8000-000000000005',
  fresh: 'ee000000-0000-4000-8000-000000000006',
};
const author = { name: 'Ana', email: 'ana@example.com' };

function meta(type: ArtifactType, id: string, parentId: string | null, path: string): ArtifactMeta {
  return {
    id,
    type,
    parentId,
    workspaceId: WS,
    title: type,
    path,
    createdAt: '2026-01-01T00:00:00.000Z',
    version: 'c0',
    updatedAt: '2026-01-01T00:00:00.000Z',
    updatedBy: author,
  };
}

/** Product, capability, feature, requirement and a folder, all in WS. */
function seeded(): { check: FileCheck; state: OrgState } {
  const state = new OrgState();
  state.setArtifact(meta('product', ids.product, null, 'product.md'), 'b1');
  state.setArtifact(meta('capability', ids.capability, ids.product, 'capabilities/aa/00/capability-aa000000.md'), 'b2');
  state.setArtifact(meta('feature', ids.feature, ids.capability, 'features/bb/00/feature-bb000000.md'), 'b3');
  state.setArtifact(meta('requirement', ids.requirement, ids.feature, 'requirements/cc/00/req-cc000000.md'), 'b4');
  state.setFolder({
    id: ids.folder,
    name: 'Notes',
    parentId: null,
    workspaceId: WS,
    path: 'folders/dd/00/notes-dd000000.md',
    createdAt: '2026-01-01T00:00:00.000Z',
  });
  const check: FileCheck = {
    catalog: new PushedCatalog(state),
    rules: { workspaceIds: new Set([WS, READ_ONLY_WS]), mayWrite: (ws) => ws === WS },
    env: { committer: author, maxDocumentBytes: 2_000, bodies: new BodyCache() },
  };
  return { check, state };
}

const artifactFile = (
  over: {
    id: string;
    type: ArtifactType;
    parent: string | null;
    title?: string;
    workspace?: string;
    requirementType?: 'FUNCTIONAL';
  },
  body: string,
) =>
  renderArtifactFile(
    {
      id: over.id,
      type: over.type,
      parent: over.parent,
      workspace: over.workspace ?? WS,
      title: over.title ?? over.type,
      created: '2026-01-01T00:00:00.000Z',
      ...(over.requirementType ? { requirementType: over.requirementType } : {}),
    },
    body,
  );

const previousOf = (check: FileCheck, path: string, body = '# requirement\n') => ({
  entry: check.catalog.atPath(path)!,
  body,
});

describe('push rules: one changed file', () => {
  const reqPath = 'requirements/cc/00/req-cc000000.md';
  const reqFile = (body: string, over: Partial<Parameters<typeof artifactFile>[0]> = {}) =>
    parseRepositoryFile(
      artifactFile(
        {
          id: ids.requirement,
          type: 'requirement',
          parent: ids.feature,
          title: 'requirement',
          requirementType: 'FUNCTIONAL',
          ...over,
        },
        body,
      ),
      reqPath,
    );

  it('accepts an edit of an existing file that keeps its id, type, and title as its heading', () => {
    const { check } = seeded();
    const entry = checkChangedFile(check, reqPath, reqFile('# requirement\n\nMore.\n'), previousOf(check, reqPath));
    expect(entry).toEqual({
      id: ids.requirement,
      type: 'requirement',
      parentId: ids.feature,
      workspaceId: WS,
      path: reqPath,
    });
  });

  it('refuses a changed id, a changed type, and a title that is not the heading', () => {
    const { check } = seeded();
    const previous = previousOf(check, reqPath);
    expect(() => checkChangedFile(check, reqPath, reqFile('# requirement\n', { id: ids.fresh }), previous)).toThrow(
      `the id of an existing file never changes: it is ${ids.requirement}`,
    );
    const asFeature = parseRepositoryFile(
      artifactFile({ id: ids.requirement, type: 'feature', parent: ids.capability }, '# feature\n'),
      reqPath,
    );
    expect(() => checkChangedFile(check, reqPath, asFeature, previous)).toThrow(
      'the type of an existing file never changes',
    );
    expect(() => checkChangedFile(check, reqPath, reqFile('# Another title\n'), previous)).toThrow(
      `the frontmatter title "requirement" must be the document's first "# " heading, "Another title"`,
    );
  });

  it('keeps the size limit, the one character rule and the Requirement type line', () => {
    const { check } = seeded();
    const previous = previousOf(check, reqPath);
    expect(() => checkChangedFile(check, reqPath, reqFile(`# requirement\n${'x'.repeat(3_000)}\n`), previous)).toThrow(
      /the document is \d+ bytes; the limit is 2000 bytes/,
    );
    expect(() => checkChangedFile(check, reqPath, reqFile('# requirement\n\nbell \u0007 here\n'), previous)).toThrow(
      /line 3/,
    );
    expect(() =>
      checkChangedFile(check, reqPath, reqFile('# requirement\n\n**Requirement type:** non-functional\n'), previous),
    ).toThrow(/must match the document's \*\*Requirement type:\*\* line/);
  });

  it('puts a new file where the store would, under an id nobody has', () => {
    const { check } = seeded();
    const fresh = (path: string, id = ids.fresh) =>
      checkChangedFile(
        check,
        path,
        parseRepositoryFile(
          artifactFile({ id, type: 'feature', parent: ids.capability, title: 'New one' }, '# New one\n'),
          path,
        ),
        undefined,
      );
    expect(fresh('features/ee/00/anything-goes-ee000000.md').path).toBe('features/ee/00/anything-goes-ee000000.md');
    expect(() => fresh('features/new-one.md')).toThrow(
      'a new feature file goes in features/ee/00/ and is named <slug>-ee000000.md, for example features/ee/00/new-one-ee000000.md',
    );
    expect(() => fresh('features/bb/00/copy-bb000000.md', ids.feature)).toThrow(
      `the id ${ids.feature} is already used by features/bb/00/feature-bb000000.md`,
    );
  });

  it('refuses a renamed file: a path never changes', () => {
    const { check } = seeded();
    check.catalog.remove(check.catalog.atPath(reqPath)!);
    const moved = 'requirements/cc/00/renamed-cc000000.md';
    expect(() => checkChangedFile(check, moved, reqFile('# requirement\n'), undefined)).toThrow(
      `the file of ${ids.requirement} moved from ${reqPath}: a file's path never changes`,
    );
  });

  it('refuses workspaces the pusher may not write, and workspaces the organization does not have', () => {
    const { check } = seeded();
    const previous = previousOf(check, reqPath);
    expect(() =>
      checkChangedFile(check, reqPath, reqFile('# requirement\n', { workspace: READ_ONLY_WS }), previous),
    ).toThrow(`permission denied: your role in workspace ${READ_ONLY_WS} does not allow changes there`);
    expect(() =>
      checkChangedFile(check, reqPath, reqFile('# requirement\n', { workspace: 'elsewhere' }), previous),
    ).toThrow('workspace elsewhere is not a workspace of this organization');
  });
});

describe('push rules: where a file sits once its commit is laid over the catalog', () => {
  const entry = (over: Partial<Parameters<typeof checkPlacement>[1]>) => ({
    id: ids.fresh,
    type: 'feature' as const,
    parentId: ids.capability,
    workspaceId: WS,
    path: 'features/ee/00/x-ee000000.md',
    ...over,
  });

  it('wants a parent of the type the type belongs under, that is there, in the same workspace', () => {
    const { check } = seeded();
    expect(() => checkPlacement(check.catalog, entry({}))).not.toThrow();
    expect(() => checkPlacement(check.catalog, entry({ parentId: ids.requirement }))).toThrow(
      'a feature goes under a capability, not a requirement',
    );
    expect(() => checkPlacement(check.catalog, entry({ parentId: ids.fresh.replace('ee', 'ff') }))).toThrow(
      /names no capability/,
    );
    expect(() => checkPlacement(check.catalog, entry({ workspaceId: READ_ONLY_WS }))).toThrow(
      `a feature is in its parent's workspace ${WS}, not ${READ_ONLY_WS}`,
    );
    expect(() => checkPlacement(check.catalog, entry({ type: 'product', parentId: ids.capability }))).toThrow(
      'a product has no parent',
    );
  });

  it('refuses a folder inside itself', () => {
    const { check } = seeded();
    const folder = {
      id: ids.folder,
      type: 'folder' as const,
      parentId: ids.fresh,
      workspaceId: WS,
      path: 'folders/dd/00/notes-dd000000.md',
    };
    check.catalog.set({ ...folder, id: ids.fresh, parentId: ids.folder, path: 'folders/ee/00/sub-ee000000.md' });
    check.catalog.set(folder);
    expect(() => checkPlacement(check.catalog, folder)).toThrow(
      'a folder cannot be inside itself or a folder under it',
    );
  });

  it('refuses a deletion that leaves children behind', () => {
    const { check } = seeded();
    const capability = check.catalog.get(ids.capability)!;
    check.catalog.remove(capability);
    expect(strandedChild(check.catalog, capability, true)).toEqual({
      child: expect.objectContaining({ id: ids.feature }),
      rule: `its capability ${capability.path} is deleted: delete or move this feature in the same commit`,
    });
    const feature = check.catalog.get(ids.feature)!;
    check.catalog.remove(feature);
    const requirement = check.catalog.get(ids.requirement)!;
    check.catalog.remove(requirement);
    expect(strandedChild(check.catalog, capability, true)).toBeUndefined();
  });
});
