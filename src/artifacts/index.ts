import {
  acceptanceCriterionTemplate,
  capabilityTemplate,
  coreEntityTemplate,
  featureTemplate,
  pageTemplate,
  productTemplate,
  requirementTemplate,
  userTypeTemplate,
} from './templates.js';
import { ARTIFACT_TYPES, type ArtifactType, type ArtifactTypeDef } from './types.js';

export * from './types.js';
export { aliasesLine, statedAliases } from './aliases-line.js';
export { headingTitle } from './heading-title.js';
export { slugify } from './slug.js';
export { requirementTypeLine, statedRequirementType, type StatedRequirementType } from './requirement-type-line.js';
export { productTemplate } from './templates.js';
export { wikiKey, wikiTitleOf } from './wiki-key.js';

/** The one table of artifact types: tools, paths, parents and templates all come from it. */
export const ARTIFACT_TYPE_TABLE: readonly ArtifactTypeDef[] = Object.freeze([
  {
    type: 'product',
    name: 'Product',
    pluralName: 'Products',
    singular: 'product',
    plural: 'products',
    idParam: 'productId',
    parent: null,
    pathSegment: '',
    creatable: false,
    editable: false,
    summary: "the organization's root artifact (vision, goals, high-level information)",
    template: productTemplate,
  },
  {
    type: 'capability',
    name: 'Capability',
    pluralName: 'Capabilities',
    singular: 'capability',
    plural: 'capabilities',
    idParam: 'capabilityId',
    parent: 'product',
    pathSegment: 'capabilities',
    creatable: true,
    editable: true,
    summary: 'a broad area of the product, grouping features',
    template: capabilityTemplate,
  },
  {
    type: 'feature',
    name: 'Feature',
    pluralName: 'Features',
    singular: 'feature',
    plural: 'features',
    idParam: 'featureId',
    parent: 'capability',
    pathSegment: 'features',
    creatable: true,
    editable: true,
    summary: 'a user-facing function within a capability',
    template: featureTemplate,
  },
  {
    type: 'requirement',
    name: 'Requirement',
    pluralName: 'Requirements',
    singular: 'requirement',
    plural: 'requirements',
    idParam: 'requirementId',
    parent: 'feature',
    pathSegment: 'requirements',
    creatable: true,
    editable: true,
    summary: 'a testable statement a feature must satisfy',
    template: requirementTemplate,
  },
  {
    type: 'acceptance_criterion',
    name: 'Acceptance Criterion',
    pluralName: 'Acceptance Criteria',
    singular: 'acceptance_criterion',
    plural: 'acceptance_criteria',
    idParam: 'acceptanceCriterionId',
    parent: 'requirement',
    pathSegment: 'acceptance-criteria',
    creatable: true,
    editable: true,
    summary: 'a Given-When-Then scenario that shows a requirement is met',
    template: acceptanceCriterionTemplate,
  },
  {
    type: 'user_type',
    name: 'User Type',
    pluralName: 'User Types',
    singular: 'user_type',
    plural: 'user_types',
    idParam: 'userTypeId',
    parent: 'product',
    pathSegment: 'user-types',
    creatable: true,
    editable: true,
    summary: 'a kind of user (persona or role) of the product',
    template: userTypeTemplate,
  },
  {
    type: 'core_entity',
    name: 'Core Entity',
    pluralName: 'Core Entities',
    singular: 'core_entity',
    plural: 'core_entities',
    idParam: 'coreEntityId',
    parent: 'product',
    pathSegment: 'core-entities',
    creatable: true,
    editable: true,
    summary: 'a central domain object: attributes, relations, lifecycle',
    template: coreEntityTemplate,
  },
  {
    type: 'page',
    name: 'Page',
    pluralName: 'Pages',
    singular: 'page',
    plural: 'pages',
    idParam: 'pageId',
    parent: 'folder',
    pathSegment: 'pages',
    creatable: true,
    editable: true,
    summary: 'a free-form document (notes, guides, decisions)',
    template: pageTemplate,
  },
] satisfies ArtifactTypeDef[]);

const BY_TYPE = new Map(ARTIFACT_TYPE_TABLE.map((def) => [def.type, def]));

export const artifactType = (type: ArtifactType): ArtifactTypeDef => {
  const def = BY_TYPE.get(type);
  if (!def) throw new Error(`unknown artifact type ${type}`);
  return def;
};

export const isArtifactType = (value: unknown): value is ArtifactType =>
  typeof value === 'string' && (ARTIFACT_TYPES as readonly string[]).includes(value);

/** Types whose parent is `type`, e.g. product -> capability, user_type, core_entity. */
export const childTypesOf = (type: ArtifactType): ArtifactTypeDef[] =>
  ARTIFACT_TYPE_TABLE.filter((def) => def.parent === type);

export const defaultTitle = (def: ArtifactTypeDef): string => `Untitled ${def.name.toLowerCase()}`;
