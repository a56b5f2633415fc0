import { z } from 'zod';
import { ARTIFACT_TYPES, REQUIREMENT_TYPES } from '../artifacts/index.js';

/**
 * Ids are plain strings on purpose: a malformed id must reach the domain and come back as
 * "artifact not found", exactly like an unknown one, instead of failing argument validation.
 * Their names (`featureId`) say what they are; tools/list stays lean without a description.
 */
export const idParam = () => z.string();

export const modeParam = z
  .enum(['concise', 'full'])
  .default('concise')
  .describe('concise: ~500 chars; full: all');

export const limitParam = z.number().int().min(1).max(50).default(10).describe('Maximum results (1-50)');

export const artifactTypesParam = z
  .array(z.enum(ARTIFACT_TYPES))
  .describe('Only these types (default: all)');

export const requirementTypeParam = z
  .enum(REQUIREMENT_TYPES)
  .default('FUNCTIONAL')
  .describe('FUNCTIONAL: behaviors, NON_FUNCTIONAL: qualities, CONSTRAINT: limits, BUSINESS_RULE: policies');

export const titleParam = z.string().min(1);

export const patchParam = z
  .string()
  .min(1)
  .describe('Unified diff');

export const baseVersionParam = z
  .string()
  .describe('Version you read: refuse if changed since and the patch conflicts');

/** Output schemas name types as plain strings: the enum would repeat in 23 schemas of tools/list. */
const artifactTypeValue = z.string();

export const artifactViewOutput = z.object({
  id: z.string(),
  type: artifactTypeValue,
  title: z.string(),
  parentId: z.string().nullable(),
  url: z.string(),
  version: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string(),
  truncated: z.boolean(),
  content: z.string(),
});

export const requirementViewOutput = artifactViewOutput.extend({ requirementType: z.string().optional() });

/** Only requirements carry a requirement type; other read shapes stay without it. */
export const readOutputFor = (type: string) => (type === 'requirement' ? requirementViewOutput : artifactViewOutput);

export const listOutput = z.object({
  items: z.array(
    z.object({ id: z.string(), type: artifactTypeValue, title: z.string(), url: z.string(), updatedAt: z.string() }),
  ),
});

export const searchOutput = z.object({
  results: z.array(
    z.object({
      id: z.string(),
      type: artifactTypeValue,
      title: z.string(),
      preview: z.string(),
      url: z.string(),
      score: z.number(),
    }),
  ),
});

export const editOutput = z.object({
  id: z.string(),
  version: z.string(),
  title: z.string(),
  url: z.string(),
  added: z.number().int(),
  removed: z.number().int(),
  diff: z.string(),
});

export const foldersOutput = z.object({
  folders: z.array(
    z.object({ id: z.string(), name: z.string(), parentFolderId: z.string().nullable(), pageCount: z.number().int() }),
  ),
});
