import type { ArtifactType } from '../artifacts/index.js';
import type { Actor, ArtifactView } from '../domain/types.js';
import { NotFoundError } from '../errors.js';
import { protocolError, type McpHandler, type RequestContext, type ToolServerDeps } from './handler-types.js';
import { completeIds } from './resources.js';
import { artifactUri, RESOURCE_MIME_TYPE } from './resource-uri.js';

/** A prompt argument that names an artifact of one type; it completes from titles. */
interface ArtifactArgument {
  readonly name: string;
  readonly type: ArtifactType;
  readonly description: string;
}

interface PromptDef {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly artifact: ArtifactArgument;
  /** Free text the person adds (optional). */
  readonly note?: { readonly name: string; readonly description: string };
  /** The instruction, given the artifact read in full and the person's note. */
  instruction(artifact: ArtifactView, note: string | undefined, context: string): string;
}

const quoteNote = (note: string | undefined, label: string) => (note ? `\n\n${label}:\n${note}` : '');

/**
 * Prompts product people use as slash commands. Each names one artifact (its id completes by
 * title), embeds it, and says which tools make the result real.
 */
export const PROMPTS: readonly PromptDef[] = [
  {
    name: 'draft_feature',
    title: 'Draft a feature',
    description: 'Draft a new feature under a capability, with its requirements and their acceptance criteria',
    artifact: {
      name: 'capabilityId',
      type: 'capability',
      description: 'The capability the feature belongs to (type its title)',
    },
    note: { name: 'idea', description: 'What the feature should do, in a sentence or two' },
    instruction: (capability, idea, context) =>
      `Draft a new feature for the capability "${capability.title}" (id ${capability.id}), shown below with its current features.${quoteNote(idea, 'The idea')}\n\n` +
      'Write: a feature title and a short description of the user problem it solves; 3 to 7 requirements, each one testable ' +
      'sentence with its type (FUNCTIONAL, NON_FUNCTIONAL, CONSTRAINT or BUSINESS_RULE); for each requirement 1 to 3 acceptance ' +
      'criteria in Given/When/Then form. Check first that no existing feature already covers it.\n\n' +
      'Show the draft and ask for approval. Once approved, create it with specbase_create_feature (parentId: the capability id), ' +
      'then specbase_create_requirement under the feature and specbase_create_acceptance_criterion under each requirement.' +
      context,
  },
  {
    name: 'review_feature',
    title: "Review a feature's requirements",
    description: 'Review the requirements of a feature for gaps, contradictions and untestable wording',
    artifact: { name: 'featureId', type: 'feature', description: 'The feature to review (type its title)' },
    note: { name: 'focus', description: 'Anything to look at especially (optional)' },
    instruction: (feature, focus, context) =>
      `Review the requirements of the feature "${feature.title}" (id ${feature.id}), shown below with its requirements.${quoteNote(focus, 'Look especially at')}\n\n` +
      'List, each with the requirement ids it concerns: contradictions between requirements; gaps (behaviours the feature ' +
      'description implies that no requirement covers: errors, limits, permissions, empty and large inputs); requirements that ' +
      'cannot be tested as written; requirements without acceptance criteria. Propose a fix for each as a unified diff ' +
      'against the requirement (read it with specbase_read_requirement mode "full" first), but change nothing until asked; ' +
      'then apply the accepted fixes with specbase_edit_requirement.' +
      context,
  },
  {
    name: 'write_acceptance_criteria',
    title: 'Write acceptance criteria',
    description: 'Write the acceptance criteria of a requirement in Given/When/Then form',
    artifact: { name: 'requirementId', type: 'requirement', description: 'The requirement (type its title)' },
    instruction: (requirement, _note, context) =>
      `Write acceptance criteria for the requirement "${requirement.title}" (id ${requirement.id}), shown below with the criteria it already has.\n\n` +
      'Cover the main path, each boundary and each error the requirement implies, one criterion each, in Given/When/Then form ' +
      'with concrete values; do not repeat the existing criteria. Show them and ask for approval, then create each with ' +
      'specbase_create_acceptance_criterion (parentId: the requirement id).' +
      context,
  },
];

