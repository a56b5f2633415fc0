import { z } from 'zod';
import { ARTIFACT_TYPES, REQUIREMENT_TYPES, type ArtifactTypeDef } from '../artifacts/index.js';
import { DEFAULT_LIMITS } from '../config/index.js';

/**
 * Ids are plain strings on purpose: the specification answers a malformed id "artifact not
 * found", exactly like an unknown one. The description names the artifact and the tool that
 * hands out such ids (no `format: "uuid"`: the 29 of them did not fit tools/list's budget once
 * the MCP Apps metadata came, and the description already says what to pass).
 */
export const idParam = (what: string, source: string) => z.string().describe(`${what} id (${source})`);

/** The id parameter of an artifact type, pointing at the tool that lists such artifacts. */
export const artifactIdParam = (def: ArtifactTypeDef) =>
  idParam(def.name, def.parent === null ? `specbase_read_${def.singular}` : `specbase_list_${def.plural}`);

export const folderIdParam = () => idParam('Folder', 'specbase_list_folders');

export const modeParam = z.enum(['concise', 'full']).default('concise').describe('concise: ~500 chars');

export const limitParam = z.number().int().min(1).max(50).default(10).describe('Maximum results (1-50)');

export const artifactTypesParam = z.array(z.enum(ARTIFACT_TYPES)).describe('Only these types (default: all)');

export const requirementTypeParam = z
  .enum(REQUIREMENT_TYPES)
  .default('FUNCTIONAL')
  .describe('FUNCTIONAL: behaviors, NON_FUNCTIONAL: qualities, CONSTRAINT: limits, BUSINESS_RULE: policies');

export const titleParam = z.string().max(DEFAULT_LIMITS.maxTitleChars).describe('One line');

export const contentParam = z.string().describe('Whole markdown; its # heading is the title');

export const patchParam = z.string().describe('Unified diff');

export const baseVersionParam = z.string().describe('Version read; a conflict refuses the edit');

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

/**
 * Artifacts a read or a list names: `{id, type, title}` (a list's with `url` and `updatedAt`, a
 * link's with `deleted` when its target is). Declared as arrays only: their items' fields,
 * repeated in fifteen schemas, cost tools/list three kilobytes of its 25 (and saying "objects"
 * another six hundred bytes), and the answer's text names them for the model anyway. The domain's
 * typed views still build every item.
 */
const artifactRefs = z.array(z.unknown());
const links = { links: artifactRefs, referencedBy: artifactRefs };

/** What a read returns: the artifact, the ones its body links to and the ones linking to it. */
export const readWithLinksOutputFor = (type: string) => readOutputFor(type).extend(links);

export const listOutput = z.object({ items: artifactRefs });

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
  notice: z.string().optional(),
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

/** Each `{id, name, parentFolderId, pageCount}`, declared as objects as artifactRefs are. */
export const foldersOutput = z.object({ folders: z.array(z.looseObject({})) });
