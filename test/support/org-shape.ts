import { createHash } from 'node:crypto';
import { artifactType, type ArtifactType } from '../../src/artifacts/index.js';
import { artifactPath, renderArtifactFile } from '../../src/store/layout/index.js';
import { generateCorpus } from './corpus.js';

/** One artifact of a seeded organization, with its file as the store itself would write it. */
export interface SeedArtifact {
  readonly id: string;
  readonly type: ArtifactType;
  readonly parentId: string | null;
  readonly title: string;
  readonly body: string;
  readonly path: string;
  readonly content: string;
}

/**
 * Shares of an organization by type, as a product tree grows: a few capabilities, features
 * under them, requirements under features, acceptance criteria (most of it) under requirements,
 * plus user types, core entities and pages. The 10,000-artifact organization had
 * about 7,400 acceptance criteria.
 */
const SHARE = {
  capability: 0.002,
  feature: 0.02,
  requirement: 0.2,
  user_type: 0.005,
  core_entity: 0.005,
  page: 0.03,
} as const;

const CREATED = '2024-01-01T00:00:00.000Z';

/**
 * Deterministic ids spread like random ones (a layout may shard directories by id prefix), so
 * that the same size always gives the same organization.
 */
function seedId(n: number): string {
  const hex = createHash('sha1').update(`specbase-bench-${n}`).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The whole organization of `total` artifacts (product included), in the default workspace. */
export function organizationArtifacts(total: number, workspaceId: string): SeedArtifact[] {
  const texts = generateCorpus(total);
  const out: SeedArtifact[] = [];
  const add = (type: ArtifactType, parentId: string | null): string => {
    const n = out.length;
    const text = texts[n]!;
    const id = seedId(n);
    // The store takes the title from the body's first heading; the corpus bodies open with one.
    const title = text.title;
    const path = artifactPath(artifactType(type), id, title);
    const content = renderArtifactFile(
      {
        id,
        type,
        parent: parentId,
        workspace: workspaceId,
        title,
        created: CREATED,
        ...(type === 'requirement' ? { requirementType: 'FUNCTIONAL' as const } : {}),
      },
      text.body,
    );
    out.push({ id, type, parentId, title, body: text.body, path, content });
    return id;
  };
  const count = (share: number) => Math.max(1, Math.round(total * share));
  const product = add('product', null);
  const capabilities = Array.from({ length: count(SHARE.capability) }, () => add('capability', product));
  const features = Array.from({ length: count(SHARE.feature) }, (_, i) =>
    add('feature', capabilities[i % capabilities.length]!),
  );
  const requirements = Array.from({ length: count(SHARE.requirement) }, (_, i) =>
    add('requirement', features[i % features.length]!),
  );
  for (let i = 0; i < count(SHARE.user_type); i++) add('user_type', product);
  for (let i = 0; i < count(SHARE.core_entity); i++) add('core_entity', product);
  for (let i = 0; i < count(SHARE.page); i++) add('page', null);
  for (let i = 0; out.length < total; i++) add('acceptance_criterion', requirements[i % requirements.length]!);
  return out;
}

/**
 * A short text that changes whenever the store's file layout or format does, so that seeded
 * repositories cached under an older layout are not reused.
 */
export function layoutFingerprint(): string {
  return organizationArtifacts(12, '00000000-0000-4000-8000-000000000000')
    .map((a) => `${a.path}\n${a.content}`)
    .join('\n');
}
