export const ARTIFACT_TYPES = [
  'product',
  'capability',
  'feature',
  'requirement',
  'acceptance_criterion',
  'user_type',
  'core_entity',
  'page',
] as const;
export type ArtifactType = (typeof ARTIFACT_TYPES)[number];

export const REQUIREMENT_TYPES = ['FUNCTIONAL', 'NON_FUNCTIONAL', 'CONSTRAINT', 'BUSINESS_RULE'] as const;
export type RequirementType = (typeof REQUIREMENT_TYPES)[number];
export const DEFAULT_REQUIREMENT_TYPE: RequirementType = 'FUNCTIONAL';

export const REQUIREMENT_TYPE_MEANING: Record<RequirementType, string> = {
  FUNCTIONAL: 'behaviors',
  NON_FUNCTIONAL: 'qualities',
  CONSTRAINT: 'limits',
  BUSINESS_RULE: 'policies',
};

export interface TemplateInput {
  readonly title: string;
  readonly requirementType?: RequirementType;
}

export interface ArtifactTypeDef {
  readonly type: ArtifactType;
  /** Display name, singular and plural: "Acceptance Criterion", "Acceptance Criteria". */
  readonly name: string;
  readonly pluralName: string;
  /** Tool-name stems: specbase_read_<singular>, specbase_list_<plural>. */
  readonly singular: string;
  readonly plural: string;
  /** The tool parameter that names an artifact of this type: "acceptanceCriterionId". */
  readonly idParam: string;
  /** Parent artifact type; 'folder' means an optional folder (pages); null for the root. */
  readonly parent: Exclude<ArtifactType, 'page'> | 'folder' | null;
  /** Directory in the organization's repository that holds this type's files. */
  readonly pathSegment: string;
  readonly creatable: boolean;
  readonly editable: boolean;
  /** One line for tool descriptions: what this type of artifact holds. */
  readonly summary: string;
  readonly template: (input: TemplateInput) => string;
}

export interface FolderRecordShape {
  readonly id: string;
  readonly name: string;
  readonly parentId: string | null;
  readonly workspaceId: string;
}