const CHILD_TYPE: Partial<Record<ArtifactType, ArtifactType>> = {
  capability: 'feature',
  feature: 'requirement',
  requirement: 'acceptance_criterion',
};

const listed = PROMPTS.map((prompt) => ({
  name: prompt.name,
  title: prompt.title,
  description: prompt.description,
  arguments: [
    { name: prompt.artifact.name, description: prompt.artifact.description, required: true },
    ...(prompt.note ? [{ name: prompt.note.name, description: prompt.note.description, required: false }] : []),
  ],
}));

const actorOf = async (request: RequestContext): Promise<Actor> => ({
  principal: await request.scope.principal(),
  ...(request.client ? { client: request.client } : {}),
});

/** The children already there (their titles), so that the model does not repeat them. */
async function childrenLine(
  deps: Pick<ToolServerDeps, 'specs'>,
  actor: Actor,
  artifact: ArtifactView,
): Promise<string> {
  const childType = CHILD_TYPE[artifact.type as ArtifactType];
  if (!childType) return '';
  const children = await deps.specs.listChildren(actor, childType, artifact.id);
  if (children.length === 0) return `\n\nIt has no ${childType.replace('_', ' ')} yet.`;
  return `\n\nWhat it already has (${childType.replace('_', ' ')}):\n${children.map((child) => `- ${child.title} (id ${child.id})`).join('\n')}`;
}

/** prompts/list, prompts/get, and the completion of their artifact arguments. */
export function promptHandlers(deps: Pick<ToolServerDeps, 'specs'>): McpHandler[] {
  return [
    { method: 'prompts/list', handle: async () => ({ prompts: listed }) },
    {
      method: 'prompts/get',
      async handle(params, request) {
        const prompt = PROMPTS.find((candidate) => candidate.name === params?.name);
        if (!prompt)
          throw protocolError(
            `unknown prompt ${JSON.stringify(String(params?.name ?? '').slice(0, 100))}; prompts/list names the prompts`,
          );
        const args = (params?.arguments ?? {}) as Record<string, unknown>;
        const id = args[prompt.artifact.name];
        if (typeof id !== 'string' || id.trim() === '')
          throw protocolError(`${prompt.name} needs ${prompt.artifact.name}: ${prompt.artifact.description}`);
        const actor = await actorOf(request);
        const artifact = await deps.specs
          .read(actor, prompt.artifact.type, id.trim(), 'full')
          .catch((error: unknown) => {
            if (error instanceof NotFoundError)
              throw protocolError(`${prompt.artifact.name}: ${prompt.artifact.type.replace('_', ' ')} not found`);
            throw error;
          });
        const note = prompt.note ? args[prompt.note.name] : undefined;
        const context = await childrenLine(deps, actor, artifact);
        return {
          description: prompt.description,
          messages: [
            {
              role: 'user',
              content: {
                type: 'text',
                text: prompt.instruction(
                  artifact,
                  typeof note === 'string' && note.trim() ? note.trim() : undefined,
                  context,
                ),
              },
            },
            {
              role: 'user',
              content: {
                type: 'resource',
                resource: {
                  uri: artifactUri(request.scope.orgId, artifact.id),
                  mimeType: RESOURCE_MIME_TYPE,
                  text: artifact.content,
                },
              },
            },
          ],
        };
      },
    },
  ];
}

/** completion/complete for a prompt's artifact argument: ids of that type by title. Undefined for other references. */
export async function completePrompt(
  deps: Pick<ToolServerDeps, 'specs'>,
  ref: { type?: unknown; name?: unknown },
  argument: { name?: unknown; value?: unknown },
  request: RequestContext,
): Promise<{ values: string[]; total: number; hasMore: boolean } | undefined> {
  if (ref.type !== 'ref/prompt') return undefined;
  const prompt = PROMPTS.find((candidate) => candidate.name === ref.name);
  if (!prompt || argument.name !== prompt.artifact.name) return { values: [], total: 0, hasMore: false };
  const items = (await deps.specs.listReadable(await actorOf(request))).filter(
    (item) => item.type === prompt.artifact.type,
  );
  return completeIds(items, String(argument.value ?? ''));
}
